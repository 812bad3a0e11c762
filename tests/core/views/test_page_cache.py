"""The players' pages come from the cache by revision, answer 304 to a phone that has
them, and show a correction on the very next request.

``played_session`` (conftest) is a published 3-table Mitchell with boards 1 and 2
entered; 1NS (Ann Archer & Bob Baker) v 1EW made 4S N = (+420) on board 1.
"""

from __future__ import annotations

import datetime
import re
import threading
import time
from collections.abc import Callable

import pytest
from django.core.cache import cache
from django.http import HttpResponse
from django.test import RequestFactory, override_settings
from django.urls import reverse

from sessions.core import shared_cache
from sessions.models import Player, Result, Session
from sessions.core.selectors.revisions import Stamp
from sessions.pairs.services.results import result_correct
from sessions.pairs.services.sessions import session_publish, session_unpublish
from sessions.clubs.services.player_records import player_update
from sessions.pairs.services.repair import session_update
from sessions.core.views import caching
from tests.redis_cache import keys, redis_caches


def correct_board_1(session: Session) -> None:
    """1NS v 1EW on board 1 made an overtrick more: +450, the top (every figure moves)."""
    line = Result.objects.get(board__session=session, board__number=1, ns_pair__number=1)
    result_correct(result=line, text="4S N +1", version=line.version)


def rename_session(session: Session) -> None:
    session_update(session=session, name="Renamed Tuesday", date=datetime.date(2025, 3, 4))


def rename_ann(session: Session) -> None:
    player_update(player=Player.objects.get(name="Ann Archer"), name="Ann Smith")


def _pair(session: Session, label: str) -> int:
    return next(p.pk for p in session.sections.get().pairs.all() if p.label == label)


#: Each cached page: its address for the session, and a write that changes what it shows.
PAGES: dict[str, tuple[Callable[[Session], str], Callable[[Session], None]]] = {
    "ranking": (lambda s: reverse("sessions:session_results", args=[s.pk]), correct_board_1),
    "traveller": (lambda s: reverse("sessions:board", args=[s.pk, 1]), correct_board_1),
    "score card": (lambda s: reverse("sessions:scorecard", args=[s.pk, _pair(s, "1NS")]), correct_board_1),
    "player": (lambda s: reverse("sessions:player", args=[Player.objects.get(name="Ann Archer").pk]),
               correct_board_1),
    "event": (lambda s: reverse("sessions:event_results", args=[s.event_id]), correct_board_1),
    "club": (lambda s: reverse("sessions:club", args=[s.event.club.slug]), rename_session),
    "player search": (lambda s: reverse("sessions:club_players", args=[s.event.club.slug]) + "?q=ann", rename_ann),
}

page_params = pytest.mark.parametrize(("address", "write"), PAGES.values(), ids=PAGES.keys())


@page_params
def test_a_second_visit_is_served_from_the_cache_in_one_query(client, played_session, address, write,
                                                                 django_assert_num_queries):
    url = address(played_session)
    first = client.get(url)
    assert first.status_code == 200
    # 1. the revision the page stands on (the session's, or the club's): the key of the page
    with django_assert_num_queries(1):
        second = client.get(url)
    assert second.status_code == 200
    assert second.content == first.content
    assert second["ETag"] == first["ETag"]


@page_params
def test_a_write_shows_on_the_next_request(client, played_session, address, write):
    url = address(played_session)
    before = client.get(url)

    write(played_session)
    after = client.get(url, HTTP_IF_NONE_MATCH=before["ETag"])

    assert after.status_code == 200  # not a 304: the phone's copy is out of date
    assert after["ETag"] != before["ETag"]
    assert after.content != before.content
    cache.clear()
    assert client.get(url).content == after.content  # what a fresh render shows


