"""What the club owner's pages read."""

from __future__ import annotations

from django.db.models import QuerySet

from sessions.models import Club, ClubDirector


def club_memberships(*, club: Club) -> QuerySet[ClubDirector]:
    """The club's directors with their accounts, owners first (one query)."""
    return ClubDirector.objects.filter(club=club).select_related("user").order_by("-is_owner", "user__username")
