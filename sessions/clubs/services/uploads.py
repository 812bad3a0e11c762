"""Recording a national upload: the director sent a final session's file to the federation.

Downloading the file is not sending it (a director may look at it first, or the
upload may fail at the national body's end): the director confirms with "Mark as sent",
which records the file as it is now (its revision and SHA-256). The confirmation names
the revision the director's page showed: if the session changed since then, the file
they sent is not this one, and nothing is recorded.

Recording an upload changes nothing a players' page or a cached answer shows (only the
director's uploads page reads it, never cached), so it bumps no revision: bumping the
session's would itself mark the session "amended since sending".
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from sessions.models import NationalUpload, Session
from sessions.transfer.national import UploadRefused, file_sha256, upload_file, upload_format

from sessions.core.services.unit_of_work import unit, write

CHANGED_SINCE_DOWNLOAD = (
    "The session changed after you downloaded its file (revision {seen}, now {now}): "
    "download it again and send that one."
)


@write
def national_upload_record(*, session: Session, revision: int, by: AbstractBaseUser | None = None) -> NationalUpload:
    """Record that the director sent the session's file as of ``revision``; UploadRefused
    when the session is not final, its club has no upload file, or it changed since."""
    unit().lock(sessions=[session])  # a correction meanwhile waits: the file is the one recorded
    session = Session.objects.select_related("event__club").get(pk=session.pk)
    upload = upload_format(session)
    if session.revision != revision:
        raise UploadRefused(CHANGED_SINCE_DOWNLOAD.format(seen=revision, now=session.revision))
    _, _, content = upload_file(session)
    record = NationalUpload(session=session, federation=upload.federation, revision=session.revision,
                            sha256=file_sha256(content), sent_by=by)
    record.full_clean()
    record.save()
    return record
