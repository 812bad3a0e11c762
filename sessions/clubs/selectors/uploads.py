"""The club's final sessions and where each stands with its national upload.

A session is "not sent" until a director marks its file sent; "sent" while its revision
is the one recorded; "amended since sending" once it moved (a correction after final,
awards recomputed, a change of player): the federation holds an older file. Two
queries whatever the number of sessions: the sessions, then their uploads.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from django.db.models import Prefetch

from sessions.models import Club, NationalUpload, Session


class UploadStatus(Enum):
    NOT_SENT = "not sent"
    SENT = "sent"
    AMENDED = "amended since sending"


@dataclass(frozen=True)
class UploadRow:
    session: Session
    last: NationalUpload | None  # the latest upload to the club's federation
    times_sent: int

    @property
    def status(self) -> UploadStatus:
        if self.last is None:
            return UploadStatus.NOT_SENT
        return UploadStatus.SENT if self.last.revision == self.session.revision else UploadStatus.AMENDED


def club_upload_rows(*, club: Club) -> list[UploadRow]:
    """The club's final sessions, newest first, each with its uploads to the club's federation."""
    uploads = NationalUpload.objects.filter(federation=club.masterpoint_federation).select_related("sent_by")
    sessions = (
        Session.objects.filter(event__club=club, final_at__isnull=False)
        .select_related("event")
        .prefetch_related(Prefetch("national_uploads", queryset=uploads.order_by("-pk"), to_attr="uploads_sent"))
        .order_by("-date", "-pk")
    )
    return [UploadRow(session, session.uploads_sent[0] if session.uploads_sent else None, len(session.uploads_sent))
            for session in sessions]


def latest_upload(*, session: Session) -> NationalUpload | None:
    """The session's last recorded sending (one query), else None."""
    return session.national_uploads.order_by("-pk").first()
