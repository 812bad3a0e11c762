"""Forty pairs turn up: the director creates a session of two sections in the browser and
sees both sections on the session page."""

import datetime
import re

from playwright.sync_api import Page, expect

from sessions.models import Pair, Session
from tests.browser.test_director_flow import PASSWORD, log_in
from tests.factories import make_club, make_event, make_user


def test_director_creates_a_two_section_session(page: Page, server, screenshot):
    director = make_user("sections-director", password=PASSWORD)
    club = make_club(directors=[director], name="Riverside Bridge Club")
    make_event(club, name="Club Championship")

    log_in(page, director.username)
    page.get_by_role("link", name="New session").click()
    page.get_by_label("Pairs").fill("40")
    page.get_by_label("Sections").fill("2")
    page.get_by_label("Boards a round").fill("2")
    page.get_by_role("button", name="Suggest movements").click()

    page.get_by_label(re.compile(r"10-table relay-and-bye Mitchell, 10 rounds of 2 boards .*bye stand between tables 5 and 6$")).check()
    page.get_by_role("button", name="Choose").click()

    expect(page.get_by_role("heading", level=2, name=re.compile("sections A, B"))).to_be_visible()
    page.get_by_role("combobox", name="Event").select_option(label="Club Championship")
    page.get_by_label("Name").fill("Championship, first night")
    page.get_by_label("Date").fill(datetime.date(2025, 3, 4).isoformat())
    page.get_by_label("A 1NS player 1", exact=True).fill("Ann Archer")
    page.get_by_label("B 10EW player 1", exact=True).fill("Bob Baker")
    screenshot(page, "director-session-new-two-sections")
    page.get_by_role("button", name="Create session").click()

    expect(page.get_by_role("status")).to_contain_text("in sections A, B")
    for row in ("A Table 1", "A Table 10", "B Table 1", "B Table 10"):
        expect(page.get_by_role("rowheader", name=row, exact=True)).to_be_visible()
    screenshot(page, "director-session-two-sections")

    session = Session.objects.get(name="Championship, first night")
    assert [section.letter for section in session.sections.order_by("letter")] == ["A", "B"]
    assert Pair.objects.filter(section__session=session).count() == 40
    assert Pair.objects.get(section__session=session, section__letter="B", number=10, direction="EW").player_1.name == "Bob Baker"


def test_director_creates_fourteen_and_thirteen_pairs_on_different_boards(page: Page, server, screenshot):
    director = make_user("odd-sections-director", password=PASSWORD)
    club = make_club(directors=[director], name="Hillside Bridge Club")
    make_event(club, name="Autumn Pairs")

    log_in(page, director.username)
    page.get_by_role("link", name="New session").click()
    page.get_by_label("Pairs").fill("27")
    page.get_by_label("Sections").fill("2")
    page.get_by_label("Boards a round").fill("2")
    page.get_by_role("button", name="Suggest movements").click()
    page.get_by_role("radio", name=re.compile(r"7-table Mitchell")).first.check()
    page.get_by_role("button", name="Choose").click()

    expect(page.get_by_text("Section B has one pair fewer: pair 7EW is a phantom there")).to_be_visible()
    page.get_by_role("combobox", name="Event").select_option(label="Autumn Pairs")
    page.get_by_label("Name").fill("Autumn, week one")
    page.get_by_label("Date").fill(datetime.date(2025, 10, 7).isoformat())
    page.get_by_role("group", name="Boards of each section").get_by_role("radio").nth(3).check()  # B: different
    screenshot(page, "director-session-new-different-boards")
    page.get_by_role("button", name="Create session").click()

    expect(page.get_by_role("status")).to_contain_text("section B one pair short")
    expect(page.get_by_role("status")).to_contain_text("section B plays different boards")
    session = Session.objects.get(name="Autumn, week one")
    assert Pair.objects.filter(section__session=session).count() == 27
    assert session.boards.filter(section__letter="B").count() == session.boards.filter(section=None).count() == 14