@page_params
def test_a_phone_that_has_the_page_gets_a_304(client, played_session, address, write, django_assert_num_queries):
    url = address(played_session)
    first = client.get(url)
    with django_assert_num_queries(1):  # the revision, nothing else
        by_etag = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    by_date = client.get(url, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert (by_etag.status_code, by_date.status_code) == (304, 304)
    assert by_etag.content == b""
    assert by_etag["ETag"] == first["ETag"]


def test_the_query_count_of_a_cached_page_does_not_grow_with_the_session(client, event, django_assert_num_queries):
    from tests.pairs.views.test_public_queries import entered_session

    for tables in (3, 15):
        session = entered_session(event, tables)
        url = reverse("sessions:session_results", args=[session.pk])
        client.get(url)
        with django_assert_num_queries(1):
            assert client.get(url).status_code == 200


def test_public_answers_may_be_kept_on_the_way_and_say_they_vary_on_the_cookie(client, played_session):
    response = client.get(reverse("sessions:session_results", args=[played_session.pk]))
    assert "public" in response["Cache-Control"] and "no-cache" in response["Cache-Control"]
    assert "Cookie" in response["Vary"]
    assert response["Last-Modified"]


def test_a_kept_page_carries_no_csp_nonce(client, played_session):
    """One body serves every visitor: a per-request nonce in it would break the CSP."""
    url = reverse("sessions:session_results", args=[played_session.pk])
    client.get(url)
    kept = client.get(url)
    assert "nonce-" not in kept["Content-Security-Policy"]
    assert b"nonce=" not in kept.content


def test_a_table_sees_a_correction_on_its_next_reload(client, played_session):
    """The table's phone scores through the same cache: never the figures from before."""
    from sessions.phones.services.tables import table_links_ensure

    link = table_links_ensure(session=played_session)[0]
    url = reverse("sessions:table_page", args=[link.token])

    def page() -> str:  # without the forms' CSRF token and send key, new on every answer
        html = client.get(url).content.decode()
        return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"|value="[0-9a-f]{32}"', "", html)

    before = page()
    assert page() == before
    correct_board_1(played_session)
    after = page()
    assert after != before
    cache.clear()
    assert after == page()


def test_a_logged_in_director_never_shares_an_entry_or_an_etag_with_the_public(client, director, played_session):
    url = reverse("sessions:session_results", args=[played_session.pk])
    client.force_login(director)
    mine = client.get(url)
    assert "private" in mine["Cache-Control"]
    client.logout()

    public = client.get(url, HTTP_IF_NONE_MATCH=mine["ETag"])

    assert public.status_code == 200  # the director's ETag is not the public page's
    assert public["ETag"] != mine["ETag"]
    assert "public" in public["Cache-Control"]


def test_two_signed_in_visitors_never_share_an_entry_or_an_etag(client, director, member, played_session):
    # A club's director may one day see on these pages what others do not: each signed-in
    # visitor's pages are kept apart.
    url = reverse("sessions:session_results", args=[played_session.pk])
    client.force_login(director)
    theirs = client.get(url)
    client.force_login(member)

    mine = client.get(url, HTTP_IF_NONE_MATCH=theirs["ETag"])

    assert mine.status_code == 200
    assert mine["ETag"] != theirs["ETag"]


def test_a_changed_template_changes_the_page_version(tmp_path):
    from sessions.core.views.caching import PAGE_VERSION, code_version

    (tmp_path / "templates").mkdir()
    (tmp_path / "sessions").mkdir()
    (tmp_path / "sessions" / "views.py").write_text("VIEW = 1\n")
    page = tmp_path / "templates" / "page.html"
    page.write_text("<p>{{ place }}</p>")
    before = code_version(tmp_path)
    page.write_text("<p>{{ place }} of {{ field }}</p>")

    assert code_version(tmp_path) != before
    assert PAGE_VERSION == code_version()  # the running code's own


def test_the_page_version_is_the_repositorys_templates_and_code():
    """The digest reads the repository's own templates/ and sessions/ (a module moved
    deeper once made it read sessions/ alone, so a changed template kept old pages)."""
    from sessions.core.views.caching import ROOT

    assert (ROOT / "templates" / "base.html").is_file()
    assert (ROOT / "sessions" / "apps.py").is_file()


def test_an_unpublished_session_is_never_served_from_the_cache(client, played_session):
    url = reverse("sessions:session_results", args=[played_session.pk])
    etag = client.get(url)["ETag"]

    session_unpublish(session=played_session)

    assert client.get(url).status_code == 404
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 404
    session_publish(session=Session.objects.get(pk=played_session.pk))
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200  # published again: a new revision


def test_an_unknown_board_of_a_published_session_is_a_404_without_an_etag(client, played_session):
    response = client.get(reverse("sessions:board", args=[played_session.pk, 99]))
    assert response.status_code == 404
    assert not response.has_header("ETag")


def test_pages_of_one_revision_score_the_session_once(client, played_session, django_assert_num_queries):
    client.get(reverse("sessions:session_results", args=[played_session.pk]))
    # Scored already (session_score's two queries saved):
    # 1. the revision  2. the board with its session  3. the board numbers  4. the board's
    # lines as Results, for the rows shown (no analysis: the session is not final yet)
    with django_assert_num_queries(4):
        client.get(reverse("sessions:board", args=[played_session.pk, 1]))


def test_the_pages_round_trip_through_redis(client, played_session, django_assert_num_queries,
                                           django_capture_on_commit_callbacks):
    """The deployment's shared cache (a Redis server runs on every CI machine). The keys
    carry a prefix of this test's own, deleted afterwards: the server may be shared."""
    url = reverse("sessions:session_results", args=[played_session.pk])
    with redis_caches("redis://127.0.0.1:6379/0", "django.core.cache.backends.redis.RedisCache") as shared, \
            override_settings(CACHES=shared):
        first = client.get(url)
        with django_assert_num_queries(0):  # the revision too is read from Redis (test_shared_stamps.py)
            assert client.get(url).content == first.content
        assert keys(shared)
        with django_capture_on_commit_callbacks(execute=True):  # as the write's commit runs it
            correct_board_1(played_session)
        assert client.get(url).content != first.content


def test_a_cache_that_cannot_be_reached_is_a_miss_never_an_error_page(client, played_session, caplog):
    """The deployment's Redis down: every page is made without the cache, only slower."""
    unreachable = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                               "LOCATION": "redis://127.0.0.1:1/0"}}  # nothing listens there
    ranking = reverse("sessions:session_results", args=[played_session.pk])
    with override_settings(CACHES=unreachable):
        first = client.get(ranking)
        correct_board_1(played_session)
        after = client.get(ranking)
        unknown_table = client.get(reverse("sessions:table_page", args=["no-such-token"]))

    assert first.status_code == after.status_code == 200
    assert after.content != first.content  # scored afresh, not from a cache
    assert unknown_table.status_code == 404
    assert "the cache could not be reached" in caplog.text


