"""Writing the club's players and who plays in each pair."""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db.models import Q

from sessions.models import ChangeAction, Club, Pair, PairLineup, Player, ResultChange, Seating
from sessions.core.text import clean_name

from sessions.pairs.selectors.lineups import Spell, pair_spells, rounds_of, rounds_text

from sessions.core.services.unit_of_work import unit, write

#: Rows a bulk insert or update writes in one statement.
BATCH_SIZE = 1000

#: What a director typed for one seat: (name, national number); ("", "") leaves it empty.
TypedPlayer = tuple[str, str]


@write
def player_add(
    *, club: Club, name: str, national_number: str = "", visitor: bool = False, grade: Decimal | None = None,
    masterpoints_held: Decimal | None = None,
) -> Player:
    """Add a player to the club's list (a national number is unique in the club), with the
    national grade a handicap may come from (RULES 14) and the master points held that
    stratify (RULES 15)."""
    player = Player(club=club, name=clean_name(name), national_number=clean_name(national_number), visitor=visitor,
                    grade=grade, masterpoints_held=masterpoints_held)
    player.full_clean()
    player.save()
    unit().touch(clubs=[club])  # the club's player search finds the new name
    return player


@write
def player_find_or_add(*, club: Club, name: str, visitor: bool = False) -> Player:
    """The club's player of that name (any case), added to the list if new (as a visitor if
    ``visitor``: a guest named at a table, who is no member)."""
    cleaned = clean_name(name)
    existing = club.players.filter(name__iexact=cleaned).order_by("pk").first()
    return existing or player_add(club=club, name=cleaned, visitor=visitor)


def _check_club(pair: Pair, players: Sequence[Player | None]) -> None:
    club_id = pair.section.session.event.club_id
    for player in players:
        if player is not None and player.club_id != club_id:
            raise ValidationError(f"{player.name} is not a player of this club")


@write
def pair_set_players(*, pair: Pair, player_1: Player | None, player_2: Player | None) -> Pair:
    """Name the two players of a pair for the whole session (any change of player from a
    later round is gone); both must be on the session's club list."""
    unit().lock(sessions=[pair.section.session_id])
    _check_club(pair, (player_1, player_2))
    pair.player_1, pair.player_2 = player_1, player_2
    pair.full_clean()
    pair.save(update_fields=["player_1", "player_2"])
    PairLineup.objects.filter(pair=pair).delete()
    unit().touch(sessions=[pair.section.session_id])
    return pair


# --- a change of player from a round on ---------------------------------------------------

def _same_players(one: Spell, other: Spell) -> bool:
    """The same two people (in either seat: a pair that swapped seats has not changed)."""
    return Counter(p.pk if p else None for p in one[1:]) == Counter(p.pk if p else None for p in other[1:])


def _merged(spells: Sequence[Spell]) -> list[Spell]:
    """Consecutive spells of the same players as one (the earlier's seats kept)."""
    merged: list[Spell] = []
    for spell in spells:
        if not merged or not _same_players(merged[-1], spell):
            merged.append(spell)
    return merged


def _boards_by_round(pair: Pair, rounds: int) -> dict[int, int]:
    """The boards the pair plays in each round, from its seatings (a round each if it has none)."""
    played: Counter[int] = Counter()
    for round, boards in Seating.objects.filter(Q(ns_pair=pair) | Q(ew_pair=pair)).values_list("round", "boards"):
        played[round] += len(boards)
    return dict(played) if played else dict.fromkeys(range(1, rounds + 1), 1)


