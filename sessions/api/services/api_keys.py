"""A club's API keys: made and revoked by its owners (the settings page or the admin).

A key is shown once, when made: only its SHA-256 digest is stored (sessions.models.ApiKey).
The keys change no page, so no revision moves.
"""

from __future__ import annotations

import datetime
import secrets

from django.utils import timezone

from sessions.models import ApiKey, Club
from sessions.models.api_keys import hash_key
from sessions.core.text import clean_name

from sessions.core.services.unit_of_work import write

#: Every key starts so, which tells a reader (or a secret scanner) what it is.
KEY_PREFIX = "cs_"
#: A key's last use is written at most this often: every request of a busy reader would
#: otherwise be a write.
LAST_USE_PRECISION = datetime.timedelta(minutes=5)


@write
def api_key_create(*, club: Club, name: str) -> tuple[ApiKey, str]:
    """A new key of the club: the row, and the key itself (the only time it is known)."""
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    api_key = ApiKey(club=club, name=clean_name(name), hashed_key=hash_key(key), prefix=key[:10])
    api_key.full_clean()
    api_key.save()
    return api_key, key


@write
def api_key_revoke(*, api_key: ApiKey) -> ApiKey:
    """The key opens nothing from now on (a second revoke keeps the first time)."""
    if api_key.revoked_at is None:
        api_key.revoked_at = timezone.now()
        api_key.save(update_fields=["revoked_at"])
    return api_key


@write(savepoint=False)
def api_key_used(*, api_key: ApiKey) -> None:
    """Note that the key was used now, if its last use is older than LAST_USE_PRECISION."""
    now = timezone.now()
    if api_key.last_used_at is None or now - api_key.last_used_at >= LAST_USE_PRECISION:
        ApiKey.objects.filter(pk=api_key.pk).update(last_used_at=now)
        api_key.last_used_at = now
