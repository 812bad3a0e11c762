"""The revision lookups every cached page starts with: one query, and the same key as the
loaded row gives (the scored-session cache keys on the loaded row)."""

import pytest
from django.db import connection
from django.test import override_settings

from sessions.models import Club, Player, Session
from sessions.core.selectors.revisions import (
    club_stamp,
    event_club_stamp,
    player_club_stamp,
    published_session_stamp,
    revision_stamp,
)
from sessions.pairs.services.results import result_record
from sessions.pairs.services.sessions import session_publish
from sessions.core.services.revisions import session_revise
from tests.factories import make_session


def published(event) -> Session:
    session = make_session(event, pair_players={"1NS": ["Ann Archer", "Bob Baker"]})
    result_record(board=session.boards.get(number=1), section=session.sections.get(), ns_pair="1NS",
                  ew_pair="1EW", text="4S N =")
    return session_publish(session=session)


def test_a_published_session_stamp_matches_the_loaded_row(event, django_assert_num_queries):
    session = Session.objects.get(pk=published(event).pk)
    with django_assert_num_queries(1):
        stamp = published_session_stamp(session_id=session.pk)
    assert stamp is not None
    assert stamp.key == revision_stamp(session)
    assert stamp.changed_at == session.revised_at


def test_an_unpublished_or_unknown_session_has_no_stamp(session):
    assert published_session_stamp(session_id=session.pk) is None
    assert published_session_stamp(session_id=session.pk + 1000) is None


def test_a_bump_changes_the_stamp(event):
    session = published(event)
    before = published_session_stamp(session_id=session.pk)
    session_revise(session=session)
    after = published_session_stamp(session_id=session.pk)
    assert before is not None and after is not None
    assert after.key != before.key and after.changed_at >= before.changed_at


def test_the_club_pages_stand_on_the_clubs_revision(event, django_assert_num_queries):
    session = published(event)
    club = Club.objects.get(pk=event.club_id)
    player = Player.objects.get(name="Ann Archer")
    with django_assert_num_queries(3):
        stamps = [club_stamp(club_slug=club.slug), event_club_stamp(event_id=session.event_id),
                  player_club_stamp(player_id=player.pk)]
    assert {stamp.key for stamp in stamps} == {revision_stamp(club)}
    assert club_stamp(club_slug="no-such-club") is None


@pytest.mark.skipif(connection.vendor != "postgresql", reason="prepared statements are PostgreSQL's")
def test_on_postgresql_the_lookup_is_prepared_once_and_still_sees_each_bump(event, django_assert_num_queries):
    session = published(event)
    stamps = []
    for _ in range(3):
        with django_assert_num_queries(1):  # one query, counted and logged as before
            stamps.append(published_session_stamp(session_id=session.pk))
        session_revise(session=session)
    assert len({stamp.key for stamp in stamps}) == 3  # the prepared statement reads the newest row
    assert _prepared_statements() == 1
    with override_settings(PREPARED_STAMPS=False):  # behind a pooler that cannot keep them
        club_stamp(club_slug=event.club.slug)
    assert _prepared_statements() == 1


def _prepared_statements() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s", ["SELECT %revision%"])
        return cursor.fetchone()[0]
