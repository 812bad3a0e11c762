"""A director repairs a swapped round in the browser and sees the ranking change.

A 5-table Mitchell of 1 board a round, 3 rounds. In round 2 the EW pairs 5EW (due at
table 1, board 2) and 1EW (due at table 2, board 3) sat at each other's tables, and the
lines were entered as the movement said. Worked by hand (2 per result beaten, top 4):
board 2 NS +140, +110, -100: the EW of +110 scores 2; board 3 NS +200, +100, -50: the
EW of +200 scores 0. Before the repair 5EW has 2 of 4 (50%) and 1EW 0 of 4 (0%); after
it 1EW has 50% and 5EW 0%, and 1EW climbs above 5EW in the East-West ranking.
"""

import re

from django.urls import reverse
from playwright.sync_api import Page, expect

from sessions.models import Result
from sessions.movements import mitchell
from sessions.pairs.services.results import result_record
from tests.factories import make_club, make_event, make_session, make_user

PASSWORD = "a-long-director-password"
LINES = [
    (2, "2NS", "2EW", "NS 140"), (2, "1NS", "5EW", "NS 110"), (2, "5NS", "3EW", "EW 100"),
    (3, "3NS", "3EW", "NS 100"), (3, "2NS", "1EW", "NS 200"), (3, "1NS", "4EW", "EW 50"),
]


def swapped_session():
    director = make_user("repairing-director", password=PASSWORD)
    club = make_club(directors=[director], name="Riverside Bridge Club")
    session = make_session(make_event(club, name="Tuesday Pairs"), mitchell(5, 1, rounds=3))
    section = session.sections.get()
    for number, ns, ew, text in LINES:
        board = session.boards.get(number=number)
        result_record(board=board, section=section, ns_pair=ns, ew_pair=ew, text=text)
    return director, session


def log_in(page: Page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your clubs")).to_be_visible()


def percentage(page: Page, pair: str):
    return page.locator("table.standings tr", has=page.get_by_role("cell", name=pair, exact=True)).locator("td").last


def ew_order(page: Page) -> list[str]:
    rows = page.locator("table.standings").last.locator("tbody tr td:nth-child(2)")
    return rows.all_inner_texts()


def test_director_repairs_a_swapped_round_and_the_ranking_changes(page: Page, server, screenshot):
    director, session = swapped_session()
    log_in(page, director.username)
    page.goto(reverse("sessions:director_standings", args=[session.pk]))
    expect(percentage(page, "5EW")).to_have_text(re.compile(r"^50(\.0+)?$"))
    expect(percentage(page, "1EW")).to_have_text(re.compile(r"^0(\.0+)?$"))
    before = ew_order(page)
    assert before.index("5EW") < before.index("1EW")

    page.goto(reverse("sessions:director_session", args=[session.pk]))
    page.get_by_role("link", name="Repair the seating").click()
    page.get_by_role("link", name="Round 2", exact=True).click()
    page.get_by_label("Table 1 East-West").select_option("1EW")
    page.get_by_label("Table 2 East-West").select_option("5EW")
    screenshot(page, "director-repair-round-2")
    page.get_by_role("button", name="Save round 2").click()

    expect(page.get_by_role("status").first).to_contain_text("2 lines moved")
    assert Result.objects.get(board__session=session, board__number=2, ns_pair__number=1).ew_pair.label == "1EW"
    page.goto(reverse("sessions:director_standings", args=[session.pk]))
    expect(percentage(page, "1EW")).to_have_text(re.compile(r"^50(\.0+)?$"))
    expect(percentage(page, "5EW")).to_have_text(re.compile(r"^0(\.0+)?$"))
    after = ew_order(page)
    assert after.index("1EW") < after.index("5EW")

    page.goto(reverse("sessions:director_log", args=[session.pk]))
    expect(page.locator("table.log")).to_contain_text("section A, round 2, table 1")


def test_the_repair_pages_fit_a_phone(browser, server):
    director, session = swapped_session()
    context = browser.new_context(base_url=server.url, viewport={"width": 390, "height": 844})
    page = context.new_page()
    log_in(page, director.username)
    line = Result.objects.filter(board__session=session).first()
    for url in (
        reverse("sessions:director_repair", args=[session.pk]),
        reverse("sessions:director_round_seating", args=[session.pk, "A", 2]),
        reverse("sessions:director_line_pairs", args=[session.pk, line.pk]),
        reverse("sessions:director_session_edit", args=[session.pk]),
        reverse("sessions:director_session_delete", args=[session.pk]),
    ):
        page.goto(url)
        widths = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert widths[0] <= widths[1], (url, widths)
    context.close()
