"""The director's entry pages issue the same number of queries for a small and a large
session, players' names included (each row shows who sits there); so do the session page
and its live progress grid, with lines sent from the tables' phones.

The sessions are built once for the module (tests/once.py): each test reads them only.
"""

import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from sessions.models import Session
from sessions.movements import mitchell
from sessions.pairs.services.results import result_record
from sessions.phones.services.tables import table_entry_confirm, table_entry_send, table_links_ensure
from tests.factories import make_club, make_event, make_session, make_user
from tests.once import built_once
from tests.pairs.selectors.test_entry import enter_everything

ENTRY_URLS = {
    "board": lambda session: reverse("sessions:director_board", args=[session.pk, 1]),
    "table": lambda session: reverse("sessions:director_table", args=[session.pk, "A", 1, 1]),
}


def named_session(event, tables: int, entered: bool = True):
    movement = mitchell(tables, 2)
    players = {pair: (f"{pair} North", f"{pair} South") for pair in movement.pairs}
    session = make_session(event, movement, pair_players=players)
    if entered:
        enter_everything(session)
    return session


def playing_session(event, tables: int):
    """Round 1 entered everywhere; in round 2 every table's phone has sent its first board
    despite a warning, odd tables' opponents have confirmed it, even tables' not yet."""
    session = named_session(event, tables, entered=False)
    boards = {board.number: board for board in session.boards.all()}
    section = session.sections.get()
    links = {link.table: link for link in table_links_ensure(session=session)}
    for seating in section.seatings.select_related("ns_pair", "ew_pair").order_by("round", "table"):
        if seating.round == 1:
            for number in seating.boards:
                result_record(board=boards[number], section=section, ns_pair=seating.ns_pair.label,
                              ew_pair=seating.ew_pair.label, text="4S N =")
        elif seating.round == 2:
            key = uuid.uuid4().hex
            # 4S by East where North declared at the other tables: a warning, accepted.
            table_entry_send(link=links[seating.table], board=boards[seating.boards[0]], text="4S E -1",
                             client_key=key, accept_warnings=True)
            if seating.table % 2:
                table_entry_confirm(link=links[seating.table], client_key=key)
    return session


LIVE_URLS = {
    "session page": lambda session: reverse("sessions:director_session", args=[session.pk]),
    "progress grid": lambda session: reverse("sessions:director_progress", args=[session.pk]),
}


@pytest.fixture(scope="module")
def built(django_db_setup, django_db_blocker):
    """The director's pk, and the pks of the 3- and 11-table sessions: entered in full
    ("entered") and in play ("playing"), all of one event of the director's club."""

    def build():
        director = make_user("queries_director")
        event = make_event(make_club(directors=[director]))
        return {
            "director": director.pk,
            "entered": [named_session(event, tables).pk for tables in (3, 11)],
            "playing": [playing_session(event, tables).pk for tables in (3, 11)],
        }

    yield from built_once(django_db_blocker, build)


@pytest.fixture
def logged_in(db, client, built, django_user_model):
    client.force_login(django_user_model.objects.get(pk=built["director"]))
    return client


@pytest.mark.parametrize("entry_page", sorted(ENTRY_URLS))
def test_entry_pages_take_the_same_queries_for_3_and_11_tables(logged_in, built, entry_page):
    counts = []
    for pk in built["entered"]:  # 3 tables, then 11
        url = ENTRY_URLS[entry_page](Session.objects.get(pk=pk))
        with CaptureQueriesContext(connection) as captured:
            response = logged_in.get(url)
        assert response.status_code == 200
        assert b"1NS North" in response.content
        counts.append(len(captured))
    assert counts[0] == counts[1]


@pytest.mark.parametrize("live_page", sorted(LIVE_URLS))
def test_the_live_grid_takes_the_same_queries_for_3_and_11_tables(logged_in, built, live_page):
    counts = []
    for tables, pk in zip((3, 11), built["playing"], strict=True):
        session = Session.objects.get(pk=pk)
        with CaptureQueriesContext(connection) as captured:
            response = logged_in.get(LIVE_URLS[live_page](session), HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        html = response.content.decode()
        waiting, warned = tables // 2, tables - tables // 2
        assert f"{waiting} line{'s' if waiting > 1 else ''} waiting for the opponents" in html
        assert f"{warned} lines confirmed despite a warning" in html
        assert "Most tables are playing round 2." in html
        counts.append(len(captured))
    assert counts[0] == counts[1]
