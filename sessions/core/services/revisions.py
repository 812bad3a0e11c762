"""Revision counters: every write bumps them, inside its own transaction.

A session's ``revision`` changes whenever anything its pages show changes (a line, a
pair's players, a board's hands or analysis, the event's settings, publication); the
club's ``revision`` whenever anything a page across its sessions shows changes (player
pages, event rankings, the club page); a teams event's whenever its public pages
change. The scored session and the rendered public pages are cached under these
numbers, and they are the pages' ETag: a write makes the next request read fresh
figures, without anyone deleting a cache entry.

Services never call these functions: a service is ``@write`` and names what it changes
to its unit of work (``unit().touch(...)``, sessions.core.services.unit_of_work), which locks
the rows in the one order (sessions, then teams events, then other rows, then clubs)
and bumps them all when it ends, inside the transaction, with ``bump`` below. The
functions here stay for writes outside the services (the Django admin) and keep the
rules the unit follows:

- The bump is an ``F()`` update, so two writers at once never lose one.
- Every session bump also bumps its club (the club's pages show the sessions).
- ``lines_only``: the write changed lines only, each logged in the change log with its
  board; the session keeps its setup token and its kept figures are brought up to date
  board by board. Any other write draws a new token: the next read scores it whole.
- A change of lines locks its session before it logs the change (the unit locks the
  session when the service names it, at its top), so the change log's entries take
  their ids in commit order (sessions.pairs.services.results._log).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from datetime import datetime
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from sessions.core import shared_cache
from sessions.core.query_speed import PreparedUpdate
from sessions.models import Club, Event, Player, Session, TeamEvent
from sessions.models.revisions import new_setup_token
from sessions.core.selectors.revisions import stamp_entries, stamp_entry_key


def bump(rows: QuerySet, **also: object) -> int:
    return _told(rows.update(**_bumped(timezone.now()), **also), lambda: rows)


def _bumped(now: datetime) -> dict[str, Any]:
    return {"revision": F("revision") + 1, "revised_at": now}


def _told(bumped: int, rows: Callable[[], QuerySet]) -> int:
    """``bumped`` rows, told to the shared cache after the commit, if there is one."""
    if bumped and shared_cache.is_shared():
        _tell_after_commit(rows())
    return bumped


# A phone's post bumps its session and club: the two UPDATEs prepared (sessions/core/query_speed.py).
_SESSIONS_BUMP = PreparedUpdate(
    lambda ids, now: (Session.objects.filter(pk__in=ids), _bumped(now)), name="sessions bumped")
_CLUBS_OF_SESSIONS_BUMP = PreparedUpdate(
    lambda sessions, now: (Club.objects.filter(pk__in=Session.objects.filter(pk__in=sessions).values("event__club")),
                           _bumped(now)),
    name="the clubs of sessions bumped",
)


def bump_sessions(ids: Collection[int], **also: object) -> int:
    """``bump`` these sessions (``also``: more changes, a new setup token)."""
    rows = Session.objects.filter(pk__in=ids)
    if also:
        return bump(rows, **also)
    return _told(_SESSIONS_BUMP(ids=tuple(sorted(ids)), now=timezone.now()), lambda: rows)


def bump_clubs(*, clubs: Collection[int] = (), of_sessions: Collection[int] = ()) -> int:
    """``bump`` these clubs and those of these sessions."""
    def rows() -> QuerySet:
        return Club.objects.filter(
            Q(pk__in=list(clubs)) | Q(pk__in=Session.objects.filter(pk__in=list(of_sessions)).values("event__club")))

    if clubs or not of_sessions:
        return bump(rows())
    return _told(_CLUBS_OF_SESSIONS_BUMP(sessions=tuple(sorted(of_sessions)), now=timezone.now()), rows)


#: The stamp kind of each row with a revision (sessions.core.selectors.revisions).
_KINDS = {Session: "s", TeamEvent: "t", Club: "c"}


def _tell_after_commit(rows: QuerySet) -> None:
    """Once the transaction commits, put the bumped rows' stamps in the shared cache, where
    the cached pages read them without the database (sessions.core.selectors.revisions). Their
    ids are read now, while a row being deleted in this transaction is still there: its
    stamp is then taken out. A failure here leaves the page stale STAMP_CACHE_SECONDS at
    most (robust: logged, never the write's error)."""
    kind = _KINDS[rows.model]
    if kind == "c":
        clubs = list(rows.values_list("pk", "slug"))
        ids = [pk for pk, _slug in clubs]
        keys = [*(stamp_entry_key("c", pk) for pk in ids), *(stamp_entry_key("slug", slug) for _pk, slug in clubs)]
    else:
        ids = list(rows.values_list("pk", flat=True))
        keys = [stamp_entry_key(kind, pk) for pk in ids]
    # Out now, before the commit, too: the stamp then lives on only if a request reads the
    # row in the moment before the commit, should the write after it be lost.
    shared_cache.delete_many(keys)
    transaction.on_commit(partial(_tell, kind, ids), robust=True)


def _tell(kind: str, ids: list[int]) -> None:
    entries = stamp_entries(kind, ids)
    kept = {key: entry for key, entry in entries.items() if entry is not None}
    gone = [key for key, entry in entries.items() if entry is None]
    if kept:
        shared_cache.set_many(kept, settings.STAMP_CACHE_SECONDS)
    if gone:
        shared_cache.delete_many(gone)


def sessions_revise(*, sessions: QuerySet[Session] | Iterable[int], lines_only: bool = False) -> None:
    """Bump these sessions and their clubs (two queries, whatever their number).

    ``lines_only``: the write changed lines and logged each in the change log (or changed
    no line at all: a phone's send waiting for EW), nothing else; the sessions keep their
    setup token, and their scored figures are brought up to date board by board. Any
    other write draws a new token, and the next read scores the session whole."""
    ids = sessions.values("pk") if isinstance(sessions, QuerySet) else list(sessions)
    session_rows = Session.objects.filter(pk__in=ids)
    setup = {} if lines_only else {"setup_token": new_setup_token()}
    if bump(session_rows, **setup):
        bump(Club.objects.filter(pk__in=session_rows.values("event__club")))


def session_revise(*, session: Session | int, lines_only: bool = False) -> None:
    """Bump one session and its club: what a line, a pair or a board changes."""
    session_id = session if isinstance(session, int) else session.pk
    sessions_revise(sessions=[session_id], lines_only=lines_only)


def event_revise(*, event: Event) -> None:
    """Event settings change every session's figures: bump them all, and the club."""
    sessions_revise(sessions=Session.objects.filter(event=event))
    club_revise(club=event.club_id)


def club_revise(*, club: Club | int) -> None:
    """Bump the club alone: its name or description, which its own pages show."""
    bump(Club.objects.filter(pk=club if isinstance(club, int) else club.pk))


def club_revise_with_sessions(*, club: Club | int) -> None:
    """The club's name shows on every page of its sessions: bump them all too."""
    club_id = club if isinstance(club, int) else club.pk
    sessions_revise(sessions=Session.objects.filter(event__club_id=club_id))
    bump(TeamEvent.objects.filter(club_id=club_id))  # its teams events' pages name it too
    club_revise(club=club_id)


def players_revise(*, players: Iterable[Player | int]) -> None:
    """A player's name shows on every session the player played: bump those and the club."""
    ids = [player if isinstance(player, int) else player.pk for player in players]
    played = Session.objects.filter(
        Q(sections__pairs__player_1__in=ids) | Q(sections__pairs__player_2__in=ids)
        | Q(sections__pairs__lineups__player_1__in=ids) | Q(sections__pairs__lineups__player_2__in=ids)
    )
    sessions_revise(sessions=played)
    bump(TeamEvent.objects.filter(teams__players__in=ids))  # a team's page lists its players
    bump(Club.objects.filter(players__in=ids))


def team_event_revise(*, event: TeamEvent | int) -> None:
    """Bump a teams event: its standings, matches or teams changed (one query).

    The club's page shows only a published event's name and date, so the club is bumped
    by the writes that change those (team_event_publish, team_event_unpublish), after the
    event: rows are locked sessions first, then teams events, then the club."""
    bump(TeamEvent.objects.filter(pk=event if isinstance(event, int) else event.pk))
