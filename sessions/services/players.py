"""Writing the club's players and who plays in each pair."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from sessions.models import Club, Pair, Player


@transaction.atomic
def player_add(*, club: Club, name: str, national_number: str = "") -> Player:
    """Add a player to the club's list (a national number is unique in the club)."""
    player = Player(club=club, name=" ".join(name.split()), national_number=national_number.strip())
    player.full_clean()
    player.save()
    return player


@transaction.atomic
def player_find_or_add(*, club: Club, name: str) -> Player:
    """The club's player of that name (any case), added to the list if new."""
    cleaned = " ".join(name.split())
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
