"""What the director's overview pages read: clubs, a session's progress, its log."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, Exists, OuterRef, Prefetch, QuerySet, Subquery
from django.db.models.functions import Coalesce

from sessions.models import (
    Board,
    Club,
    ClubDirector,
    EntryStatus,
    Event,
    Pair,
    Result,
    ResultChange,
    Seating,
    Section,
    Session,
    TableEntry,
    section_boards,
)

from sessions.core.selectors.scored import RankedPair
from sessions.core.selectors.scoring import session_score


def director_clubs(*, user: AbstractBaseUser) -> QuerySet[Club]:
    """The clubs the user directs, with their events, sessions and teams events (four
    queries); ``is_owned``: whether the user owns the club (and manages its settings and directors)."""
    owns = ClubDirector.objects.filter(club=OuterRef("pk"), user=user, is_owner=True)
    return Club.objects.filter(directors=user).annotate(is_owned=Exists(owns)).prefetch_related(
        Prefetch("events", queryset=Event.objects.order_by("name").prefetch_related("sessions")),
        "team_events",
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
    """One table in one round: lines entered, and the lines its phone sent that need a look."""

    section: Section
    round: int
    table: int
    entered: int
    expected: int
    pending: int = 0  # sent from the table, waiting for the opponents to confirm
    warned: int = 0  # confirmed from the table although the table was warned
    in_play: bool = False  # the round the table is playing now


@dataclass(frozen=True)
class TableNow:
    """Where a table is now: the round and board it plays (None once it has played them all).

    ``late``: the table plays an earlier round than most tables do (when as many tables
    play two rounds, the later one counts), a table that has finished never is.
    """

    section: Section
    table: int
    round: int | None
    board: int | None
    late: bool
    entered: int
    expected: int
    pending: int
    warned: int

    @property
    def finished(self) -> bool:
        return self.round is None


@dataclass(frozen=True)
class SessionProgress:
    boards: tuple[BoardProgress, ...]
    tables: tuple[TableProgress, ...]  # by section, round, table
    several_sections: bool = False
    now: tuple[TableNow, ...] = ()  # by section, table
    current_round: int | None = None  # the round most tables play; None once most have finished

    @property
    def entered(self) -> int:
        return sum(progress.entered for progress in self.boards)

    @property
    def expected(self) -> int:
        return sum(progress.expected for progress in self.boards)

    @property
    def missing(self) -> int:
        """Lines the movement expects that are not entered (a board's extra lines make up for none)."""
        return sum(max(progress.expected - progress.entered, 0) for progress in self.boards)

    @property
    def pending(self) -> int:
        return sum(table.pending for table in self.now)

    @property
    def warned(self) -> int:
        return sum(table.warned for table in self.now)

    @property
    def late(self) -> int:
        return sum(1 for table in self.now if table.late)

    @property
    def all_finished(self) -> bool:
        """Every table has played all its boards."""
        return bool(self.now) and all(table.finished for table in self.now)

    def rounds(self) -> list[tuple[int, list[TableProgress]]]:
        """The table-round grid, one list of tables per round."""
        grid: dict[int, list[TableProgress]] = {}
        for progress in self.tables:
            grid.setdefault(progress.round, []).append(progress)
        return sorted(grid.items())


def _table_entries(status: str, *, warned: bool = False) -> Coalesce:
    """How many lines the seating's table sent in its round with ``status`` (a subquery)."""
    entries = TableEntry.objects.filter(
        section=OuterRef("section"), round=OuterRef("round"), table=OuterRef("table"), status=status
    )
    if warned:
        entries = entries.exclude(warnings=[])
    counted = entries.order_by().values("section").annotate(count=Count("pk")).values("count")
    return Coalesce(Subquery(counted), 0)


def session_progress(*, session: Session) -> SessionProgress:
    """How many lines are entered per board and per table-round, and where each table is now.

    Three queries, whatever the size: the boards with their counts; the seatings with
    their tables' lines waiting for confirmation and lines confirmed despite a warning;
    the session's lines. A table plays the first board of its seatings, in round order,
    with no line stored for the seating's two pairs.
    """
    boards = list(Board.objects.filter(session=session).select_related("section").annotate(entered=Count("results")))
    seatings = list(
        Seating.objects.filter(section__session=session)
        .select_related("section")
        .annotate(pending=_table_entries(EntryStatus.PENDING), warned=_table_entries(EntryStatus.CONFIRMED, warned=True))
        .order_by("section__letter", "round", "table")
    )
    lines = list(
        Result.objects.filter(board__session=session).values_list(
            "section_id", "round", "table", "board_id", "ns_pair_id", "ew_pair_id"
        )
    )
    entered_at = Counter((section, round, table) for section, round, table, *_ in lines)
    number_of = {board.pk: board.number for board in boards}
    # Either way round: an arrow-switched round stores the line with the pairs turned.
    played = {(number_of[board], frozenset((ns, ew))) for *_, board, ns, ew in lines}
    # Each seating plays its section's deal of a number: its own board, else the shared one.
    deals = {section_id: section_boards(boards, section_id) for section_id in {s.section_id for s in seatings}}
    expected_per_board = Counter(
        deals[seating.section_id][number].pk for seating in seatings for number in seating.boards
        if number in deals[seating.section_id]
    )
    now, in_play, current_round = _tables_now(seatings, played, entered_at)
    return SessionProgress(
        boards=tuple(BoardProgress(b, b.entered, expected_per_board[b.pk]) for b in boards),
        tables=tuple(
            TableProgress(
                s.section, s.round, s.table, entered_at[(s.section_id, s.round, s.table)], len(s.boards),
                pending=s.pending, warned=s.warned, in_play=s.pk in in_play,
            )
            for s in seatings
        ),
        several_sections=len({s.section_id for s in seatings}) > 1,
        now=now,
        current_round=current_round,
    )


def _tables_now(
    seatings: list[Seating], played: set[tuple[int, frozenset[int]]], entered_at: Counter
) -> tuple[tuple[TableNow, ...], set[int], int | None]:
    """Each table's round and board in play with its counts, the ids of the seatings in
    play, and the round most tables play (None once most have finished)."""
    by_table: dict[tuple[int, int], list[Seating]] = {}
    for seating in seatings:  # in round order
        by_table.setdefault((seating.section_id, seating.table), []).append(seating)
    places: list[tuple[Seating, int | None, int | None]] = []
    in_play: set[int] = set()
    for table_seatings in by_table.values():
        first = table_seatings[0]
        place: tuple[Seating, int | None, int | None] = (first, None, None)
        for seating in table_seatings:
            pairs = frozenset((seating.ns_pair_id, seating.ew_pair_id))
            board = next((number for number in seating.boards if (number, pairs) not in played), None)
            if board is not None:
                place = (seating, seating.round, board)
                in_play.add(seating.pk)
                break
        places.append(place)
    # A table that has finished counts as being in the round after the last.
    last_round = max((seating.round for seating in seatings), default=0)
    counts = Counter(round or last_round + 1 for _, round, _ in places)
    current = max(counts, key=lambda round: (counts[round], round)) if counts else None  # a tie: the later
    now = []
    for seating, round, board in sorted(places, key=lambda place: (place[0].section.letter, place[0].table)):
        mine = by_table[(seating.section_id, seating.table)]
        now.append(TableNow(
            section=seating.section, table=seating.table, round=round, board=board,
            late=round is not None and current is not None and round < current,
            entered=sum(entered_at[(s.section_id, s.round, s.table)] for s in mine),
            expected=sum(len(s.boards) for s in mine),
            pending=sum(s.pending for s in mine), warned=sum(s.warned for s in mine),
        ))
    return tuple(now), in_play, (current if current is not None and current <= last_round else None)


def latest_event(*, club: Club) -> Event | None:
    """The likely event of the club's next session: one made after the event of the latest
    session and not used yet (the director has just created it), else the event of the
    latest session (two queries)."""
    session = Session.objects.filter(event__club=club).select_related("event").order_by("-date", "-pk").first()
    unused = Event.objects.filter(club=club, sessions__isnull=True)
    if session:
        unused = unused.filter(pk__gt=session.event_id)
    return unused.order_by("-pk").first() or (session.event if session else None)


def session_pairs(*, session: Session) -> QuerySet[Pair]:
    """The session's pairs with their players, by section, direction and number (one query).

    The club comes along, so naming the players checks it without a query per pair.
    """
    return (
        Pair.objects.filter(section__session=session)
        .select_related("section__session__event__club", "player_1", "player_2")
        .order_by("section__letter", "-direction", "number")  # NS before EW
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


def session_sections(*, session: Session) -> QuerySet[Section]:
    """The session's sections, by letter."""
    return session.sections.order_by("letter")


def section_by_letter(*, session: Session, letter: str) -> Section | None:
    """The session's section ``letter`` (one query), else None."""
    return session.sections.filter(letter=letter).first()


def section_count(*, session: Session) -> int:
    """How many sections the session has (one query)."""
    return session.sections.count()


def session_has_lines(*, session: Session) -> bool:
    """Whether any line is entered (one query)."""
    return Result.objects.filter(board__session=session).exists()


def session_line_count(*, session: Session) -> int:
    """How many lines are entered (one query)."""
    return Result.objects.filter(board__session=session).count()
