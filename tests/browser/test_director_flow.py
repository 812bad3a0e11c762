"""A director's evening in a real browser: log in, set up a 4-table Howell, enter a board
from the keyboard (with one impossible line refused in place), correct a line, publish.

Board 1 (dealer N, nobody vulnerable) is entered in table order. The expected scores and
running matchpoints are worked by hand: 2 matchpoints per result beaten, 1 per tie, over
the results entered so far (RULES.md 4; with one board entered, Neuberg factoring is the
identity), NS and EW adding up to the board's top.
"""

import datetime
import re

from django.urls import reverse
from playwright.sync_api import Page, expect

from sessions.models import Result, Session
from tests.factories import make_club, make_event, make_user

PASSWORD = "a-long-director-password"
PLAYERS = {
    pair: (f"Player {pair}a", f"Player {pair}b") for pair in range(1, 9)
}

# (typed, NS score shown, EW score shown, running NS matchpoints of every line so far)
BOARD_1 = [
    ("3NT= N", "400", "", [0]),
    ("4S-1 E", "50", "", [2, 0]),
    ("3NT+1 N", "430", "", [2, 0, 4]),
    ("2S= E", "", "110", [4, 2, 6, 0]),
]
IMPOSSIBLE = "3NT+5 N"  # fourteen tricks
CORRECTION = ("3NT+2 N", "460", [2, 0, 4, 6])  # the fourth line, as the director fixes it


def test_director_sets_up_enters_corrects_and_publishes(page: Page, server, screenshot):
    director = make_user("tuesday-director", password=PASSWORD)
    club = make_club(directors=[director], name="Riverside Bridge Club")
    make_event(club, name="Tuesday Pairs")

    log_in(page, director.username)
    session_id = create_howell(page, club.slug, screenshot)

    page.locator("ul.boards a").first.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Board 1")
    enter_board_from_keyboard(page, screenshot)
    correct_fourth_line(page)
    screenshot(page, "director-board-1-complete")

    page.locator(".director-nav").get_by_role("link", name="Tuesday evening").click()
    page.get_by_role("button", name="Publish").click()
    # One board of seven is entered: the director is asked first, with the count.
    expect(page.get_by_role("alert")).to_contain_text("missing: publish anyway?")
    page.get_by_role("button", name="Publish anyway").click()
    expect(page.get_by_role("status")).to_contain_text("Published")
    expect(page.locator(".badge.published")).to_be_visible()
    screenshot(page, "director-session-published")
    assert Session.objects.get(pk=session_id).published


