"""Who sees what: published results are open to everyone, anything else is a 404 for all."""

import pytest
from django.urls import reverse

from sessions.pairs.services.sessions import session_unpublish


@pytest.fixture(params=["anonymous", "director", "outsider"])
def visitor(request, client):
    """The players' pages treat every visitor the same, even the club's own director."""
    if request.param != "anonymous":
        client.force_login(request.getfixturevalue(request.param))
    return client


def page_urls(session, pair_id) -> dict[str, str]:
    return {
        "results": reverse("sessions:session_results", args=[session.pk]),
        "board": reverse("sessions:board", args=[session.pk, 1]),
        "scorecard": reverse("sessions:scorecard", args=[session.pk, pair_id(session, "1NS")]),
    }


@pytest.mark.parametrize("page_name", ["results", "board", "scorecard"])
def test_published_pages_are_open_to_everyone(visitor, played_session, pair_id, page_name):
    assert visitor.get(page_urls(played_session, pair_id)[page_name]).status_code == 200


@pytest.mark.parametrize("page_name", ["results", "board", "scorecard"])
def test_an_unpublished_session_is_not_found_by_anyone(visitor, unpublished_session, pair_id, page_name):
    assert visitor.get(page_urls(unpublished_session, pair_id)[page_name]).status_code == 404


@pytest.mark.parametrize("page_name", ["results", "board", "scorecard"])
def test_an_unpublished_session_says_it_is_not_published_yet_and_nothing_else(visitor, unpublished_session,
                                                                              pair_id, page_name):
    response = visitor.get(page_urls(unpublished_session, pair_id)[page_name])

    html = response.content.decode()
    assert response.status_code == 404
    assert "<h1>Not published yet</h1>" in html and "The results of this session are not published yet" in html
    for secret in (unpublished_session.name, unpublished_session.event.name, unpublished_session.event.club.name,
                   "Ann Archer", "4♠", str(unpublished_session.date.year)):
        assert secret not in html, secret


def test_an_unknown_session_is_a_plain_not_found(client, played_session):
    response = client.get("/sessions/99999/")

    assert response.status_code == 404 and b"Not published yet" not in response.content


def test_an_unpublished_teams_event_says_it_is_not_published_yet(client, club):
    from tests.factories import make_team_event

    event = make_team_event(club, name="Secret Teams")

    response = client.get(reverse("sessions:team_event", args=[event.pk]))

    assert response.status_code == 404
    html = response.content.decode()
    assert "The results of this teams event are not published yet" in html and "Secret Teams" not in html


@pytest.mark.parametrize("page_name", ["results", "board", "scorecard"])
def test_unpublishing_hides_the_pages_again(client, played_session, pair_id, page_name):
    urls = page_urls(played_session, pair_id)
    session_unpublish(session=played_session)

    assert client.get(urls[page_name]).status_code == 404


def test_the_home_page_does_not_list_an_unpublished_session(visitor, unpublished_session):
    html = visitor.get(reverse("sessions:home")).content.decode()

    assert reverse("sessions:session_results", args=[unpublished_session.pk]) not in html
    assert unpublished_session.name not in html


@pytest.mark.parametrize("url", [
    "/sessions/99999/",
    "/sessions/99999/boards/1/",
    "/sessions/99999/pairs/1/",
    "/clubs/no-such-club/",
])
def test_unknown_objects_are_not_found(client, played_session, url):
    assert client.get(url).status_code == 404


def test_a_board_the_session_does_not_have_is_not_found(client, played_session):
    assert client.get(reverse("sessions:board", args=[played_session.pk, 7])).status_code == 404


def test_a_pair_is_only_found_under_its_own_session(client, played_session, unpublished_session, pair_id):
    """A published session's URL cannot show a pair of another, unpublished session."""
    foreign_pair = pair_id(unpublished_session, "1NS")

    response = client.get(reverse("sessions:scorecard", args=[played_session.pk, foreign_pair]))

    assert response.status_code == 404


def test_the_pages_need_no_login(client, played_session):
    response = client.get(reverse("sessions:session_results", args=[played_session.pk]))

    assert response.status_code == 200 and not response.wsgi_request.user.is_authenticated
