"""A results file being imported in the background (sessions.transfer.services.jobs).

A large upload is not imported in the request that brings it (a file at the formats'
limits takes longer than a web worker may): the file is kept on an ImportJob row, a
worker thread imports it after the commit, and the director's page polls the row. The
import itself is one transaction, so a job is queued, running, then done (with its
session) or failed (with the reason, and nothing of the session stored). What the file
holds (boards, pairs, traveller lines) is recorded once it is read, while the rest runs.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from sessions.models.clubs import Club
from sessions.models.events import Event, Session
from sessions.models.validation import ChecksInProcess


class ImportStatus(models.TextChoices):
    QUEUED = "queued", "Waiting to start"
    RUNNING = "running", "Importing"
    DONE = "done", "Imported"
    FAILED = "failed", "Not imported"


class ImportJobManager(models.Manager):
    """Jobs without their file (up to MAX_UPLOAD_BYTES), which loads when read: the page polls every second."""

    def get_queryset(self) -> models.QuerySet:
        return super().get_queryset().defer("data")


class ImportJob(ChecksInProcess, models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="import_jobs")
    # The club's event chosen on the upload form (None: a new event, as the file scores).
    event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    # How a new event scores the file's sections, as the upload form chose ("": as the file shows).
    sections = models.CharField(max_length=8, blank=True, default="", choices=[("together", "Together"), ("apart", "Apart")])
    # The conventions the upload form stated, "not_played=zero;handicap=50" ("": each as the file shows).
    conventions = models.CharField(max_length=120, blank=True, default="")
    # Whether the import publishes what it stores, and marks it final (importing.PUBLISH_CHOICES).
    publish = models.CharField(max_length=9, blank=True, default="", choices=[
        ("", "Leave it unpublished"), ("published", "Publish it"), ("final", "Publish it and mark it final"),
    ])
    filename = models.CharField(max_length=255)
    size = models.PositiveIntegerField(help_text="The file's size in bytes.")
    data = models.BinaryField(blank=True, help_text="The file, until the job ends.")
    status = models.CharField(max_length=8, choices=ImportStatus, default=ImportStatus.QUEUED)
    # Each start (or restart after an interruption) counts: a worker finishes only the attempt it began.
    attempts = models.PositiveSmallIntegerField(default=0)
    # What the file holds, once read (None until then).
    boards = models.PositiveIntegerField(null=True, blank=True)
    pairs = models.PositiveIntegerField(null=True, blank=True)
    lines = models.PositiveIntegerField(null=True, blank=True)
    # Done: the import's summary, one line each; failed: why, as the upload page says it.
    message = models.TextField(blank=True)
    session = models.ForeignKey(Session, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # A teams file (known once read: ``pairs`` then counts teams, ``lines`` room lines) ends
    # with a teams event instead of a session.
    teams = models.BooleanField(default=False)
    team_event = models.ForeignKey(
        "clubsessions.TeamEvent", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = ImportJobManager()

    club_path = "club"

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(status=ImportStatus.FAILED) | ~Q(message=""), name="importjob_failed_has_message",
            ),
            models.CheckConstraint(
                condition=Q(status__in=[ImportStatus.QUEUED, ImportStatus.RUNNING]) | Q(finished_at__isnull=False),
                name="importjob_finished_has_time",
            ),
        ]

    def __str__(self) -> str:
        return f"Import of {self.filename} ({self.status})"

    @property
    def finished(self) -> bool:
        return self.status in (ImportStatus.DONE, ImportStatus.FAILED)

    @property
    def step(self) -> int:
        """Where a job stands, of STEPS: 1 waiting, 2 reading the file, 3 storing and scoring, 4 ended."""
        if self.finished:
            return 4
        if self.status == ImportStatus.QUEUED:
            return 1
        return 2 if self.lines is None else 3

    @property
    def seconds_running(self) -> int | None:
        """Seconds since the job (its latest attempt) started, to its end; None before it starts."""
        if self.started_at is None:
            return None
        return int(((self.finished_at or timezone.now()) - self.started_at).total_seconds())

    @property
    def summary_lines(self) -> list[str]:
        return self.message.splitlines()