def main_players(spells: Sequence[Spell], boards: Mapping[int, int], rounds: int) -> tuple[Player | None, Player | None]:
    """The pair's players of the most boards, seat by seat (a tie: the earlier); if one
    person would fill both seats, the spell of the most boards."""
    by_spell = [sum(boards.get(round, 0) for round in held) for held, _ in rounds_of(spells, rounds)]
    seats = []
    for seat in (1, 2):
        counts: dict[int | None, int] = {}
        people: dict[int | None, Player | None] = {}
        for spell, played in zip(spells, by_spell):
            player = spell[seat]
            key = player.pk if player else None
            counts[key] = counts.get(key, 0) + played
            people.setdefault(key, player)
        seats.append(people[max(counts, key=lambda key: counts[key])])  # max keeps the first of a tie
    if seats[0] is not None and seats[1] is not None and seats[0].pk == seats[1].pk:
        best = max(range(len(spells)), key=lambda index: by_spell[index])
        return spells[best][1], spells[best][2]
    return seats[0], seats[1]


def spells_text(spells: Sequence[Spell], rounds: int) -> str:
    """ "Ann & Bob", or "rounds 1-2 Ann & Bob; round 3 Ann & Carl"."""
    def names(spell: Spell) -> str:
        return " & ".join(player.name for player in spell[1:] if player) or "no names"

    if len(spells) == 1:
        return names(spells[0])
    return "; ".join(f"{rounds_text(held)} {names(spell)}" for held, spell in rounds_of(spells, rounds))


@write
def pair_change_players(
    *, pair: Pair, player_1: Player | None, player_2: Player | None, from_round: int = 1,
    by: AbstractBaseUser | None = None, via_table: int | None = None,
) -> PairPlayersChange:
    """The pair's players from ``from_round`` on (a substitute, or the player coming
    back); the earlier rounds keep whoever played them. From round 1: the whole session.

    The rounds' players are kept as the pair's lineups; the pair's own ``player_1`` and
    ``player_2`` become those of the most boards, whom the exports name. A change after
    round 1 goes into the change log, with every round's players.
    """
    session = pair.section.session
    unit().lock(sessions=[session])
    if not 1 <= from_round <= session.rounds:
        raise ValidationError(f"the session has rounds 1 to {session.rounds}, not {from_round}")
    if player_1 is not None and player_2 is not None and player_1.pk == player_2.pk:
        raise ValidationError(f"{player_1.name} cannot be both players of pair {pair.label}")
    _check_club(pair, (player_1, player_2))
    before = pair_spells(pair)
    names_before = pair.names
    if from_round == 1:  # the whole session: the seats as given (a swap of seats is saved)
        spells: list[Spell] = [(1, player_1, player_2)]
        unchanged = len(before) == 1 and (before[0][1], before[0][2]) == (player_1, player_2)
    else:
        spells = _merged([spell for spell in before if spell[0] < from_round] + [(from_round, player_1, player_2)])
        unchanged = len(spells) == len(before) and all(
            one[0] == other[0] and _same_players(one, other) for one, other in zip(spells, before)
        )
    if unchanged:
        return PairPlayersChange(pair=pair, before=names_before, after=names_before, changed=False)
    if len(spells) == 1:
        pair_set_players(pair=pair, player_1=spells[0][1], player_2=spells[0][2])
    else:
        pair.player_1, pair.player_2 = main_players(spells, _boards_by_round(pair, session.rounds), session.rounds)
        pair.full_clean()
        pair.save(update_fields=["player_1", "player_2"])
        PairLineup.objects.filter(pair=pair).delete()
        lineups = [PairLineup(pair=pair, from_round=r, player_1=p1, player_2=p2) for r, p1, p2 in spells]
        for lineup in lineups:
            lineup.full_clean(exclude=["pair"], validate_unique=False)
        PairLineup.objects.bulk_create(lineups)
    if len(before) > 1 or len(spells) > 1:
        change = ResultChange(
            session=session, action=ChangeAction.PLAYERS, subject=f"pair {pair.label}",
            before_text=spells_text(before, session.rounds)[:200], after_text=spells_text(spells, session.rounds)[:200],
            changed_by=by, via_table=via_table,
        )
        change.full_clean(exclude=["session", "changed_by"])
        change.save()
    unit().touch(sessions=[session], by=by)
    return PairPlayersChange(pair=pair, before=names_before, after=pair.names, changed=True)


