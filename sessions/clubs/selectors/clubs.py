"""What the club owner's pages read."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet

from sessions.models import Club, ClubDirector


def club_memberships(*, club: Club) -> QuerySet[ClubDirector]:
    """The club's directors with their accounts, owners first (one query)."""
    return ClubDirector.objects.filter(club=club).select_related("user").order_by("-is_owner", "user__username")


def memberships_of(*, club: Club) -> QuerySet[ClubDirector]:
    """The club's directors with their accounts and club: one is fetched by id from here."""
    return ClubDirector.objects.select_related("user", "club").filter(club=club)


def directs_club(*, club: Club, user: AbstractBaseUser) -> bool:
    """Whether ``user`` directs the club (one query)."""
    return club.directors.filter(pk=user.pk).exists()
