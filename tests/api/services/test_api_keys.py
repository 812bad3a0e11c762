"""A club's API keys: made with only their digest kept, revoked once, their use noted sparingly."""

from __future__ import annotations

import datetime
import hashlib

import pytest
from django.core.exceptions import ValidationError

from sessions.models import ApiKey
from sessions.api.selectors.api_keys import active_api_key
from sessions.api.services.api_keys import LAST_USE_PRECISION, api_key_create, api_key_revoke, api_key_used


def test_a_new_key_is_kept_only_as_its_sha256_digest(club):
    api_key, key = api_key_create(club=club, name="  Club   website ")

    stored = ApiKey.objects.get()
    assert stored.hashed_key == hashlib.sha256(key.encode()).hexdigest()
    assert key.startswith("cs_") and len(key) > 40 and stored.prefix == key[:10]
    assert stored.name == "Club website"
    assert active_api_key(key=key) == stored
    assert active_api_key(key=key + "x") is None


def test_two_keys_differ(club):
    assert api_key_create(club=club, name="A")[1] != api_key_create(club=club, name="B")[1]


def test_a_key_needs_a_name(club):
    with pytest.raises(ValidationError):
        api_key_create(club=club, name=" ")
    assert not ApiKey.objects.exists()


def test_a_revoked_key_is_no_longer_active_and_keeps_its_first_revocation(club):
    api_key, key = api_key_create(club=club, name="Old site")
    api_key_revoke(api_key=api_key)
    first = ApiKey.objects.get().revoked_at

    api_key_revoke(api_key=ApiKey.objects.get())

    assert active_api_key(key=key) is None
    assert ApiKey.objects.get().revoked_at == first is not None


def test_a_keys_use_is_written_at_most_once_in_a_while(club, django_assert_num_queries):
    api_key, _ = api_key_create(club=club, name="Website")
    with django_assert_num_queries(1):
        api_key_used(api_key=api_key)
    with django_assert_num_queries(0):  # used again at once: no write
        api_key_used(api_key=api_key)
    api_key.last_used_at -= LAST_USE_PRECISION + datetime.timedelta(seconds=1)
    with django_assert_num_queries(1):
        api_key_used(api_key=api_key)