@dataclass(frozen=True)
class PairPlayersChange:
    """What a renaming did: the pair, and its players' names before and after."""

    pair: Pair
    before: str
    after: str
    changed: bool  # other players now (a namesake counts, though the names read the same)


# --- finding a typed player on the club's list: one rule, for entry and for imports --------


class _ClubList:
    """Where the rule looks: the club's player with a national number, or the first
    (oldest) with a name, in any case (only one without a number, if ``unnumbered``)."""

    def numbered(self, number: str) -> Player | None:
        raise NotImplementedError

    def named(self, name: str, *, unnumbered: bool) -> Player | None:
        raise NotImplementedError


class _ClubQueries(_ClubList):
    """The list in the database, one query a look-up (for one player typed)."""

    def __init__(self, club: Club) -> None:
        self.club = club

    def numbered(self, number: str) -> Player | None:
        return self.club.players.filter(national_number=number).first()

    def named(self, name: str, *, unnumbered: bool) -> Player | None:
        players = self.club.players.filter(name__iexact=name)
        if unnumbered:
            players = players.filter(national_number="")
        return players.order_by("pk").first()


def _match(players: _ClubList, name: str, number: str) -> tuple[Player | None, bool]:
    """The rule: (the club's player typed as ``name`` and ``number``, or None for a new
    one; whether ``number`` is to be recorded on that player).

    With a number: the player who has it (whatever the name: the caller judges), else
    the oldest namesake without a number (the number is then theirs), else a new player.
    Without: the oldest namesake, else a new player. ``name`` is cleaned, not empty.
    """
    if not number:
        return players.named(name, unnumbered=False), False
    owner = players.numbered(number)
    if owner is not None:
        return owner, False
    unnumbered = players.named(name, unnumbered=True)
    return unnumbered, unnumbered is not None


@write
def player_find_or_add_numbered(*, club: Club, name: str, national_number: str = "") -> Player | None:
    """The player a director typed: by national number if given, else by name; new ones added.

    A number typed for a known name without one is recorded on that player; a number
    that is a player of another name is refused. An empty name is no player (None).
    """
    cleaned, number = clean_name(name), clean_name(national_number)
    if not cleaned:
        if number:
            raise ValidationError(f"national number {number} needs a name")
        return None
    found, record = _match(_ClubQueries(club), cleaned, number)
    if found is None:
        return player_add(club=club, name=cleaned, national_number=number)
    if number and not record and found.name.casefold() != cleaned.casefold():
        raise ValidationError(f"national number {number} is {found.name}'s, not {cleaned}'s")
    if record:
        found.national_number = number
        found.full_clean()
        unit().touch_players([found])  # the pages that name the player, locked before the player's row
        found.save(update_fields=["national_number"])
    return found


class _ClubListRead(_ClubList):
    """The list read once (one query), and kept up to date with the players the bulk
    lookup adds or numbers, so a player typed twice is found the second time."""

    def __init__(self, club: Club) -> None:
        self.by_number: dict[str, Player] = {}
        self.by_name: dict[str, Player] = {}
        self.unnumbered: dict[str, deque[Player]] = {}  # by name, oldest first
        for player in club.players.order_by("pk"):
            self.add(player)

    def numbered(self, number: str) -> Player | None:
        return self.by_number.get(number)

    def named(self, name: str, *, unnumbered: bool) -> Player | None:
        if unnumbered:
            waiting = self.unnumbered.get(name.casefold())
            return waiting[0] if waiting else None
        return self.by_name.get(name.casefold())

    def add(self, player: Player) -> None:
        name = player.name.casefold()
        self.by_name.setdefault(name, player)
        if player.national_number:
            self.by_number.setdefault(player.national_number, player)
        else:
            self.unnumbered.setdefault(name, deque()).append(player)

    def number(self, player: Player, number: str) -> None:
        """Record ``number`` on ``player``, the oldest of its name without one."""
        self.unnumbered[player.name.casefold()].popleft()
        player.national_number = number
        self.by_number[number] = player


