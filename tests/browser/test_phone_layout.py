"""The players' pages on a 390 px phone: read whole without a sideways swipe, tapped easily.

Each public page of a club's evening (tests/browser/demo_data.py: long club, event,
session and player names, a final session with hands and analysis) is checked on the
phone fixture's screen:

- nothing scrolls sideways: neither the page nor a table inside its container;
- the columns a player looks for (score, matchpoints, percentage) lie on screen;
- every link and button is a target of at least 24 x 24 CSS px (WCAG 2.2, 2.5.8), but
  for a link inside a sentence (the criterion's inline exception);
- the pair names link to the pairs' score cards, not only the pair numbers.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.browser.conftest import PHONE
from tests.browser.demo_data import NAMES, PLAYERS, make_evening

WIDTH = PHONE["viewport"]["width"]
TARGET = 24  # CSS px: WCAG 2.2's minimum target size

# Page -> the column headings that must be on screen in each of its results tables.
KEY_COLUMNS = {
    "home": [],
    "club": ["Date", "Session", "Event"],
    "rankings": ["Place", "Pair", "Players", "MP", "%"],
    "traveller": ["NS", "EW", "Contract", "NS score", "EW score", "v par", "NS MP", "EW MP"],
    "score card": ["Board", "Opps", "Contract", "Score", "MP", "%"],
    "event": ["Place", "Players", "MP"],
    "player": ["Session", "Partner", "Score", "Place"],
    "player search": [],
}


def page_url(evening, name: str) -> str:
    final = evening.final
    return {
        "home": reverse("sessions:home"),
        "club": reverse("sessions:club", args=[evening.club.slug]),
        "rankings": reverse("sessions:session_results", args=[final.pk]),
        "traveller": reverse("sessions:board", args=[final.pk, 3]),
        "score card": reverse("sessions:scorecard", args=[final.pk, evening.pair("1NS").pk]),
        "event": reverse("sessions:event_results", args=[final.event_id]),
        "player": reverse("sessions:player", args=[evening.pair("1NS").player_1_id]),
        "player search": reverse("sessions:club_players", args=[evening.club.slug]) + "?q=wisniewska",
    }[name]


@pytest.fixture
def evening(server):
    return make_evening()


# The boxes of the links and buttons that are too small, leaving out what is not shown
# (display: none) and links that run inside a sentence: an inline link whose parent
# holds words of its own besides the link.
SMALL_TARGETS = """(minimum) => {
  const inSentence = (element) => {
    if (getComputedStyle(element).display !== 'inline') return false;
    const text = Array.from(element.parentElement.childNodes)
      .filter((node) => node !== element && node.nodeType === Node.TEXT_NODE)
      .map((node) => node.textContent).join('');
    return /[A-Za-z]{2,}/.test(text);
  };
  const small = [];
  for (const element of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary')) {
    const box = element.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (box.width >= minimum && box.height >= minimum) continue;
    if (inSentence(element)) continue;
    small.push(`${element.tagName.toLowerCase()} "${element.textContent.trim().slice(0, 40)}" ${box.width.toFixed(1)}x${box.height.toFixed(1)}`);
  }
  return small;
}"""

WIDTHS = """() => ({
  page: document.documentElement.scrollWidth,
  tables: Array.from(document.querySelectorAll('.table-container, table'))
    .filter((element) => element.scrollWidth > element.clientWidth + 1 || element.getBoundingClientRect().right > innerWidth)
    .map((element) => `${element.className}: ${element.scrollWidth} px in ${element.clientWidth}, right edge ${element.getBoundingClientRect().right}`),
})"""


@pytest.mark.parametrize("name", list(KEY_COLUMNS))
def test_a_public_page_reads_whole_on_a_phone(phone: Page, evening, name, screenshot):
    phone.goto(page_url(evening, name))
    screenshot(phone, f"phone-layout-{name.replace(' ', '-')}")

    widths = phone.evaluate(WIDTHS)
    assert widths["page"] <= WIDTH, widths
    assert widths["tables"] == [], widths["tables"]  # no table swipes sideways inside its box either
    for table in phone.locator("table.results").all():
        for heading in KEY_COLUMNS[name]:
            box = table.get_by_role("columnheader", name=heading, exact=True).bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= WIDTH, (heading, box)
    assert phone.evaluate(SMALL_TARGETS, TARGET) == []


def test_the_ranking_links_each_name_to_the_players_page(phone: Page, evening):
    phone.goto(page_url(evening, "rankings"))

    link = phone.get_by_role("link", name=NAMES[0][0], exact=True)
    expect(link).to_be_visible()
    box = link.bounding_box()
    assert box and box["width"] >= TARGET and box["height"] >= TARGET, box
    link.click()

    expect(phone).to_have_url(re.compile(page_url(evening, "player") + "$"))
    expect(phone.get_by_role("heading", level=1)).to_contain_text(NAMES[0][0])
    partner = phone.locator("table.results").get_by_role("link", name=NAMES[0][1], exact=True)
    expect(partner).to_be_visible()


def test_every_pair_of_the_ranking_links_its_score_card_and_its_players(phone: Page, evening):
    phone.goto(page_url(evening, "rankings"))

    for label, names in PLAYERS.items():
        pair = evening.pair(label)
        card = phone.get_by_role("link", name=label, exact=True)
        expect(card).to_have_attribute("href", reverse("sessions:scorecard", args=[evening.final.pk, pair.pk]))
        for name, player_id in zip(names, (pair.player_1_id, pair.player_2_id), strict=True):
            link = phone.get_by_role("link", name=name, exact=True)
            expect(link).to_have_attribute("href", reverse("sessions:player", args=[player_id]))


def test_the_club_page_finds_a_player_without_accents_and_without_script(browser, server, evening):
    context = browser.new_context(base_url=server.url, java_script_enabled=False, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(page_url(evening, "club"))

    page.get_by_label("Find a player").fill("wisniewska")
    page.get_by_role("button", name="Search").click()

    page.get_by_role("link", name="Aleksandra Wiśniewska-Kowalczyk").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Aleksandra Wiśniewska-Kowalczyk")
    expect(page.locator("svg.chart")).to_be_visible()
    context.close()


def test_a_traveller_on_a_phone_gives_each_contract_its_declarer_and_result(phone: Page, evening):
    phone.goto(page_url(evening, "traveller"))
    table = phone.locator("table.results")
    headings = [text.strip() for text in table.locator("thead th:visible").all_inner_texts()]

    assert "By" not in headings and "Result" not in headings and "Lead" not in headings, headings
    contracts = [row.locator("td:visible").nth(headings.index("Contract")).inner_text().strip()
                 for row in table.locator("tbody tr").all()]
    played = re.compile(r"[1-7](NT|[♠♥♦♣])X{0,2} [NESW] (=|[+-]\d+)")
    assert all(played.fullmatch(cell) or cell == "PASS" for cell in contracts), contracts


def test_a_score_card_links_the_opponents_and_their_names_on_a_wide_screen(page: Page, evening):
    page.goto(page_url(evening, "score card"))

    card = page.locator("table.results")
    opponents = card.get_by_role("link", name=re.compile(r"^\d+EW$")).first
    expect(opponents).to_be_visible()
    assert re.search(r"/sessions/\d+/pairs/\d+/$", opponents.get_attribute("href"))
    name = card.get_by_role("link", name=NAMES[5][0], exact=True).first
    expect(name).to_be_visible()
    assert re.search(r"/players/\d+/$", name.get_attribute("href"))
