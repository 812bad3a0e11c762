"""The addresses a club's programs give to be told when its results change, and each delivery.

A webhook is one https address of one club, with the shared secret its deliveries are
signed with (sessions.api.services.webhooks). A delivery is one event (published, final,
amended) of one session or teams event at one revision, for one webhook: the database
refuses a second (the unique constraint), so an event is never delivered twice.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone

from sessions.models.clubs import Club
from sessions.models.validation import ChecksInProcess


class WebhookEvent(models.TextChoices):
    PUBLISHED = "published", "published"
    FINAL = "final", "marked final"
    AMENDED = "amended", "amended after final"
    TEST = "test", "test"  # the settings page's "send a test": no subject, never deduplicated


class WebhookSubject(models.TextChoices):
    SESSION = "session", "pairs session"
    TEAMS = "teams", "teams event"


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", "waiting"
    SENT = "sent", "delivered"
    FAILED = "failed", "failed"


class Webhook(ChecksInProcess, models.Model):
    """One address of a club; a removed webhook keeps its deliveries until it is deleted."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=300, help_text="An https address of the club's program, told of each change.")
    # Kept as is: each delivery is signed with it (HMAC), so it cannot be stored as a digest.
    secret = models.CharField(max_length=64, editable=False)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    club_path = "club"

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["club", "url"], name="webhook_url_once_per_club"),
            models.CheckConstraint(condition=~Q(secret=""), name="webhook_has_secret"),
        ]

    def __str__(self) -> str:
        return self.url


class WebhookDelivery(ChecksInProcess, models.Model):
    """One event for one webhook: its body, and how the sending went (the settings page's log)."""

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    event = models.CharField(max_length=10, choices=WebhookEvent.choices)
    subject = models.CharField(max_length=10, choices=WebhookSubject.choices, blank=True)
    subject_id = models.BigIntegerField(null=True, blank=True)
    revision = models.PositiveBigIntegerField(default=0)
    body = models.TextField()  # the JSON sent, fixed when the event happened
    status = models.CharField(max_length=10, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    response_code = models.PositiveSmallIntegerField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["webhook", "event", "subject", "subject_id", "revision"], condition=~Q(event="test"),
                name="webhook_delivery_once",
            ),
        ]
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="webhook_delivery_due")]

    def __str__(self) -> str:
        return f"{self.event} {self.subject} {self.subject_id} r{self.revision} to {self.webhook_id}"
