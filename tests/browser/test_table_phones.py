"""The tables' phones in a real browser: a whole round of a real movement played at once.

One browser context per table (a phone each, 390x844), all on the live server together.
The movement is a 4-table relay-and-bye Mitchell of 2 boards a round: in round 1 tables
1 and 4 share boards 1-2 (the relay), table 2 plays 3-4 and table 3 plays 7-8. The
phones play round 1 at the same time, each with its own trouble: table 1 double taps
Send and Confirm, table 2 loses the network before sending and plays the round on the
phone, table 3 reloads in the middle of its sends, table 4 plays cleanly. At the end
the stored lines are exactly the confirmed ones.

The outside interfaces checked here are ones scripts rely on: the "Result" text box,
the optional "Lead" box, the "Send" and "Confirm" buttons, and #network-status saying
"Waiting for the network" while the phone is offline.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import pytest
from django.urls import reverse
from playwright.sync_api import BrowserContext, Page, expect

from sessions.models import EntryStatus, Result, ResultChange, Seating, Session, TableEntry, TableLink
from sessions.movements import mitchell
from sessions.pairs.services.sessions import session_mark_final, session_reopen
from sessions.phones.services.tables import table_links_ensure
from tests.browser.conftest import PHONE
from tests.factories import make_club, make_event, make_session

PHONE_WIDTH = PHONE["viewport"]["width"]
TARGET = 44  # the smallest thumb target, in CSS pixels
WAIT = 15_000  # ms: long enough for table.js's 5-second outbox retry, twice

# Round 1, per table: (board, result, lead). Every line differs; on the relay boards
# (1-2, tables 1 and 4) the contracts differ, so nothing asks for a second look.
ROUND_1 = {
    1: [(1, "4S N =", "HK"), (2, "2H E -1", "")],
    2: [(3, "1NT N +2", "S4"), (4, "5DX S -1", "")],
    3: [(7, "6NT S =", ""), (8, "4HX E -2", "CA")],
    4: [(1, "3NT S +1", "D2"), (2, "3C W =", "")],
}


@dataclass
class Phone:
    table: int
    context: BrowserContext
    page: Page
    seating: Seating
    confirmed: list[tuple[int, str, str, str]] = field(default_factory=list)

    # The interfaces outside scripts use.
    @property
    def result(self):
        return self.page.get_by_role("textbox", name="Result")

    @property
    def lead(self):
        return self.page.get_by_role("textbox", name="Lead")

    @property
    def send(self):
        return self.page.get_by_role("button", name="Send", exact=True)

    @property
    def confirm(self):
        return self.page.get_by_role("button", name="Confirm", exact=True)

    @property
    def board_number(self):
        return self.page.locator(".board-in-play .board-number")

    @property
    def status(self):
        return self.page.locator("#network-status")

    def type_result(self, text: str, lead: str = "") -> None:
        self.result.click()
        self.result.press_sequentially(text, delay=15)
        if lead:
            self.lead.press_sequentially(lead, delay=15)

    def line(self, board: int, text: str) -> tuple[int, str, str, str]:
        return (board, self.seating.ns_pair.label, self.seating.ew_pair.label, text)


# Long names at table 1 must wrap, never push the phone's page sideways.
LONG_NAMES = {
    "1NS": ("Maximilian Featherstonehaugh-Cholmondeley", "Bartholomew Wolstenholme-Marjoribanks"),
    "1EW": ("Wilhelmina Ottoline Fortescue-Smythe", "Cornelius Aloysius Throckmorton-Hughes"),
}
PLAYERS = {
    f"{table}{line}": LONG_NAMES.get(f"{table}{line}", (f"Ann {table}{line}", f"Bob {table}{line}"))
    for table in range(1, 5) for line in ("NS", "EW")
}


@pytest.fixture
def table_session(server) -> Session:
    event = make_event(make_club(name="Harbour Bridge Club"), name="Tuesday Pairs")
    return make_session(event, mitchell(4, 2), pair_players=PLAYERS)


@pytest.fixture
def open_phone(browser, server, table_session):
    """open_phone(table): that table's page in a phone context of its own."""
    links = {link.table: link for link in table_links_ensure(session=table_session)}
    contexts: list[BrowserContext] = []

    def open_(table: int, viewport: dict | None = None) -> Phone:
        context = browser.new_context(base_url=server.url, **{**PHONE, "viewport": viewport or PHONE["viewport"]})
        contexts.append(context)
        page = context.new_page()
        page.goto(table_url(links[table]))
        seating = Seating.objects.select_related("ns_pair", "ew_pair").get(
            section__session=table_session, table=table, round=1
        )
        phone = Phone(table, context, page, seating)
        expect(phone.page.get_by_role("heading", level=1)).to_contain_text(f"Table {table}")
        expect(phone.result).to_be_editable()
        expect(phone.page.locator(".keypad")).to_be_visible()  # table.js is running
        return phone

    yield open_
    for context in contexts:
        context.close()


