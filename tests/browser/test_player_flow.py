"""A player after the session, on a phone: the rankings, then their own score card.

The session is a 5-table Mitchell played in full and published; some players have long
names, which must wrap rather than push the page sideways. Tables may scroll inside
their own container, the page itself never does.
"""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from sessions.models import Session
from sessions.movements import mitchell
from sessions.pairs.services.results import result_record
from sessions.pairs.services.sessions import session_publish
from tests.factories import make_club, make_event, make_session

PHONE_WIDTH = 390  # the phone fixture's viewport
LONG_NAMES = ("Maximilian Featherstonehaugh-Cholmondeley", "Bartholomew Wolstenholme-Marjoribanks")
PLAYERS = {
    label: (LONG_NAMES if label == "3NS" else (f"North {label}", f"South {label}"))
    for label in [f"{table}{line}" for line in ("NS", "EW") for table in range(1, 6)]
}
# Results that vary from table to table, so the ranking has a spread.
RESULTS = ["4S N =", "4S N +1", "4S N -1", "3NT S =", "2H E =", "4SX N -2", "P", "3NT S +2"]


@pytest.fixture
def published_session(transactional_db) -> Session:
    event = make_event(make_club(name="Seaside Bridge Club"), name="Thursday Pairs")
    session = make_session(event, mitchell(5, 2), pair_players=PLAYERS)
    section = session.sections.get()
    boards = {board.number: board for board in session.boards.all()}
    for seating in section.seatings.select_related("ns_pair", "ew_pair"):
        for number in seating.boards:
            result_record(
                board=boards[number], section=section, ns_pair=seating.ns_pair.label,
                ew_pair=seating.ew_pair.label, text=RESULTS[(number + 3 * seating.table) % len(RESULTS)],
            )
    return session_publish(session=session)


def test_player_reads_rankings_and_score_card_on_a_phone(phone: Page, published_session, screenshot):
    phone.goto(reverse("sessions:session_results", args=[published_session.pk]))
    expect(phone.get_by_role("heading", level=1)).to_contain_text("Thursday Pairs")
    rankings = phone.locator("table.results").filter(has=phone.get_by_role("columnheader", name="Place"))
    expect(rankings).to_have_count(2)  # a Mitchell: North-South and East-West
    for names in PLAYERS.values():
        expect(rankings.get_by_text(" & ".join(names))).to_be_visible()
    for ranking in rankings.all():
        assert_best_first(ranking)
    assert_fits_the_width(phone)
    screenshot(phone, "phone-rankings")

    rankings.get_by_role("link", name="3NS", exact=True).click()
    pair = published_session.sections.get().pairs.get(number=3, direction="NS")
    expect(phone).to_have_url(re.compile(reverse("sessions:scorecard", args=[published_session.pk, pair.pk]) + "$"))
    expect(phone.get_by_role("heading", level=1)).to_contain_text("3NS")
    expect(phone.get_by_role("heading", level=1)).to_contain_text(LONG_NAMES[0])
    card = phone.locator("table.results")
    expect(card.locator("tbody tr")).to_have_count(published_session.rounds * published_session.boards_per_round)
    assert_fits_the_width(phone)
    # What a player looks for is on screen at once: no sideways swipe inside the table.
    assert_in_view_without_scrolling(card, ["Board", "Opps", "Contract", "Score", "MP", "%"])
    assert_contracts_name_declarer_and_result(card)
    screenshot(phone, "phone-scorecard")


def assert_best_first(ranking) -> None:
    """Places rise down the table while percentages fall."""
    headings = [text.strip() for text in ranking.locator("thead th").all_inner_texts()]
    rows = [row.locator("td").all_inner_texts() for row in ranking.locator("tbody tr").all()]
    places = [int(re.match(r"\d+", row[headings.index("Place")])[0]) for row in rows]
    percentages = [float(row[headings.index("%")]) for row in rows]
    assert places == sorted(places) and places[0] == 1, places
    assert percentages == sorted(percentages, reverse=True), percentages


def assert_in_view_without_scrolling(table, headings: list[str]) -> None:
    """Each named column's heading lies within the screen, and the table does not scroll."""
    for heading in headings:
        box = table.get_by_role("columnheader", name=heading, exact=True).bounding_box()
        assert box and 0 <= box["x"] and box["x"] + box["width"] <= PHONE_WIDTH, (heading, box)
    overflow = table.evaluate("(table) => table.closest('.table-container').scrollWidth - table.closest('.table-container').clientWidth")
    assert overflow <= 0, overflow


def assert_contracts_name_declarer_and_result(card) -> None:
    """With the declarer and result columns left out on a phone, the contract cell says them ("4♠ N =")."""
    column = [text.strip() for text in card.locator("thead th").all_inner_texts()].index("Contract")
    cells = [row.locator("td").nth(column).inner_text().strip() for row in card.locator("tbody tr").all()]
    played = re.compile(r"[1-7](NT|[♠♥♦♣])X{0,2} [NESW] (=|[+-]\d+)")
    assert all(played.fullmatch(cell) or cell == "PASS" for cell in cells), cells
    assert any(played.fullmatch(cell) for cell in cells), cells


def assert_fits_the_width(page: Page) -> None:
    """The page never scrolls sideways; a wide table scrolls inside its own container."""
    widths = page.evaluate(
        "() => ({viewport: document.documentElement.clientWidth,"
        " page: document.documentElement.scrollWidth, body: document.body.scrollWidth})"
    )
    assert widths["viewport"] == PHONE_WIDTH, widths
    assert widths["page"] <= widths["viewport"] and widths["body"] <= widths["viewport"], widths