# -- while one request renders a new revision, the others get the one before ------------


def _claim_of(url: str) -> str:
    """The claim a request rendering the public page at ``url`` holds."""
    return f"{caching._latest_key(RequestFactory().get(url), 'public')}:rendering"


@page_params
def test_while_another_request_renders_the_new_revision_players_get_the_one_before(client, played_session,
                                                                                    address, write):
    url = address(played_session)
    before = client.get(url)
    write(played_session)
    claim = _claim_of(url)
    assert shared_cache.claim(claim, 60)  # another worker is rendering the new revision

    meanwhile = client.get(url)
    has_it = client.get(url, HTTP_IF_NONE_MATCH=before["ETag"])

    assert meanwhile.status_code == 200 and meanwhile["X-Page-Revision"] == "previous"
    assert (meanwhile.content, meanwhile["ETag"]) == (before.content, before["ETag"])
    assert has_it.status_code == 304
    shared_cache.release(claim)  # rendered: from now on everyone gets the new revision
    after = client.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and "X-Page-Revision" not in after
    assert after.content != before.content and after["ETag"] != before["ETag"]


def test_one_request_after_another_always_gets_the_new_revision(client, played_session):
    url = reverse("sessions:session_results", args=[played_session.pk])
    seen = {client.get(url)["ETag"]}
    for text in ("4S N +1", "4S N =", "4S N -1"):
        line = Result.objects.get(board__session=played_session, board__number=1, ns_pair__number=1)
        result_correct(result=line, text=text, version=line.version)
        response = client.get(url)
        assert "X-Page-Revision" not in response and response["ETag"] not in seen
        seen.add(response["ETag"])


def test_a_revision_before_rendered_too_long_ago_is_not_served_the_request_renders(client, played_session,
                                                                                monkeypatch):
    url = reverse("sessions:session_results", args=[played_session.pk])
    before = client.get(url)
    correct_board_1(played_session)
    assert shared_cache.claim(_claim_of(url), 600)
    later = time.time() + caching.STALE_WHILE_RENDERING_SECONDS + 1
    monkeypatch.setattr(time, "time", lambda: later)  # the cache's clock: the revision before has expired

    response = client.get(url)

    assert response.status_code == 200 and "X-Page-Revision" not in response
    assert response.content != before.content


def test_a_render_that_fails_gives_its_claim_back(played_session):
    request = RequestFactory().get("/some/page/")
    stamp = Stamp("s1.1.0", datetime.datetime(2025, 3, 4, tzinfo=datetime.timezone.utc))

    def failing() -> HttpResponse:
        raise RuntimeError("the render failed")

    with pytest.raises(RuntimeError):
        caching.serve_by_stamp(request, stamp=stamp, audience="public", render=failing)
    claim = _claim_of("/some/page/")
    assert shared_cache.claim(claim, 1)  # free again
    shared_cache.release(claim)


def test_requests_arriving_during_a_slow_render_are_answered_at_once_with_the_revision_before(played_session):
    """Two workers' threads: one renders revision 2 slowly, the other is answered meanwhile."""
    request = RequestFactory().get("/ranking/")
    first = Stamp("s1.1.0", datetime.datetime(2025, 3, 4, tzinfo=datetime.timezone.utc))
    second = Stamp("s1.2.0", datetime.datetime(2025, 3, 4, 0, 1, tzinfo=datetime.timezone.utc))
    caching.serve_by_stamp(request, stamp=first, audience="public", render=lambda: HttpResponse("revision 1"))
    rendering, may_finish = threading.Event(), threading.Event()

    def slow() -> HttpResponse:
        rendering.set()
        assert may_finish.wait(10)
        return HttpResponse("revision 2")

    answers: list[HttpResponse] = []
    worker = threading.Thread(target=lambda: answers.append(
        caching.serve_by_stamp(request, stamp=second, audience="public", render=slow)))
    worker.start()
    assert rendering.wait(10)
    meanwhile = caching.serve_by_stamp(request, stamp=second, audience="public",
                                       render=lambda: pytest.fail("rendered twice at once"))
    may_finish.set()
    worker.join(10)

    assert meanwhile.content == b"revision 1" and meanwhile["X-Page-Revision"] == "previous"
    assert answers[0].content == b"revision 2"
    again = caching.serve_by_stamp(request, stamp=second, audience="public",
                                   render=lambda: pytest.fail("kept, not rendered again"))
    assert again.content == b"revision 2" and "X-Page-Revision" not in again