def table_url(link: TableLink) -> str:
    return reverse("sessions:table_page", args=[link.token])


def stored_lines() -> list[tuple[int, str, str, str]]:
    return sorted(
        (r.board.number, r.ns_pair.label, r.ew_pair.label, r.text)
        for r in Result.objects.select_related("board", "ns_pair", "ew_pair")
    )


def wait_until(page: Page, check, *, timeout: float = WAIT / 1000, what: str = "") -> None:
    """Poll the database until check() holds. Waits in the page, so its events (routes) run."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what or check}")
        page.wait_for_timeout(100)


def double_tap(page: Page, button, *, changed: str) -> None:
    """A thumb's double tap on ``button``: the second tap lands where it was, once the
    first has changed the page (``changed``, a JS predicate, polled every frame)."""
    box = button.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    button.tap()
    page.wait_for_function(changed)
    page.touchscreen.tap(x, y)


def expect_sent(phone: Phone, text: str) -> None:
    """The server has the send: the page asks EW to confirm exactly that."""
    expect(phone.page.locator(".pending-text")).to_have_text(text, timeout=WAIT)
    expect(phone.confirm).to_be_enabled()


# --- a whole round, four phones at once ----------------------------------------------------------


def test_four_phones_play_round_one_of_a_relay_mitchell_at_once(open_phone, table_session, screenshot):
    phones = {table: open_phone(table) for table in (1, 2, 3, 4)}
    for table, phone in phones.items():
        expect(phone.board_number).to_have_text(str(ROUND_1[table][0][0]))
        expect(phone.page.locator(".table-head .round")).to_have_text("Round 1 of 4")
    offline, reloader, double_tapper = phones[2], phones[3], phones[1]
    offline.context.set_offline(True)  # before anything is sent
    held = []  # table 3's first send, answered by the server but never to the phone

    for index in (0, 1):  # the round's two boards, every table at once
        for table, phone in phones.items():  # everyone types, interleaved a key at a time...
            board, text, lead = ROUND_1[table][index]
            expect(phone.board_number).to_have_text(str(board))
            phone.type_result(text, lead)
            expect(phone.result).to_have_value(text)
            if phone is offline:
                expect(phone.page.locator("#preview")).to_have_text("The score shows when the network is back.")

        # ... and sends.
        for table, phone in phones.items():
            board, text, _ = ROUND_1[table][index]
            if phone is double_tapper:
                phone.send.dblclick()
            elif phone is reloader and index == 0:
                # The server takes the send but its answer never reaches the phone: the
                # reload comes first, and the outbox sends the same key again.
                phone.page.route("**/send/", lambda route: held.append(route.fetch()))
                phone.send.click()
            elif phone is reloader:
                phone.send.click()
                phone.page.reload()  # straight away, the send may or may not have left
            else:
                phone.send.click()

        if index == 0:
            wait_until(reloader.page, lambda: held, what="table 3's send to reach the server")
            assert TableEntry.objects.filter(table=3, board__number=7, status=EntryStatus.PENDING).count() == 1
            reloader.page.unroute("**/send/")
            reloader.page.reload()

        # Offline, Send still takes the result; the phone says it is waiting.
        board, text, lead = ROUND_1[2][index]
        expect(offline.status).to_be_visible()
        expect(offline.status).to_contain_text("Waiting for the network")
        expect(offline.page.locator(".pending-text")).to_have_text(text)
        lead_shown = offline.page.locator(".to-confirm")
        if lead:  # EW check the lead too, as they would online
            expect(lead_shown).to_contain_text(f"NS sent: {text}, lead {lead} (kept on this phone")
        else:
            expect(lead_shown).not_to_contain_text("lead")
        if index == 0:
            screenshot(offline.page, "table-phone-offline-confirm")

        for table, phone in phones.items():  # EW confirm, at every table
            board, text, _ = ROUND_1[table][index]
            if phone is not offline:
                expect_sent(phone, text)
            if phone is double_tapper:
                changed = (  # the next board, or the moves for round 2
                    f"() => document.querySelector('.board-number').textContent === '{ROUND_1[table][1][0]}'"
                    if index == 0 else "() => !!document.querySelector('section.moves')"
                )
                double_tap(phone.page, phone.confirm, changed=changed)
            else:
                phone.confirm.click()
            phone.confirmed.append(phone.line(board, text))

        for table, phone in phones.items():  # the next board, or the next round
            if index == 0:
                expect(phone.board_number).to_have_text(str(ROUND_1[table][1][0]), timeout=WAIT)
                expect(phone.result).to_have_value("")

    # Nothing of table 2's has left its phone; the other tables are all recorded.
    expect(offline.page.get_by_role("heading", name="Round finished on this phone")).to_be_visible()
    expect(offline.status).to_contain_text("Waiting for the network: 4 actions are kept on this phone")
    assert not TableEntry.objects.filter(table=2).exists()
    for phone in (phones[1], phones[3], phones[4]):
        expect(phone.page.get_by_role("heading", name="Round 1 is over: move for round 2")).to_be_visible(
            timeout=WAIT
        )
    screenshot(offline.page, "table-phone-offline-round-done")

    # The network comes back: the outbox delivers the round in order (on the 'online'
    # event, else on its 5-second retry).
    offline.context.set_offline(False)
    expect(offline.page.get_by_role("heading", name="Round 1 is over: move for round 2")).to_be_visible(
        timeout=WAIT
    )
    expect(offline.status).to_be_hidden()

    confirmed = sorted(line for phone in phones.values() for line in phone.confirmed)
    assert len(confirmed) == 8
    assert stored_lines() == confirmed  # no more, no less
    assert ResultChange.objects.count() == 8  # each recorded once
    assert TableEntry.objects.count() == 8  # a double tap or a resend made no second entry
    assert set(TableEntry.objects.values_list("status", flat=True)) == {EntryStatus.CONFIRMED}
    assert sorted(Result.objects.values_list("lead", flat=True)) == sorted(
        lead for rows in ROUND_1.values() for _, _, lead in rows
    )

    for table, phone in phones.items():  # round 2's moves, from the movement
        moves = phone.page.locator("section.moves")
        expect(moves).to_contain_text(f"{phone.seating.ew_pair.label}")
        following = Seating.objects.get(section__session=table_session, table=table, round=2)
        here = phone.page.locator(".pairs-here")  # who is at the table now, above the moves
        expect(here).to_contain_text(f"NS{following.ns_pair.label}")
        expect(here).to_contain_text(f"EW{following.ew_pair.label}")
        expect(phone.page.locator(".table-head .round")).to_have_text("Round 2 of 4")
        expect(phone.board_number).to_have_text(str(following.boards[0]))
    screenshot(phones[1].page, "table-phone-moves")


# --- one phone --------------------------------------------------------------------------------------


def test_the_score_shows_before_sending(open_phone):
    phone = open_phone(1)
    heading = phone.page.locator("#board-title")
    expect(heading).to_contain_text("Board 1")
    expect(heading).to_contain_text("Dealer N, None vulnerable")

    phone.type_result("4SX N 10")

    expect(phone.page.locator("#preview")).to_have_text("NS +590")
    phone.result.fill("")
    phone.type_result("9S N =")
    expect(phone.page.locator("#preview .preview-error")).to_contain_text("9 is not a contract level")
    assert not TableEntry.objects.exists()


def test_a_result_tapped_on_the_keypad_is_sent(open_phone):
    phone = open_phone(1)
    page = phone.page

    for group, name in (("Level", "4"), ("Strain", "Hearts"), ("Double", "X"), ("Declarer", "E"), ("Tricks", "-2")):
        key = page.get_by_role("group", name=group).get_by_role("button", name=name, exact=True)
        key.tap()
        expect(key).to_have_attribute("aria-pressed", "true")

    expect(phone.result).to_have_value("4HX E -2")
    expect(page.locator("#preview")).to_have_text("NS +300")
    phone.send.tap()
    expect_sent(phone, "4HX E -2")
    phone.confirm.tap()

    expect(phone.board_number).to_have_text("2")
    assert stored_lines() == [phone.line(1, "4HX E -2")]


def test_a_reload_that_overtakes_the_answer_to_a_send_still_shows_the_send(open_phone):
    """The race CI once met: the reload's page was read before the send was stored, while
    the old page took the send's answer and emptied its outbox. Here the reload is served
    that older page outright; the phone must still come back to EW's confirmation."""
    phone = open_phone(1)
    page_url = phone.page.url
    older_page = phone.page.request.get(page_url).text()  # board 1 still to play
    phone.type_result("4S N =")
    phone.send.click()
    expect_sent(phone, "4S N =")

    phone.page.route(page_url, lambda route: route.fulfill(body=older_page, content_type="text/html"))
    phone.page.reload()
    expect_sent(phone, "4S N =")  # the same key sent once more: stored nothing, showed the table now
    phone.page.unroute(page_url)
    phone.confirm.click()

    expect(phone.board_number).to_have_text("2")
    assert stored_lines() == [phone.line(1, "4S N =")]
    assert TableEntry.objects.count() == 1
    phone.page.reload()  # nothing more is sent again
    expect(phone.board_number).to_have_text("2")
    expect(phone.result).to_have_value("")
    assert TableEntry.objects.count() == 1


