"""A session's printable booklet (ranking, every traveller, hand records), and its paper forms.

Both read a fixed number of queries whatever the session's size: the booklet scores the
session once and reads every line in one query (session_score's ``results``), the boards
with their analyses in another; the paper forms read the seatings with their pairs.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from sessions.models import Board, ProceduralPenalty, Seating, Session

from sessions.analysis.selectors.analysis import BoardAnalysisView, _row_of, _view
from sessions.pairs.selectors.penalties import penalties_shown
from sessions.pairs.selectors.public import FieldRanking, TravellerRow, _rows, field_title
from sessions.core.selectors.scoring import session_score


@dataclass(frozen=True)
class BookletBoard:
    board: Board
    rows: list[TravellerRow]
    analysis: BoardAnalysisView | None  # None while the hands are not shown (before final)


@dataclass(frozen=True)
class Booklet:
    session: Session
    rankings: list[FieldRanking]
    boards: list[BookletBoard]
    is_matchpoints: bool
    note: str
    # Procedural penalties (RULES 13), for the ranking's footnote: only when one is shown.
    penalties: list[ProceduralPenalty] = field(default_factory=list)


def session_booklet(*, session: Session, with_analysis: bool) -> Booklet:
    """The ranking of each field, then each board: its traveller and, ``with_analysis``, its
    hands and analysis.

    Queries: session_score's two, every line, the boards with their analyses, and when a
    pair carries a procedural penalty the penalties' reasons (``session.event`` loaded by
    the caller).
    """
    scored = session_score(session=session)
    rankings = [FieldRanking(field, field_title(field), rows) for field, rows in scored.rankings()]
    lines = defaultdict(list)
    for result in scored.results:
        lines[result.board_id].append(result)
    boards = Board.objects.filter(session=session).select_related("analysis", "section").order_by(
        "number", "section__letter",
    )
    return Booklet(
        session=session,
        rankings=rankings,
        boards=[
            BookletBoard(
                board=board, rows=_rows(scored, lines[board.pk]),
                analysis=_view(board, _row_of(board), lines[board.pk]) if with_analysis else None,
            )
            for board in boards
        ],
        is_matchpoints=scored.is_matchpoints,
        note=scored.note,
        penalties=penalties_shown(
            session=session, standings=(row.standing for ranking in rankings for row in ranking.rows),
        ),
    )


# --- paper: blank travellers and pickup slips ------------------------------------------------------

@dataclass(frozen=True)
class BlankTraveller:
    """One board's traveller for one section: a row for each table that plays it, by round."""

    section: str
    number: int
    rows: list[Seating]


@dataclass(frozen=True)
class PaperForms:
    travellers: list[BlankTraveller]
    slips: list[tuple[Seating, list[int]]]  # one pickup slip per table per round, with its boards


def session_paper_forms(*, session: Session) -> PaperForms:
    """Blank travellers and pickup slips for the session's movement (one query: the seatings)."""
    seatings = list(
        Seating.objects.filter(section__session=session).select_related("section", "ns_pair", "ew_pair")
        .order_by("section__letter", "round", "table")
    )
    by_board: dict[tuple[str, int], list[Seating]] = defaultdict(list)
    for seating in seatings:
        for number in seating.boards:
            by_board[(seating.section.letter, int(number))].append(seating)
    travellers = [
        BlankTraveller(section=letter, number=number, rows=rows)
        for (letter, number), rows in sorted(by_board.items(), key=lambda item: (item[0][1], item[0][0]))
    ]
    slips = [(seating, [int(number) for number in seating.boards]) for seating in seatings]
    return PaperForms(travellers=travellers, slips=slips)
