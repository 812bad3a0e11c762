"""Recording a national upload: only a final session's file, as of the revision the
director downloaded, with the file's SHA-256; the statuses move not sent -> sent ->
amended (a correction after final) -> sent again."""

from __future__ import annotations

import hashlib

import pytest

from sessions.models import Club, NationalUpload, Result, Session
from sessions.clubs.selectors.uploads import UploadStatus, club_upload_rows
from sessions.pairs.services.results import result_correct
from sessions.pairs.services.sessions import session_mark_final
from sessions.clubs.services.uploads import national_upload_record
from sessions.transfer.exporters import EXPORTERS
from sessions.transfer.services.importing import results_import
from sessions.transfer.national import UploadRefused
from tests.formats.data_files import usebio_bytes

EBU_FILE = "uk_00202711+000827.xml"  # EBUScore, a 19-pair Howell of 26 boards, master points BLACK


@pytest.fixture
def ebu_session(club: Club) -> Session:
    club.masterpoint_federation = "ebu"
    club.save()
    return results_import(club=club, data=usebio_bytes(EBU_FILE), filename=EBU_FILE).session


def fresh(session: Session) -> Session:
    return Session.objects.select_related("event__club").get(pk=session.pk)


def status(club: Club) -> UploadStatus:
    (row,) = club_upload_rows(club=club)
    return row.status


def test_a_session_not_final_is_refused_and_nothing_recorded(ebu_session):
    with pytest.raises(UploadRefused, match="final"):
        national_upload_record(session=ebu_session, revision=fresh(ebu_session).revision)
    assert not NationalUpload.objects.exists()


def test_a_club_without_federation_or_with_the_acbl_has_no_file_to_record(club, ebu_session):
    session_mark_final(session=fresh(ebu_session))
    for federation, reason in (("", "federation"), ("acbl", "not published")):
        Club.objects.filter(pk=club.pk).update(masterpoint_federation=federation)
        with pytest.raises(UploadRefused, match=reason):
            national_upload_record(session=fresh(ebu_session), revision=fresh(ebu_session).revision)
    assert not NationalUpload.objects.exists()


def test_the_record_holds_the_revision_and_the_hash_of_the_exporters_file(director, ebu_session):
    session = session_mark_final(session=fresh(ebu_session))
    record = national_upload_record(session=session, revision=fresh(session).revision, by=director)
    _, _, content = EXPORTERS["usebio"].render(fresh(session))
    assert (record.federation, record.revision, record.sent_by) == ("ebu", fresh(session).revision, director)
    assert record.sha256 == hashlib.sha256(content).hexdigest()
    assert b"<MASTER_POINTS_AWARDED>" in content and b'Version="1.2"' in content  # USEBIO 1.2 with the awards


def test_a_file_downloaded_before_a_change_is_not_recorded_as_sent(ebu_session):
    session = session_mark_final(session=fresh(ebu_session))
    seen = fresh(session).revision
    line = Result.objects.filter(board__session=session).order_by("pk").first()
    result_correct(result=line, text="7NTX N -13", version=line.version)
    with pytest.raises(UploadRefused, match="download it again"):
        national_upload_record(session=fresh(session), revision=seen)
    assert not NationalUpload.objects.exists()


def test_statuses_move_not_sent_sent_amended_and_sent_again(club, ebu_session):
    session_mark_final(session=fresh(ebu_session))
    assert status(club) == UploadStatus.NOT_SENT

    first = national_upload_record(session=fresh(ebu_session), revision=fresh(ebu_session).revision)
    assert status(club) == UploadStatus.SENT

    # A correction after final: the winners (pair 5) lose their boards as NS; the awards move.
    for line in Result.objects.filter(board__session=ebu_session, ns_pair__number=5).order_by("pk"):
        result_correct(result=line, text="7NTX N -13", version=line.version)
    assert status(club) == UploadStatus.AMENDED

    second = national_upload_record(session=fresh(ebu_session), revision=fresh(ebu_session).revision)
    assert status(club) == UploadStatus.SENT
    assert second.sha256 != first.sha256  # the federation got a different file
    (row,) = club_upload_rows(club=club)
    assert (row.last, row.times_sent) == (second, 2)
