"""A club that deals at the table: the phone (390x844, touch) types a board's hands while
the network is away; they wait in the phone's outbox, are sent once the network returns,
checked and stored, and the board is offered no more. A wrong card count comes back as
typed, with the reason, in real browsers."""

from __future__ import annotations

from django.urls import reverse
from playwright.sync_api import expect

from sessions.models import Board
from sessions.phones.services.tables import table_links_ensure
from tests.browser.conftest import PHONE
from tests.browser.test_accessibility import axe_violations
from tests.factories import make_club, make_event, make_session

NORTH, EAST, SOUTH = "A98.J92.A75.Q852", "532.86.K632.KJT7", "KQ4.AKT73.JT.A93"
WELWYN_1 = f"N:{NORTH} {EAST} {SOUTH} JT76.Q54.Q984.64"


def test_hands_typed_offline_are_sent_when_the_network_returns_and_wrong_ones_kept(browser, server, screenshot):
    session = make_session(make_event(make_club(name="Village Bridge Club"), name="Wednesday Pairs"))
    link = next(link for link in table_links_ensure(session=session) if link.table == 1)
    context = browser.new_context(base_url=server.url, **PHONE)
    phone = context.new_page()
    phone.goto(reverse("sessions:table_page", args=[link.token]))

    phone.get_by_text("No hand record? Type the hands").click()
    phone.get_by_label("Board", exact=True).select_option("1")
    phone.get_by_label("North").fill(NORTH[:-1])  # a card short
    phone.get_by_label("East").fill(EAST)
    phone.get_by_label("South").fill(SOUTH)
    phone.get_by_role("button", name="Record the hands").click()
    expect(phone.locator("#deal-entry .errorlist")).to_contain_text("North has 12 cards")
    expect(phone.get_by_label("North")).to_have_value(NORTH[:-1])  # kept, to correct
    assert not axe_violations(phone)

    context.set_offline(True)
    phone.get_by_label("North").fill(NORTH)
    phone.get_by_role("button", name="Record the hands").click()
    expect(phone.locator("#network-status")).to_contain_text("Waiting for the network")
    assert Board.objects.get(session=session, number=1).deal == ""

    context.set_offline(False)
    phone.evaluate("window.dispatchEvent(new Event('online'))")
    expect(phone.locator(".messages")).to_contain_text("Board 1: the hands are recorded.")
    assert Board.objects.get(session=session, number=1).deal == WELWYN_1
    expect(phone.locator("#deal-board option[value='1']")).to_have_count(0)
    screenshot(phone, "table-phone-hands-typed")
    context.close()
