"""Keyboard entry at typing speed, in a real browser: nothing typed is ever lost.

A director types travellers without looking at the screen: results go in one after the
other with Enter, while the previous ones are still being saved. These tests type with
150 ms between keys (a fast typist) and check the database and the page: every line
where it was typed, every failure (refusal, network, server, expired login) said on its
row with the text kept, and a completed board or table moving on to the next one.
"""

import re
import time

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from sessions.pairs.views import director as director_views
from sessions.models import Board, Result, ResultChange
from sessions.movements import mitchell
from sessions.pairs.selectors.entry import board_traveller
from sessions.pairs.services.results import result_record
from tests.factories import make_club, make_event, make_session, make_user

PASSWORD = "a-long-director-password"
DELAY = 150  # ms between keys

# Board 1 (dealer N, nobody vulnerable): five lines, each valid on any row of the board.
FIVE_LINES = ["4SX N 10", "3NT= W", "4H-1 S", "P", "NP"]


@pytest.fixture
def director(server):
    return make_user("keyboard-director", password=PASSWORD)


@pytest.fixture
def event(director):
    return make_event(make_club(directors=[director], name="Keyboard Club"), name="Thursday Pairs")


def log_in(page: Page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your clubs")).to_be_visible()


def board_url(session, number: int = 1) -> str:
    return reverse("sessions:director_board", args=[session.pk, number])


def table_url(session, round: int, table: int) -> str:
    return reverse("sessions:director_table", args=[session.pk, "A", round, table])


def shown(page: Page):
    """The group (table or board) being typed: the page holds the next ones, hidden."""
    return page.locator("#entry-sheet section.entry-group:not([hidden])")


def rows(page: Page):
    return shown(page).locator("form.entry-row")


def text_box(page: Page, row: int):
    return rows(page).nth(row).locator("input[name=text]")


def expect_entered(page: Page, count: int) -> None:
    expect(shown(page).locator(".entry-count")).to_have_text(f"{count} of {rows(page).count()} lines entered.")


def type_lines(page: Page, lines) -> None:
    """Each line then Enter, at typing speed, never waiting for the page."""
    for line in lines:
        page.keyboard.type(line, delay=DELAY)
        page.keyboard.press("Enter", delay=DELAY)


def line_of(board: Board, row) -> Result | None:
    return Result.objects.filter(board=board, ns_pair=row.ns_pair, ew_pair=row.ew_pair).first()


def open_board(page: Page, director, session, number: int = 1, focused: int = 0) -> None:
    log_in(page, director.username)
    page.goto(board_url(session, number))
    expect(text_box(page, focused)).to_be_focused()  # the first row still to enter


@pytest.fixture
def seven_tables(event):
    """A 7-table Mitchell: board 1 has seven rows, one a table."""
    return make_session(event, mitchell(7, 2))


def slow_saves(monkeypatch, seconds: float) -> list[tuple[float, float]]:
    """Every save takes ``seconds`` longer: the typist is several rows ahead of the server.

    Returns the (start, end) times of the saves, as they happen.
    """
    save = director_views._save_line
    saves = []

    def slow(*args, **kwargs):
        start = time.monotonic()
        time.sleep(seconds)
        try:
            return save(*args, **kwargs)
        finally:
            saves.append((start, time.monotonic()))

    monkeypatch.setattr(director_views, "_save_line", slow)
    return saves


@pytest.mark.parametrize("server_delay", [0, 0.8], ids=["fast-server", "slow-server"])
def test_five_results_typed_in_one_go_are_all_stored_on_their_rows(
    page: Page, director, seven_tables, monkeypatch, server_delay, screenshot
):
    saves = slow_saves(monkeypatch, server_delay)
    board = seven_tables.boards.get(number=1)
    open_board(page, director, seven_tables)

    type_lines(page, FIVE_LINES)
    page.keyboard.type("4S N", delay=DELAY)  # the sixth line, begun while the others are saved

    expect_entered(page, 5)
    expect(page.locator("form.entry-row.sending")).to_have_count(0)
    traveller = board_traveller(board=board).rows
    for index, (row, typed) in enumerate(zip(traveller, FIVE_LINES, strict=False)):
        line = line_of(board, row)
        assert line is not None, f"row {index} ({typed}) was not stored"
        assert line.version == 1
        expect(text_box(page, index)).to_have_value(line.text)
        form = rows(page).nth(index)
        expect(form.locator("input[name=result]")).to_have_value(str(line.pk))
        expect(form.locator("input[name=version]")).to_have_value("1")
    assert [line_of(board, row).text for row in traveller[:5]] == [
        "4SX N =", "3NT W =", "4H S -1", "PASS", "NP",
    ]
    assert Result.objects.count() == 5
    expect(text_box(page, 5)).to_have_value("4S N")  # the typing in progress is untouched
    expect(text_box(page, 5)).to_be_focused()
    assert all(line_of(board, row) is None for row in traveller[5:])
    # The rows were posted one after the other (hx-sync queue): each answer has the lines before it.
    assert len(saves) == 5
    assert all(end <= start for (_, end), (start, _) in zip(saves, saves[1:], strict=False))
    screenshot(page, f"keyboard-entry-five-lines-{'slow' if server_delay else 'fast'}")


def test_a_filled_box_selects_its_text_so_typing_replaces_the_line(page: Page, director, seven_tables):
    board = seven_tables.boards.get(number=1)
    first = board_traveller(board=board).rows[0]
    result_record(board=board, section=first.section, ns_pair=first.ns_pair.label, ew_pair=first.ew_pair.label,
                  text="4S N =")
    open_board(page, director, seven_tables, focused=1)

    text_box(page, 0).click()
    selected = text_box(page, 0).evaluate("box => [box.selectionStart, box.selectionEnd, box.value.length]")
    assert selected == [0, 6, 6]
    type_lines(page, ["4S N +1"])

    expect(text_box(page, 1)).to_be_focused()
    expect(text_box(page, 0)).to_have_value("4S N +1")
    expect(rows(page).nth(0).locator("input[name=version]")).to_have_value("2")
    line = Result.objects.get()
    assert (line.text, line.version, line.ns_score) == ("4S N +1", 2, 450)
    assert ResultChange.objects.filter(result_id=line.pk).count() == 2  # recorded, corrected once

    # Back with Shift+Tab (keyboard focus): selected again, and typing replaces it.
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    expect(text_box(page, 0)).to_be_focused()
    assert text_box(page, 0).evaluate("box => box.selectionEnd - box.selectionStart") == len("4S N +1")


def test_a_refused_line_says_why_on_its_row_and_keeps_the_text(page: Page, director, seven_tables, screenshot):
    open_board(page, director, seven_tables)

    type_lines(page, ["3NT+5 N"])

    row = rows(page).nth(0)
    expect(row.get_by_role("alert")).to_contain_text(re.compile("trick", re.IGNORECASE))
    expect(text_box(page, 0)).to_have_value("3NT+5 N")
    expect(text_box(page, 0)).to_have_attribute("aria-invalid", "true")
    expect(text_box(page, 0)).to_be_focused()  # nothing typed since: back to the refused row
    assert not Result.objects.exists()

    # Typing on after a refusal: the refusal lands on its row, the typing stays where it is.
    page.keyboard.press("Control+A")
    type_lines(page, ["3NT+1 N", "9S N ="])
    page.keyboard.type("4S E", delay=DELAY)
    expect(rows(page).nth(1).get_by_role("alert")).to_contain_text("9 is not a contract level")
    expect(text_box(page, 1)).to_have_value("9S N =")
    expect(text_box(page, 2)).to_have_value("4S E")
    expect(text_box(page, 2)).to_be_focused()
    assert list(Result.objects.values_list("text", flat=True)) == ["3NT N +1"]
    screenshot(page, "keyboard-entry-refused-while-typing-on")


def test_a_network_failure_is_said_on_the_row_and_enter_sends_it_again_once(page: Page, director, seven_tables):
    open_board(page, director, seven_tables)

    page.context.set_offline(True)
    type_lines(page, ["4S N ="])

    alert = rows(page).nth(0).get_by_role("alert")
    expect(alert).to_contain_text("could not be reached")
    expect(text_box(page, 0)).to_have_value("4S N =")
    expect(text_box(page, 0)).to_be_focused()
    assert not Result.objects.exists()

    page.context.set_offline(False)
    page.keyboard.press("Enter")

    expect_entered(page, 1)
    expect(alert).to_have_count(0)
    expect(text_box(page, 1)).to_be_focused()
    line = Result.objects.get()
    assert (line.text, line.version) == ("4S N =", 1)


def test_a_server_error_is_said_on_the_row(page: Page, director, seven_tables, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("the database is on fire")

    monkeypatch.setattr(director_views, "_save_line", broken)
    open_board(page, director, seven_tables)

    type_lines(page, ["4S N ="])

    expect(rows(page).nth(0).get_by_role("alert")).to_contain_text("the server answered 500")
    expect(text_box(page, 0)).to_have_value("4S N =")


def test_an_expired_login_is_said_on_the_row_and_the_text_stays(page: Page, director, seven_tables):
    open_board(page, director, seven_tables)

    page.context.clear_cookies()  # the login (and the CSRF cookie) gone, as after a long break
    type_lines(page, ["4S N ="])

    alert = rows(page).nth(0).get_by_role("alert")
    expect(alert).to_contain_text("Your login has expired")
    link = alert.get_by_role("link", name="log in again")
    expect(link).to_have_attribute("target", "_blank")
    expect(text_box(page, 0)).to_have_value("4S N =")
    expect(shown(page).locator(".entry-head")).to_have_count(1)  # no login page inside the sheet
    expect(page.locator("#entry-sheet input[name=password]")).to_have_count(0)
    assert not Result.objects.exists()

    # Log in again in a new tab, as the link does; back here, Enter sends the row (a new CSRF token).
    with page.context.expect_page() as opened:
        link.click()
    login = opened.value
    login.get_by_label("Username").fill(director.username)
    login.get_by_label("Password").fill(PASSWORD)
    login.get_by_role("button", name="Log in").click()
    expect(login.get_by_role("heading", level=1)).to_contain_text("Board 1")
    login.close()

    text_box(page, 0).focus()
    page.keyboard.press("Enter")
    expect_entered(page, 1)
    expect(alert).to_have_count(0)
    assert Result.objects.get().text == "4S N ="


def test_enter_twice_on_a_row_on_its_way_sends_it_once(page: Page, director, seven_tables):
    open_board(page, director, seven_tables)
    posts, held = [], []
    page.on("request", lambda request: posts.append(request) if request.method == "POST" else None)
    page.route(re.compile(r"/boards/1/$"), lambda route: held.append(route) if route.request.method == "POST"
               else route.continue_())

    type_lines(page, ["4S N ="])
    expect(rows(page).nth(0)).to_have_class(re.compile(r"\bsending\b"))
    text_box(page, 0).click()  # back on the row while it is on its way
    page.keyboard.press("Enter")
    rows(page).nth(0).get_by_role("button", name="Save").click()
    page.keyboard.press("Enter")
    assert len(held) == 1
    held[0].continue_()

    expect_entered(page, 1)
    assert len(posts) == 1
    line = Result.objects.get()
    assert (line.text, line.version) == ("4S N =", 1)


def test_text_typed_on_a_row_on_its_way_is_kept_and_sent_after_it(page: Page, director, seven_tables):
    open_board(page, director, seven_tables)
    held = []

    def hold_the_first_post(route):
        if route.request.method == "POST" and not held:
            held.append(route)
        else:
            route.continue_()

    page.route(re.compile(r"/boards/1/$"), hold_the_first_post)

    type_lines(page, ["4S N =", "3NT W ="])
    expect(rows(page).nth(0)).to_have_class(re.compile(r"\bsending\b"))
    text_box(page, 0).click()
    type_lines(page, ["4S N +1"])  # a change of mind while the first is on its way: Enter on it
    text_box(page, 1).click()
    page.keyboard.type("3NT W +1", delay=DELAY)  # and a change of the second (waiting its turn), no Enter
    assert len(held) == 1
    held[0].continue_()

    expect(rows(page).nth(0).locator("input[name=version]")).to_have_value("2")
    expect(text_box(page, 0)).to_have_value("4S N +1")
    expect(rows(page).nth(1).locator("input[name=version]")).to_have_value("1")
    expect(text_box(page, 1)).to_have_value("3NT W +1")
    expect(text_box(page, 1)).to_be_focused()
    expect(rows(page).nth(1)).to_have_class(re.compile(r"\bedited\b"))  # typed, not saved
    board = seven_tables.boards.get(number=1)
    traveller = board_traveller(board=board).rows
    first, second = line_of(board, traveller[0]), line_of(board, traveller[1])
    assert (first.text, first.version, second.text, second.version) == ("4S N +1", 2, "3NT W =", 1)


def test_a_line_is_deleted_after_confirming(page: Page, director, seven_tables):
    board = seven_tables.boards.get(number=1)
    traveller = board_traveller(board=board).rows
    for row, text in zip(traveller[:2], ["4S N =", "4S N +1"], strict=True):
        result_record(board=board, section=row.section, ns_pair=row.ns_pair.label, ew_pair=row.ew_pair.label,
                      text=text)
    open_board(page, director, seven_tables, focused=2)
    expect(rows(page).nth(1).locator("[role=cell]").nth(10)).to_have_text("2.00")
    answers = []
    page.on("dialog", lambda dialog: answers.append(dialog.message) or dialog.accept())

    rows(page).nth(0).get_by_role("button", name="Delete").click()

    expect_entered(page, 1)
    expect(text_box(page, 0)).to_have_value("")
    expect(rows(page).nth(1).locator("[role=cell]").nth(10)).to_have_text("0.00")  # alone on the board now
    assert answers == ["Delete this line?"]
    assert list(Result.objects.values_list("text", flat=True)) == ["4S N +1"]


def test_double_enter_on_a_row_stores_one_line(page: Page, director, seven_tables):
    open_board(page, director, seven_tables)

    page.keyboard.type("4S N =", delay=DELAY)
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")  # the second one on the next row, still empty: just moves on
    page.keyboard.type("3NT W =", delay=DELAY)
    page.keyboard.press("Enter")

    expect_entered(page, 2)
    board = seven_tables.boards.get(number=1)
    traveller = board_traveller(board=board).rows
    assert (line_of(board, traveller[0]).text, line_of(board, traveller[2]).text) == ("4S N =", "3NT W =")
    assert Result.objects.count() == 2


def test_a_completed_board_moves_on_to_the_next_with_the_typing_ahead(page: Page, director, event):
    session = make_session(event)  # 3 tables: board 1 has three rows
    open_board(page, director, session)

    type_lines(page, ["4S N =", "4S N +1", "4S N -1"])
    type_lines(page, ["3NT S ="])  # typed ahead, for board 2

    expect(page).to_have_url(re.compile(board_url(session, 2) + "$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("Board 2")
    expect_entered(page, 1)
    expect(text_box(page, 0)).to_have_value("3NT S =")
    expect(text_box(page, 1)).to_be_focused()
    assert sorted(Result.objects.values_list("board__number", "text")) == [
        (1, "4S N +1"), (1, "4S N -1"), (1, "4S N ="), (2, "3NT S ="),
    ]


def test_keys_typed_while_the_next_table_is_still_loading_are_said_and_never_entered(
    page: Page, director, event
):
    """The page holds the tables ahead and fetches more as the director moves on. If the
    director outruns that fetch (a dead network), the keys typed meanwhile go nowhere:
    the page says what they were, and once the table is there the director clicks into it."""
    session = make_session(event)  # 3 tables, 3 rounds of 2 boards: the page holds 4 table-rounds
    log_in(page, director.username)
    held = []
    page.route(re.compile(r"/tables/\d+/$"), lambda route: held.append(route)
               if route.request.method == "GET" and route.request.headers.get("hx-request") else route.continue_())
    page.goto(table_url(session, 1, 1))
    expect(text_box(page, 0)).to_be_focused()

    type_lines(page, ["4S N =", "4S N +1", "3NT S =", "3NT S -1", "2H E =", "2H E +1", "1NT W =", "1NT W -1"])
    expect(page.get_by_role("heading", level=1)).to_have_text("Table 1, round 2")  # the fourth, held in the page
    type_lines(page, ["5C N -2"])  # for round 2, table 2: not in the page yet
    expect(page.locator("#entry-status")).to_contain_text("Every line here is entered. Table 2 is still loading")
    expect(page.locator("#entry-status")).to_contain_text("Not entered (no line had the cursor): \u201c5C N -2\u23ce\u201d")
    assert held, "the tables ahead were not asked for"
    for route in held:
        route.continue_()

    expect(page.locator("#entry-status")).to_contain_text("Table 2 is here: click its first Result box to go on.")
    expect(page.get_by_role("heading", level=1)).to_have_text("Table 2, round 2")
    expect(page.locator("form.entry-row[aria-busy]")).to_have_count(0)
    assert Result.objects.count() == 8
    assert not Result.objects.filter(text="5C N -2").exists()


def test_a_completed_table_moves_on_to_the_next_table(page: Page, director, event, screenshot):
    session = make_session(event)  # 3 tables, 2 boards a round
    log_in(page, director.username)
    page.goto(table_url(session, 1, 1))
    expect(text_box(page, 0)).to_be_focused()

    type_lines(page, ["4S N =", "3NT S ="])

    expect(page.locator("#entry-status")).to_contain_text("On to Table 2: every line of Table 1, round 1 is entered")
    screenshot(page, "keyboard-entry-table-complete")
    expect(page).to_have_url(re.compile(table_url(session, 1, 2) + "$"))
    expect(text_box(page, 0)).to_be_focused()
    # The page moves on without waiting for the last line's save ("... is entered (saving)."):
    # on a busy machine its row reaches the database a moment after the cursor moved.
    deadline = time.monotonic() + 15
    while Result.objects.filter(table=1, round=1).count() < 2 and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert Result.objects.filter(table=1, round=1).count() == 2


def test_tables_and_boards_link_both_ways(page: Page, director, event, screenshot):
    session = make_session(event)
    log_in(page, director.username)
    page.goto(table_url(session, 2, 1))
    screenshot(page, "keyboard-entry-table-page")

    pager = page.get_by_role("navigation", name="Other tables and rounds")
    expect(pager.get_by_role("link", name="Table 2")).to_have_attribute("href", table_url(session, 2, 2))
    expect(pager.get_by_role("link", name="Round 1")).to_have_attribute("href", table_url(session, 1, 1))
    expect(pager.get_by_role("link", name="Round 3")).to_have_attribute("href", table_url(session, 3, 1))
    board = rows(page).nth(0).locator("[role=cell]").nth(2)
    number = int(board.inner_text())
    board.get_by_role("link").click()

    expect(page.get_by_role("heading", level=1)).to_contain_text(f"Board {number}")
    row = next(i for i, r in enumerate(board_traveller(board=session.boards.get(number=number)).rows)
               if (r.round, r.table) == (2, 1))
    rows(page).nth(row).locator("[role=cell]").first.get_by_role("link").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Table 1, round 2")


def test_inputs_carry_their_maximum_lengths(page: Page, director, seven_tables):
    open_board(page, director, seven_tables)

    expect(text_box(page, 0)).to_have_attribute("maxlength", "60")
    expect(rows(page).nth(0).locator("input[name=lead]")).to_have_attribute("maxlength", "8")
    page.keyboard.type("4S N = " + "x" * 70)
    assert len(text_box(page, 0).input_value()) == 60


def test_the_entry_pages_break_no_content_security_rule(page: Page, director, event):
    """htmx adds an inline <style> for its indicators unless told not to: the policy
    refuses it and the console says so on every entry page."""
    session = make_session(event)
    refused = []
    page.on("console", lambda message: refused.append(message.text)
            if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text else None)
    log_in(page, director.username)

    for url in (table_url(session, 1, 1), board_url(session, 3)):
        page.goto(url)
        expect(text_box(page, 0)).to_be_focused()
        type_lines(page, ["4S N ="])
        expect(rows(page).nth(0)).to_have_class(re.compile(r"\bsaved\b"))

    assert refused == []


def test_a_page_reached_by_a_row_saved_the_plain_way_puts_the_cursor_on_the_next_row(page: Page, director, event):
    """A row saved without the script (Enter before it ran) redirects to ?focus=row#row: the
    browser skips autofocus when the address names an element, so the script puts the
    cursor there, and typing goes on on that row."""
    session = make_session(event)
    board = session.boards.get(number=1)
    second = board_traveller(board=board).rows[1]
    log_in(page, director.username)

    page.goto(f"{board_url(session)}?focus={second.key}#row-{second.key}")

    expect(text_box(page, 1)).to_be_focused()
    type_lines(page, ["4S N ="])
    expect(rows(page).nth(1)).to_have_class(re.compile(r"\bsaved\b"))
    assert line_of(board, second).text == "4S N ="
