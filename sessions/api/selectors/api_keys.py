"""Reading a club's API keys: the key a request names, and a club's list."""

from __future__ import annotations

from django.db.models import QuerySet

from sessions.models import ApiKey, Club
from sessions.models.api_keys import hash_key


def active_api_key(*, key: str) -> ApiKey | None:
    """The unrevoked key ``key`` is (one query), else None."""
    if not key or len(key) > 200:
        return None
    return ApiKey.objects.filter(hashed_key=hash_key(key), revoked_at__isnull=True).first()


def club_api_keys(*, club: Club) -> QuerySet[ApiKey]:
    return ApiKey.objects.filter(club=club)
