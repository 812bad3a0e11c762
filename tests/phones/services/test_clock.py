"""The round clock (sessions.phones.services.clock, sessions.phones.selectors.clock): the director sets the
minutes, starts, pauses, moves to the next round and adds a minute; the time left at any
moment follows from what is stored. Every moment is given (``now``): no sleeping.
"""

from datetime import datetime, timedelta, timezone

import pytest
from django.core.exceptions import ValidationError

from sessions.models import Session
from sessions.phones.selectors.clock import round_clock
from sessions.phones.services.clock import (
    clock_add_minute, clock_next_round, clock_pause, clock_set_minutes, clock_start,
)

T0 = datetime(2026, 11, 27, 19, 30, tzinfo=timezone.utc)


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def left(session: Session, minutes: float) -> tuple[int | None, int, bool]:
    """(round, seconds left, running) at T0 + ``minutes``, as stored in the database."""
    clock = round_clock(session=Session.objects.get(pk=session.pk), now=at(minutes))
    return clock.round, clock.seconds_left, clock.running


def test_a_new_session_has_no_clock(session):
    clock = round_clock(session=session, now=T0)
    assert (clock.started, clock.time_up, clock.running) == (False, False, False)


def test_started_the_clock_counts_down_round_1_from_its_minutes(session):
    clock_set_minutes(session=session, minutes=15)
    clock_start(session=session, now=at(0))
    assert left(session, 0) == (1, 900, True)
    assert left(session, 4.5) == (1, 630, True)
    assert left(session, 20) == (1, 0, True)
    assert round_clock(session=session, now=at(15)).time_up


def test_a_pause_keeps_the_time_left_and_carrying_on_counts_from_there(session):
    clock_set_minutes(session=session, minutes=10)
    clock_start(session=session, now=at(0))
    clock_pause(session=session, now=at(3))
    assert left(session, 30) == (1, 420, False)
    clock_start(session=session, now=at(30))
    assert left(session, 31) == (1, 360, True)


def test_the_next_round_starts_with_full_time(session):
    clock_set_minutes(session=session, minutes=8)
    clock_start(session=session, now=at(0))
    clock_next_round(session=session, now=at(9))
    assert left(session, 10) == (2, 420, True)


def test_a_minute_more_after_the_time_ran_out_counts_from_one_minute(session):
    clock_set_minutes(session=session, minutes=5)
    clock_start(session=session, now=at(0))
    clock_add_minute(session=session, now=at(7))
    assert left(session, 7) == (1, 60, True)
    assert left(session, 7.5) == (1, 30, True)


def test_a_minute_more_while_paused_waits_paused(session):
    clock_set_minutes(session=session, minutes=5)
    clock_start(session=session, now=at(0))
    clock_pause(session=session, now=at(1))
    clock_add_minute(session=session, now=at(2))
    assert left(session, 9) == (1, 300, False)


def test_new_minutes_leave_the_running_round_and_time_the_next(session):
    clock_set_minutes(session=session, minutes=10)
    clock_start(session=session, now=at(0))
    clock_set_minutes(session=session, minutes=12)
    assert left(session, 1) == (1, 540, True)
    clock_next_round(session=session, now=at(10))
    assert left(session, 10) == (2, 720, True)


def test_a_clock_without_minutes_or_not_started_is_refused(session):
    with pytest.raises(ValidationError, match="minutes"):
        clock_start(session=session, now=T0)
    with pytest.raises(ValidationError, match="start the clock"):
        clock_add_minute(session=session, now=T0)
    with pytest.raises(ValidationError, match="1 to 180"):
        clock_set_minutes(session=session, minutes=0)
    assert left(session, 0) == (None, 0, False)


def test_a_clock_press_keeps_the_sessions_other_fields(session):
    Session.objects.filter(pk=session.pk).update(name="Renamed meanwhile")
    clock_set_minutes(session=session, minutes=7)  # the caller's copy still says the old name
    assert Session.objects.get(pk=session.pk).name == "Renamed meanwhile"
