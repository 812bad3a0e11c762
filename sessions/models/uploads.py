"""National uploads: each time a director sent a final session's file to the national body.

One row per upload (never updated): the session, the federation whose file it was, the
session's revision when the file was made and the SHA-256 of the file's bytes, when and
by whom. The latest row of a session for its club's federation decides its status on the
uploads page (sessions.clubs.selectors.uploads): not sent, sent, or amended since sending.
"""

from django.conf import settings
from django.db import models

from sessions.models.events import Session
from sessions.models.validation import ChecksInProcess


class NationalUpload(ChecksInProcess, models.Model):
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="national_uploads")
    federation = models.CharField(max_length=8)
    revision = models.PositiveBigIntegerField()  # the session's revision the file was made at
    sha256 = models.CharField(max_length=64)  # of the file's bytes: an unchanged file needs no new upload
    sent_at = models.DateTimeField(auto_now_add=True)
    sent_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="+")

    club_path = "session__event__club"

    class Meta:
        ordering = ["session_id", "-sent_at", "-pk"]
        indexes = [models.Index(fields=["session", "federation", "-id"], name="nationalupload_latest")]
        constraints = [
            models.CheckConstraint(condition=~models.Q(federation=""), name="nationalupload_has_federation"),
            models.CheckConstraint(condition=models.Q(sha256__regex=r"^[0-9a-f]{64}$"), name="nationalupload_sha256"),
        ]

    def __str__(self) -> str:
        return f"{self.session} to {self.federation.upper()} at revision {self.revision}"
