"""Where the cached pages stand: one small query for the revision a page is built on.

A Stamp names the revision of everything a page shows (sessions.core.services.revisions
bumps it on every write): the key of the page in the cache, its ETag, and with
``changed_at`` its Last-Modified. A session's pages stand on the session's revision;
the pages across a club's sessions (the club page, event rankings, player pages) on
the club's; a teams event's pages on the event's. The row's id and the time of its
last bump are part of the key, so a row deleted and another created with the same id
(SQLite reuses ids) never shares a page with it.

The pages a club lets other sites frame (its sessions' pages and its embeds) read, in
the same query, the club's ``frame_origins``: the stamp carries them, and the page's
Content-Security-Policy names them (sessions.core.views.caching).
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection, models
from django.db.backends.postgresql.base import ServerBindingCursor
from django.db.backends.utils import CursorWrapper
from django.utils import timezone

from sessions.core import shared_cache
from sessions.models import Club, Competition, Event, Player, Session, TeamEvent
from sessions.models.clubs import frame_origin_list


@dataclass(frozen=True)
class Stamp:
    key: str
    changed_at: datetime.datetime
    #: The sites the club lets frame the page; none: nobody may.
    frame_origins: tuple[str, ...] = ()


def _aware(row: tuple) -> tuple:
    """(id, revision, revised_at, ...) with revised_at in UTC (SQLite keeps it without its zone)."""
    pk, revision, revised_at, *rest = row
    if timezone.is_naive(revised_at):
        revised_at = revised_at.replace(tzinfo=datetime.timezone.utc)
    return (pk, revision, revised_at, *rest)


def _stamp(kind: str, row: tuple | None) -> Stamp | None:
    """A stamp from (id, revision, revised_at) and, for a page that may be framed, the
    club's frame_origins text."""
    if row is None:
        return None
    pk, revision, revised_at, *origins = _aware(row)
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


def _club_of(model: type[models.Model], pk: object, columns: str = "c.id, c.revision, c.revised_at") -> tuple | None:
    """``columns`` of the club (``c``) a row of ``model`` belongs to (a competition's through
    its event)."""
    if model is Competition:
        joined = f"{_table(Competition)} o JOIN {_table(Event)} e ON e.id = o.event_id JOIN {_table(Club)} c ON c.id = e.club_id"
    else:
        joined = f"{_table(model)} o JOIN {_table(Club)} c ON c.id = o.club_id"
    return _row(f"SELECT {columns} FROM {joined} WHERE o.id = %s", pk)


def event_club_stamp(*, event_id: int) -> Stamp | None:
    """An event's ranking stands on its club's revision (every session write bumps it)."""
    return _stamp("c", _club_of(Event, event_id))


def competition_club_stamp(*, competition_id: int) -> Stamp | None:
    """A competition stands on its event's sessions and its own settings: its club's revision."""
    return _stamp("c", _club_of(Competition, competition_id))


def player_club_stamp(*, player_id: int) -> Stamp | None:
    return _stamp("c", _club_of(Player, player_id))


# --- the stamps in the shared cache ------------------------------------------------------
#
# With a shared cache (Redis), a cached page is served without asking the database: the
# row's stamp and the page are read from the cache in one round trip. Each write, once
# committed, writes the stamps of the rows it bumped there (sessions.core.services.revisions);
# a request that finds none reads the row here (one query, as without a shared cache)
# and keeps it. A stamp is kept STAMP_CACHE_SECONDS only, so a stamp the cache missed (a
# worker killed between the commit and the cache's write, a cache error at that moment)
# leaves a page that old at most; the database stays the truth. Each worker's own memory
# would not see another's writes: without a shared cache every request asks the database.

#: The prefix of the rows' stamps in the shared cache (the number: their layout).
STAMP_PREFIX = "clubscore:stamp1:"

#: What the shared cache keeps of each kind of row (the database reads it in one query):
#: a session: (id, revision, revised_at, published, club id, the club's frame_origins);
#: a teams event: (id, revision, revised_at, published, club id);
#: a club: (id, revision, revised_at, frame_origins, slug), by id and by slug.
Entry = tuple


def _entry_sql(kind: str, where: str) -> str:
    if kind == "s":
        return (f"SELECT s.id, s.revision, s.revised_at, s.published, e.club_id, c.frame_origins "
                f"FROM {_table(Session)} s JOIN {_table(Event)} e ON e.id = s.event_id "
                f"JOIN {_table(Club)} c ON c.id = e.club_id WHERE s.{where}")
    if kind == "t":
        return f"SELECT id, revision, revised_at, published, club_id FROM {_table(TeamEvent)} WHERE {where}"
    return f"SELECT id, revision, revised_at, frame_origins, slug FROM {_table(Club)} WHERE {where}"


