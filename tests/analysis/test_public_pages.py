"""The players' board and score-card pages show the hands, the analysis and the charts,
for published sessions only (the hand-made case of test_selectors.py)."""

import pytest
from django.template import Context, Template
from django.urls import reverse

from sessions.services import session_publish
from tests.analysis.conftest import TEN_TRICKS_NS, board_of, give_deal, pair
from tests.views.conftest import read_tables


@pytest.fixture
def published(hand_made):
    return session_publish(session=hand_made)


def board_page(client, session, number):
    response = client.get(reverse("sessions:board", args=[session.pk, number]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_board_page_shows_the_hands_dd_table_par_and_chart(client, published):
    page = board_page(client, published, 1)
    assert 'class="hand-diagram"' in page
    assert page.count('<span class="suit red"') >= 8 and page.count('aria-label="hearts"') >= 4
    assert '<p class="hand-seat">North <span class="hcp">16</span></p>' in page
    assert "Dealer <strong>North</strong>" in page and "Vul <strong>None</strong>" in page
    assert 'class="dd-table"' in page
    assert "Par <strong>NS +430: 3NT+1 NS</strong>" in page
    assert '<svg' in page and "NS scores on board 1" in page


def test_each_line_shows_its_dd_tricks_and_result_against_par(client, published):
    page = board_page(client, published, 1)
    (dd_lines,) = [table for table in read_tables(page) if table[0][:3] == ["NS", "EW", "Result"]]
    assert dd_lines[1][2:] == ["3NT N +2", "+460", "10", "+1", "+30"]


def test_a_board_still_being_analysed_says_so(client, published):
    give_deal(board_of(published, 3), "N:" + " ".join(reversed(TEN_TRICKS_NS[2:].split())))  # new deal
    page = board_page(client, published, 3)
    assert "analysing…" in page and 'class="hand-diagram"' in page and 'class="dd-table"' not in page


def test_a_board_without_a_deal_shows_only_its_score_chart(client, published):
    page = board_page(client, published, 4)
    assert 'class="hand-diagram"' not in page and "analysing" not in page


def test_the_score_card_shows_the_percentages_chart_and_par_summary(client, published):
    url = reverse("sessions:scorecard", args=[published.pk, pair(published, "1NS").pk])
    page = client.get(url).content.decode()
    assert "Percentage on each board" not in page and "Pair 1NS: percentage on each board" in page
    assert "Beat par on <strong>1</strong> board:" in page
    assert "Below par on <strong>1</strong> board:" in page
    assert "At par on <strong>1</strong> board" in page
    assert "As declarer: <strong>-0.50</strong> tricks a board against double dummy, over 2 boards" in page


def test_nothing_shows_for_an_unpublished_session(hand_made):
    board = board_of(hand_made, 1)
    html = Template("{% load analysis_tags %}{% board_analysis_panel %}{% scorecard_analysis %}").render(
        Context({"board": board, "pair": pair(hand_made, "1NS")})
    )
    assert html.strip() == ""


def test_the_public_pages_of_an_unpublished_session_are_404(client, hand_made):
    assert client.get(reverse("sessions:board", args=[hand_made.pk, 1])).status_code == 404
