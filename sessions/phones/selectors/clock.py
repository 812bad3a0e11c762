"""The round clock as the pages show it: the round it times and the seconds left at a given
moment, from the session's stored state (sessions.phones.services.clock writes it). The pages
render it once; static/js/clock.js counts down on the phone or the director's screen, so
no page asks the server every second."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sessions.models import Session, TeamEvent
from sessions.pairs.selectors.sessions import SessionProgress, TableProgress


@dataclass(frozen=True)
class RoundClock:
    round: int | None  # None: the director has not started the clock
    minutes: int
    seconds_left: int  # at ``now``
    running: bool
    now: datetime

    @property
    def started(self) -> bool:
        return self.round is not None

    @property
    def time_up(self) -> bool:
        return self.started and self.seconds_left <= 0

    @property
    def shown(self) -> str:
        """m:ss left, as the page shows it before the script counts down."""
        return f"{self.seconds_left // 60}:{self.seconds_left % 60:02d}"

    @property
    def ends_at_ms(self) -> int | None:
        """While it runs, the moment it reaches 0 (ms since the epoch) for the page's script."""
        if not self.running:
            return None
        return round(self.now.timestamp() * 1000) + self.seconds_left * 1000

    @property
    def now_ms(self) -> int:
        return round(self.now.timestamp() * 1000)


def seconds_left(session: Session | TeamEvent, now: datetime) -> int:
    """The seconds left at ``now``: counting down from the start while it runs, never below 0."""
    left = session.clock_seconds_left
    if session.clock_started_at is not None:
        left -= int((now - session.clock_started_at).total_seconds())
    return max(0, left)


def round_clock(*, session: Session | None = None, team_event: TeamEvent | None = None, now: datetime) -> RoundClock:
    """The clock at ``now`` of a session or a teams event (no query: its own fields)."""
    session = session if session is not None else team_event
    if session is None:
        raise TypeError("the round clock is a session's or a teams event's: give one")
    return RoundClock(
        round=session.clock_round, minutes=session.round_minutes, seconds_left=seconds_left(session, now),
        running=session.clock_started_at is not None, now=now,
    )


def tables_over_time(*, clock: RoundClock, progress: SessionProgress) -> list[TableProgress]:
    """Once the round's time is up, the tables still playing it: their lines of the clock's
    round not all entered (a table that has entered them all has finished, whatever the
    others do)."""
    if not clock.time_up:
        return []
    return [table for table in progress.tables if table.round == clock.round and not table.complete]
