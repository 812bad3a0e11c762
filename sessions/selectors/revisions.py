"""Where the cached pages stand: one small query for the revision a page is built on.

A Stamp names the revision of everything a page shows (sessions.services.revisions
bumps it on every write): the key of the page in the cache, its ETag, and with
``changed_at`` its Last-Modified. A session's pages stand on the session's revision;
the pages across a club's sessions (the club page, event rankings, player pages) on
the club's; a teams event's pages on the event's. The row's id and the time of its
last bump are part of the key, so a row deleted and another created with the same id
(SQLite reuses ids) never shares a page with it.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db import connection, models
from django.utils import timezone

from sessions.models import Club, Event, Player, Session, TeamEvent


@dataclass(frozen=True)
class Stamp:
    key: str
    changed_at: datetime.datetime


def _stamp(kind: str, row: tuple[int, int, datetime.datetime] | None) -> Stamp | None:
    if row is None:
        return None
    pk, revision, revised_at = row
    if timezone.is_naive(revised_at):  # SQLite keeps UTC without its zone
        revised_at = revised_at.replace(tzinfo=datetime.timezone.utc)
    return Stamp(f"{kind}{pk}.{revision}.{revised_at.timestamp():.6f}", revised_at)


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


def _row(sql: str, *params: object) -> tuple[int, int, datetime.datetime] | None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


def published_session_stamp(*, session_id: int) -> Stamp | None:
    """A published session's pages (one query); None when unknown or unpublished, so
    the view answers (a 404), never the cache."""
    sql = f"SELECT id, revision, revised_at FROM {_table(Session)} WHERE id = %s AND published = %s"
    return _stamp("s", _row(sql, session_id, True))


def published_team_event_stamp(*, event_id: int) -> Stamp | None:
    """A published teams event's pages (one query); None when unknown or unpublished, so
    the view answers (a 404), never the cache."""
    sql = f"SELECT id, revision, revised_at FROM {_table(TeamEvent)} WHERE id = %s AND published = %s"
    return _stamp("t", _row(sql, event_id, True))


def club_stamp(*, club_slug: str) -> Stamp | None:
    return _stamp("c", _row(f"SELECT id, revision, revised_at FROM {_table(Club)} WHERE slug = %s", club_slug))


def _club_of(model: type[models.Model], pk: int) -> tuple[int, int, datetime.datetime] | None:
    sql = (f"SELECT c.id, c.revision, c.revised_at FROM {_table(model)} o "
           f"JOIN {_table(Club)} c ON c.id = o.club_id WHERE o.id = %s")
    return _row(sql, pk)


def event_club_stamp(*, event_id: int) -> Stamp | None:
    """An event's ranking stands on its club's revision (every session write bumps it)."""
    return _stamp("c", _club_of(Event, event_id))


def player_club_stamp(*, player_id: int) -> Stamp | None:
    return _stamp("c", _club_of(Player, player_id))
