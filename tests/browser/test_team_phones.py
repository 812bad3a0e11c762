"""Two phones play a teams match in a real browser: the open and the closed room.

Each room's phone (390x844, a browser context of its own) opens its link and plays the
match's four boards; the closed room loses the network after two boards, plays the
last two on the phone (NS send, EW confirm, all kept in the outbox) and sends them when
the network returns. At the end the stored lines are exactly the confirmed ones, and
the match's IMPs and VPs are the ones worked out by hand below.

board 1 (none vul)  open 4S N =   +420   closed 4S N -1   -50   home +470  10 IMPs home
board 2 (NS vul)    open 3NT S +1 +630   closed 3NT S =  +600   home  +30   1 IMP home
board 3 (EW vul)    open 2H E -1  +100   closed 2H E =   -110   home +210   5 IMPs home
board 4 (both vul)  open 1NT N +2 +150   closed 3NT N =  +600   home -450  10 IMPs away
                                                   match: home 16, away 10 IMPs
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.urls import reverse
from playwright.sync_api import BrowserContext, Page, expect

from sessions.models import MatchLine, MatchLineChange, Room
from sessions.scoring.teams import victory_points
from sessions.teams.selectors.teams import team_event_score
from sessions.phones.services.team_tables import match_table_links_ensure
from sessions.teams.services.teams import round_robin_schedule
from tests.browser.conftest import PHONE
from tests.browser.test_table_phones import WAIT, wait_until
from tests.factories import make_club, make_team_event

PLAY = {
    Room.OPEN: [(1, "4S N =", "HK"), (2, "3NT S +1", ""), (3, "2H E -1", ""), (4, "1NT N +2", "")],
    Room.CLOSED: [(1, "4S N -1", ""), (2, "3NT S =", "D2"), (3, "2H E =", ""), (4, "3NT N =", "")],
}


@pytest.fixture
def match(server):
    event = make_team_event(make_club(name="Harbour Bridge Club"), teams=2, form="round_robin",
                            boards_per_match=4, vp_scale="20", name="Winter Teams")
    return round_robin_schedule(event=event)[0]


@pytest.fixture
def open_room(browser, server, match):
    links = {link.room: link for link in match_table_links_ensure(event=match.event, round=1)}
    contexts: list[BrowserContext] = []

    def open_(room: str) -> Page:
        context = browser.new_context(base_url=server.url, **PHONE)
        contexts.append(context)
        page = context.new_page()
        page.goto(reverse("sessions:team_table_page", args=[links[room].token]))
        expect(page.get_by_role("heading", level=1)).to_contain_text(room.capitalize() + " room")
        expect(page.locator(".keypad")).to_be_visible()  # table.js is running
        return page

    yield open_
    for context in contexts:
        context.close()


def result_box(page: Page):
    return page.get_by_role("textbox", name="Result")


def type_line(page: Page, text: str, lead: str) -> None:
    result_box(page).fill(text)
    if lead:
        page.get_by_role("textbox", name="Lead").fill(lead)


def play_online(page: Page, board: int, text: str, lead: str) -> None:
    expect(page.locator(".board-in-play .board-number")).to_have_text(str(board))
    type_line(page, text, lead)
    page.get_by_role("button", name="Send", exact=True).click()
    expect(page.locator(".pending-text")).to_have_text(text, timeout=WAIT)
    page.get_by_role("button", name="Confirm", exact=True).click()
    expect(page.locator(".round-boards li").nth(board - 1)).to_contain_text(text, timeout=WAIT)


def play_offline(page: Page, board: int, text: str, lead: str) -> None:
    expect(page.locator(".board-in-play .board-number")).to_have_text(str(board))
    type_line(page, text, lead)
    page.get_by_role("button", name="Send", exact=True).click()
    expect(page.locator(".pending-text")).to_have_text(text, timeout=WAIT)  # EW check it on the phone
    page.get_by_role("button", name="Confirm", exact=True).click()
    expect(page.locator(".round-boards li").nth(board - 1)).to_contain_text("kept on this phone")


def stored() -> list[tuple[int, str, str, str]]:
    return sorted(MatchLine.objects.values_list("board", "room", "text", "lead"))


def test_two_rooms_play_a_match_one_phone_offline_half_way(open_room, match, screenshot):
    phones = {Room.OPEN: open_room(Room.OPEN), Room.CLOSED: open_room(Room.CLOSED)}
    closed = phones[Room.CLOSED]
    expect(closed.locator(".pairs-here")).to_contain_text(match.away.name)  # the away team sits NS here

    for index in (0, 1):  # both rooms online, board by board
        for room, page in phones.items():
            play_online(page, *PLAY[room][index])
    expect(phones[Room.OPEN].locator(".round-boards li").first).to_contain_text("IMPs")

    closed.context.set_offline(True)
    for index in (2, 3):
        play_online(phones[Room.OPEN], *PLAY[Room.OPEN][index])
        play_offline(closed, *PLAY[Room.CLOSED][index])
    expect(closed.locator("#network-status")).to_contain_text("Waiting for the network")
    expect(closed.locator(".board-in-play h2")).to_have_text("Match finished on this phone")
    assert MatchLine.objects.filter(room=Room.CLOSED).count() == 2  # the last two are on the phone only
    screenshot(closed, "team-room-offline")

    closed.context.set_offline(False)
    wait_until(closed, lambda: MatchLine.objects.count() == 8, what="the closed room's outbox to arrive")

    confirmed = sorted((board, room, text, lead) for room, lines in PLAY.items() for board, text, lead in lines)
    assert stored() == confirmed
    assert MatchLineChange.objects.count() == 8  # one "recorded" a line: nothing sent twice
    expect(closed.locator("#network-status")).to_be_hidden(timeout=WAIT)

    scored = next(m for m in team_event_score(match.event).matches if m.match.pk == match.pk)
    assert scored.complete and (scored.outcome.home_points, scored.outcome.away_points) == (16, 10)
    home_vp, away_vp = victory_points(6, "20")
    assert (scored.home_vp, scored.away_vp) == (Fraction(home_vp), Fraction(away_vp))
    for page in phones.values():
        page.reload()
        expect(page.locator(".match-imps")).to_contain_text(f"{match.home.name} 16 - 10 {match.away.name}")
        expect(page.locator(".match-vps")).to_contain_text(f"VPs {home_vp} - {away_vp}")
        expect(page.locator(".round-boards li").nth(3)).to_contain_text(f"10 IMPs to {match.away.name}")
        expect(page.locator(".round-boards li").nth(1)).to_contain_text(f"1 IMP to {match.home.name}")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["viewport"]["width"]
    screenshot(phones[Room.OPEN], "team-room-finished")


def test_a_rooms_phone_shows_the_imps_once_the_other_room_has_played_without_a_reload(open_room, match, settings):
    settings.TABLE_REFRESH_SECONDS = 1  # a club's phone asks every 15 s
    phones = {Room.OPEN: open_room(Room.OPEN), Room.CLOSED: open_room(Room.CLOSED)}
    open_ = phones[Room.OPEN]
    play_online(open_, *PLAY[Room.OPEN][0])
    expect(open_.locator(".round-boards li").first).to_contain_text("(other room still to play)")
    open_.get_by_role("textbox", name="Result").fill("3NT S")  # board 2, typed while the other room plays

    play_online(phones[Room.CLOSED], *PLAY[Room.CLOSED][0])

    # No reload, nothing sent: the open room's phone brings the match's IMPs by itself.
    expect(open_.locator(".round-boards li").first).to_contain_text(f"10 IMPs to {match.home.name}", timeout=WAIT)
    expect(open_.locator(".match-imps")).to_contain_text(f"{match.home.name} 10 - 0 {match.away.name}")
    expect(open_.get_by_role("textbox", name="Result")).to_have_value("3NT S")  # the typing is untouched
    expect(open_.get_by_role("textbox", name="Result")).to_be_focused()
