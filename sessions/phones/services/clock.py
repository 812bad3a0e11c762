"""The round clock the director runs on the live page (a pairs session's) or on a teams
event's page: the minutes a round, start and pause, the next round, a minute more. Each
service takes ``session=`` or ``team_event=``: the two keep the same clock fields. It
stores the moment it (re)started and the seconds left then; the pages count down from those (sessions.phones.selectors.clock). The director's
alone (the views check); the phones only read it. Each service saves the clock's fields
only, so a clock press never overwrites another write to the session."""

from __future__ import annotations

from datetime import datetime

from django.core.exceptions import ValidationError
from django.utils import timezone

from sessions.models import Session, TeamEvent
from sessions.phones.selectors.clock import seconds_left

from sessions.core.services.unit_of_work import unit, write

#: The longest round the clock times, in minutes.
LONGEST_ROUND = 180

CLOCK_FIELDS = ["round_minutes", "clock_round", "clock_started_at", "clock_seconds_left"]


Timed = Session | TeamEvent


def _timed(session: Session | None, team_event: TeamEvent | None) -> Timed:
    if (session is None) == (team_event is None):
        raise TypeError("the round clock is a session's or a teams event's: give one")
    return session if session is not None else team_event  # type: ignore[return-value]


def _locked(timed: Timed) -> Timed:
    """The clock as stored now, held to the end of the transaction (two directors pressing
    at once apply one after the other)."""
    if isinstance(timed, TeamEvent):
        unit().lock(team_events=[timed])
    else:
        unit().lock(sessions=[timed])
    return type(timed).objects.only("pk", *CLOCK_FIELDS).get(pk=timed.pk)


def _save(timed: Timed, stored: Timed) -> Timed:
    stored.save(update_fields=CLOCK_FIELDS)
    for name in CLOCK_FIELDS:
        setattr(timed, name, getattr(stored, name))
    return timed


@write
def clock_set_minutes(*, session: Session | None = None, team_event: TeamEvent | None = None, minutes: int) -> Timed:
    """The minutes a round. A clock not yet started or paused shows them at once if it has
    not counted any of the round yet; a running round keeps its time (the next round takes
    the new minutes)."""
    if not 1 <= minutes <= LONGEST_ROUND:
        raise ValidationError(f"a round lasts 1 to {LONGEST_ROUND} minutes")
    timed = _timed(session, team_event)
    stored = _locked(timed)
    untouched = stored.clock_started_at is None and stored.clock_seconds_left in (0, stored.round_minutes * 60)
    stored.round_minutes = minutes
    if untouched:
        stored.clock_seconds_left = minutes * 60
    return _save(timed, stored)


@write
def clock_start(
    *, session: Session | None = None, team_event: TeamEvent | None = None, now: datetime | None = None,
) -> Timed:
    """Start (round 1, the first time) or carry on after a pause; running already: nothing."""
    timed = _timed(session, team_event)
    stored = _locked(timed)
    if stored.round_minutes == 0:
        raise ValidationError("set the minutes a round first")
    if stored.clock_started_at is None:
        if stored.clock_round is None:
            stored.clock_round = 1
            stored.clock_seconds_left = stored.round_minutes * 60
        stored.clock_started_at = now or timezone.now()
    return _save(timed, stored)


@write
def clock_pause(
    *, session: Session | None = None, team_event: TeamEvent | None = None, now: datetime | None = None,
) -> Timed:
    """Stop the count where it is; paused already: nothing."""
    timed = _timed(session, team_event)
    stored = _locked(timed)
    if stored.clock_started_at is not None:
        stored.clock_seconds_left = seconds_left(stored, now or timezone.now())
        stored.clock_started_at = None
    return _save(timed, stored)


@write
def clock_next_round(
    *, session: Session | None = None, team_event: TeamEvent | None = None, now: datetime | None = None,
) -> Timed:
    """The next round's full time, counting at once."""
    timed = _timed(session, team_event)
    stored = _locked(timed)
    if stored.round_minutes == 0:
        raise ValidationError("set the minutes a round first")
    stored.clock_round = (stored.clock_round or 0) + 1
    stored.clock_seconds_left = stored.round_minutes * 60
    stored.clock_started_at = now or timezone.now()
    return _save(timed, stored)


@write
def clock_add_minute(
    *, session: Session | None = None, team_event: TeamEvent | None = None, now: datetime | None = None,
) -> Timed:
    """A minute more for the round (also after its time ran out: counting again from 1:00)."""
    timed = _timed(session, team_event)
    stored = _locked(timed)
    if stored.clock_round is None:
        raise ValidationError("start the clock first")
    at = now or timezone.now()
    stored.clock_seconds_left = seconds_left(stored, at) + 60
    if stored.clock_started_at is not None:
        stored.clock_started_at = at
    return _save(timed, stored)
