"""With a shared cache (Redis), a cached page is served without asking the database:
each write puts its rows' new stamps in Redis after its commit, and a page request reads
the stamp and the page in one round trip (sessions.core.selectors.revisions, SharedStamp).

These tests need the Redis server every CI machine runs; their keys carry a prefix of
their own, deleted afterwards (the server may be shared). A test's transaction never
commits: a write's after-commit work runs here only inside
``django_capture_on_commit_callbacks(execute=True)``, as the commit would run it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import override_settings
from django.urls import reverse

from sessions.core import shared_cache
from sessions.models import Session
from sessions.core.selectors.revisions import forget_clubs, stamp_entry_key
from sessions.core.services import revisions
from sessions.pairs.services.sessions import session_publish, session_unpublish
from tests.core.views.test_page_cache import PAGES, correct_board_1, page_params
from tests.redis_cache import delete_keys, redis_caches

LOCATION = "redis://127.0.0.1:6379/5"


@pytest.fixture
def redis_cache() -> Iterator[dict]:
    """Django's cache on Redis for the test; yields its settings (a new client each time
    they are applied: another worker's). Stamps are kept a minute here, so a loaded CI
    machine cannot let one expire between two requests; the test of expiry sets its own."""
    forget_clubs()
    try:
        with redis_caches(LOCATION) as settings, override_settings(CACHES=settings, STAMP_CACHE_SECONDS=60):
            shared_cache.resume()
            yield settings
    finally:
        forget_clubs()


def another_worker(settings: dict):
    """Another worker: its own connection to Redis and nothing remembered of its own."""
    forget_clubs()
    return override_settings(CACHES={"default": dict(settings["default"])})


@page_params
def test_with_redis_a_cached_page_asks_the_database_nothing(client, played_session, address, write, redis_cache,
                                                             django_assert_num_queries):
    url = address(played_session)
    first = client.get(url)
    assert first.status_code == 200
    with django_assert_num_queries(0):
        second = client.get(url)
    with django_assert_num_queries(0):
        by_etag = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert (second.status_code, second.content, second["ETag"]) == (200, first.content, first["ETag"])
    assert by_etag.status_code == 304


@page_params
def test_a_write_is_seen_by_the_next_request_of_another_worker(client, played_session, address, write, redis_cache,
                                                               django_capture_on_commit_callbacks,
                                                               django_assert_num_queries):
    url = address(played_session)
    before = client.get(url)
    client.get(url)  # from the cache: the stamp is in Redis

    with django_capture_on_commit_callbacks(execute=True):
        write(played_session)
    with another_worker(redis_cache):
        after = client.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
        with django_assert_num_queries(0):
            again = client.get(url)

    assert after.status_code == 200 and after.content != before.content and after["ETag"] != before["ETag"]
    assert again.content == after.content
    delete_keys(redis_cache)  # never cache.clear() on Redis (tests/redis_cache.py)
    forget_clubs()
    assert client.get(url).content == after.content  # what a fresh render shows


def test_a_write_whose_stamp_never_reached_redis_shows_within_the_stamps_time(client, played_session, redis_cache,
                                                                              django_capture_on_commit_callbacks):
    """The worst case: the write after the commit is lost, and a request read the row
    just before the commit and kept its stamp (the write takes it out as it bumps)."""
    url = reverse("sessions:session_results", args=[played_session.pk])
    before = client.get(url)
    stamp_key = stamp_entry_key("s", played_session.pk)
    stale = cache.get(stamp_key)
    assert stale is not None

    with django_capture_on_commit_callbacks(execute=False):  # the write to Redis never happens
        correct_board_1(played_session)
    assert cache.get(stamp_key) is None  # taken out as the row was bumped
    with override_settings(STAMP_CACHE_SECONDS=3):  # long enough for a loaded machine's request
        cache.set(stamp_key, stale, settings.STAMP_CACHE_SECONDS)  # kept meanwhile, read before the commit
        stale_page = client.get(url)
        time.sleep(settings.STAMP_CACHE_SECONDS + 0.1)
        fresh_page = client.get(url)

    assert stale_page.content == before.content
    assert fresh_page.content != before.content


def test_without_a_kept_stamp_a_write_shows_at_once_even_when_its_stamp_is_lost(client, played_session, redis_cache,
                                                                               django_capture_on_commit_callbacks):
    url = reverse("sessions:session_results", args=[played_session.pk])
    before = client.get(url)
    with django_capture_on_commit_callbacks(execute=False):
        correct_board_1(played_session)
    assert client.get(url).content != before.content


def test_unpublishing_takes_effect_at_once(client, played_session, redis_cache, django_capture_on_commit_callbacks):
    url = reverse("sessions:session_results", args=[played_session.pk])
    assert client.get(url).status_code == 200
    assert client.get(url).status_code == 200  # from the cache

    with django_capture_on_commit_callbacks(execute=True):
        session_unpublish(session=played_session)
    with another_worker(redis_cache):
        assert client.get(url).status_code == 404
        assert client.get(url).status_code == 404  # the kept stamp says unpublished: the view answers

    with django_capture_on_commit_callbacks(execute=True):
        session_publish(session=played_session)
    assert client.get(url).status_code == 200


def test_a_logged_in_director_never_shares_an_entry_or_an_etag_with_the_public(client, director, played_session,
                                                                              redis_cache):
    url = reverse("sessions:session_results", args=[played_session.pk])
    public = client.get(url)
    client.force_login(director)
    mine = client.get(url, HTTP_IF_NONE_MATCH=public["ETag"])
    again = client.get(url, HTTP_IF_NONE_MATCH=mine["ETag"])
    client.logout()
    theirs = client.get(url, HTTP_IF_NONE_MATCH=mine["ETag"])

    assert mine.status_code == 200 and "private" in mine["Cache-Control"] and mine["ETag"] != public["ETag"]
    assert again.status_code == 304
    assert theirs.status_code == 200 and theirs["ETag"] == public["ETag"]


def test_an_unknown_session_is_a_404_and_nothing_is_kept(client, played_session, redis_cache):
    url = reverse("sessions:session_results", args=[played_session.pk + 1000])
    assert client.get(url).status_code == 404
    assert cache.get(stamp_entry_key("s", played_session.pk + 1000)) is None


def test_with_local_memory_every_page_asks_the_database_for_its_stamp(client, played_session,
                                                                     django_capture_on_commit_callbacks,
                                                                     django_assert_num_queries):
    """Each worker's own memory would not see another's writes: nothing changes there."""
    url, _write = PAGES["ranking"]
    address = url(played_session)
    client.get(address)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        correct_board_1(played_session)
    client.get(address)
    with django_assert_num_queries(1):
        client.get(address)
    assert cache.get(stamp_entry_key("s", played_session.pk)) is None
    assert callbacks and not [callback for callback in callbacks if _tells_redis(callback)]


def test_with_redis_a_write_tells_redis_after_its_commit(played_session, redis_cache,
                                                         django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        correct_board_1(played_session)
    assert [callback for callback in callbacks if _tells_redis(callback)]


def _tells_redis(callback: object) -> bool:
    return getattr(callback, "func", None) is revisions._tell


def test_a_teams_events_pages_ask_the_database_nothing_and_show_a_write(client, club, redis_cache,
                                                                         django_capture_on_commit_callbacks,
                                                                         django_assert_num_queries):
    from sessions.teams.services.teams import team_event_unpublish
    from tests.teams.views.test_public_teams import _played_round_robin

    event, match = _played_round_robin(club)
    urls = [reverse("sessions:team_event", args=[event.pk]), reverse("sessions:team_match", args=[event.pk, match.pk])]
    for url in urls:
        first = client.get(url)
        with django_assert_num_queries(0):
            assert client.get(url).content == first.content
    with django_capture_on_commit_callbacks(execute=True):
        team_event_unpublish(event=event)
    with another_worker(redis_cache):
        assert [client.get(url).status_code for url in urls] == [404, 404]


def test_the_clubs_sites_are_read_with_the_stamp(client, club, played_session, redis_cache,
                                                  django_capture_on_commit_callbacks, django_assert_num_queries):
    """A session's pages and the club's embed carry the club's frame origins, kept in its stamp."""
    from tests.clubs.views.test_embeds import SITES, allow, framed_by, refused

    urls = [reverse("sessions:session_results", args=[played_session.pk]),
            reverse("sessions:embed_latest", args=[club.slug])]
    for url in urls:
        assert refused(client.get(url))
    with django_capture_on_commit_callbacks(execute=True):
        allow(club, SITES)
    with another_worker(redis_cache):
        for url in urls:
            assert framed_by(client.get(url), SITES), url
            with django_assert_num_queries(0):
                assert framed_by(client.get(url), SITES), url


def test_a_committed_write_reaches_another_worker_through_redis(client, played_session, redis_cache, transactional_db,
                                                                 django_assert_num_queries):
    """No test transaction here: the write really commits, and its after-commit work runs
    as in production."""
    url = reverse("sessions:session_results", args=[played_session.pk])
    before = client.get(url)
    with django_assert_num_queries(0):
        assert client.get(url).content == before.content

    correct_board_1(played_session)
    revision = Session.objects.get(pk=played_session.pk).revision
    assert cache.get(stamp_entry_key("s", played_session.pk))[1] == revision  # put there after the commit
    with another_worker(redis_cache):
        after = client.get(url)
        with django_assert_num_queries(0):
            again = client.get(url)

    assert after.content != before.content and again.content == after.content
