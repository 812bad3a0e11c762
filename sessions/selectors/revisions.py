"""Where the cached pages stand: one small query for the revision a page is built on.

A Stamp names the revision of everything a page shows (sessions.services.revisions
bumps it on every write): the key of the page in the cache, its ETag, and with
``changed_at`` its Last-Modified. A session's pages stand on the session's revision;
the pages across a club's sessions (the club page, event rankings, player pages) on
the club's; a teams event's pages on the event's. The row's id and the time of its
last bump are part of the key, so a row deleted and another created with the same id
(SQLite reuses ids) never shares a page with it.

The pages a club lets other sites frame (its sessions' pages and its embeds) read, in
the same query, the club's ``frame_origins``: the stamp carries them, and the page's
Content-Security-Policy names them (sessions.views.caching).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.conf import settings
from django.db import connection, models
from django.db.backends.postgresql.base import ServerBindingCursor
from django.db.backends.utils import CursorWrapper
from django.utils import timezone

from sessions.models import Club, Competition, Event, Player, Session, TeamEvent
from sessions.models.clubs import frame_origin_list


@dataclass(frozen=True)
class Stamp:
    key: str
    changed_at: datetime.datetime
    #: The sites the club lets frame the page; none: nobody may.
    frame_origins: tuple[str, ...] = ()


def _stamp(kind: str, row: tuple | None) -> Stamp | None:
    """A stamp from (id, revision, revised_at) and, for a page that may be framed, the
    club's frame_origins text."""
    if row is None:
        return None
    pk, revision, revised_at, *origins = row
    if timezone.is_naive(revised_at):  # SQLite keeps UTC without its zone
        revised_at = revised_at.replace(tzinfo=datetime.timezone.utc)
    framing = tuple(frame_origin_list(origins[0] or "")) if origins else ()
    return Stamp(f"{kind}{pk}.{revision}.{revised_at.timestamp():.6f}", revised_at, framing)


def revision_stamp(obj: Session | Club) -> str:
    """The stamp key of a loaded session or club (no query), as the lookups below give it."""
    kind = "s" if isinstance(obj, Session) else "c"
    stamp = _stamp(kind, (obj.pk, obj.revision, obj.revised_at))
    assert stamp is not None
    return stamp.key


# Every reload of every phone asks for one of these before anything else, and a cached
# page costs little more: building the query through the ORM took twice as long as
# running it, so each is written out in SQL (the tables named from the models).
def _table(model: type[models.Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _row(sql: str, *params: object) -> tuple | None:
    with _cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


def _cursor() -> CursorWrapper:
    """Django's cursor, or on PostgreSQL one whose statements the server prepares once
    per connection: planning the session's three-table join took three times as long as
    running it (bench/web.py). Django leaves psycopg's prepared statements off for the
    connection poolers that cannot keep them (PgBouncer in transaction mode before
    1.21): PREPARED_STAMPS=0 in the environment turns these off too. Still Django's
    wrapper (health check, errors, the query log and counts), one query as before."""
    if connection.vendor != "postgresql" or not settings.PREPARED_STAMPS:
        return connection.cursor()
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    with connection.wrap_database_errors:
        cursor = _PreparingCursor(connection.connection)
    connection.validate_thread_sharing()
    return connection.make_debug_cursor(cursor) if connection.queries_logged else connection.make_cursor(cursor)


class _PreparingCursor(ServerBindingCursor):
    """Parameters bound by the server, the statement prepared on its first use (psycopg
    keeps the connection's prepared statements by their text). Django turns psycopg's
    preparing off on the connection (prepare_threshold None): it is on for these
    statements only, while they run (Django's own cursors bind on the client and never
    prepare)."""

    def execute(self, query, params=None, **options):  # type: ignore[no-untyped-def,override]
        threshold = self.connection.prepare_threshold
        self.connection.prepare_threshold = _ONLY_WHEN_ASKED
        try:
            return super().execute(query, params, prepare=True, **options)
        finally:
            self.connection.prepare_threshold = threshold


#: psycopg's count of runs before it prepares a statement by itself: never.
_ONLY_WHEN_ASKED = 2**62


def published_session_stamp(*, session_id: int) -> Stamp | None:
    """A published session's pages (one query), with the sites its club lets frame them;
    None when unknown or unpublished, so the view answers (a 404), never the cache."""
    sql = (f"SELECT s.id, s.revision, s.revised_at, c.frame_origins FROM {_table(Session)} s "
           f"JOIN {_table(Event)} e ON e.id = s.event_id JOIN {_table(Club)} c ON c.id = e.club_id "
           f"WHERE s.id = %s AND s.published = %s")
    return _stamp("s", _row(sql, session_id, True))


def club_session_stamp(*, session_id: int, club_id: int) -> Stamp | None:
    """A session of the club ``club_id``, published or not (one query): what the API
    shows a club's own key. Never framed: its pages are not the public's."""
    sql = (f"SELECT s.id, s.revision, s.revised_at FROM {_table(Session)} s "
           f"JOIN {_table(Event)} e ON e.id = s.event_id WHERE s.id = %s AND e.club_id = %s")
    return _stamp("s", _row(sql, session_id, club_id))


def published_team_event_stamp(*, event_id: int) -> Stamp | None:
    """A published teams event's pages (one query); None when unknown or unpublished, so
    the view answers (a 404), never the cache."""
    sql = f"SELECT id, revision, revised_at FROM {_table(TeamEvent)} WHERE id = %s AND published = %s"
    return _stamp("t", _row(sql, event_id, True))


def club_team_event_stamp(*, event_id: int, club_id: int) -> Stamp | None:
    """A teams event of the club ``club_id``, published or not (one query): for its own key."""
    sql = f"SELECT id, revision, revised_at FROM {_table(TeamEvent)} WHERE id = %s AND club_id = %s"
    return _stamp("t", _row(sql, event_id, club_id))


def club_stamp(*, club_slug: str) -> Stamp | None:
    return _stamp("c", _row(f"SELECT id, revision, revised_at FROM {_table(Club)} WHERE slug = %s", club_slug))


def club_embed_stamp(*, club_slug: str) -> Stamp | None:
    """The club's embedded latest results: its revision and the sites that may frame them."""
    sql = f"SELECT id, revision, revised_at, frame_origins FROM {_table(Club)} WHERE slug = %s"
    return _stamp("c", _row(sql, club_slug))


def _club_of(model: type[models.Model], pk: int) -> tuple[int, int, datetime.datetime] | None:
    sql = (f"SELECT c.id, c.revision, c.revised_at FROM {_table(model)} o "
           f"JOIN {_table(Club)} c ON c.id = o.club_id WHERE o.id = %s")
    return _row(sql, pk)


def event_club_stamp(*, event_id: int) -> Stamp | None:
    """An event's ranking stands on its club's revision (every session write bumps it)."""
    return _stamp("c", _club_of(Event, event_id))


def competition_club_stamp(*, competition_id: int) -> Stamp | None:
    """A competition stands on its event's sessions and its own settings: its club's revision."""
    sql = (f"SELECT c.id, c.revision, c.revised_at FROM {_table(Competition)} o "
           f"JOIN {_table(Event)} e ON e.id = o.event_id JOIN {_table(Club)} c ON c.id = e.club_id WHERE o.id = %s")
    return _stamp("c", _row(sql, competition_id))


def player_club_stamp(*, player_id: int) -> Stamp | None:
    return _stamp("c", _club_of(Player, player_id))
