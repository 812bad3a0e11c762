"""The players' teams pages come from the cache by the event's revision, answer 304 to a
phone that has them, and show a correction on the very next request.

``played`` is test_public_teams' published round robin of four teams, two boards a
match: in round 1, team 1 v team 4 entered board by board (board 1: 4S N = +420 in the
open room, 4S N -1 -50 in the closed, 10 IMPs to team 1; board 2: 1 IMP), the other
match by its totals.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.core.cache import cache
from django.urls import reverse

from sessions.models import Match, TeamEvent
from sessions.clubs.services.clubs import club_update
from sessions.clubs.services.player_records import player_update
from sessions.teams.services.teams import (
    match_record_line,
    team_event_mark_final,
    team_event_publish,
    team_event_reopen,
    team_event_unpublish,
)
from tests.teams.views.test_public_teams import _played_round_robin


@pytest.fixture
def played(club) -> tuple[TeamEvent, Match]:
    return _played_round_robin(club)


def correct_board_1(match: Match) -> None:
    """The open room made an overtrick more: +450 against -50, 11 IMPs instead of 10."""
    match_record_line(match=match, board=1, room="open", text="4S N +1", version=1)


#: Each cached page's address, for the event and its entered match.
PAGES: dict[str, Callable[[TeamEvent, Match], str]] = {
    "standings": lambda event, match: reverse("sessions:team_event", args=[event.pk]),
    "scorecard": lambda event, match: reverse("sessions:team_match", args=[event.pk, match.pk]),
    "team": lambda event, match: reverse("sessions:team_page", args=[event.pk, match.home_id]),
}

page_params = pytest.mark.parametrize("address", PAGES.values(), ids=PAGES.keys())


@page_params
def test_a_second_visit_is_served_from_the_cache_in_one_query(client, played, address, django_assert_num_queries):
    url = address(*played)
    first = client.get(url)
    assert first.status_code == 200
    # 1. the event's revision: the key of the page
    with django_assert_num_queries(1):
        second = client.get(url)
    assert second.status_code == 200
    assert second.content == first.content
    assert second["ETag"] == first["ETag"]


@page_params
def test_a_phone_that_has_the_page_gets_a_304(client, played, address, django_assert_num_queries):
    url = address(*played)
    first = client.get(url)
    with django_assert_num_queries(1):  # the revision, nothing else
        by_etag = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    by_date = client.get(url, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert (by_etag.status_code, by_date.status_code) == (304, 304)
    assert by_etag.content == b""
    assert by_etag["ETag"] == first["ETag"]


@page_params
def test_a_match_line_recorded_shows_on_the_next_request(client, played, address):
    url = address(*played)
    before = client.get(url)

    correct_board_1(played[1])
    after = client.get(url, HTTP_IF_NONE_MATCH=before["ETag"])

    assert after.status_code == 200  # not a 304: the phone's copy is out of date
    assert after["ETag"] != before["ETag"]
    assert after.content != before.content
    cache.clear()
    assert client.get(url).content == after.content  # what a fresh render shows


def test_a_renamed_player_or_club_shows_on_the_next_request(client, played):
    event, match = played
    team_url = PAGES["team"](event, match)
    client.get(team_url)

    player_update(player=match.home.captain, name="Renamed Captain")
    club_update(club=event.club, name="Renamed Club")

    page = client.get(team_url).content.decode()
    assert "Renamed Captain (captain)" in page and "Renamed Club" in page


def test_the_downloads_show_once_final_and_go_when_reopened(client, club):
    event, _ = _played_round_robin(club, teams=2)  # one match, every board entered
    url = reverse("sessions:team_event", args=[event.pk])
    download = reverse("sessions:transfer_team_export", args=[event.pk, "csv"]).encode()
    assert download not in client.get(url).content

    team_event_mark_final(event=event)
    assert download in client.get(url).content

    team_event_reopen(event=TeamEvent.objects.get(pk=event.pk))
    assert download not in client.get(url).content


def test_an_unpublished_event_is_never_served_from_the_cache(client, played):
    event, match = played
    urls = [address(event, match) for address in PAGES.values()]
    etags = [client.get(url)["ETag"] for url in urls]

    team_event_unpublish(event=event)

    for url, etag in zip(urls, etags):
        assert client.get(url).status_code == 404
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 404
    team_event_publish(event=TeamEvent.objects.get(pk=event.pk))
    for url, etag in zip(urls, etags):
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200  # published again: a new revision


def test_an_unknown_match_or_team_of_a_published_event_is_a_404_without_an_etag(client, played):
    event, _ = played
    for url in (reverse("sessions:team_match", args=[event.pk, 99999]),
                reverse("sessions:team_page", args=[event.pk, 99999])):
        response = client.get(url)
        assert response.status_code == 404, url
        assert not response.has_header("ETag")


@pytest.mark.parametrize("teams", [6, 24], ids=["6 teams", "24 teams"])
def test_the_query_count_of_a_cached_page_does_not_grow_with_the_event(client, club, teams,
                                                                     django_assert_num_queries):
    event, match = _played_round_robin(club, teams=teams)
    for address in PAGES.values():
        url = address(event, match)
        client.get(url)
        with django_assert_num_queries(1):  # the event's revision
            assert client.get(url).status_code == 200


def test_a_kept_page_carries_no_csp_nonce_and_no_csrf_token(client, played):
    """One body serves every visitor: nothing in it may belong to one request."""
    for address in PAGES.values():
        url = address(*played)
        client.get(url)
        kept = client.get(url)
        assert "nonce-" not in kept["Content-Security-Policy"]
        assert b"nonce=" not in kept.content and b"csrfmiddlewaretoken" not in kept.content


def test_public_answers_may_be_kept_on_the_way_and_say_they_vary_on_the_cookie(client, played):
    response = client.get(PAGES["standings"](*played))
    assert "public" in response["Cache-Control"] and "no-cache" in response["Cache-Control"]
    assert "Cookie" in response["Vary"]
    assert response["Last-Modified"]


def test_a_logged_in_director_never_shares_an_entry_or_an_etag_with_the_public(client, director, played):
    url = PAGES["standings"](*played)
    client.force_login(director)
    mine = client.get(url)
    assert "private" in mine["Cache-Control"]
    client.logout()

    public = client.get(url, HTTP_IF_NONE_MATCH=mine["ETag"])

    assert public.status_code == 200  # the director's ETag is not the public page's
    assert public["ETag"] != mine["ETag"]
    assert "public" in public["Cache-Control"]
