"""The club's rating window (RULES 14): its last final matchpoint sessions, in one query."""

import datetime

from sessions.models import Club, Event, Session
from sessions.clubs.selectors.handicaps import rating_window
from tests.clubs.services.test_handicaps import finished


def test_the_window_is_the_clubs_last_final_matchpoint_sessions_oldest_first(event, django_assert_num_queries):
    first, second, third = (finished(event) for _ in range(3))
    for session, day in ((first, 1), (second, 3), (third, 2)):
        Session.objects.filter(pk=session.pk).update(date=datetime.date(2025, 3, day))
    Session.objects.filter(pk=finished(event).pk).update(final_at=None)  # not final: out
    butler = Event.objects.create(club=event.club, name="Butler", method="butler")
    finished(butler)  # no percentage: out
    Club.objects.filter(pk=event.club_id).update(rating_sessions=2)
    club = Club.objects.get(pk=event.club_id)

    with django_assert_num_queries(1):  # the sessions with their events
        window = rating_window(club=club)
        assert [session.pk for session in window] == [third.pk, second.pk]
        assert all(session.event.club is club for session in window)
    assert [s.pk for s in rating_window(club=club, before=Session.objects.get(pk=third.pk))] == [first.pk]