def test_a_send_the_server_turns_away_keeps_what_was_typed(open_phone):
    phone = open_phone(1)
    phone.page.route("**/send/", lambda route: route.fulfill(status=403, body="CSRF verification failed."))
    phone.type_result("4S N =", "HK")
    phone.send.click()
    expect(phone.status).to_contain_text("The server refused that action (403): reload the page.")
    phone.page.unroute("**/send/")

    phone.page.reload()
    expect(phone.result).to_have_value("4S N =")  # typed once, never lost
    expect(phone.lead).to_have_value("HK")
    assert not TableEntry.objects.exists()


def test_a_refused_result_goes_back_to_ns_and_the_correction_is_the_one_line(open_phone):
    phone = open_phone(1)
    phone.type_result("4S N =")
    phone.send.click()
    expect_sent(phone, "4S N =")

    phone.page.get_by_role("button", name="Refuse: NS correct it").click()

    expect(phone.page.get_by_role("alert")).to_have_text("EW refused 4S N =: NS, enter the result again.")
    expect(phone.board_number).to_have_text("1")
    expect(phone.result).to_have_value("4S N =")  # to correct, not to type again
    assert not Result.objects.exists()
    phone.result.fill("")
    phone.type_result("4S N -1")
    phone.send.click()
    expect_sent(phone, "4S N -1")
    phone.confirm.click()

    expect(phone.board_number).to_have_text("2")
    assert stored_lines() == [phone.line(1, "4S N -1")]
    assert sorted(TableEntry.objects.values_list("text", "status")) == [
        ("4S N -1", EntryStatus.CONFIRMED), ("4S N =", EntryStatus.REFUSED),
    ]


