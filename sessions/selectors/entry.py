"""What the director's entry pages read: travellers and table-round sheets.

Each row is one line the movement expects (the pairs who should play the board, in
table order), with the stored result if there is one and its running score. A fixed
number of queries whatever the session's size: the seatings, then session_score's two.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sessions.models import Board, Pair, Result, Seating, Section, Session, section_boards
from sessions.scoring.session import ScoredLine

from .scoring import ScoredSession, session_score


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
    session = board.session
    scored = session_score(session=session)
    boards = list(Board.objects.filter(session=session, number=board.number))
    wanted = [
        (s, section_boards(boards, s.section_id)[board.number])
        for s in _session_seatings(session) if board.number in s.boards
    ]
    results = scored.results_where(number=board.number)  # every section's deal of that number
    return EntrySheet(session=session, rows=tuple(_rows(wanted, results, scored)), scored=scored)


def table_round_sheet(*, section: Section, round: int, table: int) -> EntrySheet | None:
    """The boards one table plays in one round, or None if the movement has no such seating.

    Queries: the seating, its boards, and session_score's two.
    """
    session = section.session
    seating = (
        Seating.objects.filter(section=section, round=round, table=table)
        .select_related("section", *PAIRS_WITH_PLAYERS)
        .first()
    )
    if seating is None:
        return None
    numbers = set(seating.boards)
    boards = section_boards(list(Board.objects.filter(session=session, number__in=numbers)), section.pk).values()
    scored = session_score(session=session)
    pairs = {seating.ns_pair_id, seating.ew_pair_id}
    results = [r for r in scored.results_where(section_id=section.pk) if r.ns_pair_id in pairs or r.ew_pair_id in pairs]
    results = [r for r in results if r.board.number in seating.boards]
    rows = _rows([(seating, board) for board in sorted(boards, key=lambda board: board.number)], results, scored)
    return EntrySheet(session=session, rows=tuple(rows), scored=scored)
