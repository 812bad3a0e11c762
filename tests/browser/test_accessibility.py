"""Every page passes axe-core, and the director's entry sheet fits a laptop and a tablet.

axe-core (MPL-2.0, tests/browser/vendor/axe.min.js with its licence; no network at test
time) runs in the page on the WCAG 2.0, 2.1 and 2.2 A and AA rules and axe's best
practices (empty table headers, roles an element may take): a violation fails the test
and is listed with the page, the rule and the elements. The script goes in through
Playwright's evaluate, which the pages' Content-Security-Policy (script-src 'self') does
not govern: the pages are tested with their CSP on.

The pages are those of a club's evening (tests/browser/demo_data.py): the players' pages
of a final session with hands and analysis, the director's pages of it and of a session
half entered, and the phone page of one of that session's tables.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from sessions.models import Event, Player, Result, TableLink
from sessions.pairs.services.events import event_update
from tests.browser.demo_data import PASSWORD, make_evening

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa", "best-practice"]


def axe_violations(page: Page) -> list[dict]:
    """axe-core's violations on the page as it is now: rule, impact and the elements."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")
    found = page.evaluate(
        "(tags) => axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})"
        ".then((result) => result.violations.map((v) => ({rule: v.id, impact: v.impact, help: v.help,"
        " nodes: v.nodes.map((n) => n.target.join(' ') + ': ' + n.failureSummary.replace(/\\s+/g, ' '))})))",
        RULES,
    )
    return found


def walk(page: Page, pages: dict[str, str]) -> dict[str, list[dict]]:
    """Each named page's axe violations (only the pages that have some)."""
    problems = {}
    for name, url in pages.items():
        response = page.goto(url)
        assert response is not None and response.ok, (name, url, response and response.status)
        if violations := axe_violations(page):
            problems[name] = violations
    return problems


def report(problems: dict[str, list[dict]]) -> str:
    lines = []
    for name, violations in problems.items():
        for violation in violations:
            lines.append(f"{name}: {violation['rule']} ({violation['impact']}, {len(violation['nodes'])} nodes):"
                         f" {violation['help']}")
            lines.extend(f"    {node}" for node in violation["nodes"][:4])
    return "\n".join(lines)


@pytest.fixture
def evening(server):
    return make_evening()


def log_in(page: Page, username: str) -> None:
    page.goto(reverse("login"))
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your clubs")).to_be_visible()


def public_pages(evening) -> dict[str, str]:
    final = evening.final
    return {
        "home": reverse("sessions:home"),
        "club": reverse("sessions:club", args=[evening.club.slug]),
        "rankings": reverse("sessions:session_results", args=[final.pk]),
        "traveller with hands": reverse("sessions:board", args=[final.pk, 3]),
        "results booklet": reverse("sessions:session_booklet", args=[final.pk]),
        "score card": reverse("sessions:scorecard", args=[final.pk, evening.pair("1NS").pk]),
        "event": reverse("sessions:event_results", args=[final.event_id]),
        "player": reverse("sessions:player", args=[evening.pair("1NS").player_1_id]),
        "player search": reverse("sessions:club_players", args=[evening.club.slug]) + "?q=hill",
        "player search, nobody found": reverse("sessions:club_players", args=[evening.club.slug]) + "?q=zzz",
        "login": reverse("login"),
        "embedded latest results": reverse("sessions:embed_latest", args=[evening.club.slug]),
        "embedded ranking": reverse("sessions:embed_session", args=[final.pk]),
    }


