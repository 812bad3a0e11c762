"""The director's calls: the open ones on the live grid, and a table's latest on its phone."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sessions.models import DirectorCall, Session, TableLink

#: How long the phone says "The director is coming" after the call was taken.
COMING_FOR = timedelta(minutes=10)


def open_calls(*, session: Session) -> list[DirectorCall]:
    """The session's calls not yet taken, the oldest first: one query, however many."""
    return list(
        DirectorCall.objects.filter(session=session, taken_at__isnull=True)
        .select_related("section").order_by("called_at", "pk")
    )


@dataclass(frozen=True)
class TableCall:
    """What the phone shows of its table's latest call."""

    call: DirectorCall
    coming: bool  # taken: the director is on the way

    @property
    def waiting(self) -> bool:
        return not self.coming


def table_call(*, link: TableLink, now: datetime) -> TableCall | None:
    """The table's open call, or the one a director took a few minutes ago; else None."""
    call = DirectorCall.objects.filter(section=link.section_id, table=link.table).order_by("-called_at", "-pk").first()
    if call is None:
        return None
    if call.taken_at is None:
        return TableCall(call, coming=False)
    if now - call.taken_at <= COMING_FOR:
        return TableCall(call, coming=True)
    return None
