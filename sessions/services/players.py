"""Writing the club's players and who plays in each pair."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction

from sessions.models import Club, Pair, Player
from sessions.text import clean_name

from .revisions import club_revise, players_revise, session_revise

#: Rows a bulk insert or update writes in one statement.
BATCH_SIZE = 1000

#: What a director typed for one seat: (name, national number); ("", "") leaves it empty.
TypedPlayer = tuple[str, str]


@transaction.atomic
def player_add(*, club: Club, name: str, national_number: str = "", visitor: bool = False) -> Player:
    """Add a player to the club's list (a national number is unique in the club)."""
    player = Player(club=club, name=clean_name(name), national_number=clean_name(national_number), visitor=visitor)
    player.full_clean()
    player.save()
    club_revise(club=club)  # the club's player search finds the new name
    return player


@transaction.atomic
def player_find_or_add(*, club: Club, name: str, visitor: bool = False) -> Player:
    """The club's player of that name (any case), added to the list if new (as a visitor if
    ``visitor``: a guest named at a table, who is no member)."""
    cleaned = clean_name(name)
    existing = club.players.filter(name__iexact=cleaned).order_by("pk").first()
    return existing or player_add(club=club, name=cleaned, visitor=visitor)


@transaction.atomic
def pair_set_players(*, pair: Pair, player_1: Player | None, player_2: Player | None) -> Pair:
    """Name the two players of a pair; both must be on the session's club list."""
    club_id = pair.section.session.event.club_id
    for player in (player_1, player_2):
        if player is not None and player.club_id != club_id:
            raise ValidationError(f"{player.name} is not a player of this club")
    pair.player_1, pair.player_2 = player_1, player_2
    pair.full_clean()
    pair.save(update_fields=["player_1", "player_2"])
    session_revise(session=pair.section.session_id)
    return pair


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


@transaction.atomic
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
        found.save(update_fields=["national_number"])
        players_revise(players=[found])
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


def players_find_or_add(*, club: Club, typed: Sequence[TypedPlayer]) -> list[Player | None]:
    """Many typed players (name, national number) at once, by the rule entry uses
    (player_find_or_add_numbered), in a few queries whatever their number: the club's
    list read once, the new players added in one bulk insert, the numbers to record
    written in one bulk update. For imports: a number whose player has another name is
    that player (programs spell names their own way: "J. Smith", "Smith, John").

    One Player object per player: a player typed twice is the same object both times.
    An empty name is no player (None). Call it in a transaction.
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


def _name_pair(pair: Pair, players: Sequence[TypedPlayer]) -> PairPlayersChange:
    if len(players) != 2:
        raise ValidationError(f"a pair has two players, not {len(players)}")
    club = pair.section.session.event.club
    before = pair.names
    current = (pair.player_1, pair.player_2)
    found = [_typed_player(club, player, name, number) for player, (name, number) in zip(current, players)]
    if found[0] is not None and found[1] is not None and found[0].pk == found[1].pk:
        raise ValidationError(f"{found[0].name} cannot be both players of pair {pair.label}")
    changed = found != list(current)
    if changed:  # an unchanged pair costs no query
        pair_set_players(pair=pair, player_1=found[0], player_2=found[1])
    return PairPlayersChange(pair=pair, before=before, after=pair.names, changed=changed)


@transaction.atomic
def pair_name_players(*, pair: Pair, players: Sequence[TypedPlayer]) -> PairPlayersChange:
    """Name a pair's two players as typed (see _typed_player); blank names clear a seat."""
    return _name_pair(pair, players)


@transaction.atomic
def session_name_players(
    *, pairs: Sequence[Pair], players: Mapping[int, Sequence[TypedPlayer]]
) -> list[PairPlayersChange]:
    """Name the players of several pairs (pair pk -> two typed players), all or nothing.

    Returns the pairs whose players changed. A refusal names the pair it is about.
    """
    changes = []
    for pair in pairs:
        if pair.pk not in players:
            continue
        try:
            change = _name_pair(pair, players[pair.pk])
        except ValidationError as error:
            raise ValidationError(f"pair {pair.label}: {' '.join(error.messages)}") from None
        if change.changed:
            changes.append(change)
    return changes
