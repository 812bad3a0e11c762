"""Each API endpoint reads a session in a fixed number of queries, whatever its size.

As tests/pairs/views/test_public_queries.py: a 3-table and a 15-table Mitchell with the same
share of results entered, published and final; each endpoint must issue exactly the
same queries for both, each named below. (The public asks: no key lookup.)
"""

import pytest

from sessions.models import Session
from tests.factories import make_club, make_event
from tests.once import built_once
from tests.pairs.views.test_public_queries import entered_session, first_pair


@pytest.fixture(scope="module", params=[3, 15], ids=["3 tables", "15 tables"])
def sized_session_pk(request, django_db_setup, django_db_blocker) -> int:
    """Built once a size for the module: its tests only read it."""
    yield from built_once(django_db_blocker, lambda: entered_session(make_event(make_club()), request.param).pk)


@pytest.fixture
def sized_session(sized_session_pk, db) -> Session:
    return Session.objects.get(pk=sized_session_pk)


def test_the_session_takes_six_queries(client, sized_session, django_assert_num_queries):
    # 0. the session's revision (the ETag and cache key)
    # 1. the session with its event and club
    # 2-3. session_score: the pairs with their players, the lines as rows
    # 4. the board numbers; 5. the master point awards (results_sheet's: the session is final)
    with django_assert_num_queries(6):
        assert client.get(f"/api/v1/sessions/{sized_session.pk}/").status_code == 200


def test_the_ranking_takes_six_queries(client, sized_session, django_assert_num_queries):
    # 0. the session's revision; 1. the session; 2-3. session_score; 4. the board numbers
    # (results_sheet's); 5. the master point awards (the session is final). Paging the list
    # reads nothing more: it is sliced in Python.
    with django_assert_num_queries(6):
        response = client.get(f"/api/v1/sessions/{sized_session.pk}/ranking/", {"page_size": 5})
    assert response.json()["count"] == 2 * sized_session.tables


def test_the_traveller_takes_six_queries(client, sized_session, django_assert_num_queries):
    # 0. the session's revision; 1. the deals of board 1 with their session, event, club
    # 2-3. session_score; 4. the board numbers (traveller_sheet's); 5. the page's lines
    with django_assert_num_queries(6):
        response = client.get(f"/api/v1/sessions/{sized_session.pk}/boards/1/")
    assert response.json()["count"] == sized_session.tables


def test_the_score_card_takes_six_queries(client, sized_session, django_assert_num_queries):
    url = f"/api/v1/sessions/{sized_session.pk}/pairs/{first_pair(sized_session)}/"
    # 0. the session's revision; 1. the pair with its players, session, event and club
    # 2-3. session_score; 4. the pair's lines (Results); 5. the pair's master point award
    with django_assert_num_queries(6):
        response = client.get(url)
    assert response.status_code == 200


def test_the_club_lists_take_four_queries(client, sized_session, django_assert_num_queries):
    slug = sized_session.event.club.slug
    for what in ("sessions", "events", "players"):
        # 0. the club's revision; 1. the club; 2. the list's count; 3. its page
        with django_assert_num_queries(4):
            assert client.get(f"/api/v1/clubs/{slug}/{what}/").status_code == 200, what


def test_a_second_read_of_the_same_revision_takes_one_query(client, sized_session, django_assert_num_queries):
    url = f"/api/v1/sessions/{sized_session.pk}/ranking/"
    client.get(url)
    # 0. the session's revision: the answer is the one kept in the cache under it
    with django_assert_num_queries(1):
        assert client.get(url).status_code == 200
