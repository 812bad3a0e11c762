"""Rubber and Chicago score pads a signed-in member keeps on the server.

The pad itself is the JSON document of sessions.scoring.scorepad (the same one the
phone keeps in its browser); the kind, era and names are copied into columns so the
member's list shows them without reading the JSON. ``client_id`` is the browser's
own id for the pad, so syncing the same pad twice updates one row. ``share_token``
opens a read-only copy for anyone who has the link.
"""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from sessions.models.validation import ChecksInProcess


def new_share_token() -> str:
    return secrets.token_urlsafe(16)


class PadKind(models.TextChoices):
    RUBBER = "rubber", "Rubber"
    CHICAGO = "chicago", "Chicago"


class DealEra(models.TextChoices):
    """The laws the deal scores follow (sessions.scoring.deal_score ERAS)."""

    CURRENT = "current", "Current laws (since 1987)"
    ERA_1935 = "1935", "1935 to 1987"
    ERA_1932 = "1932", "1932 laws"


class ScorePad(ChecksInProcess, models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="score_pads")
    client_id = models.CharField(max_length=40, help_text="The browser's id for this pad.")
    kind = models.CharField(max_length=8, choices=PadKind)
    era = models.CharField(max_length=8, choices=DealEra, default=DealEra.CURRENT)
    names = models.JSONField(help_text="North, East, South, West.")
    data = models.JSONField(help_text="The whole pad (sessions.scoring.scorepad).")
    share_token = models.CharField(max_length=32, unique=True, default=new_share_token)
    updated_at = models.DateTimeField(auto_now=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-updated_at"]
        constraints = [
            models.UniqueConstraint(fields=["user", "client_id"], name="score_pad_client_id_unique_per_user"),
            models.CheckConstraint(condition=Q(kind__in=PadKind.values), name="score_pad_kind_valid"),
            models.CheckConstraint(condition=Q(era__in=DealEra.values), name="score_pad_era_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {', '.join(self.names)}"
