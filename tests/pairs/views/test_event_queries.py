"""An event's combined ranking reads in a fixed number of queries, whatever its number of sessions.

The event's pages and exports are fetched with 3 and with 30 published sessions (the
same pairs each time, boards 1 and 2 entered) and must issue exactly the same queries.
"""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from sessions.models import Event
from sessions.pairs.selectors.events import event_ranking
from sessions.pairs.services.sessions import session_publish
from tests.factories import make_club, make_event, make_session, make_user
from tests.once import built_once
from tests.pages import PLAYED_LINES, PLAYERS, enter


@pytest.fixture(scope="module", params=[3, 30], ids=["3 sessions", "30 sessions"])
def sized_event_built(request, django_db_setup, django_db_blocker):
    """The event and its director, built once a size for the module (the tests only read)."""

    def build() -> tuple[int, int]:
        director = make_user("director")
        event = make_event(make_club(directors=[director], name="Home Club"), name="Tuesday Pairs")
        for _ in range(request.param):
            session = make_session(event, pair_players=PLAYERS)
            enter(session, PLAYED_LINES)
            session_publish(session=session)
        return event.pk, director.pk

    yield from built_once(django_db_blocker, build)


@pytest.fixture
def sized_event(sized_event_built, db):
    return Event.objects.get(pk=sized_event_built[0])


@pytest.fixture
def director(sized_event_built, db):
    return get_user_model().objects.get(pk=sized_event_built[1])


def test_the_combined_ranking_takes_three_queries(sized_event, django_assert_num_queries):
    # 1. the event's published sessions  2. every pair of them, with sections and players
    # 3. every result of them, with boards. Scoring and combining are in Python.
    with django_assert_num_queries(3):
        ranking = event_ranking(event=sized_event)
    assert len(ranking.rows) == len(PLAYERS)  # the same six pairs every time


def test_the_event_page_takes_five_queries(client, sized_event, django_assert_num_queries):
    url = reverse("sessions:event_results", args=[sized_event.pk])
    # 0. the club's revision (the page's ETag and cache key)
    # 1. the event with its club  2. its published sessions
    # 3. every pair of them, with sections and players  4. every result of them, with boards
    # 5. its competitions (links to their pages)
    # Sorting adds none: the rows are sorted in Python.
    with django_assert_num_queries(6):
        response = client.get(url, {"sort": "-total"})
    assert response.status_code == 200


@pytest.mark.parametrize("fmt", ["xlsx", "csv"])
def test_the_event_exports_take_four_queries(client, sized_event, fmt, django_assert_num_queries):
    url = reverse("sessions:transfer_event_export", args=[sized_event.pk, fmt])
    # 1. the event with its club  2. its published sessions
    # 3. every pair of them, with sections and players  4. every result of them, with boards
    # (an anonymous visitor: no question whether the user directs the club)
    with django_assert_num_queries(4):
        response = client.get(url)
    assert response.status_code == 200


def test_the_directors_event_page_takes_the_same_queries_at_any_size(
    client, director, sized_event, django_assert_num_queries
):
    client.force_login(director)
    url = reverse("sessions:director_event", args=[sized_event.pk])
    # 1. the login session  2. the user  3. the event with its club, scoped to the director's clubs
    # 4. the event's sessions, for the list
    # 5-7. event_ranking: the sessions (published or not), their pairs, their results
    # 8. its competitions (links to their settings)
    with django_assert_num_queries(8):
        response = client.get(url)
    assert response.status_code == 200
