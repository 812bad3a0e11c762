"""What the director's overview pages read: clubs, a session's progress, its log."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, Prefetch, QuerySet

from sessions.models import Board, Club, Event, Pair, Result, ResultChange, Seating, Section, Session
from sessions.services.scoring import RankedPair, session_score


def director_clubs(*, user: AbstractBaseUser) -> QuerySet[Club]:
    """The clubs the user directs, with their events and sessions (three queries)."""
    return Club.objects.filter(directors=user).prefetch_related(
        Prefetch("events", queryset=Event.objects.order_by("name").prefetch_related("sessions"))
    )


class _Counted:
    """Lines entered against lines the movement expects."""

    entered: int
    expected: int

    @property
    def complete(self) -> bool:
        return self.entered >= self.expected


@dataclass(frozen=True)
class BoardProgress(_Counted):
    board: Board
    entered: int
    expected: int


@dataclass(frozen=True)
class TableProgress(_Counted):
    section: Section
    round: int
    table: int
    entered: int
    expected: int


@dataclass(frozen=True)
class SessionProgress:
    boards: tuple[BoardProgress, ...]
    tables: tuple[TableProgress, ...]  # by section, round, table
    several_sections: bool = False

    @property
    def entered(self) -> int:
        return sum(progress.entered for progress in self.boards)

    @property
    def expected(self) -> int:
        return sum(progress.expected for progress in self.boards)

    def rounds(self) -> list[tuple[int, list[TableProgress]]]:
        """The table-round grid, one list of tables per round."""
        grid: dict[int, list[TableProgress]] = {}
        for progress in self.tables:
            grid.setdefault(progress.round, []).append(progress)
        return sorted(grid.items())


def session_progress(*, session: Session) -> SessionProgress:
    """How many lines are entered per board and per table-round (three queries)."""
    boards = list(Board.objects.filter(session=session).annotate(entered=Count("results")).order_by("number"))
    seatings = list(
        Seating.objects.filter(section__session=session).select_related("section").order_by("section__letter", "round", "table")
    )
    entered_at = Counter(
        Result.objects.filter(board__session=session).values_list("section_id", "round", "table")
    )
    expected_per_board = Counter(number for seating in seatings for number in seating.boards)
    return SessionProgress(
        boards=tuple(BoardProgress(b, b.entered, expected_per_board[b.number]) for b in boards),
        tables=tuple(
            TableProgress(s.section, s.round, s.table, entered_at[(s.section_id, s.round, s.table)], len(s.boards))
            for s in seatings
        ),
        several_sections=len({s.section_id for s in seatings}) > 1,
    )


def latest_event(*, club: Club) -> Event | None:
    """The event of the club's latest session: the likely choice for the next one (one query)."""
    session = Session.objects.filter(event__club=club).select_related("event").order_by("-date", "-pk").first()
    return session.event if session else None


def session_pairs(*, session: Session) -> QuerySet[Pair]:
    """The session's pairs with their players, by section, direction and number (one query).

    The club comes along, so naming the players checks it without a query per pair.
    """
    return (
        Pair.objects.filter(section__session=session)
        .select_related("section__session__event__club", "player_1", "player_2")
        .order_by("section__letter", "direction", "number")
    )


def session_change_log(*, session: Session) -> QuerySet[ResultChange]:
    """Every change to the session's lines, newest first (one query)."""
    return (
        ResultChange.objects.filter(session=session)
        .select_related("board", "ns_pair", "ew_pair", "changed_by")
        .order_by("-changed_at", "-pk")
    )


def provisional_standings(*, session: Session) -> list[tuple[str, list[RankedPair]]]:
    """Each field's ranking on the lines entered so far (session_score's two queries)."""
    return session_score(session=session).rankings()
