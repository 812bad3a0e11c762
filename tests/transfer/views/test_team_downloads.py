"""A teams event's downloads: the club's directors at any time, the public once published
and final (as a pairs session: a 409 with the reason before), anyone else a 404."""

import io
import zipfile
from decimal import Decimal

import pytest
from django.urls import reverse

from sessions.teams.services.teams import (
    match_create,
    match_set_totals,
    team_event_mark_final,
    team_event_publish,
)
from sessions.transfer.views.transfer import TEAMS_NOT_FINAL_YET
from tests.factories import make_team_event

FORMATS = ["usebio", "pbn", "xlsx", "csv"]


@pytest.fixture
def played(club):
    """A single match of two teams with its IMP totals: 12-3."""
    event = make_team_event(club, teams=2, form="match", vp_scale="20", name="Friday Teams")
    home, away = event.teams.all()
    match = match_create(event=event, round=1, home=home, away=away, boards=8)
    match_set_totals(match=match, home_imps=Decimal(12), away_imps=Decimal(3))
    return event


def _url(event, fmt):
    return reverse("sessions:transfer_team_export", args=[event.pk, fmt])


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_director_downloads_an_unpublished_event_in_every_format(client, director, played, fmt):
    client.force_login(director)

    response = client.get(_url(played, fmt))

    assert response.status_code == 200
    assert response["Content-Disposition"].startswith('attachment; filename="friday-teams-2025-03-05.')


def test_the_usebio_download_carries_our_figures(client, director, played):
    client.force_login(director)

    body = client.get(_url(played, "usebio")).content.decode()

    assert "Friday Teams" in body and "<TEAM_SCORE>" in body


def test_the_csv_download_is_a_zip_of_standings_and_matches(client, director, played):
    client.force_login(director)

    archive = zipfile.ZipFile(io.BytesIO(client.get(_url(played, "csv")).content))

    assert sorted(archive.namelist()) == ["matches.csv", "standings.csv"]
    assert "12" in archive.read("matches.csv").decode()


@pytest.mark.parametrize("persona", ["anonymous", "outsider", "member"])
def test_an_unpublished_event_is_a_404_to_everyone_else(client, played, persona, request):
    if persona != "anonymous":
        client.force_login(request.getfixturevalue(persona))

    assert client.get(_url(played, "xlsx")).status_code == 404


def test_a_published_event_is_refused_to_the_public_until_final(client, played):
    team_event_publish(event=played)

    response = client.get(_url(played, "pbn"))
    assert (response.status_code, response.content.decode()) == (409, TEAMS_NOT_FINAL_YET)
    page = client.get(reverse("sessions:team_event", args=[played.pk])).content.decode()
    assert "once the director marks the event final" in page and _url(played, "pbn") not in page

    team_event_mark_final(event=played)
    assert client.get(_url(played, "pbn")).status_code == 200
    assert _url(played, "pbn") in client.get(reverse("sessions:team_event", args=[played.pk])).content.decode()


def test_an_unknown_format_is_a_404(client, director, played):
    client.force_login(director)

    assert client.get(_url(played, "docx")).status_code == 404


def test_the_director_marks_the_event_final_on_its_page(client, director, played):
    client.force_login(director)
    url = reverse("sessions:director_team_final", args=[played.pk])

    refused = client.post(url, follow=True)
    assert "publish the event before marking it final" in str(list(refused.context["messages"])[0])
    team_event_publish(event=played)
    client.post(url)
    played.refresh_from_db()
    assert played.final
    client.post(url, {"final": "0"})
    played.refresh_from_db()
    assert not played.final
