"""The director's calls: the open ones on the live grid, and a table's latest on its phone."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sessions.core.query_speed import prepared
from sessions.models import DirectorCall, MatchTableLink, Session, TableLink, TeamEvent

#: How long the phone says "The director is coming" after the call was taken.
COMING_FOR = timedelta(minutes=10)


def call_place(link: TableLink | MatchTableLink) -> dict[str, object]:
    """Where a phone's call comes from, as the call's fields: a pairs table (its session,
    section and table) or a teams room (its event, match and room)."""
    if isinstance(link, MatchTableLink):
        return {"team_event_id": link.match.event_id, "match_id": link.match_id, "room": link.room}
    return {"session_id": link.session_id, "section_id": link.section_id, "table": link.table}


def open_calls(*, session: Session | None = None, team_event: TeamEvent | None = None) -> list[DirectorCall]:
    """The session's (or teams event's) calls not yet taken, the oldest first: one query, however many."""
    calls = DirectorCall.objects.filter(taken_at__isnull=True)
    if team_event is not None:
        calls = calls.filter(team_event=team_event).select_related("match__home", "match__away")
    else:
        calls = calls.filter(session=session).select_related("section")
    return list(calls.order_by("called_at", "pk"))


@dataclass(frozen=True)
class TableCall:
    """What the phone shows of its table's latest call."""

    call: DirectorCall
    coming: bool  # taken: the director is on the way

    @property
    def waiting(self) -> bool:
        return not self.coming


def table_call(*, link: TableLink | MatchTableLink, now: datetime) -> TableCall | None:
    """The table's (or room's) open call, or the one a director took a few minutes ago; else None."""
    place = call_place(link)
    latest = prepared(("calls.table_call", *place), lambda **place: DirectorCall.objects.filter(**place)
                      .order_by("-called_at", "-pk")[:1], name="a table's latest call")
    call = latest.first(**place)
    if call is None:
        return None
    if call.taken_at is None:
        return TableCall(call, coming=False)
    if now - call.taken_at <= COMING_FOR:
        return TableCall(call, coming=True)
    return None
