"""What a club's owner changes about the club: its settings and who directs it.

A club always keeps an owner: removing or demoting the last one is refused, so that
nobody is left who could add a director again (short of the Django admin). The check
locks the club's owner memberships, so two owners removing each other at the same
moment cannot both succeed.
"""

from __future__ import annotations

from axes.utils import reset as axes_reset
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db.models import Q

from sessions.models import Club, ClubDirector
from sessions.models.clubs import frame_origin_list
from sessions.core.text import clean_name

from sessions.core.services.unit_of_work import unit, write

#: The Club fields an owner may set (the slug stays: it is in every link to the club).
CLUB_SETTINGS = ("name", "description", "website", "frame_origins", "masterpoint_federation", "masterpoint_scale",
                 "national_club_number", "p2p_charge_rate", "handicap_source", "rating_sessions")


@write
def club_update(
    *, club: Club, name: str, description: str = "", website: str = "", frame_origins: str = "",
    masterpoint_federation: str | None = None, masterpoint_scale: str | None = None,
    national_club_number: str | None = None, p2p_charge_rate: int | None | str = "",
    handicap_source: str | None = None, rating_sessions: int | None = None,
) -> Club:
    """The club's name, what its public page says about it, the sites that may frame its
    results (bumping the sessions' revisions gives their pages the new header too), and the
    master point scale its final sessions award on (None: unchanged), and its number with
    the national body and the P2P charge rate its USEBIO exports carry (the number None and
    the rate "" leave them unchanged; a rate of None clears it), and where its pairs'
    handicaps come from and the sessions its ratings are from (RULES 14; None or "": unchanged)."""
    club.name = clean_name(name)
    club.description = description.strip()
    club.website = website.strip()
    club.frame_origins = "\n".join(frame_origin_list(frame_origins))
    scale_before = (club.masterpoint_federation, club.masterpoint_scale)
    if masterpoint_federation is not None:
        club.masterpoint_federation = masterpoint_federation
    if masterpoint_scale is not None:
        club.masterpoint_scale = masterpoint_scale.strip().lower()
    if national_club_number is not None:
        club.national_club_number = national_club_number.strip()
    if p2p_charge_rate != "":
        club.p2p_charge_rate = p2p_charge_rate
    if handicap_source:
        club.handicap_source = handicap_source
    if rating_sessions is not None:
        club.rating_sessions = rating_sessions
    club.full_clean()
    # The club's name heads every page of its sessions: bump them all. Before the save, so
    # the rows are locked in the order every write takes them (sessions, then the club):
    # a line recorded meanwhile waits instead of deadlocking.
    # A new federation or scale awards the club's final sessions again (RULES 12).
    unit().touch_club_and_all(club, places=(club.masterpoint_federation, club.masterpoint_scale) != scale_before)
    club.save(update_fields=list(CLUB_SETTINGS))
    return club


def _user_named(identifier: str) -> AbstractBaseUser:
    """The one existing user with that username or e-mail (any case)."""
    typed = identifier.strip()
    if not typed:
        raise ValidationError("type the username or e-mail of the new director")
    users = list(get_user_model().objects.filter(Q(username__iexact=typed) | Q(email__iexact=typed))[:10])
    exact = [user for user in users if user.get_username() == typed]
    if len(exact) == 1:
        return exact[0]
    if len(users) == 1:
        return users[0]
    if not users:
        raise ValidationError(
            f"nobody has the username or e-mail {typed!r}: the new director must first have an account"
        )
    raise ValidationError(f"several accounts match {typed!r}: type the exact username instead")


@write
def club_director_add(*, club: Club, identifier: str, is_owner: bool = False) -> ClubDirector:
    """Let an existing user (named by username or e-mail) direct the club, or own it too."""
    user = _user_named(identifier)
    if ClubDirector.objects.filter(club=club, user=user).exists():
        raise ValidationError(f"{user.get_username()} already directs {club.name}")
    membership = ClubDirector(club=club, user=user, is_owner=is_owner)
    membership.full_clean()
    membership.save()
    return membership


def _refuse_leaving_no_owner(membership: ClubDirector) -> None:
    owners = list(
        unit().lock_rows(ClubDirector.objects.filter(club_id=membership.club_id, is_owner=True)).values_list("pk", flat=True)
    )
    if owners == [membership.pk]:
        raise ValidationError(
            f"{membership.user.get_username()} is the club's only owner: make another director an owner first"
        )


@write
def club_director_remove(*, membership: ClubDirector) -> None:
    """Stop a user directing the club; the last owner stays."""
    _refuse_leaving_no_owner(membership)
    membership.delete()


@write
def club_director_set_owner(*, membership: ClubDirector, is_owner: bool) -> ClubDirector:
    """Make a director an owner, or an owner a plain director (never the last owner)."""
    if membership.is_owner and not is_owner:
        _refuse_leaving_no_owner(membership)
    membership.is_owner = is_owner
    membership.save(update_fields=["is_owner"])
    return membership


@write
def club_director_unlock(*, membership: ClubDirector) -> int:
    """Forget the director's failed logins (django-axes), from every address: whoever was
    locked out, the director or someone guessing, starts again. Returns how many
    account-and-address records were cleared."""
    return axes_reset(username=membership.user.get_username())
