"""The exports' one registry: every format each subject offered before it, through the
download URLs (200, the same content type and filename as before), the command writing
the same file as the download, and the pages' download buttons drawn from it.

A published, final 3-table Mitchell named "Friday Pairs" of the event "Tuesday Pairs"
(2025-03-04), and a published, final teams match "Friday Teams" (2025-03-05), fetched
by an anonymous visitor.
"""

from __future__ import annotations

import io
import zipfile
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from django.template import Context, Template
from django.urls import reverse

from sessions.models import Session
from sessions.pairs.services.sessions import session_publish
from sessions.pairs.services.sessions import session_mark_final
from sessions.teams.services.teams import match_create, match_set_totals, team_event_mark_final, team_event_publish
from sessions.transfer.exporters import EXPORTS
from tests.factories import make_session, make_team_event
from tests.pages import PLAYED_LINES, PLAYERS, enter

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CSV = "text/csv; charset=utf-8"
XML = "application/xml; charset=utf-8"
PBN = "application/x-pbn"
ZIP = "application/zip"

#: (subject, format): (filename, content type), as the downloads were named before the registry.
EXPECTED = {
    ("session", "xlsx"): ("friday-pairs-2025-03-04.xlsx", XLSX),
    ("session", "csv"): ("friday-pairs-2025-03-04.zip", ZIP),
    ("session", "usebio"): ("friday-pairs-2025-03-04.xml", XML),
    ("session", "pbn"): ("friday-pairs-2025-03-04.pbn", PBN),
    ("session", "csv-rankings"): ("friday-pairs-2025-03-04-rankings.csv", CSV),
    ("session", "csv-travellers"): ("friday-pairs-2025-03-04-travellers.csv", CSV),
    ("event", "xlsx"): ("tuesday-pairs-all-sessions.xlsx", XLSX),
    ("event", "csv"): ("tuesday-pairs-all-sessions.csv", CSV),
    ("teams", "xlsx"): ("friday-teams-2025-03-05.xlsx", XLSX),
    ("teams", "csv"): ("friday-teams-2025-03-05.zip", ZIP),
    ("teams", "usebio"): ("friday-teams-2025-03-05.xml", XML),
    ("teams", "pbn"): ("friday-teams-2025-03-05.pbn", PBN),
}
URL_NAMES = {"session": "sessions:transfer_export", "event": "sessions:transfer_event_export",
             "teams": "sessions:transfer_team_export"}
#: The buttons the pages showed by hand before: (format, label), in order.
MAIN_BUTTONS = [("xlsx", "Excel workbook"), ("csv", "CSV (zip)"), ("usebio", "USEBIO XML"), ("pbn", "PBN")]
BUTTONS = {"session": MAIN_BUTTONS, "event": [("xlsx", "Excel workbook"), ("csv", "CSV")], "teams": MAIN_BUTTONS}


@pytest.fixture
def subjects(event) -> dict[str, object]:
    """Each subject's object, published and final."""
    session = make_session(event, pair_players=PLAYERS)
    enter(session, PLAYED_LINES)
    Session.objects.filter(pk=session.pk).update(name="Friday Pairs")
    session_mark_final(session=session_publish(session=Session.objects.get(pk=session.pk)))
    teams = make_team_event(event.club, teams=2, form="match", vp_scale="20", name="Friday Teams")
    home, away = teams.teams.all()
    match_set_totals(match=match_create(event=teams, round=1, home=home, away=away, boards=8),
                     home_imps=Decimal(12), away_imps=Decimal(3))
    team_event_mark_final(event=team_event_publish(event=teams))
    return {"session": session, "event": event, "teams": teams}


def _url(kind: str, exported, fmt: str) -> str:
    return reverse(URL_NAMES[kind], args=[exported.pk, fmt])


def test_the_registry_offers_every_format_each_subject_offered_before():
    assert set(EXPORTS) == set(EXPECTED)


@pytest.mark.parametrize(("kind", "fmt"), sorted(EXPECTED))
def test_each_download_answers_with_its_name_and_content_type_as_before(client, subjects, kind, fmt):
    response = client.get(_url(kind, subjects[kind], fmt))

    filename, content_type = EXPECTED[kind, fmt]
    assert response.status_code == 200
    assert response["Content-Type"] == content_type
    assert response["Content-Disposition"] == f'attachment; filename="{filename}"'


def _members(content: bytes) -> dict[str, bytes] | bytes:
    """A zip's (xlsx's) files but the workbook's creation time; other files whole."""
    if not content.startswith(b"PK"):
        return content
    archive = zipfile.ZipFile(io.BytesIO(content))
    return {name: archive.read(name) for name in archive.namelist() if name != "docProps/core.xml"}


@pytest.mark.parametrize(("kind", "fmt"), sorted(EXPECTED))
def test_the_command_writes_the_file_the_director_downloads(client, director, subjects, kind, fmt, tmp_path):
    """The command's event export holds every session, as the director's download does."""
    client.force_login(director)
    exported = subjects[kind]
    arguments = {"session": [str(exported.pk)], "event": ["--event", str(exported.pk)],
                 "teams": [str(exported.pk), "--teams"]}[kind]
    output = tmp_path / "export"

    call_command("export_results", *arguments, "--format", fmt, "--output", str(output), stderr=StringIO())

    assert _members(output.read_bytes()) == _members(client.get(_url(kind, exported, fmt)).content)


@pytest.mark.parametrize("kind", sorted(BUTTONS))
def test_the_download_buttons_are_the_registrys_main_formats(subjects, kind):
    exported = subjects[kind]
    html = Template('{% load exports %}{% export_buttons kind exported %}').render(
        Context({"kind": kind, "exported": exported}))

    links = [f'<li><a href="{_url(kind, exported, fmt)}" download>{label}</a></li>' for fmt, label in BUTTONS[kind]]
    assert '<ul class="export-buttons" aria-label="Download the results">' in html
    assert [line.strip() for line in html.splitlines() if line.strip().startswith("<li>")] == links


def test_the_event_page_names_its_buttons_for_all_sessions(client, director, subjects):
    client.force_login(director)
    html = client.get(reverse("sessions:director_event", args=[subjects["event"].pk])).content.decode()

    assert '<ul class="export-buttons" aria-label="Download all sessions">' in html
    for fmt, label in BUTTONS["event"]:
        assert f'<a href="{_url("event", subjects["event"], fmt)}" download>{label}</a>' in html
