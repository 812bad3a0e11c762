"""The keys a club gives its own programs to read its unpublished data through the API."""

from __future__ import annotations

import hashlib

from django.db import models
from django.db.models import Q
from django.utils import timezone

from sessions.models.clubs import Club
from sessions.models.validation import ChecksInProcess


def hash_key(key: str) -> str:
    """What is stored of a key: its SHA-256 digest (a key is random, so no salt is needed)."""
    return hashlib.sha256(key.encode()).hexdigest()


class ApiKey(ChecksInProcess, models.Model):
    """A bearer key of one club (``Authorization: Bearer <key>``).

    Only a SHA-256 digest of the key is kept: the key itself is shown once, when it is
    made (sessions.api.services.api_keys), and a leaked database reveals no usable key. A
    revoked key stays listed, with its last use, so the club sees what it was.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="api_keys")
    name = models.CharField(max_length=80, help_text="What uses the key, e.g. \"the club's website\".")
    hashed_key = models.CharField(max_length=64, unique=True, editable=False)
    prefix = models.CharField(max_length=12, editable=False)  # the key's first characters, to tell keys apart
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    last_used_at = models.DateTimeField(null=True, blank=True, editable=False)
    revoked_at = models.DateTimeField(null=True, blank=True)

    club_path = "club"

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [models.CheckConstraint(condition=~Q(name=""), name="apikey_has_name")]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}...)"

    @property
    def revoked(self) -> bool:
        return self.revoked_at is not None