def test_the_phone_page_fits_a_phone_and_its_buttons_fit_a_thumb(open_phone, screenshot):
    phone = open_phone(1)
    page = phone.page
    assert_fits_the_width(page)
    keys = page.locator(".keypad button")
    assert keys.count() == 7 + 5 + 4 + 4 + 14
    assert_thumb_sized([phone.send, *keys.all()])
    screenshot(page, "table-phone-send")

    phone.type_result("3NT S +1", "D2")
    expect(page.locator("#preview")).to_have_text("NS +430")
    phone.send.click()
    expect_sent(phone, "3NT S +1")
    assert_fits_the_width(page)
    assert_thumb_sized([phone.confirm, page.get_by_role("button", name="Refuse: NS correct it")])
    screenshot(page, "table-phone-confirm")

    phone.confirm.click()
    expect(phone.board_number).to_have_text("2")
    phone.type_result("2H E -1")
    phone.send.click()
    expect_sent(phone, "2H E -1")
    phone.confirm.click()
    expect(page.get_by_role("heading", name="Round 1 is over: move for round 2")).to_be_visible()
    assert_fits_the_width(page)
    screenshot(page, "table-phone-round-over")


def assert_fits_the_width(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE_WIDTH, f"the page scrolls sideways: {width}px wide on a {PHONE_WIDTH}px phone"


def assert_thumb_sized(buttons) -> None:
    for button in buttons:
        box = button.bounding_box()
        assert box is not None, f"{button} is not on screen"
        assert box["width"] >= TARGET and box["height"] >= TARGET, (button, box)




def test_a_double_tap_on_confirm_types_nothing_into_the_next_board(open_phone):
    """The second tap of a double tap would land on the next board's keypad, where Confirm was."""
    next_board = "() => document.querySelector('.board-in-play .board-number').textContent === '2'"
    online, offline = open_phone(1), open_phone(4)  # both play boards 1-2 (the relay)
    offline.context.set_offline(True)
    for phone, text in ((online, "4S N ="), (offline, "3NT S +1")):
        phone.type_result(text)
        phone.send.click()
        expect(phone.page.locator(".pending-text")).to_have_text(text)
    expect(offline.status).to_contain_text("Waiting for the network")

    for phone in (online, offline):
        double_tap(phone.page, phone.confirm, changed=next_board)

    for phone in (online, offline):
        expect(phone.board_number).to_have_text("2")
        expect(phone.result).to_have_value("")
        expect(phone.page.locator(".keypad button[aria-pressed=true]")).to_have_count(0)
    offline.context.set_offline(False)
    expect(offline.status).to_be_hidden(timeout=WAIT)
    assert stored_lines() == sorted([online.line(1, "4S N ="), offline.line(1, "3NT S +1")])


def test_a_send_once_the_session_is_final_stays_on_the_phone_which_says_so_and_it_goes_once_reopened(
    open_phone, table_session
):
    phone = open_phone(1)
    sends: list[str] = []
    phone.page.on("request", lambda request: sends.append(request.url) if request.url.endswith("/send/") else None)
    session_mark_final(session=table_session)  # the page still offers board 1

    phone.type_result("4S N =")
    phone.send.click()

    expect(phone.status).to_contain_text("The results are final: nothing more can be sent from this phone.")
    expect(phone.status).to_contain_text("board 1: 4S N =")
    expect(phone.page.locator(".closed")).to_contain_text("marked the session final")
    expect(phone.send).to_have_count(0)
    phone.page.wait_for_timeout(6_000)  # longer than the outbox's retry
    assert len(sends) == 1 and not TableEntry.objects.exists()

    session_reopen(session=Session.objects.get(pk=table_session.pk))
    phone.page.reload()  # the outbox still holds the send: it goes now
    expect_sent(phone, "4S N =")
    phone.confirm.click()
    expect(phone.board_number).to_have_text("2")
    assert stored_lines() == [phone.line(1, "4S N =")]


# --- the board's form on a small phone --------------------------------------------------------------

# An iPhone SE (390 px wide) less the browser's own bars: what a player sees of the page.
SMALL_PHONE = {"width": 390, "height": 664}

# Where the form's first and last parts are at the top of the page, and what a tap at the
# centre of Result, Lead and Send would land on.
FORM_IN_VIEW = """() => {
  const form = document.querySelector('form.send-form');
  const hit = (element) => {
    const box = element.getBoundingClientRect();
    const found = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return element.contains(found) ? 'itself' : (found ? found.id || found.className || found.tagName : 'nothing');
  };
  const send = form.querySelector('button.send');
  return {
    top: document.querySelector('.board-in-play h2').getBoundingClientRect().top,
    bottom: send.getBoundingClientRect().bottom, height: innerHeight, scrolls: scrollY,
    taps: {result: hit(form.text), lead: hit(form.lead), send: hit(send)},
  };
}"""


def assert_form_fits(page: Page) -> None:
    """The whole board's form is on screen at the top of the page, and nothing covers it."""
    page.evaluate("scrollTo(0, 0)")  # as the page opens: no scrolling
    page.wait_for_function("() => !document.querySelector('.table-main.settling')")  # taps pass again
    seen = page.evaluate(FORM_IN_VIEW)
    assert 0 <= seen["top"] and seen["bottom"] <= seen["height"], seen
    assert seen["taps"] == {"result": "itself", "lead": "itself", "send": "itself"}, seen


def test_the_boards_form_fits_a_small_phone_under_the_offline_banner(open_phone, screenshot):
    phone = open_phone(1, SMALL_PHONE)  # table 1: the longest names
    assert_form_fits(phone.page)
    phone.context.set_offline(True)
    phone.type_result("4S N =", "HK")
    phone.send.click()
    phone.confirm.click()
    expect(phone.board_number).to_have_text("2")
    expect(phone.status).to_contain_text("Waiting for the network: 2 actions are kept on this phone")

    assert_form_fits(phone.page)
    screenshot(phone.page, "table-phone-small-offline")
    phone.type_result("2H E -1")
    phone.send.tap()  # lands on Send, not on the banner
    expect(phone.page.locator(".pending-text")).to_have_text("2H E -1")
    phone.context.set_offline(False)
    expect(phone.status).to_be_hidden(timeout=WAIT)


def test_the_boards_form_fits_a_small_phone_under_the_moves_for_the_next_round(open_phone, screenshot):
    phone = open_phone(1, SMALL_PHONE)
    for board, text, lead in ROUND_1[1]:
        expect(phone.board_number).to_have_text(str(board))
        phone.type_result(text, lead)
        phone.send.click()
        expect_sent(phone, text)
        phone.confirm.click()
    expect(phone.page.get_by_role("heading", name="Round 1 is over: move for round 2")).to_be_visible(timeout=WAIT)

    assert_form_fits(phone.page)
    screenshot(phone.page, "table-phone-small-moves")



# --- what EW confirm --------------------------------------------------------------------------------


def test_ew_see_how_the_line_was_read_and_its_score_before_they_confirm(open_phone):
    """As on a Bridgemate: the contract in words and symbols, the declarer, the tricks, the score."""
    online, offline = open_phone(1), open_phone(4)  # both play board 1 (none vulnerable) first
    online.type_result("4SX N 10", "HK")
    online.send.click()
    expect(online.page.locator(".to-confirm")).to_contain_text("NS sent: 4SX N")
    reading = online.page.locator(".confirm .reading")
    expect(reading).to_have_text("4♠ doubled by North, 10 tricks: NS +590")
    expect(reading.get_by_role("img", name="spades")).to_have_text("♠")  # the suit has a name too

    # Offline, the phone shows what the server read while it could (the score before sending).
    offline.type_result("3NT S 10")
    expect(offline.page.locator("#preview")).to_have_text("NS +430")
    offline.context.set_offline(True)
    offline.send.click()
    expect(offline.page.locator(".confirm .reading")).to_have_text("3NT by South, 10 tricks: NS +430")
    offline.context.set_offline(False)

    online.confirm.click()
    expect(online.board_number).to_have_text("2")
    assert [(r.text, r.ns_score) for r in Result.objects.all()] == [("4SX N =", 590)]


# --- a reload without network ----------------------------------------------------------------------


def test_the_table_page_reloads_without_network_with_its_kept_actions(open_phone):
    """The page and its scripts come from the table's service worker; the outbox is intact and
    goes out once when the network returns."""
    phone = open_phone(1)
    expect(phone.page.locator("#table-main[data-offline=ready]")).to_have_count(1)  # page and scripts kept
    phone.context.set_offline(True)
    phone.type_result("4S N =", "HK")
    phone.send.click()
    phone.confirm.click()
    expect(phone.board_number).to_have_text("2")

    phone.page.reload()

    expect(phone.board_number).to_have_text("2")  # the kept page, with the kept actions on it
    expect(phone.page.locator(".round-boards li").first).to_contain_text("Board 1: kept on this phone")
    expect(phone.status).to_contain_text("Waiting for the network: 2 actions are kept on this phone")
    expect(phone.page.locator(".keypad")).to_be_visible()  # table.js too
    phone.type_result("2H E -1")
    expect(phone.result).to_have_value("2H E -1")
    assert not Result.objects.exists()

    phone.context.set_offline(False)
    expect(phone.status).to_be_hidden(timeout=WAIT)
    expect(phone.page.locator(".round-boards li").first).to_contain_text("Board 1: 4S N =")
    assert stored_lines() == [phone.line(1, "4S N =")]
    assert ResultChange.objects.count() == 1 and TableEntry.objects.count() == 1  # sent once
    expect(phone.result).to_have_value("2H E -1")  # what was typed meanwhile is still there


def test_a_post_in_the_round_replaces_only_the_parts_it_changed_and_a_new_round_the_whole_page(open_phone):
    phone = open_phone(2)
    marked = "document.querySelector('.email-link').dataset.mark === 'kept'"
    phone.page.evaluate("document.querySelector('.email-link').dataset.mark = 'kept'")

    phone.type_result("1NT N +2")
    phone.send.click()
    expect_sent(phone, "1NT N +2")
    phone.confirm.click()
    expect(phone.board_number).to_have_text("4", timeout=WAIT)

    # The answers were the parts (the board in play, the round's boards...), in place of
    # their namesakes: the rest of the page is the element it was.
    assert phone.page.evaluate(marked)
    expect(phone.page.locator(".round-boards")).to_contain_text("Board 3: 1NT N +2")
    phone.type_result("5DX S -1")
    phone.send.click()
    expect_sent(phone, "5DX S -1")
    phone.confirm.click()
    # The round's last board: the table moves on, and the whole main part comes.
    expect(phone.page.locator("#moves-title")).to_contain_text("Round 1 is over", timeout=WAIT)
    assert not phone.page.evaluate(marked)
    assert phone.page.locator("#board-in-play").get_attribute("data-round") == "2"
