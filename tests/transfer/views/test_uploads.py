"""The national uploads page: the club's directors only; the file is the exporter's; a
session not final is refused with the reason; "Mark as sent" moves the status."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from sessions.models import Club, NationalUpload, Result, Session
from sessions.pairs.services.results import result_correct
from sessions.pairs.services.sessions import session_mark_final
from sessions.transfer.exporters import EXPORTERS
from sessions.transfer.services.importing import results_import
from tests.factories import make_event, make_session
from tests.formats.data_files import usebio_bytes

NZ_FILE = "nzscorer_three_quarter_howell_with_phantom.xml"


@pytest.fixture
def nz_session(club: Club) -> Session:
    club.masterpoint_federation = "nzb"
    club.save()
    return results_import(club=club, data=usebio_bytes(NZ_FILE), filename=NZ_FILE).session


def uploads_page(client, club):
    return client.get(reverse("sessions:director_uploads", args=[club.slug]))


def test_the_download_is_the_usebio_exporters_file_and_does_not_mark_it_sent(client, director, club, nz_session):
    session = session_mark_final(session=nz_session)
    client.force_login(director)

    response = client.get(reverse("sessions:director_upload_file", args=[session.pk]))

    _, content_type, content = EXPORTERS["usebio"].render(Session.objects.get(pk=session.pk))
    assert response.status_code == 200 and response["Content-Type"] == content_type
    assert response.content == content
    assert b"<MASTER_POINT_TYPE>c</MASTER_POINT_TYPE>" in content  # NZ's C points, as NZ Scorer writes them
    assert not NationalUpload.objects.exists()


def test_a_session_not_final_is_refused_with_the_reason(client, director, nz_session):
    client.force_login(director)

    response = client.get(reverse("sessions:director_upload_file", args=[nz_session.pk]))

    assert response.status_code == 409
    assert "Mark the session final first" in response.content.decode()


def test_mark_as_sent_then_a_correction_shows_amended_then_sent_again(client, director, club, nz_session):
    session_mark_final(session=nz_session)
    client.force_login(director)
    assert "not sent" in uploads_page(client, club).content.decode()

    def mark_sent():
        revision = Session.objects.get(pk=nz_session.pk).revision
        return client.post(reverse("sessions:director_upload_sent", args=[nz_session.pk]), {"revision": revision})

    assert mark_sent().status_code == 302
    page = uploads_page(client, club).content.decode()
    assert ">sent</span>" in page and "by director" in page
    line = Result.objects.filter(board__session=nz_session).order_by("pk").first()
    result_correct(result=line, text="7NTX N -13", version=line.version)
    assert "amended since sending" in uploads_page(client, club).content.decode()
    mark_sent()
    page = uploads_page(client, club).content.decode()
    assert ">sent</span>" in page and "(2 times)" in page


def test_a_stale_mark_as_sent_records_nothing_and_says_why(client, director, club, nz_session):
    session = session_mark_final(session=nz_session)
    client.force_login(director)
    stale = Session.objects.get(pk=session.pk).revision - 1

    response = client.post(reverse("sessions:director_upload_sent", args=[session.pk]), {"revision": stale}, follow=True)

    assert "download it again" in response.content.decode()
    assert not NationalUpload.objects.exists()


@pytest.mark.parametrize("persona", ["outsider", "member"])
def test_other_users_get_404_and_record_nothing(client, club, nz_session, persona, request):
    session = session_mark_final(session=nz_session)
    client.force_login(request.getfixturevalue(persona))
    assert uploads_page(client, club).status_code == 404
    assert client.get(reverse("sessions:director_upload_file", args=[session.pk])).status_code == 404
    revision = Session.objects.get(pk=session.pk).revision
    assert client.post(reverse("sessions:director_upload_sent", args=[session.pk]),
                       {"revision": revision}).status_code == 404
    assert not NationalUpload.objects.exists()


def test_an_acbl_club_is_told_its_files_are_not_a_public_format(client, director, club):
    Club.objects.filter(pk=club.pk).update(masterpoint_federation="acbl")
    client.force_login(director)
    page = uploads_page(client, club).content.decode()
    assert "ACBLscore game files" in page and "Download" not in page


def test_the_page_takes_the_same_queries_with_more_sessions(client, director, club):
    club.masterpoint_federation = "ebu"
    club.save()
    client.force_login(director)
    counts = []
    for added in (1, 5):
        event = make_event(club, name=f"Event {added}")
        sessions = [make_session(event) for _ in range(added)]
        Session.objects.filter(pk__in=[s.pk for s in sessions]).update(final_at=timezone.now())
        with CaptureQueriesContext(connection) as queries:
            assert uploads_page(client, club).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]
