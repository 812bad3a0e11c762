"""The results mails sent to players (issue 24): one row per mail, whatever happens to it.

The row is written before the mail is sent, under a unique ``key`` ("results" once per
player and session; "amended" once per player, session and new figures), so a retry,
a second worker or a second "mark final" finds the row and never sends the mail twice.
A teams event's mails are the same rows with ``team_event`` instead of ``session``: the
standings after a round (``round``), then at the end (no round), then amended.
"""

from django.db import models
from django.db.models import Q

from sessions.models.clubs import Player
from sessions.models.events import Session
from sessions.models.teams import TeamEvent
from sessions.models.validation import ChecksInProcess


class MailKind(models.TextChoices):
    RESULTS = "results", "Results"
    AMENDED = "amended", "Amended"


class MailStatus(models.TextChoices):
    QUEUED = "queued", "Queued"  # waiting to be sent, or to be tried again after a failure
    SENDING = "sending", "Sending"  # claimed by one worker: no other sends it
    SENT = "sent", "Sent"
    FAILED = "failed", "Failed"  # the server failed every attempt
    BOUNCED = "bounced", "Bounced"  # the server refused the recipient
    CANCELLED = "cancelled", "Cancelled"  # the player withdrew consent (or left the session) before it went


class ResultMail(ChecksInProcess, models.Model):
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="result_mails")
    # A pairs session's mail, or a teams event's (exactly one of the two).
    session = models.ForeignKey(Session, null=True, blank=True, on_delete=models.CASCADE, related_name="result_mails")
    team_event = models.ForeignKey(
        TeamEvent, null=True, blank=True, on_delete=models.CASCADE, related_name="result_mails"
    )
    # A teams event's standings after this round; None: at the end (final), or a pairs mail.
    round = models.PositiveSmallIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=10, choices=MailKind)
    key = models.CharField(max_length=120, unique=True)
    to_address = models.EmailField()
    status = models.CharField(max_length=10, choices=MailStatus, default=MailStatus.QUEUED)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.CharField(max_length=500, blank=True)
    # The figures the mail gives ({"place": "3=", "percent": "54.17"}): an amended mail
    # names what changed since the last mail the player was sent.
    figures = models.JSONField(default=dict, blank=True)
    changes = models.JSONField(default=dict, blank=True)  # amended: {"place": ["3=", "2"], ...}
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    next_attempt_at = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)

    club_path = "session__event__club"

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="resultmail_due")]
        constraints = [
            models.CheckConstraint(condition=~Q(key=""), name="resultmail_has_key"),
            models.CheckConstraint(
                condition=Q(session__isnull=False, team_event__isnull=True, round__isnull=True)
                | Q(session__isnull=True, team_event__isnull=False),
                name="resultmail_one_subject",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} mail to {self.to_address} ({self.status})"
