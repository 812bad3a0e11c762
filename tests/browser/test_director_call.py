"""A table calls the director from its phone and the director sees it on the live grid, in
real browsers: the phone (390x844, touch) presses "Call the director" while the network
is away, the press waits in the phone's outbox and is sent once when the network returns
(a second press stores nothing more); the director's grid shows the call within a poll,
the director presses Taken, and the phone then says the director is coming. The director
also starts the round clock, and the phone counts it down on its own.
"""

from __future__ import annotations

import re

from django.urls import reverse
from playwright.sync_api import Page, expect

from sessions.models import DirectorCall
from sessions.phones.services.tables import table_links_ensure
from tests.browser.conftest import PHONE
from tests.browser.test_accessibility import axe_violations
from tests.browser.test_director_flow import PASSWORD, log_in
from tests.factories import make_club, make_event, make_session, make_user

POLL = 12_000  # ms: two of the grid's 5-second polls


def test_a_phone_calls_the_director_who_sees_it_and_takes_it(browser, page: Page, server, screenshot):
    director = make_user("call-director", password=PASSWORD)
    club = make_club(directors=[director], name="Harbour Bridge Club")
    session = make_session(make_event(club, name="Thursday Pairs"))
    link = next(link for link in table_links_ensure(session=session) if link.table == 2)

    log_in(page, director.username)
    page.goto(reverse("sessions:director_session", args=[session.pk]))
    expect(page.locator(".director-calls")).to_have_count(0)

    context = browser.new_context(base_url=server.url, **PHONE)
    phone = context.new_page()
    phone.goto(reverse("sessions:table_page", args=[link.token]))
    context.set_offline(True)
    phone.get_by_role("button", name="A claim").click()
    expect(phone.locator("#network-status")).to_contain_text("Waiting for the network")
    assert not DirectorCall.objects.exists()

    context.set_offline(False)
    phone.evaluate("window.dispatchEvent(new Event('online'))")  # as the phone does when the network returns
    expect(phone.locator(".call-state.called")).to_contain_text("The director is called")
    assert phone.get_by_role("button", name="Call the director").count() == 0  # no second call offered
    screenshot(phone, "table-phone-director-called")
    assert not axe_violations(phone)

    calls = page.locator(".director-calls")
    expect(calls).to_contain_text("Table 2", timeout=POLL)
    expect(calls).to_contain_text("A claim")
    expect(calls).to_contain_text(re.compile(r"called \d+\s+minutes? ago"))
    screenshot(page, "director-grid-call")
    assert not axe_violations(page)
    page.get_by_role("button", name="Taken").click()
    expect(page.locator(".director-calls")).to_have_count(0)

    phone.reload()
    expect(phone.locator(".call-state.coming")).to_have_text("The director is coming.")
    assert list(DirectorCall.objects.values_list("table", "reason")) == [(2, "claim")]

    # The round clock: the director sets 12 minutes and starts; the phone counts down alone.
    page.get_by_label("Minutes a round").fill("12")
    page.get_by_role("button", name="Set").click()
    page.get_by_role("button", name="Start round 1").click()
    expect(page.locator("#round-clock")).to_contain_text("Round 1:")
    assert not axe_violations(page)
    phone.reload()
    left = phone.locator("#round-clock .clock-left")
    expect(left).to_have_text(re.compile(r"^(12:00|11:5\d) left$"))
    first = left.text_content()
    expect(left).not_to_have_text(first, timeout=3_000)  # counted down on the phone, no reload
    context.close()
