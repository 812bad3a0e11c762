"""No page prints template syntax: a broken comment or tag shows as text ("{# The published
session's downloads ...") on every page that includes it.

Every page of the app is opened, as the access walks open them: the players' pages (a
published session, its event, players, a published teams event, the score pad), every
director page as the club's director, and the phones of a pairs table and of a teams
room. The visible text (tags, scripts and styles stripped) must hold none of ``{#``,
``#}``, ``{%``, ``%}``, ``{{``, ``}}``. The walk goes through the URL patterns, so a new
page joins it by itself; a page whose address needs an object this walk does not know
fails, and is added to ``ARGUMENTS``.
"""

from __future__ import annotations

from decimal import Decimal
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from sessions.models import Competition, ImportJob, MatchTableLink, Result, ScorePad, TableLink
from sessions.clubs.services.competitions import competition_create
from sessions.clubs.services.mail import unsubscribe_token
from sessions.phones.services.tables import table_links_ensure
from sessions.phones.services.team_tables import match_table_links_ensure
from sessions.teams.services.teams import adjustment_add, match_record_line, round_robin_schedule, team_event_publish
from tests.factories import make_team_event

TEMPLATE_SYNTAX = ("{#", "#}", "{%", "%}", "{{", "}}")


class _VisibleText(HTMLParser):
    """The text a reader sees: everything outside tags, less scripts, styles and templates."""

    HIDDEN = {"script", "style", "template"}

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.HIDDEN:
            self._hidden += 1

    def handle_endtag(self, tag):
        if tag in self.HIDDEN and self._hidden:
            self._hidden -= 1

    def handle_data(self, data):
        if not self._hidden:
            self.parts.append(data)


def visible_text(html: str) -> str:
    reader = _VisibleText()
    reader.feed(html)
    reader.close()
    return " ".join(" ".join(reader.parts).split())


def test_the_visible_text_reader_keeps_text_and_drops_markup():
    html = '<p title="{{ x }}">Shown {# broken</p><script>if (a) {{}}</script><style>a {}</style>'
    assert visible_text(html) == "Shown {# broken"


def _routes(patterns, prefix=""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            if pattern.namespace == "admin":
                continue
            yield from _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield prefix + str(pattern.pattern), pattern


@pytest.fixture
def everything(played_session, director):
    """The published pairs session (with its phones' links and an import job), a published
    teams event (a line entered, its rooms' links, an adjustment) and a kept score pad."""
    table_links_ensure(session=played_session)
    teams = make_team_event(played_session.event.club, form="round_robin")
    match = round_robin_schedule(event=teams)[0]
    match_record_line(match=match, board=1, room="open", text="4S N =")
    match_table_links_ensure(event=teams, round=1)
    adjustment = adjustment_add(event=teams, team=match.home, kind="penalty", vp=Decimal(1))
    team_event_publish(event=teams)
    pad = ScorePad.objects.create(user=director, client_id="walkpad1", kind="rubber", names=["A", "B", "C", "D"],
                                  data={"kind": "rubber", "names": ["A", "B", "C", "D"], "rounds": []})
    job = ImportJob.objects.create(club=played_session.event.club, filename="x.pbn", size=1, data=b"x")
    competition_create(event=played_session.event, name="Club Cup")
    return played_session, teams, match, adjustment, pad, job


def arguments(everything, name: str) -> dict[str, object]:
    """The value of each address argument by name; teams pages get the teams event's."""
    session, teams, match, adjustment, pad, job = everything
    club = session.event.club
    pair = session.sections.get().pairs.get(number=1, direction="NS")
    teams_page = "team" in name
    values = {
        "club_slug": club.slug,
        "session_id": session.pk,
        "event_id": teams.pk if teams_page else session.event_id,
        "player_id": pair.player_1_id,
        "number": 1,
        "pair_id": pair.pk,
        "letter": "A",
        "round": 1,
        "table": 1,
        "result_id": Result.objects.filter(board__session=session).first().pk,
        "link_id": (MatchTableLink.objects.filter(match=match).first() if teams_page
                    else TableLink.objects.filter(session=session).first()).pk,
        "token": (MatchTableLink.objects.filter(match=match).first().token if name.startswith("team_table")
                  else pad.share_token if name.startswith("pad")
                  else unsubscribe_token(pair.player_1) if name == "mail_unsubscribe" else
                  TableLink.objects.filter(session=session, table=1).first().token),
        "membership_id": club.clubdirector_set.first().pk,
        "job_id": job.pk,
        "fmt": "usebio",
        "match_id": match.pk,
        "team_id": match.home_id,
        "adjustment_id": adjustment.pk,
        "pk": pad.pk,
        "uidb64": "x",
        "mail_id": 1,  # the resend button only POSTs: its GET is refused
        "key_id": 1, "webhook_id": 1, "call_id": 1, "penalty_id": 1,  # (POST-only buttons too)
        "competition_id": Competition.objects.get(event=session.event).pk,
    }
    return values


def test_no_page_prints_template_syntax(everything, director):
    signed_in, anonymous = Client(), Client()
    signed_in.force_login(director)
    checked, leaks = [], {}
    for route, pattern in _routes(get_resolver().url_patterns):
        if route.startswith("accounts/") and pattern.name != "login" or route.startswith("api/"):
            continue  # (the API answers JSON: no template)
        values = arguments(everything, pattern.name)
        kwargs = {key: values[key] for key in pattern.pattern.converters}
        url = reverse(f"sessions:{pattern.name}" if pattern.name != "login" else "login", kwargs=kwargs)
        for client in (anonymous, signed_in) if not route.startswith("director/") else (signed_in,):
            response = client.get(url)
            if response.status_code != 200 or not response["Content-Type"].startswith("text/html"):
                continue
            checked.append(pattern.name)
            text = visible_text(response.content.decode())
            found = [mark for mark in TEMPLATE_SYNTAX if mark in text]
            if found:
                leaks[url] = found
    assert not leaks, leaks
    # The walk did reach the pages: players', director's, both phones, the pad.
    assert {"session_results", "board", "scorecard", "player", "event_results", "club", "team_event",
            "team_match", "team_page", "director_session", "director_board", "director_table",
            "director_team_event", "table_page", "team_table_page", "pad", "pad_shared", "login",
            "mail_unsubscribe",
            "competition", "director_competition", "director_uploads"} <= set(checked)
    assert len(set(checked)) >= 55, sorted(set(checked))
