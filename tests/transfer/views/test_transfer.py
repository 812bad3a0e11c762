"""The upload page (the club's directors only) and export downloads (published: anyone;
unpublished: the club's directors, others 404)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.template import Context, Template
from django.urls import reverse
from django.utils.html import escape

from sessions.models import Session
from sessions.pairs.services.sessions import session_publish
from sessions.pairs.services.sessions import session_mark_final
from sessions.transfer.exporters import EXPORTERS
from sessions.transfer.services.importing import results_import
from tests.transfer.helpers import BAD_FILES, data, model_counts

GOOD = "usebio/cobalt_mp_pairs_mitchell_03.xml"


def upload_url(club):
    return reverse("sessions:transfer_import", args=[club.slug])


def upload(client, club, content: bytes, name="results.xml"):
    return client.post(upload_url(club), {"file": SimpleUploadedFile(name, content)})


def test_the_director_imports_a_file_and_lands_on_the_new_session(client, club, director):
    client.force_login(director)
    assert client.get(upload_url(club)).status_code == 200
    response = upload(client, club, data(GOOD))
    session = Session.objects.get(event__club=club)
    assert response.status_code == 302
    assert response.url == reverse("sessions:director_session", args=[session.pk])
    assert session.created_by == director


def test_a_file_can_go_into_an_existing_event(client, club, director, event):
    client.force_login(director)
    response = client.post(upload_url(club), {"file": SimpleUploadedFile("r.xml", data(GOOD)), "event": event.pk})
    assert response.status_code == 302
    assert Session.objects.get(event__club=club).event == event


@pytest.mark.parametrize("case", BAD_FILES)
def test_a_bad_file_shows_the_reason_on_the_page_and_stores_nothing(client, club, director, case):
    client.force_login(director)
    build, reason = BAD_FILES[case]
    before = model_counts()
    response = upload(client, club, build())
    assert response.status_code == 200
    assert escape(reason) in response.content.decode()
    assert model_counts() == before


def test_a_50_megabyte_upload_is_refused_in_place(client, club, director):
    client.force_login(director)
    before = model_counts()
    response = upload(client, club, b"<" + b"x" * (50 * 1024 * 1024))
    assert response.status_code == 200
    assert "largest file accepted" in response.content.decode()
    assert model_counts() == before


def test_anonymous_users_are_sent_to_log_in(client, club):
    before = model_counts()
    for response in (client.get(upload_url(club)), upload(client, club, data(GOOD))):
        assert response.status_code == 302 and "/login" in response.url
    assert model_counts() == before


@pytest.mark.parametrize("persona", ["outsider", "member"])
def test_other_users_cannot_see_or_use_the_upload_page(client, club, persona, request):
    client.force_login(request.getfixturevalue(persona))
    before = model_counts()
    assert client.get(upload_url(club)).status_code == 404
    assert upload(client, club, data(GOOD)).status_code == 404
    assert model_counts() == before


@pytest.fixture
def imported(club):
    return results_import(club=club, data=data(GOOD), filename="r.xml").session


def export_url(session, fmt):
    return reverse("sessions:transfer_export", args=[session.pk, fmt])


@pytest.mark.parametrize("fmt", sorted(EXPORTERS))
def test_anyone_downloads_a_published_final_session_in_every_format(client, imported, fmt):
    session_publish(session=imported)
    session_mark_final(session=imported)
    response = client.get(export_url(imported, fmt))
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment; filename=")
    assert response.content


@pytest.mark.parametrize("persona", [None, "outsider", "member"])
def test_an_unpublished_session_is_hidden_from_all_but_its_directors(client, imported, persona, request):
    if persona:
        client.force_login(request.getfixturevalue(persona))
    assert client.get(export_url(imported, "xlsx")).status_code == 404


@pytest.mark.parametrize("fmt", sorted(EXPORTERS))
@pytest.mark.parametrize("persona", [None, "outsider", "member"])
def test_a_published_session_is_not_downloaded_by_others_until_final(client, imported, fmt, persona, request):
    """Before final the files would carry the hands and rankings the pages still hide."""
    session_publish(session=imported)
    if persona:
        client.force_login(request.getfixturevalue(persona))
    response = client.get(export_url(imported, fmt))
    assert response.status_code == 409
    assert response.content.decode() == "The downloads are available once the director marks the session final."


def test_the_clubs_director_downloads_a_published_session_before_final(client, imported, director):
    session_publish(session=imported)
    client.force_login(director)
    response = client.get(export_url(imported, "pbn"))
    assert response.status_code == 200 and b"[Deal " in response.content


def test_the_clubs_director_downloads_an_unpublished_session(client, imported, director):
    client.force_login(director)
    response = client.get(export_url(imported, "usebio"))
    assert response.status_code == 200 and response.content.startswith(b"<?xml")


def test_an_unknown_format_is_not_found(client, imported):
    session_publish(session=imported)
    assert client.get(export_url(imported, "docx")).status_code == 404


def test_the_export_buttons_link_every_main_format(imported):
    html = Template("{% load exports %}{% export_buttons 'session' session %}").render(Context({"session": imported}))
    for fmt in ("xlsx", "csv", "usebio", "pbn"):
        assert export_url(imported, fmt) in html
