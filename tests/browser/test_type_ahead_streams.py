"""Typing ahead across tables, at any speed and over a slow network: every line lands on
the row it was typed for, or the page says it did not.

A director types a round's slips into the table-and-round page without looking up: each
result, Enter, and on, while the page saves behind and moves on to the next table (and
the next round) by itself. Streams of keys at 30, 45, 60 and 110 ms a key, under 0, 300
and 800 ms of emulated network latency, run over the four tables of round 1 and into
round 2. Every line stored must be the one typed for that board and table, read back
from the database and from the USEBIO export, which another program would read.
"""

import re
from xml.etree import ElementTree

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from sessions.models import Result, Section
from sessions.movements import mitchell
from sessions.pairs.selectors.entry import table_round_sheet
from tests.browser.test_keyboard_entry import director, event, log_in, shown, table_url  # noqa: F401
from tests.factories import make_session

# Each result as typed, and what it means: contract, declarer, tricks (valid on any board).
LINES = [
    ("1NT W -2", "1NT", "W", 5), ("2H E -1", "2H", "E", 7), ("3C E =", "3C", "E", 9),
    ("4S E =", "4S", "E", 10), ("3NT N +1", "3NT", "N", 10), ("2S W +1", "2S", "W", 9),
    ("1D S =", "1D", "S", 7), ("5C N -1", "5C", "N", 10), ("4H S =", "4H", "S", 10),
]
LATENCIES = [0, 300, 800]  # ms added to every request by Chromium's network emulation
SPEEDS = [30, 45, 60, 110]  # ms between keys


def expected_rows(session, count):
    """(round, table, board, NS label, EW label) of the rows the stream fills, in the
    order the page moves through them: the tables of round 1, then round 2."""
    section = Section.objects.get(session=session)
    rows = []
    for round in range(1, session.rounds + 1):
        for table in range(1, session.tables + 1):
            sheet = table_round_sheet(section=section, round=round, table=table)
            rows += [(round, table, row.board.number, row.ns_pair.label, row.ew_pair.label) for row in sheet.rows]
    return rows[:count]


def usebio_lines(session, tmp_path):
    """(board, NS pair, EW pair) -> (contract, declarer, tricks) in the USEBIO export."""
    path = tmp_path / "session.xml"
    call_command("export_results", str(session.pk), "--format", "usebio", "--output", str(path))
    lines = {}
    for board in ElementTree.parse(path).getroot().iter("BOARD"):
        number = int(board.findtext("BOARD_NUMBER"))
        for line in board.iter("TRAVELLER_LINE"):
            key = (number, line.findtext("NS_PAIR_NUMBER"), line.findtext("EW_PAIR_NUMBER"))
            lines[key] = (line.findtext("CONTRACT"), line.findtext("PLAYED_BY"), line.findtext("TRICKS"))
    return lines


@pytest.mark.parametrize("latency", LATENCIES, ids=lambda ms: f"latency-{ms}ms")
@pytest.mark.parametrize("speed", SPEEDS, ids=lambda ms: f"{ms}ms-a-key")
def test_a_stream_typed_ahead_over_several_tables_lands_on_the_rows_it_was_typed_for(
    page: Page, director, event, speed, latency, tmp_path  # noqa: F811 (fixtures of test_keyboard_entry)
):
    session = make_session(event, mitchell(4, 2))  # four tables of two boards: round 1 has eight rows
    log_in(page, director.username)
    page.goto(table_url(session, 1, 1))
    expect(shown(page).locator("input[name=text]").first).to_be_focused()
    network = page.context.new_cdp_session(page)
    network.send("Network.enable")
    network.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": latency, "downloadThroughput": -1, "uploadThroughput": -1,
    })
    page.evaluate("window.sameDocument = true")  # gone if the page loads again

    page.keyboard.type("".join(text + "\n" for text, *_ in LINES), delay=speed)

    # Everything typed is saved (or said): no row is still on its way.
    expect(page.locator("form.entry-row[aria-busy]")).to_have_count(0, timeout=90_000)
    status = page.locator("#entry-status").inner_text()
    alerts = page.locator("form.entry-row [role=alert]").all_inner_texts()
    assert alerts == [], f"lines refused or not sent: {alerts} (status: {status})"
    assert page.evaluate("window.sameDocument === true"), "the page was loaded again: typed keys would have crossed it"
    expect(page).to_have_url(re.compile(table_url(session, 2, 1) + "$"))  # moved on in place, into round 2
    expect(shown(page).locator("input[name=text]").nth(1)).to_be_focused()

    rows = expected_rows(session, len(LINES))
    stored = {
        (line.round, line.table, line.board.number, line.ns_pair.label, line.ew_pair.label): line.text
        for line in Result.objects.select_related("board", "ns_pair", "ew_pair")
    }
    assert stored == {row: text for row, (text, *_) in zip(rows, LINES, strict=True)}
    exported = usebio_lines(session, tmp_path)
    assert exported == {
        (board, ns, ew): (contract, declarer, str(tricks))
        for (_, _, board, ns, ew), (_, contract, declarer, tricks) in zip(rows, LINES, strict=True)
    }


def test_keys_typed_after_the_last_table_are_said_never_entered(page: Page, director, event):  # noqa: F811
    session = make_session(event)  # three tables of two boards, three rounds
    log_in(page, director.username)
    page.goto(table_url(session, 3, 3))  # the last table of the last round
    expect(shown(page).locator("input[name=text]").first).to_be_focused()

    page.keyboard.type("4S N =\n3NT S =\n2H E -1\n", delay=45)

    expect(page.locator("#entry-status")).to_contain_text("Every line here is entered: this is the last table.")
    expect(page.locator("#entry-status")).to_contain_text("Not entered (no line had the cursor): \u201c2H E -1\u23ce\u201d")
    expect(page.locator("form.entry-row[aria-busy]")).to_have_count(0)
    assert sorted(Result.objects.values_list("round", "table", "text")) == [(3, 3, "3NT S ="), (3, 3, "4S N =")]


def test_a_line_refused_on_a_table_already_left_is_shown_again_with_what_was_typed(
    page: Page, director, event  # noqa: F811
):
    session = make_session(event)
    log_in(page, director.username)
    page.goto(table_url(session, 1, 1))
    expect(shown(page).locator("input[name=text]").first).to_be_focused()

    page.keyboard.type("4S N =\n3NT+5 N\n2H E -1\n", delay=45)  # the second is impossible

    first_table = page.locator("#group-A-1-1")
    expect(first_table).to_be_visible()  # shown again, above the table being typed
    expect(first_table.get_by_role("alert")).to_contain_text(re.compile("trick", re.IGNORECASE))
    expect(first_table.locator("input[name=text]").nth(1)).to_have_value("3NT+5 N")
    expect(page.locator("#entry-status")).to_contain_text("Not saved: Table 1, round 1, board 2")
    expect(page.locator("#group-A-1-2 input[name=text]").first).to_have_value("2H E -1")
    expect(page.locator("#group-A-1-2 input[name=text]").nth(1)).to_be_focused()  # the typing stays where it was
    expect(page.locator("form.entry-row[aria-busy]")).to_have_count(0)
    assert sorted(Result.objects.values_list("table", "board__number", "text")) == [(1, 1, "4S N ="), (2, 3, "2H E -1")]