def director_pages(evening) -> dict[str, str]:
    final, partial, club = evening.final, evening.partial, evening.club
    new_session = reverse("sessions:director_session_new", args=[club.slug])
    return {
        "dashboard": reverse("sessions:director_dashboard"),
        "new event": reverse("sessions:director_event_new", args=[club.slug]),
        "event settings": reverse("sessions:director_event", args=[final.event_id]),
        "new session, step 1": new_session,
        "new session, step 2": f"{new_session}?pairs=10",
        "new session, step 3": f"{new_session}?pairs=10&boards_per_round=2&movement=0",
        "new session, step 3 (unequal sections)": f"{new_session}?pairs=27&sections=2&boards_per_round=2&movement=0",
        "session (final)": reverse("sessions:director_session", args=[final.pk]),
        "session (in play)": reverse("sessions:director_session", args=[partial.pk]),
        "board entry": reverse("sessions:director_board", args=[partial.pk, 1]),
        "board entry (final)": reverse("sessions:director_board", args=[final.pk, 3]),
        "table-round entry": reverse("sessions:director_table", args=[partial.pk, "A", 1, 1]),
        "pairs": reverse("sessions:director_pairs", args=[partial.pk]),
        "players": reverse("sessions:director_players", args=[club.slug]),
        "standings": reverse("sessions:director_standings", args=[final.pk]),
        "change log": reverse("sessions:director_log", args=[final.pk]),
        "cards": reverse("sessions:director_cards", args=[partial.pk]),
        "table links": reverse("sessions:director_table_links", args=[partial.pk]),
        "hand records": reverse("sessions:analysis_hand_records", args=[final.pk]),
        "printable hand records": reverse("sessions:analysis_print", args=[final.pk]),
        "results booklet (in play)": reverse("sessions:director_booklet", args=[partial.pk]),
        "blank travellers and pickup slips": reverse("sessions:director_paper_forms", args=[partial.pk]),
        "import": reverse("sessions:transfer_import", args=[club.slug]),
        "edit session": reverse("sessions:director_session_edit", args=[partial.pk]),
        "another movement": reverse("sessions:director_session_movement", args=[partial.pk]) + "?pairs=10",
        "delete session": reverse("sessions:director_session_delete", args=[partial.pk]),
        "repair": reverse("sessions:director_repair", args=[partial.pk]),
        "round seating": reverse("sessions:director_round_seating", args=[partial.pk, "A", 2]),
        "line pairs": reverse("sessions:director_line_pairs", args=[
            partial.pk, Result.objects.filter(board__session=partial).first().pk,
        ]),
        "player": reverse("sessions:director_player", args=[club.slug, Player.objects.filter(club=club).first().pk]),
        "club settings": reverse("sessions:director_club_settings", args=[club.slug]),
        "club directors": reverse("sessions:director_club_directors", args=[club.slug]),
    }


def test_the_players_pages_pass_axe(page: Page, phone: Page, evening):
    problems = walk(page, public_pages(evening))
    problems |= {f"{name} (phone)": found for name, found in walk(phone, public_pages(evening)).items()}

    assert not problems, "\n" + report(problems)


def test_the_directors_pages_pass_axe(page: Page, evening):
    log_in(page, evening.director.username)

    problems = walk(page, director_pages(evening))

    # Pages reached by a post: a line refused on the entry sheet, and publishing with lines missing.
    page.goto(reverse("sessions:director_board", args=[evening.partial.pk, 2]))
    box = page.locator("#entry-sheet .entry-group:not([hidden]) form.entry-row").last.locator("input[name=text]")
    box.fill("9Z N =")
    box.press("Enter")
    expect(page.locator("#entry-sheet .entry-group:not([hidden]) [role=alert]")).to_have_count(1)
    if found := axe_violations(page):
        problems["board entry, a line refused"] = found
    # A line the server never got: entry.js says so on the row (a cell it adds for the message).
    page.route("**/director/sessions/*/boards/2/", lambda route: route.abort() if route.request.method == "POST"
               else route.continue_())
    box = page.locator("#entry-sheet .entry-group:not([hidden]) form.entry-row").first.locator("input[name=text]")
    box.fill("4S N =")
    box.press("Enter")
    expect(page.locator("#entry-sheet .entry-group:not([hidden]) form.entry-row").first.get_by_role("alert")).to_contain_text("could not be reached")
    if found := axe_violations(page):
        problems["board entry, a line not sent"] = found
    page.unroute("**/director/sessions/*/boards/2/")
    page.goto(reverse("sessions:director_session", args=[evening.partial.pk]))
    page.get_by_role("button", name="Publish").click()
    expect(page.get_by_role("button", name="Publish anyway")).to_be_visible()
    if found := axe_violations(page):
        problems["publish, lines missing"] = found

    assert not problems, "\n" + report(problems)


