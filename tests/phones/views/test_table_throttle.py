"""The table links' guessing throttle (sessions/core/throttle.py): counted per client address
(behind the configured proxies), a valid link always opens, and every worker sees the
same count, in the shared cache or, without one that answers, in the database.

The conftest session is a 3-table Mitchell.
"""

from __future__ import annotations

import datetime

import pytest
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from sessions.models import TableTokenMiss
from sessions.phones.services.phone_links import phone_link_renew
from sessions.phones.services.tables import table_links_ensure
from sessions.core.throttle import THROTTLE_MISSES, THROTTLE_WINDOW
from tests.redis_cache import redis_caches

PROXY = "192.0.2.10"
REDIS = "redis://127.0.0.1:6379/7"  # this worktree's database on the shared server


@pytest.fixture
def link(session):
    return table_links_ensure(session=session)[0]


def page(link) -> str:
    return reverse("sessions:table_page", args=[link.token])


def guess(client: Client, number: int):
    return client.get(f"/t/guess{number:04d}/")


def guess_until_refused(client: Client, *, between=lambda: None) -> list[int]:
    statuses = []
    for number in range(THROTTLE_MISSES + 1):
        between()
        statuses.append(guess(client, number).status_code)
    return statuses


REFUSED_AFTER_THE_LIMIT = [404] * THROTTLE_MISSES + [429]


def test_behind_a_proxy_each_client_is_counted_on_its_own(db, settings):
    settings.TRUSTED_PROXIES = 1
    guesser = Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.5")
    assert guess_until_refused(guesser) == REFUSED_AFTER_THE_LIMIT

    another = Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.7")
    assert guess(another, 1000).status_code == 404  # not told to wait for the first one's guesses


def test_a_valid_link_opens_from_an_address_that_tried_too_many(client, link):
    old = link.token
    renewed = phone_link_renew(link=link)
    for _ in range(THROTTLE_MISSES):  # the phones of the club scan last week's card
        assert client.get(f"/t/{old}/").status_code == 404
    assert guess(client, 1).status_code == 429

    assert client.get(page(renewed)).status_code == 200  # the table's new card, from the same address
    assert client.get(page(renewed)).status_code == 200
    assert guess(client, 2).status_code == 429  # guessing still waits


def test_without_a_shared_cache_every_worker_sees_the_same_count(client, db):
    # Each request served by a worker whose own memory never saw the others' misses.
    assert guess_until_refused(client, between=cache.clear) == REFUSED_AFTER_THE_LIMIT


def test_while_redis_cannot_be_reached_the_throttle_still_counts(client, db):
    unreachable = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                               "LOCATION": "redis://127.0.0.1:1/0"}}  # nothing listens there
    with override_settings(CACHES=unreachable):
        assert guess_until_refused(client) == REFUSED_AFTER_THE_LIMIT


def test_with_redis_the_count_lives_in_redis(client, db):
    with redis_caches(REDIS, "django.core.cache.backends.redis.RedisCache") as shared:
        with override_settings(CACHES=shared):
            assert guess_until_refused(client) == REFUSED_AFTER_THE_LIMIT
        assert not TableTokenMiss.objects.exists()


def test_misses_older_than_the_window_no_longer_count_and_are_deleted(client, db):
    assert guess_until_refused(client) == REFUSED_AFTER_THE_LIMIT
    TableTokenMiss.objects.update(at=timezone.now() - datetime.timedelta(seconds=THROTTLE_WINDOW + 1))

    assert guess(client, 1).status_code == 404
    assert TableTokenMiss.objects.count() == 1


def test_an_address_that_waits_adds_no_more_rows(client, db):
    guess_until_refused(client)
    for number in range(5):
        assert guess(client, number).status_code == 429

    assert TableTokenMiss.objects.count() == THROTTLE_MISSES + 1
