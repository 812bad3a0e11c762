"""What the import and download pages read: a club's recent imports, the sessions and
teams events a reader may download."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet

from sessions.models import Club, ImportJob, Session, TeamEvent

#: The import page lists the club's latest imports, this many.
RECENT_JOBS = 5


def recent_import_jobs(*, club: Club) -> QuerySet[ImportJob]:
    """The club's latest imports with their sessions (one query when read)."""
    return club.import_jobs.select_related("session")[:RECENT_JOBS]


def _exportable(objects: QuerySet, club: str, user: AbstractBaseUser | AnonymousUser) -> QuerySet:
    """The published rows of ``objects`` (``club``: the lookup to their club), and the
    unpublished ones of the clubs ``user`` directs."""
    visible = Q(published=True)
    if user.is_authenticated:
        visible |= Q(**{f"{club}__directors": user})
    return objects.filter(visible).select_related(club).distinct()


def exportable_sessions(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[Session]:
    """The sessions ``user`` may download: published, or of a club they direct."""
    return _exportable(Session.objects.all(), "event__club", user)


def exportable_team_events(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[TeamEvent]:
    """The teams events ``user`` may download: published, or of a club they direct."""
    return _exportable(TeamEvent.objects.all(), "club", user)