def test_the_score_pad_pages_pass_axe(page: Page, phone: Page, evening):
    """The score pad (new, in play with a correction open, an error shown), the score
    tables, and a member's list and shared pad, at desktop and phone widths."""
    from tests.browser.test_pad import enter_deal, start_pad

    problems = {}
    for name, browser_page in (("desktop", page), ("phone", phone)):
        found = walk(browser_page, {
            f"score pad, new ({name})": reverse("sessions:pad"),
            f"score table ({name})": reverse("sessions:score_table"),
            f"score table 1932 ({name})": reverse("sessions:score_table") + "?era=1932",
        })
        start_pad(browser_page, kind="Chicago")
        for deal in (("4", "S", "X", "N", 11, "five_trumps", "NS"), ("3", "NT", "", "E", 8, "four_aces", "EW")):
            enter_deal(browser_page, *deal)
        found |= {f"score pad, in play ({name})": axe_violations(browser_page)}
        browser_page.get_by_role("link", name="Correct deal 1 of chicago 1").click()
        enter_deal(browser_page, "3", "NT", "", "N", 9, "four_trumps", "NS")
        expect(browser_page.locator(".pad-error")).to_be_visible()
        found |= {f"score pad, a deal refused ({name})": axe_violations(browser_page)}
        problems |= {key: value for key, value in found.items() if value}

    log_in(page, evening.director.username)
    page.goto(reverse("sessions:pad"))
    page.get_by_role("button", name="Keep in my account").click()
    expect(page.get_by_role("heading", name="My score pads")).to_be_visible()
    if found := axe_violations(page):
        problems["my score pads"] = found
    page.get_by_role("link", name="Share link (read only)").click()
    if found := axe_violations(page):
        problems["shared pad"] = found

    assert not problems, "\n" + report(problems)


def teams_evening(evening):
    """A scheduled 4-team round robin of the evening's club with one match entered."""
    from sessions.teams.services.teams import match_record_line, round_robin_schedule, team_event_publish
    from tests.factories import make_team_event

    event = make_team_event(evening.club, teams=4, form="round_robin", vp_scale="20", boards_per_match=2)
    match = round_robin_schedule(event=event)[0]
    for board, open_room, closed_room in [(1, "4S N =", "4S N -1"), (2, "3NT S +1", "3NT S =")]:
        match_record_line(match=match, board=board, room="open", text=open_room)
        match_record_line(match=match, board=board, room="closed", text=closed_room)
    return team_event_publish(event=event), match


def test_the_teams_directors_pages_pass_axe(page: Page, evening):
    event, match = teams_evening(evening)
    log_in(page, evening.director.username)

    problems = walk(page, {
        "new teams event": reverse("sessions:director_team_event_new", args=[evening.club.slug]),
        "teams event": reverse("sessions:director_team_event", args=[event.pk]),
        "team match entry": reverse("sessions:director_team_match", args=[match.pk]),
        "team edit": reverse("sessions:director_team_edit", args=[match.home_id]),
        "team match edit": reverse("sessions:director_team_match_edit", args=[match.pk]),
        "undo a round": reverse("sessions:director_team_round_undo", args=[event.pk, 3]),
        "phones of a teams round": reverse("sessions:director_team_round_tables", args=[event.pk, 1]),
    })
    from sessions.phones.services.team_tables import match_table_links_ensure

    match_table_links_ensure(event=event, round=1)
    problems |= walk(page, {
        "phones of a teams round, with links": reverse("sessions:director_team_round_tables", args=[event.pk, 1]),
    })
    page.goto(reverse("sessions:director_team_edit", args=[match.home_id]))
    page.get_by_label("Name").fill("")
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".errorlist")).to_have_count(1)
    if found := axe_violations(page):
        problems["team edit, refused"] = found
    page.goto(reverse("sessions:director_team_match", args=[match.pk]))
    page.get_by_label("Board 1 closed room").fill("9Z N =")
    page.get_by_role("button", name="Save the boards").click()
    expect(page.locator(".errorlist")).to_have_count(1)
    if found := axe_violations(page):
        problems["team match entry, a line refused"] = found

    assert not problems, "\n" + report(problems)


def test_the_teams_players_pages_pass_axe(page: Page, phone: Page, evening):
    event, match = teams_evening(evening)
    pages = {
        "teams standings": reverse("sessions:team_event", args=[event.pk]),
        "teams scorecard": reverse("sessions:team_match", args=[event.pk, match.pk]),
        "team page": reverse("sessions:team_page", args=[event.pk, match.home_id]),
        "club with teams": reverse("sessions:club", args=[evening.club.slug]),
    }
    from decimal import Decimal

    from sessions.teams.services.teams import match_set_totals, team_event_mark_final

    # The downloads show once final: every match has a result.
    for other in event.matches.exclude(pk=match.pk):
        match_set_totals(match=other, home_imps=Decimal(3), away_imps=Decimal(3))
    team_event_mark_final(event=event)

    problems = walk(page, pages)
    problems |= {f"{name} (phone)": found for name, found in walk(phone, pages).items()}
    for name, url in pages.items():  # phone first: nothing wider than the screen but the scrolling tables
        phone.goto(url)
        widths = phone.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert widths[0] <= widths[1], (name, widths)

    assert not problems, "\n" + report(problems)


