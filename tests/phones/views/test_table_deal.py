"""A club without a dealing machine: the hands typed at the table that plays the board.

The conftest session is a 3-table Mitchell of 2 boards a round (boards 1-6); table 1
plays boards 1-2 in round 1, and boards 5-6 in round 2.
"""

import uuid

import pytest
from django.urls import reverse

from sessions.models import AnalysisStatus, Board, BoardAnalysis, Session
from sessions.pairs.services.sessions import session_mark_final
from sessions.phones.services.tables import table_links_ensure

SCRIPT = {"HTTP_HX_REQUEST": "true"}
#: Board 1 of the Bridgewebs Welwyn hand record, hand by hand.
NORTH, EAST, SOUTH, WEST = "A98.J92.A75.Q852", "532.86.K632.KJT7", "KQ4.AKT73.JT.A93", "JT76.Q54.Q984.64"
WELWYN_1 = f"N:{NORTH} {EAST} {SOUTH} {WEST}"


@pytest.fixture
def links(session):
    return {link.table: link for link in table_links_ensure(session=session)}


def type_hands(client, link, board, *, north=NORTH, east=EAST, south=SOUTH, west="", **extra):
    data = {"board": board, "north": north, "east": east, "south": south, "west": west,
            "client_key": uuid.uuid4().hex}
    return client.post(reverse("sessions:table_deal", args=[link.token]), data, **extra)


def deal_of(session, number):
    return Board.objects.get(session=session, number=number).deal


def test_the_phone_offers_the_rounds_boards_that_have_no_hands(client, session, links):
    Board.objects.filter(session=session, number=2).update(deal=WELWYN_1)

    html = client.get(reverse("sessions:table_page", args=[links[1].token])).content.decode()

    assert "Type the hands" in html
    assert '<option value="1"' in html
    assert '<option value="2"' not in html  # it has its hands
    assert '<option value="5"' not in html  # a board of a later round


def test_three_hands_typed_are_checked_stored_with_the_fourth_and_analysed(client, session, links,
                                                                           django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = type_hands(client, links[1], 1, **SCRIPT)

    assert response.status_code == 200
    assert "Board 1: the hands are recorded." in response.content.decode()
    assert deal_of(session, 1) == WELWYN_1  # West: the 13 cards left over
    analysis = BoardAnalysis.objects.get(board__session=session, board__number=1)
    assert analysis.status == AnalysisStatus.DONE and analysis.deal == WELWYN_1
    assert '<option value="1"' not in response.content.decode()  # offered no more


@pytest.mark.parametrize(("hands", "message"), [
    ({"north": "A98.J92.A75.Q852", "east": "A32.86.K632.KJT7"}, "the ace of spades appears twice"),
    ({"north": "A98.J92.A75.Q85", "east": EAST}, "12 cards"),
    ({"north": "", "east": ""}, "type at least three hands"),
    ({"north": "A98.J92.A75", "east": EAST}, "3 suits"),
    ({"north": "XYZ.J92.A75.Q852", "east": EAST}, "is not a card rank"),
])
def test_hands_that_are_not_a_deal_are_refused_kept_to_correct_and_nothing_stored(client, session, links, hands,
                                                                                  message):
    response = type_hands(client, links[1], 1, **hands, **SCRIPT)

    html = response.content.decode()
    assert response.status_code == 200 and message in html
    assert f'value="{hands["north"]}"' in html and f'value="{hands["east"]}"' in html  # what was typed
    assert deal_of(session, 1) == ""


def test_a_table_types_only_the_boards_of_its_session(client, session, links):
    response = type_hands(client, links[1], 99, **SCRIPT)

    assert "board 99 is not a board of this session" in response.content.decode()
    assert not Board.objects.exclude(deal="").exists()


def test_a_board_with_hands_keeps_them_the_same_hands_again_store_nothing(client, session, links):
    type_hands(client, links[1], 1, **SCRIPT)
    revision = Session.objects.get(pk=session.pk).revision

    again = type_hands(client, links[1], 1, west=WEST, **SCRIPT)  # a retry, all four typed
    other = type_hands(client, links[1], 1, north=EAST, east=NORTH, **SCRIPT)

    assert "the hands are recorded" in again.content.decode()
    assert "board 1 has its hands already: ask the director to correct them" in other.content.decode()
    assert deal_of(session, 1) == WELWYN_1
    assert Session.objects.get(pk=session.pk).revision == revision


def test_once_final_the_phone_types_no_hands(client, session, links):
    session_mark_final(session=session)

    response = type_hands(client, links[1], 1, **SCRIPT)

    assert response.status_code == 409
    assert deal_of(session, 1) == ""


def test_a_page_without_script_is_sent_back_to_the_table(client, session, links):
    response = type_hands(client, links[1], 1)

    assert response.status_code == 302 and response["Location"] == reverse("sessions:table_page",
                                                                           args=[links[1].token])
    assert deal_of(session, 1) == WELWYN_1
