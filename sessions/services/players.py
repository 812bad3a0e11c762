"""Writing the club's players and who plays in each pair."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction

from sessions.models import Club, Pair, Player
from sessions.text import clean_name


@transaction.atomic
def player_add(*, club: Club, name: str, national_number: str = "") -> Player:
    """Add a player to the club's list (a national number is unique in the club)."""
    player = Player(club=club, name=clean_name(name), national_number=clean_name(national_number))
    player.full_clean()
    player.save()
    return player


@transaction.atomic
def player_find_or_add(*, club: Club, name: str) -> Player:
    """The club's player of that name (any case), added to the list if new."""
    cleaned = clean_name(name)
    existing = club.players.filter(name__iexact=cleaned).order_by("pk").first()
    return existing or player_add(club=club, name=cleaned)


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
    return pair


@dataclass(frozen=True)
class PairPlayersChange:
    """What a renaming did: the pair, and its players' names before and after."""

    pair: Pair
    before: str
    after: str
    changed: bool  # other players now (a namesake counts, though the names read the same)


def _national_number_owner(club: Club, name: str, national_number: str) -> Player | None:
    """The club's player with that number; refused if the number is someone else's."""
    owner = club.players.filter(national_number=national_number).first()
    if owner is not None and owner.name.casefold() != name.casefold():
        raise ValidationError(f"national number {national_number} is {owner.name}'s, not {name}'s")
    return owner


@transaction.atomic
def player_find_or_add_numbered(*, club: Club, name: str, national_number: str = "") -> Player | None:
    """The player a director typed: by national number if given, else by name; new ones added.

    A number typed for a known name without one is recorded on that player. An empty
    name is no player (None).
    """
    cleaned, number = clean_name(name), clean_name(national_number)
    if not cleaned:
        if number:
            raise ValidationError(f"national number {number} needs a name")
        return None
    if not number:
        return player_find_or_add(club=club, name=cleaned)
    owner = _national_number_owner(club, cleaned, number)
    if owner is not None:
        return owner
    unnumbered = club.players.filter(name__iexact=cleaned, national_number="").order_by("pk").first()
    if unnumbered is None:
        return player_add(club=club, name=cleaned, national_number=number)
    unnumbered.national_number = number
    unnumbered.full_clean()
    unnumbered.save(update_fields=["national_number"])
    return unnumbered


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


#: What a director typed for one seat: (name, national number); ("", "") leaves it empty.
TypedPlayer = tuple[str, str]


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