def test_a_teams_rooms_phone_pages_pass_axe(phone: Page, evening):
    from sessions.phones.services.team_tables import match_table_links_ensure

    event, match = teams_evening(evening)
    links = {link.room: link for link in match_table_links_ensure(event=event, round=1)}
    later = event.matches.filter(round=2).first()
    fresh = {link.room: link for link in match_table_links_ensure(event=event, round=2) if link.match_id == later.pk}

    problems = walk(phone, {
        "teams room, match played": reverse("sessions:team_table_page", args=[links["open"].token]),
        "teams room, board in play": reverse("sessions:team_table_page", args=[fresh["closed"].token]),
    })

    assert not problems, "\n" + report(problems)


def test_a_tables_phone_pages_pass_axe(phone: Page, evening):
    link = TableLink.objects.filter(session=evening.partial, table=3).get()

    problems = walk(phone, {
        "table phone": reverse("sessions:table_page", args=[link.token]),
        "table phone, players": reverse("sessions:table_players", args=[link.token]),
        "table phone, results by e-mail": reverse("sessions:table_email", args=[link.token]),
    })
    phone.goto(reverse("sessions:table_page", args=[link.token]))
    phone.get_by_role("textbox", name="Result").fill("4S N =")
    phone.get_by_role("button", name="Send", exact=True).click()
    expect(phone.get_by_role("button", name="Confirm", exact=True)).to_be_visible()
    if found := axe_violations(phone):
        problems["table phone, a result to confirm"] = found

    assert not problems, "\n" + report(problems)


# --- the entry sheet on a laptop and a tablet --------------------------------------------


@pytest.mark.parametrize("width", [1024, 768])
def test_the_entry_pages_fit_a_laptop_and_a_tablet(browser, server, evening, width, screenshot):
    context = browser.new_context(base_url=server.url, viewport={"width": width, "height": 900})
    page = context.new_page()
    log_in(page, evening.director.username)
    pages = {
        "board entry": reverse("sessions:director_board", args=[evening.partial.pk, 1]),
        "table-round entry": reverse("sessions:director_table", args=[evening.partial.pk, "A", 1, 1]),
    }
    for name, url in pages.items():
        page.goto(url)
        widths = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert widths[0] <= widths[1] == width, (name, widths)
        # The score columns and the Save button are on screen, the result box wide enough to type in.
        row = page.locator("#entry-sheet .entry-group:not([hidden]) form.entry-row").first
        for element in (row.locator("[role=cell]").last, row.get_by_role("button", name="Save")):
            box = element.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, (name, box)
        text = row.locator("input[name=text]").bounding_box()
        assert text and text["width"] >= 96, (name, text)
        screenshot(page, f"{name.replace(' ', '-')}-{width}")
    context.close()


def test_axe_reports_what_it_finds(page: Page, server):
    """The walk would see a violation: a page whose image has no text alternative."""
    page.goto(reverse("sessions:home"))
    page.evaluate("() => document.querySelector('main').append(Object.assign(document.createElement('img'), {src: 'x.png'}))")

    assert "image-alt" in json.dumps(axe_violations(page))


def test_the_handicap_and_strata_pages_pass_axe(page: Page, evening):
    """A handicap event's pairs page (the handicaps' form), its stratified and handicapped
    ranking, and a player page with the club rating (RULES 14, 15)."""
    event_update(event=Event.objects.get(pk=evening.final.event_id), handicap="half", handicap_source="average",
                 strata_by="masterpoints", strata_limits="1500, 500")
    log_in(page, evening.director.username)

    problems = walk(page, {
        "pairs (a handicap event)": reverse("sessions:director_pairs", args=[evening.partial.pk]),
        "rankings (handicapped, stratified)": reverse("sessions:session_results", args=[evening.final.pk]),
        "player (club rating)": reverse("sessions:player", args=[evening.pair("1NS").player_1_id]),
    })

    assert not problems, "\n" + report(problems)
    page.goto(reverse("sessions:player", args=[evening.pair("1NS").player_1_id]))
    expect(page.get_by_text("Club rating")).to_be_visible()
