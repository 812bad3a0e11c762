"""The score pad in a real phone browser (390 x 844): the seed's six-deal rubber entered
deal by deal shows every figure of the text's sheet after each deal; corrections, a
Chicago, reload and offline use, and a member's pad kept on the server."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from sessions.models import ScorePad
from tests.browser.conftest import PHONE
from tests.browser.demo_data import PASSWORD
from tests.factories import make_user

# seeds/001 "An example rubber": (level, strain, doubling, declarer, tricks, honours, side),
# and after each deal the figures on the sheet, read from the text's panels and narrative:
# (WE above the line, latest first; THEY above; WE below, game by game; THEY below; totals).
SEED_RUBBER = [
    (("2", "NT", "", "N", 9, "", ""), ([30], [], [70], [], (100, 0))),
    (("4", "H", "", "W", 10, "", ""), ([30], [], [70], [120], (100, 120))),
    (("5", "C", "", "W", 9, "", ""), ([200, 30], [], [70], [120], (300, 120))),
    (("4", "S", "X", "S", 11, "", ""), ([50, 100, 200, 30], [], [70, 240], [120], (690, 120))),
    (("3", "C", "", "N", 10, "", ""), ([20, 50, 100, 200, 30], [], [70, 240, 60], [120], (770, 120))),
    (("6", "D", "", "E", 12, "five_trumps", "EW"),
     ([20, 50, 100, 200, 30], [500, 150, 750], [70, 240, 60], [120, 120], (770, 1640))),
]
# The dealer and vulnerability the sheet announces before each deal (the deal passes to the
# left; EW vulnerable after their game on deal 2, NS too after deal 4).
NEXT_DEAL = ["dealer N, neither side vulnerable", "dealer E, neither side vulnerable", "dealer S, THEY vulnerable",
             "dealer W, THEY vulnerable", "dealer N, both sides vulnerable", "dealer E, both sides vulnerable"]


def start_pad(page: Page, kind: str = "Rubber", era: str = "Current laws (since 1987)") -> None:
    page.goto(reverse("sessions:pad"))
    page.get_by_label(kind, exact=True).check()
    page.get_by_label(era).check()
    for label, name in (("North (WE)", "Ann"), ("East (THEY)", "Bob"), ("South (WE)", "Cat"), ("West (THEY)", "Dan")):
        page.get_by_label(label).fill(name)
    page.get_by_role("button", name="Start").click()
    expect(page.locator("#deal-form")).to_be_visible()


def enter_deal(page: Page, level, strain, doubling, declarer, tricks, honours="", side="") -> None:
    form = page.locator("#deal-form")
    form.get_by_label("Contract").select_option(level)
    if level != "P":
        form.get_by_label("Strain").select_option(strain)
        form.get_by_label("Doubled").select_option(doubling)
        form.get_by_label("Declarer").select_option(declarer)
        form.get_by_label("Tricks taken").select_option(str(tricks))
        form.get_by_label("Honours").select_option(honours)
        form.get_by_label("Held by").select_option(side)
    form.get_by_role("button", name="Score this deal").click()


def figures(page: Page, round_number: int, part: str, side: str) -> list[int]:
    cells = page.locator(f"#round-{round_number} [data-part='{part}'][data-side='{side}'] .points")
    return [int(text) for text in cells.all_inner_texts()]


def sheet_totals(page: Page, round_number: int = 1) -> tuple[int, int]:
    return tuple(int(page.locator(f"#round-{round_number} [data-part='total'][data-side='{s}']").inner_text())
                 for s in ("NS", "EW"))


def test_the_seed_rubber_entered_deal_by_deal_shows_the_texts_sheet(phone, screenshot):
    start_pad(phone)
    for number, (deal, (we_above, they_above, we_below, they_below, totals)) in enumerate(SEED_RUBBER, start=1):
        if number > 1:
            expect(phone.locator("#round-1 .pad-vul")).to_have_text(f"Next deal: {NEXT_DEAL[number - 1]}")
        enter_deal(phone, *deal)
        expect(phone.locator("#round-1 .pad-deals tbody tr")).to_have_count(number)
        assert figures(phone, 1, "above", "NS") == we_above, number
        assert figures(phone, 1, "above", "EW") == they_above, number
        assert figures(phone, 1, "below", "NS") == we_below, number
        assert figures(phone, 1, "below", "EW") == they_below, number
        assert sheet_totals(phone) == totals, number
    # A line under each of the three games, the rubber over, the winner and the night.
    expect(phone.locator("#round-1 .game-line")).to_have_text(["Game 1: THEY", "Game 2: WE", "Game 3: THEY"])
    expect(phone.locator("#round-1 h2")).to_contain_text("(finished)")
    expect(phone.locator("#round-1 .pad-net")).to_have_text("THEY win by 870")
    expect(phone.locator("[data-player-total]")).to_have_text(["-870", "870", "-870", "870"])
    expect(phone.locator(".pad-rules")).to_contain_text("Current laws (since 1987)")
    # The text's "Deal Total NS" and "Deal Total EW" columns.
    rows = phone.locator("#round-1 .pad-deals tbody tr")
    assert [rows.nth(i).locator("td.num").all_inner_texts() for i in range(6)] == [
        ["100", ""], ["", "120"], ["200", ""], ["390", ""], ["80", ""], ["", "1020"]]
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "pad-seed-rubber")


def test_the_pad_survives_a_reload_and_works_offline(phone):
    start_pad(phone)
    enter_deal(phone, "4", "S", "", "N", 10)
    phone.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null")
    phone.reload()
    assert sheet_totals(phone) == (120, 0)
    phone.context.set_offline(True)
    phone.reload()  # from the service worker's cache
    assert sheet_totals(phone) == (120, 0)
    enter_deal(phone, "3", "NT", "", "S", 9)  # scored in the browser, offline
    expect(phone.locator("#round-1 .pad-net")).to_have_text("WE win by 920")
    phone.reload()
    expect(phone.locator("#round-1 .pad-net")).to_have_text("WE win by 920")
    phone.context.set_offline(False)


def test_a_deal_is_corrected_and_deleted_and_a_wrong_one_refused(phone):
    start_pad(phone)
    enter_deal(phone, "4", "S", "", "N", 10)
    enter_deal(phone, "2", "H", "", "E", 8)
    phone.get_by_role("link", name="Correct deal 1 of rubber 1").click()
    expect(phone.get_by_label("Tricks taken")).to_have_value("10")
    phone.get_by_label("Tricks taken").select_option("9")
    phone.get_by_role("button", name="Score this deal").click()
    assert sheet_totals(phone) == (0, 50 + 60)
    phone.once("dialog", lambda dialog: dialog.accept())
    phone.get_by_role("button", name="Delete deal 2 of rubber 1").click()
    assert sheet_totals(phone) == (0, 50)
    enter_deal(phone, "3", "NT", "", "N", 9, "four_trumps", "NS")
    expect(phone.locator(".pad-error")).to_contain_text("At notrump there are no trump honours")
    assert sheet_totals(phone) == (0, 50)


def test_deleting_a_deal_or_clearing_the_pad_asks_first_and_no_keeps_everything(phone):
    """One tap on "Delete" or "New pad (clear this one)" beside "Print" must not lose a
    night: the browser asks, and "Cancel" changes nothing."""
    start_pad(phone)
    enter_deal(phone, "4", "S", "", "N", 10)
    enter_deal(phone, "2", "H", "", "E", 8)
    asked = []

    def answer(accept):
        def handle(dialog):
            asked.append(dialog.message)
            dialog.accept() if accept else dialog.dismiss()
        phone.once("dialog", handle)

    answer(False)
    phone.get_by_role("button", name="Delete deal 2 of rubber 1").click()
    answer(False)
    phone.get_by_role("button", name="New pad (clear this one)").click()
    phone.reload()  # nothing changed, in the page or in the browser's copy
    expect(phone.locator("#round-1 .pad-deals tbody tr")).to_have_count(2)
    assert asked == ["Delete deal 2 of this rubber? Its scores leave the sheet.",
                     "Clear this pad and start a new one? Every deal of it is lost."]

    answer(True)
    phone.get_by_role("button", name="New pad (clear this one)").click()
    expect(phone.locator("#pad-new")).to_be_visible()
    phone.reload()
    expect(phone.locator("#pad-new")).to_be_visible()


def test_a_rubber_stopped_unfinished_scores_its_bonuses_and_can_play_on(phone):
    start_pad(phone)
    enter_deal(phone, "4", "S", "", "N", 10)   # WE: game (120)
    enter_deal(phone, "2", "D", "", "E", 8)    # THEY: part-score (40)
    phone.get_by_role("button", name="Stop this rubber (unfinished)").click()
    assert sheet_totals(phone) == (120 + 300, 40 + 100)
    expect(phone.locator("#round-1 .pad-net")).to_have_text("WE win by 280")
    phone.get_by_role("button", name="Play on: the rubber is not over").click()
    assert sheet_totals(phone) == (120, 40)
    phone.get_by_role("button", name="Stop this rubber (unfinished)").click()
    enter_deal(phone, "1", "NT", "", "W", 7)   # the next rubber, the same names
    expect(phone.locator("#round-2 h2")).to_have_text("Rubber 2")
    expect(phone.locator("#round-2 .pad-sheet thead")).to_contain_text("Ann & Cat")
    expect(phone.locator("[data-player-total]")).to_have_text(["240", "-240", "240", "-240"])


def test_a_chicago_rotates_the_dealer_and_scores_its_bonuses(phone):
    start_pad(phone, kind="Chicago", era="1932 laws")
    enter_deal(phone, "3", "NT", "", "N", 9, "four_aces", "NS")   # 1932: 30+40+30 = 100, game 300, aces 150
    enter_deal(phone, "2", "S", "", "E", 8)                        # THEY vulnerable: 60
    enter_deal(phone, "P", "", "", "", 0)
    enter_deal(phone, "2", "H", "", "W", 9)                        # deal 4: 60 + 60 = game, 500; overtrick 30
    assert sheet_totals(phone) == (550, 60 + 60 + 30 + 500)
    dealers = phone.locator("#round-1 .pad-deals small").all_inner_texts()
    assert [text.split(",")[0] for text in dealers] == ["Dealer N", "Dealer E", "Dealer S", "Dealer W"]
    assert [text.split(", ")[1] for text in dealers] == [
        "neither side vulnerable", "THEY vulnerable", "WE vulnerable", "both sides vulnerable"]
    enter_deal(phone, "1", "C", "", "N", 7)                        # the next Chicago
    expect(phone.locator("#round-2 h2")).to_have_text("Chicago 2")
    expect(phone.locator(".pad-rules")).to_contain_text("1932 laws")


def test_a_members_pad_syncs_to_the_server(browser, server):
    member = make_user("member", password=PASSWORD)
    context = browser.new_context(base_url=server.url, viewport={"width": 390, "height": 844})
    page = context.new_page()
    log_in_as(page, member.username)
    start_pad(page)
    enter_deal(page, "4", "S", "", "N", 10)
    for _ in range(100):  # the sync runs in the background
        stored = ScorePad.objects.filter(user=member).first()
        if stored and stored.data["rounds"]:
            break
        page.wait_for_timeout(100)
    assert stored is not None and stored.data["rounds"][0]["deals"][0]["contract"] == "4S"
    assert ScorePad.objects.filter(user=member).count() == 1
    page.goto(reverse("sessions:pad_list"))
    page.get_by_role("link", name="Share link (read only)").click()
    assert sheet_totals(page) == (120, 0)
    context.close()

    # Another phone: the member continues the kept pad there, and its changes sync back.
    other = browser.new_context(base_url=server.url, **PHONE)
    page = other.new_page()
    log_in_as(page, member.username)
    page.goto(reverse("sessions:pad_list"))
    page.get_by_role("button", name="Continue on this phone").click()
    assert sheet_totals(page) == (120, 0)
    enter_deal(page, "3", "NT", "", "S", 9)
    expect(page.locator("#round-1 .pad-net")).to_have_text("WE win by 920")
    page.reload()
    expect(page.locator("#round-1 .pad-net")).to_have_text("WE win by 920")
    for _ in range(100):
        stored = ScorePad.objects.get(user=member)
        if len(stored.data["rounds"][0]["deals"]) == 2:
            break
        page.wait_for_timeout(100)
    assert len(stored.data["rounds"][0]["deals"]) == 2 and ScorePad.objects.filter(user=member).count() == 1
    other.close()


def log_in_as(page: Page, username: str) -> None:
    page.goto(reverse("login"))
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


def test_the_printed_sheet_hides_the_forms(phone):
    start_pad(phone)
    enter_deal(phone, "4", "S", "", "N", 10)
    phone.emulate_media(media="print")
    expect(phone.locator("#deal-form")).to_be_hidden()
    expect(phone.locator("#round-1 .pad-sheet")).to_be_visible()


def test_a_change_posted_without_javascript_wins_over_the_browsers_older_copy(phone):
    """A form that went to the server (the script not yet loaded, or blocked) changes the
    session's copy: the next page load takes it instead of the browser's older one."""
    start_pad(phone)
    enter_deal(phone, "4", "S", "", "N", 10)
    phone.reload()
    token = phone.locator("#deal-form input[name=csrfmiddlewaretoken]").input_value()
    # The session has no pad yet (the browser made it): a plain form starts one and adds a deal.
    started = phone.request.post(reverse("sessions:pad_new"), max_redirects=0, form={
        "csrfmiddlewaretoken": token, "kind": "rubber", "era": "1935", "north": "Eve", "east": "Fay",
        "south": "Gus", "west": "Hal", "first_dealer": "N"}, headers={"Referer": phone.url})
    added = phone.request.post(reverse("sessions:pad_deal"), max_redirects=0, form={
        "csrfmiddlewaretoken": token, "level": "2", "strain": "H", "doubling": "", "declarer": "E", "tricks": "8",
        "honours": "", "honours_side": ""}, headers={"Referer": phone.url})
    assert (started.status, added.status) == (302, 302)
    phone.reload()
    expect(phone.locator("#pad-heading")).to_contain_text("1935 to 1987: WE Eve & Gus")
    assert sheet_totals(phone) == (0, 60)
    enter_deal(phone, "1", "NT", "", "N", 7)   # and the browser carries on from there
    phone.reload()
    assert sheet_totals(phone) == (40, 60)


def same_markup(html: str) -> str:
    """Markup compared as a browser reads it: spaces between tags and each render's own
    CSRF mask left out."""
    html = re.sub(r'(name="csrfmiddlewaretoken" value=)"[^"]*"', r"\1", html)
    return re.sub(r"\s+", " ", re.sub(r">\s+<", "><", html)).strip()


NIGHTS = {
    "Rubber": [deal for deal, _ in SEED_RUBBER] + [
        ("4", "S", "", "N", 10, "", ""), ("P", "", "", "", 0, "", ""), ("2", "H", "X", "E", 7, "four_trumps", "NS")],
    "Chicago": [("3", "NT", "", "N", 9, "four_aces", "NS"), ("1", "C", "", "E", 7, "", ""), ("P", "", "", "", 0, "", ""),
                ("2", "S", "", "W", 9, "", ""), ("6", "H", "XX", "S", 11, "", "")],
}


@pytest.mark.parametrize("kind", list(NIGHTS))
def test_the_script_draws_the_sheets_as_the_server_does(browser, server, kind):
    """static/js/pad.js fills the page's <template>s of the same partials the server
    renders: a night entered without JavaScript, then opened with it, is the same markup."""
    plain = browser.new_context(base_url=server.url, java_script_enabled=False, **PHONE)
    page = plain.new_page()
    start_pad(page, kind=kind)
    for deal in NIGHTS[kind]:
        enter_deal(page, *deal)
    from_server = page.locator("#pad-rounds").inner_html()
    assert from_server.count('class="pad-round"') == 2
    scripted = browser.new_context(base_url=server.url, storage_state=plain.storage_state(), **PHONE)
    phone = scripted.new_page()
    phone.goto(reverse("sessions:pad"))
    expect(phone.locator("#print-button")).to_be_visible()  # the script has drawn the pad
    drawn = same_markup(phone.locator("#pad-rounds").inner_html())
    assert drawn == same_markup(from_server)
    plain.close()
    scripted.close()