def stamp_entry_key(kind: str, ref: object) -> str:
    """The shared cache's key of a row's stamp: ``kind`` s, t or c and its id, or "slug"
    and a club's slug."""
    return f"{STAMP_PREFIX}{kind}:{ref}"


def stamp_entries(kind: str, ids: list[int]) -> dict[str, Entry | None]:
    """The stamps of these rows as the shared cache keeps them, by key (one query); None
    for a row that is gone. A club's is under its id and its slug."""
    if not ids:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(_entry_sql(kind, f"id IN ({', '.join(['%s'] * len(ids))})"), ids)
        rows = [_aware(row) for row in cursor.fetchall()]
    entries: dict[str, Entry | None] = {stamp_entry_key(kind, pk): None for pk in ids}
    for row in rows:
        entries[stamp_entry_key(kind, row[0])] = row
        if kind == "c":
            entries[stamp_entry_key("slug", row[4])] = row
    return entries


@dataclass(frozen=True)
class SharedStamp:
    """How a lookup above reads its stamp from the shared cache: the row it stands on
    (``kind`` and the lookup's argument ``by``), and its stamp from that row's entry
    (None: the view answers, a 404). ``through``: the lookup stands on the club of a row
    of that model (an event, a player...), which a worker remembers STAMP_CACHE_SECONDS."""

    kind: str
    by: str
    stamp: Callable[[Entry], Stamp | None]
    through: type[models.Model] | None = None

    def key(self, arguments: dict[str, Any]) -> str | None:
        """The entry's key, None when this worker does not know the row (then ask the database)."""
        value = arguments[self.by]
        if self.through is None:
            return stamp_entry_key(self.kind, value)
        club = _clubs_of.get((self.through, value))
        if club is None or club[1] < time.monotonic():
            return None
        return stamp_entry_key("c", club[0])

    def load(self, arguments: dict[str, Any]) -> Entry | None:
        """The entry from the database (one query), kept in the shared cache unless a
        writer has put a newer one there meanwhile; None for an unknown row."""
        value = arguments[self.by]
        if self.through is None:
            column = "slug" if self.kind == "slug" else "id"
            row = _row(_entry_sql("c" if self.kind == "slug" else self.kind, f"{column} = %s"), value)
        else:
            row = _club_of(self.through, value, "c.id, c.revision, c.revised_at, c.frame_origins, c.slug")
        if row is None:
            return None
        entry = _aware(row)
        if self.through is None:
            key = stamp_entry_key(self.kind, value)
        else:
            _remember_club(self.through, value, entry[0])
            key = stamp_entry_key("c", entry[0])
        # add, not set: a writer's newer stamp, put there since this read, stays.
        shared_cache.add(key, entry, settings.STAMP_CACHE_SECONDS)
        return entry


#: (model, id) -> (its club's id, until when this worker trusts it): what a player's,
#: event's or competition's page stands on. A row deleted and its id taken by another
#: club's row (SQLite reuses ids) is seen when this runs out.
_clubs_of: dict[tuple[type[models.Model], object], tuple[int, float]] = {}
_CLUBS_REMEMBERED = 10_000


def _remember_club(model: type[models.Model], pk: object, club: int) -> None:
    if len(_clubs_of) >= _CLUBS_REMEMBERED:
        _clubs_of.clear()
    _clubs_of[(model, pk)] = (club, time.monotonic() + settings.STAMP_CACHE_SECONDS)


def forget_clubs() -> None:
    """Forget which club each row stands on (tests: another worker's memory)."""
    _clubs_of.clear()


def _published(kind: str, entry: Entry, framed: bool) -> Stamp | None:
    pk, revision, revised_at, published, *rest = entry
    if not published:
        return None  # the view answers (a 404), never the cache
    return _stamp(kind, (pk, revision, revised_at, rest[1]) if framed else (pk, revision, revised_at))


def _club(entry: Entry, framed: bool = False) -> Stamp | None:
    pk, revision, revised_at, frame_origins, _slug = entry
    return _stamp("c", (pk, revision, revised_at, frame_origins) if framed else (pk, revision, revised_at))


#: The lookups whose pages a shared cache serves without the database, and how.
SHARED_STAMPS: dict[Callable[..., Stamp | None], SharedStamp] = {
    published_session_stamp: SharedStamp("s", "session_id", lambda entry: _published("s", entry, framed=True)),
    published_team_event_stamp: SharedStamp("t", "event_id", lambda entry: _published("t", entry, framed=False)),
    club_stamp: SharedStamp("slug", "club_slug", _club),
    club_embed_stamp: SharedStamp("slug", "club_slug", lambda entry: _club(entry, framed=True)),
    event_club_stamp: SharedStamp("c", "event_id", _club, through=Event),
    competition_club_stamp: SharedStamp("c", "competition_id", _club, through=Competition),
    player_club_stamp: SharedStamp("c", "player_id", _club, through=Player),
}
