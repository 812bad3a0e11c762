"""The players' board and score-card pages show the hands, the analysis and the charts,
for published sessions once they are final (the hand-made case of test_selectors.py).

Before the director marks the session final a board may still be in play at other
tables, so its hands, DD figures, par and charts stay off the players' pages.
"""

import pytest
from django.template import Context, Template
from django.urls import reverse

from sessions.analysis.selectors.analysis import board_analysis
from sessions.pairs.selectors.public import published_boards, traveller_sheet
from sessions.pairs.services.results import result_record
from sessions.pairs.services.sessions import session_publish
from sessions.pairs.services.sessions import session_mark_final, session_reopen
from sessions.pairs.tables import TravellerTable
from tests.analysis.conftest import TEN_TRICKS_EW, TEN_TRICKS_NS, board_of, give_deal, opponents, pair
from tests.pages import read_tables


@pytest.fixture
def published(hand_made):
    """Published and marked final: the hands and the analysis are public."""
    return session_mark_final(session=session_publish(session=hand_made))


@pytest.fixture
def provisional(hand_made):
    """Published, not final: the boards may still be in play."""
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


def traveller(page: str) -> list[dict[str, str]]:
    """The traveller's lines as {heading: cell text}."""
    (table,) = [table for table in read_tables(page) if table[0][:2] == ["NS", "EW"]]
    heading, *rows = table
    return [dict(zip(heading, row, strict=True)) for row in rows]


def figures(line: dict[str, str]) -> tuple[str, str, str, str]:
    # The contract cell adds declarer and result for a phone ("3NT N +2"): the contract is its first word.
    return line["Contract"].split()[0], line["Result"], line["DD"], line["v par"]


@pytest.mark.parametrize("number, expected", [
    (1, ("3NT", "+2", "10", "+30")),  # N takes 11 of 10 DD tricks: NS +460 against par +430
    (2, ("3NT", "+1", "10", "0")),  # EW's DD tricks for an EW declarer: made par
    (3, ("3NT", "-1", "10", "-480")),  # NS -50 against par +430
])
def test_each_traveller_line_shows_the_dd_tricks_of_its_contract_and_its_result_against_par(
    client, published, number, expected
):
    (line,) = traveller(board_page(client, published, number))
    assert figures(line) == expected


def test_a_passed_out_line_is_against_par_only_and_an_assigned_score_is_not_compared(client, published):
    section = published.sections.get()
    board = board_of(published, 1)
    played = set(opponents(published, "1NS", 1))
    other_tables = [s for s in section.seatings.select_related("ns_pair", "ew_pair")
                    if 1 in s.boards and s.ns_pair.label not in played]
    for seating, text in zip(other_tables, ["PASS", "A60/40"], strict=True):
        result_record(board=board, section=section, ns_pair=seating.ns_pair.label,
                      ew_pair=seating.ew_pair.label, text=text)
    lines = {line["Contract"]: line for line in traveller(board_page(client, published, 1))}
    assert (lines["PASS"]["DD"], lines["PASS"]["v par"]) == ("", "-430")
    assert (lines["A60/40"]["DD"], lines["A60/40"]["v par"]) == ("", "")


def test_the_analysis_is_not_repeated_in_a_table_of_its_own(client, published):
    page = board_page(client, published, 1)
    assert [table[0][:2] for table in read_tables(page)] == [["NS", "EW"]]  # the traveller only


@pytest.mark.parametrize("number", [3, 4], ids=["being analysed", "no deal"])
def test_a_board_without_a_finished_analysis_has_no_dd_columns(client, published, number):
    if number == 3:
        give_deal(board_of(published, 3), TEN_TRICKS_EW)  # a corrected deal: the analysis is stale
    page = board_page(client, published, number)
    (heading, *_) = [table for table in read_tables(page) if table[0][:2] == ["NS", "EW"]][0]
    assert "NS score" in heading and "DD" not in heading and "v par" not in heading


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


def test_the_traveller_exports_the_dd_figures_as_plain_numbers(published):
    board = published_boards().get(session=published, number=3)
    sheet = traveller_sheet(board=board)
    analysis = board_analysis(board=board, results=[row.result for row in sheet.rows])
    table = TravellerTable(sheet.rows, session_id=published.pk, method=sheet.method, analysis=analysis)
    (row,) = table.rows
    assert (row.get_cell_value("dd_tricks"), row.get_cell_value("against_par")) == (10, -480)


# --- before the session is final ----------------------------------------------------------

HAND_MARKS = ('class="hand-diagram"', 'class="dd-table"', "Par <strong>", "<svg", "NS scores on board")


def test_a_provisional_board_page_shows_no_hands_dd_table_par_or_chart(client, provisional):
    page = board_page(client, provisional, 1)
    assert not [mark for mark in HAND_MARKS if mark in page]
    assert "The hands and their analysis are shown once the director marks the session final." in page
    (heading, *_) = [table for table in read_tables(page) if table[0][:2] == ["NS", "EW"]][0]
    assert "NS score" in heading and "DD" not in heading and "v par" not in heading


def test_a_provisional_score_card_shows_no_chart_and_no_par_summary(client, provisional):
    url = reverse("sessions:scorecard", args=[provisional.pk, pair(provisional, "1NS").pk])
    page = client.get(url).content.decode()
    assert "percentage on each board" not in page and "Against par" not in page and "<svg" not in page
    assert "As declarer" not in page


def test_the_tags_show_nothing_for_a_published_session_not_yet_final(provisional):
    board = board_of(provisional, 1)
    html = Template("{% load analysis_tags %}{% board_analysis_panel %}{% scorecard_analysis %}").render(
        Context({"board": board, "pair": pair(provisional, "1NS")})
    )
    assert html.strip() == ""


def test_marking_final_shows_the_hands_and_reopening_hides_them_again(client, provisional):
    session_mark_final(session=provisional)
    assert 'class="hand-diagram"' in board_page(client, provisional, 1)

    session_reopen(session=provisional)
    assert 'class="hand-diagram"' not in board_page(client, provisional, 1)