def log_in(page: Page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your clubs")).to_be_visible()


def create_howell(page: Page, club_slug: str, screenshot) -> int:
    """The three steps of the new-session page; returns the new session's id."""
    page.get_by_role("link", name="New session").click()
    expect(page).to_have_url(re.compile(reverse("sessions:director_session_new", args=[club_slug])))
    page.get_by_label("Pairs").fill("8")
    page.get_by_role("button", name="Suggest movements").click()

    page.get_by_label(re.compile("complete Howell on 4 tables")).check()
    page.get_by_role("button", name="Choose").click()

    page.get_by_role("combobox", name="Event").select_option(label="Tuesday Pairs")
    page.get_by_label("Name").fill("Tuesday evening")
    page.get_by_label("Date").fill(datetime.date(2025, 3, 4).isoformat())
    for pair, names in PLAYERS.items():
        for seat, name in enumerate(names, start=1):
            page.get_by_label(f"{pair} player {seat}", exact=True).fill(name)
    screenshot(page, "director-session-new")
    page.get_by_role("button", name="Create session").click()

    expect(page.get_by_role("status")).to_contain_text("Session created")
    match = re.search(r"/director/sessions/(\d+)/$", page.url)
    assert match, page.url
    session = Session.objects.get(pk=int(match[1]))
    assert (session.movement_kind, session.tables, session.board_count) == ("howell", 4, 28)
    return session.pk


class Sheet:
    """The board's entry sheet: rows, and the columns found by their headings."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.rows = page.locator("#entry-sheet .entry-group:not([hidden]) form.entry-row")
        headings = page.locator("#entry-sheet .entry-group:not([hidden]) .entry-head [role=columnheader]").all_inner_texts()
        self.column = {text.strip(): index for index, text in enumerate(headings)}

    def cell(self, row: int, heading: str):
        return self.rows.nth(row).locator("[role=cell]").nth(self.column[heading])

    def text_box(self, row: int):
        return self.rows.nth(row).locator("input[name=text]")

    def expect_scores(self, row: int, ns_score: str, ew_score: str) -> None:
        expect(self.cell(row, "+NS")).to_have_text(ns_score)
        expect(self.cell(row, "+EW")).to_have_text(ew_score)

    def expect_matchpoints(self, ns_points: list[int]) -> None:
        top = 2 * (len(ns_points) - 1)
        for row, points in enumerate(ns_points):
            expect(self.cell(row, "MP NS")).to_have_text(re.compile(rf"^{points}(\.0+)?$"))
            expect(self.cell(row, "MP EW")).to_have_text(re.compile(rf"^{top - points}(\.0+)?$"))

    def expect_entered(self, count: int) -> None:
        expect(self.page.locator(".entry-group:not([hidden]) .entry-count")).to_have_text(f"{count} of {self.rows.count()} lines entered.")


def enter_board_from_keyboard(page: Page, screenshot) -> None:
    sheet = Sheet(page)
    expect(sheet.rows).to_have_count(4)
    expect(sheet.text_box(0)).to_be_focused()  # the cursor starts on the first line
    for row, (typed, ns_score, ew_score, running) in enumerate(BOARD_1):
        if row == 2:
            refuse_impossible_line(page, sheet, row, screenshot)
            page.keyboard.press("Control+A")  # correct the refused text in place
        page.keyboard.type(typed)
        page.keyboard.press("Enter")
        if row + 1 == len(BOARD_1):
            break  # the board is complete: the page moves on
        sheet.expect_entered(row + 1)
        sheet.expect_scores(row, ns_score, ew_score)
        sheet.expect_matchpoints(running)
        expect(sheet.text_box(row + 1)).to_be_focused()
    # Board 1 complete: board 2 in its place at once, the cursor on its first line.
    expect(page.locator("#entry-status")).to_contain_text("On to Board 2: every line of Board 1 is entered")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Board 2")
    expect(sheet.text_box(0)).to_be_focused()
    expect(page.locator("form.entry-row[aria-busy]")).to_have_count(0)
    assert sorted(Result.objects.filter(board__number=1).values_list("ns_score", flat=True)) == [-110, 50, 400, 430]


def refuse_impossible_line(page: Page, sheet: Sheet, row: int, screenshot) -> None:
    """Fourteen tricks: the row says why, keeps the text and the cursor, and nothing is saved."""
    page.keyboard.type(IMPOSSIBLE)
    page.keyboard.press("Enter")
    error = sheet.rows.nth(row).get_by_role("alert")
    expect(error).to_be_visible()
    expect(error).to_contain_text(re.compile("trick", re.IGNORECASE))
    expect(sheet.text_box(row)).to_have_value(IMPOSSIBLE)
    expect(sheet.text_box(row)).to_have_attribute("aria-invalid", "true")
    expect(sheet.text_box(row)).to_be_focused()
    sheet.expect_entered(row)
    sheet.expect_scores(row, "", "")
    screenshot(page, "director-board-1-refused-line")
    assert Result.objects.filter(board__number=1).count() == row


def correct_fourth_line(page: Page) -> None:
    """Back to board 1 by its link, and the fourth line corrected: the cursor stays there."""
    page.get_by_role("navigation", name="Other boards").get_by_role("link", name="Board 1").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Board 1")
    sheet = Sheet(page)
    sheet.expect_matchpoints(BOARD_1[-1][3])
    typed, ns_score, ns_points = CORRECTION
    sheet.text_box(3).focus()
    page.keyboard.press("Control+A")
    page.keyboard.type(typed)
    page.keyboard.press("Enter")
    sheet.expect_scores(3, ns_score, "")
    sheet.expect_matchpoints(ns_points)
    sheet.expect_entered(4)
    expect(sheet.text_box(3)).to_be_focused()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Board 1")
    assert sorted(Result.objects.filter(board__number=1).values_list("ns_score", flat=True)) == [50, 400, 430, 460]
