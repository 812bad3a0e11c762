"""Where the cached pages stand: one small query for the revision a page is built on.

A Stamp names the revision of everything a page shows (sessions.services.revisions
bumps it on every write): the key of the page in the cache, its ETag, and with
``changed_at`` its Last-Modified. A session's pages stand on the session's revision;
the pages across a club's sessions (the club page, event rankings, player pages) on
the club's. The row's id and the time of its last bump are part of the key, so a
row deleted and another created with the same id (SQLite reuses ids) never shares a
page with it.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from sessions.models import Club, Event, Player, Session


@dataclass(frozen=True)
class Stamp:
    key: str
    changed_at: datetime.datetime


def _stamp(kind: str, row: tuple[int, int, datetime.datetime] | None) -> Stamp | None:
    if row is None:
        return None
    pk, revision, revised_at = row
    return Stamp(f"{kind}{pk}.{revision}.{revised_at.timestamp():.6f}", revised_at)


def revision_stamp(obj: Session | Club) -> str:
    """The stamp key of a loaded session or club (no query), as the lookups below give it."""
    kind = "s" if isinstance(obj, Session) else "c"
    stamp = _stamp(kind, (obj.pk, obj.revision, obj.revised_at))
    assert stamp is not None
    return stamp.key


_FIELDS = ("pk", "revision", "revised_at")


def published_session_stamp(*, session_id: int) -> Stamp | None:
    """A published session's pages (one query); None when unknown or unpublished, so
    the view answers (a 404), never the cache."""
    return _stamp("s", Session.objects.filter(pk=session_id, published=True).values_list(*_FIELDS).first())


def club_stamp(*, club_slug: str) -> Stamp | None:
    return _stamp("c", Club.objects.filter(slug=club_slug).values_list(*_FIELDS).first())


def event_club_stamp(*, event_id: int) -> Stamp | None:
    """An event's ranking stands on its club's revision (every session write bumps it)."""
    row = Event.objects.filter(pk=event_id).values_list("club__pk", "club__revision", "club__revised_at").first()
    return _stamp("c", row)


def player_club_stamp(*, player_id: int) -> Stamp | None:
    row = Player.objects.filter(pk=player_id).values_list("club__pk", "club__revision", "club__revised_at").first()
    return _stamp("c", row)
