"""The director's entry pages issue the same number of queries for a small and a large
session, players' names included (each row shows who sits there)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from sessions.movements import mitchell
from tests.factories import make_session
from tests.selectors.test_entry import enter_everything

ENTRY_URLS = {
    "board": lambda session: reverse("sessions:director_board", args=[session.pk, 1]),
    "table": lambda session: reverse("sessions:director_table", args=[session.pk, "A", 1, 1]),
}


def named_session(event, tables: int):
    movement = mitchell(tables, 2)
    players = {pair: (f"{pair} North", f"{pair} South") for pair in movement.pairs}
    session = make_session(event, movement, pair_players=players)
    enter_everything(session)
    return session


@pytest.mark.parametrize("entry_page", sorted(ENTRY_URLS))
def test_entry_pages_take_the_same_queries_for_3_and_11_tables(client, director, event, entry_page):
    client.force_login(director)
    counts = []
    for tables in (3, 11):
        url = ENTRY_URLS[entry_page](named_session(event, tables))
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url)
        assert response.status_code == 200
        assert b"1NS North" in response.content
        counts.append(len(captured))
    assert counts[0] == counts[1]
