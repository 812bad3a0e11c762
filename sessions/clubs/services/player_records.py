"""Correcting the club's player list: edit a record, merge two records of one person.

A player typed twice under two spellings ("Ann Smith", "Anne Smith") ends up as two
records, each with part of the person's history. Merging moves every reference to the
record kept, in one transaction, and deletes the other; a pair in which both records
play (the same person twice) is refused, as it cannot be right.
"""

from __future__ import annotations

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db.models import Q

from sessions.models import Pair, PairLineup, Player
from sessions.core.text import clean_name

from sessions.core.services.unit_of_work import unit, write


@write
def player_update(
    *, player: Player, name: str, national_number: str = "", grade: Decimal | None | str = "",
    masterpoints_held: Decimal | None | str = "",
) -> Player:
    """Rename a player or change the national number (unique in the club), the national
    grade a handicap may come from (RULES 14) or the master points held that stratify
    (RULES 15; each "": unchanged, None: none)."""
    player.name, player.national_number = clean_name(name), clean_name(national_number)
    if grade != "":
        player.grade = grade
    if masterpoints_held != "":
        player.masterpoints_held = masterpoints_held
    player.full_clean()
    unit().touch_players([player])  # the pages that name the player, locked before the player's row
    player.save(update_fields=["name", "national_number", "grade", "masterpoints_held"])
    return player


@write
def player_merge(*, keep: Player, merge: Player) -> int:
    """Move every pair of ``merge`` to ``keep`` and delete ``merge``; returns the pairs moved.

    ``keep`` takes the other's national number when it has none.
    """
    if keep.pk == merge.pk:
        raise ValidationError("choose two different records to merge")
    if keep.club_id != merge.club_id:
        raise ValidationError(f"{merge.name} is not a player of {keep.name}'s club")
    # Where both play, found (and locked) while the pairs still name both; then the two records.
    unit().touch_players([keep, merge])
    locked = {p.pk: p for p in unit().lock_rows(Player.objects.filter(pk__in=[keep.pk, merge.pk]))}
    if len(locked) != 2:
        raise ValidationError("one of the two records was deleted meanwhile: reload the page")
    both = Q(player_1=keep, player_2=merge) | Q(player_1=merge, player_2=keep)
    together = Pair.objects.filter(
        both | Q(pk__in=PairLineup.objects.filter(both).values("pair"))  # or for some rounds
    ).select_related("section__session").first()
    if together is not None:
        raise ValidationError(
            f"{keep.name} and {merge.name} play together in pair {together.label} of "
            f"{together.section.session.name}: they are two people, not one"
        )
    moved = Pair.objects.filter(player_1=merge).update(player_1=keep)
    moved += Pair.objects.filter(player_2=merge).update(player_2=keep)
    PairLineup.objects.filter(player_1=merge).update(player_1=keep)  # the rounds they played
    PairLineup.objects.filter(player_2=merge).update(player_2=keep)
    number = merge.national_number
    merge.delete()
    if number and not keep.national_number:
        keep.national_number = number
        keep.full_clean()
        keep.save(update_fields=["national_number"])
    return moved
