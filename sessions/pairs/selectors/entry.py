"""What the director's entry pages read: travellers and table-round sheets.

Each row is one line the movement expects (the pairs who should play the board, in
table order), with the stored result if there is one and its running score. A fixed
number of queries whatever the session's size: the seatings, then session_score's two.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db.models import QuerySet

from sessions.models import Board, Pair, Result, Seating, Section, Session, section_boards
from sessions.scoring.session import ScoredLine

from sessions.core.selectors.scored import ScoredSession
from sessions.core.selectors.scoring import session_score


@dataclass(frozen=True)
class EntryRow:
    board: Board
    section: Section
    round: int | None
    table: int | None
    ns_pair: Pair
    ew_pair: Pair
    result: Result | None
    scored: ScoredLine | None

    @property
    def key(self) -> str:
        """Names the row in the page (HTML id) and in a redirect back to it."""
        return f"{self.section.letter}-{self.board.number}-{self.ns_pair.pk}-{self.ew_pair.pk}"

    @property
    def seen(self) -> str:
        """What the row shows the director (board, table, round, pairs), posted with the
        line: a line is stored only on the row the director saw when typing it."""
        return (
            f"board {self.board.number}, table {self.table or '-'}, round {self.round or '-'}, "
            f"{self.ns_pair.label} v {self.ew_pair.label}"
        )


@dataclass(frozen=True)
class EntrySheet:
    """Rows to enter, for one board (a traveller) or one table in one round."""

    session: Session
    rows: tuple[EntryRow, ...]
    scored: ScoredSession

    @property
    def entered(self) -> int:
        return sum(1 for row in self.rows if row.result is not None)

    @property
    def fouled(self) -> bool:
        """Some line has a fouled-board group: the board is scored in groups."""
        return any(row.result is not None and row.result.group is not None for row in self.rows)

    def row_after(self, key: str) -> EntryRow | None:
        """The row the cursor moves to after ``key``: the next one still to enter, else the next."""
        keys = [row.key for row in self.rows]
        if key not in keys:
            return None
        following = self.rows[keys.index(key) + 1:]
        return next((row for row in following if row.result is None), following[0] if following else None)

    def row(self, key: str) -> EntryRow | None:
        return next((row for row in self.rows if row.key == key), None)


#: A seating's pairs with their players: the entry rows show the names.
PAIRS_WITH_PLAYERS = (
    "ns_pair__player_1", "ns_pair__player_2", "ew_pair__player_1", "ew_pair__player_2",
)


def _session_seatings(session: Session) -> list[Seating]:
    return list(
        Seating.objects.filter(section__session=session)
        .select_related("section", *PAIRS_WITH_PLAYERS)
        .order_by("section__letter", "table", "round")
    )


def _rows(
    wanted: Iterable[tuple[Seating, Board]], results: Sequence[Result], scored: ScoredSession
) -> list[EntryRow]:
    """One row per expected (seating, board), then any stored line the movement does not expect."""
    by_line = {(r.board_id, r.ns_pair_id, r.ew_pair_id): r for r in results}
    rows = []
    for seating, board in wanted:
        ns, ew = seating.ns_pair, seating.ew_pair
        result = by_line.pop((board.pk, ns.pk, ew.pk), None)
        if result is None and (board.pk, ew.pk, ns.pk) in by_line:
            # The line was turned round (the pairs sat the wrong way on this board): its row, as played.
            result, ns, ew = by_line.pop((board.pk, ew.pk, ns.pk)), ew, ns
        rows.append(EntryRow(
            board=board, section=seating.section, round=seating.round, table=seating.table,
            ns_pair=ns, ew_pair=ew, result=result,
            scored=scored.scored_line(result) if result else None,
        ))
    for result in by_line.values():
        rows.append(EntryRow(
            board=result.board, section=result.section, round=result.round, table=result.table,
            ns_pair=result.ns_pair, ew_pair=result.ew_pair, result=result, scored=scored.scored_line(result),
        ))
    return rows


def board_traveller(*, board: Board) -> EntrySheet:
    """The traveller of a board number: every table that plays it, in section and table
    order, each row on its section's deal (sections may play different deals).

    Queries: the boards of that number, the seatings, and session_score's two
    (board.session.event loaded by the caller).
    """
    return board_travellers(session=board.session, numbers=[board.number])[0]


def board_travellers(*, session: Session, numbers: Sequence[int]) -> list[EntrySheet]:
    """The travellers of several board numbers (the board page and the boards it moves on
    to), in that order; a number the session has no board of is left out.

    Queries: the boards of those numbers, the seatings, their lines, and session_score's
    two, however many numbers (session.event loaded by the caller).
    """
    scored = session_score(session=session)
    boards = list(Board.objects.filter(session=session, number__in=list(numbers)))
    seatings = _session_seatings(session)
    lines = scored.results_where(numbers=numbers)  # every section's deal of those numbers
    sheets = []
    for number in numbers:
        if not any(board.number == number for board in boards):
            continue
        wanted = [
            (s, section_boards(boards, s.section_id)[number]) for s in seatings if number in s.boards
        ]
        results = [line for line in lines if line.board.number == number]
        sheets.append(EntrySheet(session=session, rows=tuple(_rows(wanted, results, scored)), scored=scored))
    return sheets


def table_round_sheet(*, section: Section, round: int, table: int) -> EntrySheet | None:
    """The boards one table plays in one round, or None if the movement has no such seating.

    Queries: the seating, its boards, and session_score's two.
    """
    return table_round_sheets(section=section, positions=[(round, table)])[0]


def table_round_sheets(*, section: Section, positions: Sequence[tuple[int, int]]) -> list[EntrySheet | None]:
    """The sheets of several (round, table) positions of a section, in that order (the
    table page and the tables it moves on to); None where the movement has no seating.

    Queries: the seatings, their boards, and session_score's two, however many positions.
    """
    session = section.session
    wanted = set(positions)
    rounds = {round for round, _ in positions}
    seatings = {
        (s.round, s.table): s
        for s in Seating.objects.filter(section=section, round__in=rounds)
        .select_related("section", *PAIRS_WITH_PLAYERS)
        if (s.round, s.table) in wanted
    }
    numbers = {number for seating in seatings.values() for number in seating.boards}
    boards = section_boards(list(Board.objects.filter(session=session, number__in=numbers)), section.pk)
    scored = session_score(session=session) if seatings else None
    section_results = scored.results_where(section_id=section.pk) if scored else []
    sheets: list[EntrySheet | None] = []
    for position in positions:
        seating = seatings.get(position)
        if seating is None or scored is None:
            sheets.append(None)
            continue
        pairs = {seating.ns_pair_id, seating.ew_pair_id}
        results = [
            r for r in section_results
            if (r.ns_pair_id in pairs or r.ew_pair_id in pairs) and r.board.number in seating.boards
        ]
        played = [boards[number] for number in sorted(seating.boards) if number in boards]
        rows = _rows([(seating, board) for board in played], results, scored)
        sheets.append(EntrySheet(session=session, rows=tuple(rows), scored=scored))
    return sheets


def line_exists(*, result_id: int) -> bool:
    """Whether a stored line of this id exists (one query): a posted id the row no longer shows."""
    return Result.objects.filter(pk=result_id).exists()


def section_deals_by_number(*, session: Session, section: Section | None, numbers: Sequence[int]) -> dict[int, Board]:
    """The deals of ``numbers`` that ``section`` plays (None: the shared deals), by number (one query)."""
    return {board.number: board for board in Board.objects.filter(session=session, number__in=numbers, section=section)}


def board_lines_with_pairs(*, board: Board) -> QuerySet[Result]:
    """The board's lines with their pairs (one query when read)."""
    return board.results.select_related("ns_pair", "ew_pair")
