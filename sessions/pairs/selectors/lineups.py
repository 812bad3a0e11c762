"""Who played for a pair in each round: its lineups (a change of player from a round on).

A pair without lineups had its two players in every round; a pair with lineups has one
from round 1 and one from each round its players changed (sessions.models.PairLineup).
The pages credit each player with the boards of the rounds they played: a player's
history, an event ranked by players, the score card.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sessions.models import Pair, PairLineup, Player
from sessions.scoring.session import PairPart, pair_part

from sessions.core.selectors.scored import ScoredSession

#: Who played for a pair from a round on: (from round, player 1, player 2).
Spell = tuple[int, Player | None, Player | None]


def pair_spells(pair: Pair) -> list[Spell]:
    """Who played for the pair, round by round: its lineups, or its players from round 1 (one query)."""
    return spells_of([pair], lineups_of([pair.pk]))[pair.pk]


def lineups_of(pair_ids: Iterable[int]) -> dict[int, list[PairLineup]]:
    """The lineups of these pairs, with their players, by pair, in order of round (one query)."""
    ids = list(pair_ids)
    found: dict[int, list[PairLineup]] = defaultdict(list)
    if not ids:
        return found
    for lineup in PairLineup.objects.filter(pair_id__in=ids).select_related("player_1", "player_2"):
        found[lineup.pair_id].append(lineup)
    return found


def spells_of(pairs: Iterable[Pair], lineups: dict[int, list[PairLineup]]) -> dict[int, list[Spell]]:
    """Each pair's spells (by pair id): its lineups if it has any, else its players from round 1."""
    return {
        pair.pk: [(lineup.from_round, lineup.player_1, lineup.player_2) for lineup in lineups.get(pair.pk, ())]
        or [(1, pair.player_1, pair.player_2)]
        for pair in pairs
    }


def players_in_round(spells: Sequence[Spell], round: int) -> tuple[Player | None, Player | None]:
    """Who played for the pair in ``round``, of its spells (in order of round)."""
    now = spells[0]
    for spell in spells:
        if spell[0] <= round:
            now = spell
    return now[1], now[2]


def rounds_of(spells: Sequence[Spell], rounds: int) -> list[tuple[range, Spell]]:
    """Each spell with the rounds it holds (until the next, or the session's last round)."""
    return [
        (range(spell[0], (spells[index + 1][0] if index + 1 < len(spells) else rounds + 1)), spell)
        for index, spell in enumerate(spells)
    ]


def rounds_text(held: range) -> str:
    """ "round 3", "rounds 1-2"."""
    last = held.stop - 1
    return f"round {held.start}" if last <= held.start else f"rounds {held.start}-{last}"


def seated_players(*, seating) -> dict[str, int | None]:
    """Who sits in each seat (N, S, E, W: player ids) at a table in the seating's round,
    changes of player included (one query)."""
    spells = spells_of((seating.ns_pair, seating.ew_pair), lineups_of((seating.ns_pair_id, seating.ew_pair_id)))
    north, south = players_in_round(spells[seating.ns_pair_id], seating.round)
    east, west = players_in_round(spells[seating.ew_pair_id], seating.round)
    return {seat: player.pk if player else None for seat, player in zip("NSEW", (north, south, east, west))}


def pairs_changes_of_player(*, pairs: Sequence[Pair], rounds: int) -> list[tuple[Pair, list[tuple[str, str]]]]:
    """The pairs whose players changed during the session, each with who played which
    rounds: [(pair, [("round 1", "Ann & Bob"), ("rounds 2-3", "Ann & Carl")])] (one query)."""
    spells = spells_of(pairs, lineups_of(pair.pk for pair in pairs))
    return [
        (pair, [(rounds_text(held), " & ".join(p.name for p in spell[1:] if p) or "no names")
                for held, spell in rounds_of(spells[pair.pk], rounds)])
        for pair in pairs if len(spells[pair.pk]) > 1
    ]


# --- crediting each player with the boards they played ---------------------------------------


@dataclass(frozen=True)
class PlayerShare:
    """What one player of a pair played in a session whose players changed."""

    player: Player
    partners: tuple[Player, ...]  # in order of round
    rounds: str  # "rounds 2-3", "round 1 and round 3"
    part: PairPart  # the pair's figures over the player's boards
    whole: bool  # every board the pair played: the pair's standing is the player's


def has_lineup(pair: Pair) -> bool:
    """The pair was loaded with its flag (scoring's pairs, ``with_lineup_flag``) and has lineups."""
    return bool(getattr(pair, "has_lineup", False))


def player_shares(scored: ScoredSession, pair: Pair, spells: Sequence[Spell]) -> dict[int, PlayerShare]:
    """Each player of the pair (by id) with the boards of the rounds they played, scored as
    the pair's standing adds them. A line whose round is unknown goes to the pair's own
    players (those of the most boards). No query."""
    key = next(key for key, candidate in scored.pairs.items() if candidate.pk == pair.pk)
    held = rounds_of(spells, scored.session.rounds)
    rounds_by_player: dict[int, set[int]] = defaultdict(set)
    partners: dict[int, list[Player]] = defaultdict(list)
    people: dict[int, Player] = {}
    for span, spell in held:
        for seat, other in ((1, 2), (2, 1)):
            player, partner = spell[seat], spell[other]
            if player is None:
                continue
            people[player.pk] = player
            rounds_by_player[player.pk].update(span)
            if partner is not None and partner not in partners[player.pk]:
                partners[player.pk].append(partner)
    lines = [
        (index, scored.line_rounds[index] if index < len(scored.line_rounds) else None)
        for index, line in enumerate(scored.result.lines)
        if key in (line.line.ns_pair, line.line.ew_pair)
    ]
    main = {pair.player_1_id, pair.player_2_id}
    shares = {}
    for pk, player in people.items():
        mine = [index for index, round in lines if (round in rounds_by_player[pk] if round else pk in main)]
        shares[pk] = PlayerShare(
            player=player, partners=tuple(partners[pk]), rounds=_rounds_list(sorted(rounds_by_player[pk])),
            part=pair_part(scored.result, key, mine, matchpoints=scored.is_matchpoints),
            whole=len(mine) == len(lines),
        )
    return shares


def _rounds_list(rounds: Sequence[int]) -> str:
    """[1, 2, 4] -> "rounds 1-2 and round 4"."""
    spans: list[range] = []
    for round in rounds:
        if spans and spans[-1].stop == round:
            spans[-1] = range(spans[-1].start, round + 1)
        else:
            spans.append(range(round, round + 1))
    return " and ".join(rounds_text(span) for span in spans)
