"""Who played for a pair in each round: its lineups (a change of player from a round on).

A pair without lineups had its two players in every round; a pair with lineups has one
from round 1 and one from each round its players changed (sessions.models.PairLineup).
The pages credit each player with the boards of the rounds they played: a player's
history, an event ranked by players, the score card.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from sessions.models import Pair, PairLineup, Player

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
