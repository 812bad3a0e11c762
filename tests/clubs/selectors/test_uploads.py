"""The uploads list: the club's final sessions only, in a fixed number of queries."""

from __future__ import annotations

from django.utils import timezone

from sessions.models import NationalUpload, Session
from sessions.clubs.selectors.uploads import UploadStatus, club_upload_rows
from tests.factories import make_event, make_session


def final_sessions(club, count: int) -> list[Session]:
    event = make_event(club, name=f"Event {Session.objects.count()}")
    sessions = [make_session(event) for _ in range(count)]
    Session.objects.filter(pk__in=[s.pk for s in sessions]).update(final_at=timezone.now())
    return sessions


def test_only_the_clubs_final_sessions_are_listed_newest_first(club, outsider, session):
    finals = final_sessions(club, 2)
    final_sessions(outsider.directed_clubs.get(), 1)  # another club's final session
    rows = club_upload_rows(club=club)
    assert [row.session.pk for row in rows] == sorted((s.pk for s in finals), reverse=True)
    assert session.pk not in {row.session.pk for row in rows}  # not final: not listed


def test_an_upload_to_another_federation_does_not_count_as_sent(club):
    club.masterpoint_federation = "ebu"
    club.save()
    (session,) = final_sessions(club, 1)
    NationalUpload.objects.create(session=session, federation="nzb", revision=session.revision, sha256="0" * 64)
    (row,) = club_upload_rows(club=club)
    assert row.status == UploadStatus.NOT_SENT


def test_the_list_takes_two_queries_whatever_the_number_of_sessions(club, django_assert_num_queries):
    club.masterpoint_federation = "ebu"
    club.save()
    for count in (1, 6):
        for session in final_sessions(club, count):
            NationalUpload.objects.create(session=session, federation="ebu", revision=0, sha256="a" * 64)
        # 1. the final sessions with their events; 2. their uploads to the club's federation (with who sent them)
        with django_assert_num_queries(2):
            rows = club_upload_rows(club=club)
            assert all(row.last and row.last.sent_by is None for row in rows)