@write(savepoint=False)
def players_find_or_add(*, club: Club, typed: Sequence[TypedPlayer]) -> list[Player | None]:
    """Many typed players (name, national number) at once, by the rule entry uses
    (player_find_or_add_numbered), in a few queries whatever their number: the club's
    list read once, the new players added in one bulk insert, the numbers to record
    written in one bulk update. For imports: a number whose player has another name is
    that player (programs spell names their own way: "J. Smith", "Smith, John").

    One Player object per player: a player typed twice is the same object both times.
    An empty name is no player (None).
    """
    players = _ClubListRead(club)
    found: list[Player | None] = []
    added: list[Player] = []
    numbered: dict[int, Player] = {}
    for name, national_number in typed:
        cleaned, number = clean_name(name), clean_name(national_number)
        if not cleaned:
            found.append(None)
            continue
        player, record = _match(players, cleaned, number)
        if player is None:
            player = Player(club=club, name=cleaned, national_number=number)
            player.full_clean(exclude=["club"], validate_unique=False, validate_constraints=False)
            players.add(player)
            added.append(player)
        elif record:
            players.number(player, number)
            if player.pk is not None:  # a new player's number goes in with it
                numbered[player.pk] = player
        found.append(player)
    for player in numbered.values():
        player.full_clean(exclude=["club"], validate_unique=False, validate_constraints=False)
    if numbered or added:
        unit().touch(clubs=[club])  # the club's player search finds the new names
    Player.objects.bulk_update(numbered.values(), ["national_number"], batch_size=BATCH_SIZE)
    Player.objects.bulk_create(added, batch_size=BATCH_SIZE)
    return found


def _typed_player(club: Club, current: Player | None, name: str, national_number: str) -> Player | None:
    """The player typed in a seat: the seat's current player if the name (and any number) still
    match, so an unchanged seat never jumps to a namesake; else found or added."""
    cleaned, number = clean_name(name), clean_name(national_number)
    if not cleaned and not number:
        return None
    if (
        current is not None
        and cleaned.casefold() == current.name.casefold()
        and number in ("", current.national_number)
    ):
        return current
    return player_find_or_add_numbered(club=club, name=cleaned, national_number=number)


def _name_pair(
    pair: Pair, players: Sequence[TypedPlayer], from_round: int = 1, by: AbstractBaseUser | None = None,
) -> PairPlayersChange:
    if len(players) != 2:
        raise ValidationError(f"a pair has two players, not {len(players)}")
    club = pair.section.session.event.club
    before = pair.names
    current = (pair.player_1, pair.player_2)
    found = [_typed_player(club, player, name, number) for player, (name, number) in zip(current, players)]
    if found[0] is not None and found[1] is not None and found[0].pk == found[1].pk:
        raise ValidationError(f"{found[0].name} cannot be both players of pair {pair.label}")
    if found == list(current):  # an unchanged pair costs no query
        return PairPlayersChange(pair=pair, before=before, after=before, changed=False)
    return pair_change_players(pair=pair, player_1=found[0], player_2=found[1], from_round=from_round, by=by)


@write
def pair_name_players(*, pair: Pair, players: Sequence[TypedPlayer]) -> PairPlayersChange:
    """Name a pair's two players as typed (see _typed_player); blank names clear a seat."""
    return _name_pair(pair, players)


@write
def session_name_players(
    *, pairs: Sequence[Pair], players: Mapping[int, Sequence[TypedPlayer]], from_round: int = 1,
    by: AbstractBaseUser | None = None,
) -> list[PairPlayersChange]:
    """Name the players of several pairs (pair pk -> two typed players), all or nothing,
    from ``from_round`` on (1: the whole session; later: a change of player, the earlier
    rounds keeping whoever played them).

    Returns the pairs whose players changed. A refusal names the pair it is about.
    """
    changes = []
    for pair in pairs:
        if pair.pk not in players:
            continue
        try:
            change = _name_pair(pair, players[pair.pk], from_round, by)
        except ValidationError as error:
            raise ValidationError(f"pair {pair.label}: {' '.join(error.messages)}") from None
        if change.changed:
            changes.append(change)
    return changes
