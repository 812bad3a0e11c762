"""What the pages read about hands and their analysis, in a fixed number of queries.

- ``board_analysis``: one board's hands, DD table, par, score chart, and for each line
  of its traveller the DD tricks of the contract played and the result against par.
- ``session_analyses``: every board of a session (the director's hand-record page, the
  printable sheets).
- ``pair_par_summary``: a pair's results against par and its declarer play against
  double dummy, for its score card.

A stored analysis counts only while it was made from the board's current deal, dealer
and vulnerability; otherwise the board is shown as still being analysed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from django.db.models import Q
from django.utils.safestring import SafeString, mark_safe

from sessions.handrecords import Analysis, Deal, parse_deal, score_distribution_svg
from sessions.handrecords.deals import SEAT_NAMES, DiagramSuit
from sessions.handrecords.pbn_handrecords import write_hand_records
from sessions.models import AnalysisStatus, Board, BoardAnalysis, Pair, Result, ResultKind, Session
from sessions.scoring.boards import Seat
from sessions.scoring.errors import ScoringError

NO_DEAL, PENDING, DONE, FAILED = "none", "pending", "done", "failed"
STRAIN_HEADINGS = ("C", "D", "H", "S", "NT")


# --- one board ----------------------------------------------------------------------------


@dataclass(frozen=True)
class HandView:
    seat: Seat
    name: str
    suits: list[DiagramSuit]
    hcp: int


@dataclass(frozen=True)
class LineAnalysis:
    """One traveller line against double dummy (None where it does not apply)."""

    dd_tricks: int | None  # declarer's DD tricks in the strain played: played boards only
    against_par: int | None  # NS score minus par: played and passed-out boards


@dataclass(frozen=True)
class BoardAnalysisView:
    """A board's hands and analysis as a page shows them; ``state`` says what is known."""

    board: Board
    state: str  # NO_DEAL, PENDING, DONE or FAILED
    deal: Deal | None = None
    analysis: Analysis | None = None
    error: str = ""
    lines: dict[int, LineAnalysis] | None = None  # result id -> its figures (the traveller's columns)
    ns_scores: tuple[int, ...] = ()

    @property
    def is_done(self) -> bool:
        return self.state == DONE

    @property
    def is_pending(self) -> bool:
        return self.state == PENDING

    @property
    def is_failed(self) -> bool:
        return self.state == FAILED

    @cached_property
    def hands(self) -> dict[str, HandView]:
        """"north", "east", "south", "west" -> the hand, for the diagram's four places."""
        if self.deal is None:
            return {}
        return {
            SEAT_NAMES[seat].lower(): HandView(seat, SEAT_NAMES[seat], hand.diagram(), hand.hcp)
            for seat, hand in self.deal.items()
        }

    @property
    def dd_rows(self) -> list[tuple[str, tuple[int, ...]]]:
        """(declarer, tricks in C D H S NT), N E S W."""
        return [(seat.value, tricks) for seat, tricks in self.analysis.rows()] if self.analysis else []

    @property
    def par_text(self) -> str:
        return self.analysis.par_text if self.analysis else ""

    @property
    def par_score(self) -> int | None:
        return self.analysis.par_score if self.analysis else None

    def score_chart(self) -> SafeString:
        """The NS scores of the board as an inline SVG bar chart (escaped by charts.py)."""
        return mark_safe(score_distribution_svg(list(self.ns_scores), title=f"NS scores on board {self.board.number}"))  # noqa: S308

    def line(self, result_id: int) -> LineAnalysis | None:
        """A traveller line's figures; None for a line without a table score, or no analysis."""
        return (self.lines or {}).get(result_id)


def board_analysis(*, board: Board, results: Sequence[Result] | None = None) -> BoardAnalysisView:
    """The board's hands, analysis and per-line figures.

    Queries: the board's analysis row; the board's results unless ``results`` (already
    loaded, e.g. the traveller's) are given.
    """
    row = BoardAnalysis.objects.filter(board=board).first()
    if results is None:
        results = list(Result.objects.filter(board=board))
    return _view(board, row, results)


def session_analyses(*, session: Session) -> list[BoardAnalysisView]:
    """Every board of the session with its hands and analysis, in order (one query)."""
    boards = Board.objects.filter(session=session).select_related("analysis", "section")
    return [_view(board, _row_of(board), ()) for board in boards]


def hand_records_file(*, session: Session, section_letter: str = "") -> bytes:
    """The session's deals as a hand-record PBN file for a dealing machine (one query):
    the shared boards, or with ``section_letter`` that section's own deals.

    ``session.event.club`` must be loaded (the club-scoped lookup does).
    """
    deals = {
        view.board.number: view.deal for view in session_analyses(session=session)
        if view.deal and (view.board.section.letter if view.board.section else "") == section_letter
    }
    return write_hand_records(deals, event=f"{session.event.name} {session.name}",
                              site=session.event.club.name, date=session.date)


def _row_of(board: Board) -> BoardAnalysis | None:
    try:
        return board.analysis
    except BoardAnalysis.DoesNotExist:
        return None


def _view(board: Board, row: BoardAnalysis | None, results: Iterable[Result]) -> BoardAnalysisView:
    results = tuple(result for result in results if _has_table_score(result))
    scores = tuple(result.ns_score for result in results)
    if not board.deal:
        return BoardAnalysisView(board, NO_DEAL, ns_scores=scores)
    try:
        deal = parse_deal(board.deal)
    except ScoringError as error:
        return BoardAnalysisView(board, FAILED, error=f"the deal is not a valid deal: {error}", ns_scores=scores)
    if row is None or not row.is_for(board) or row.status == AnalysisStatus.PENDING:
        return BoardAnalysisView(board, PENDING, deal, ns_scores=scores)
    if row.status == AnalysisStatus.FAILED:
        return BoardAnalysisView(board, FAILED, deal, error=row.error, ns_scores=scores)
    try:
        analysis = Analysis.from_dict(row.data)
    except ScoringError as error:
        return BoardAnalysisView(board, FAILED, deal, error=str(error), ns_scores=scores)
    lines = {result.pk: _line(result, analysis) for result in results}
    return BoardAnalysisView(board, DONE, deal, analysis, lines=lines, ns_scores=scores)


def _has_table_score(result: Result) -> bool:
    """A score made at the table (played or passed out), not one a director assigned."""
    return result.kind in (ResultKind.PLAYED, ResultKind.PASSED) and result.ns_score is not None


def _line(result: Result, analysis: Analysis) -> LineAnalysis:
    against_par = result.ns_score - analysis.par_score
    if result.kind != ResultKind.PLAYED:
        return LineAnalysis(None, against_par)
    return LineAnalysis(analysis.tricks_for(result.strain, result.declarer), against_par)


# --- one pair -----------------------------------------------------------------------------


@dataclass(frozen=True)
class PairBoard:
    """One board of the pair's card against par, from the pair's side."""

    board: int
    score: int  # the pair's own score
    par: int  # par from the pair's side
    contract: str  # the result as written ("4S N +1")
    section: str = ""  # the pair's section when it played that section's own deal (its traveller's ?section=)

    @property
    def against_par(self) -> int:
        return self.score - self.par


@dataclass(frozen=True)
class DeclaredBoard:
    board: int
    contract: str
    tricks: int
    dd_tricks: int

    @property
    def difference(self) -> int:
        return self.tricks - self.dd_tricks


@dataclass(frozen=True)
class PairParSummary:
    pair: Pair
    boards: list[PairBoard]  # boards with a table score and a current analysis, in order
    declared: list[DeclaredBoard]  # the boards among them that the pair declared
    pending: int  # boards the pair played whose analysis is not ready

    @property
    def beat_par(self) -> list[PairBoard]:
        return [board for board in self.boards if board.against_par > 0]

    @property
    def below_par(self) -> list[PairBoard]:
        return [board for board in self.boards if board.against_par < 0]

    @property
    def at_par(self) -> list[PairBoard]:
        return [board for board in self.boards if board.against_par == 0]

    @property
    def declarer_average(self) -> Fraction | None:
        """Tricks taken minus DD tricks, averaged over the boards the pair declared (exact)."""
        if not self.declared:
            return None
        return Fraction(sum(board.difference for board in self.declared), len(self.declared))


def pair_par_summary(*, pair: Pair, results: Sequence[Result] | None = None) -> PairParSummary:
    """The pair's boards against par and its declarer play against double dummy.

    Queries: the pair's results with their boards unless ``results`` (with boards
    loaded, e.g. the score card's) are given; the analyses of those boards.
    """
    if results is None:
        results = list(Result.objects.filter(Q(ns_pair=pair) | Q(ew_pair=pair)).select_related("board"))
    mine = [result for result in results if pair.pk in (result.ns_pair_id, result.ew_pair_id)]
    rows = {row.board_id: row for row in BoardAnalysis.objects.filter(board_id__in={r.board_id for r in mine})}
    boards, declared, pending = [], [], 0
    for result in sorted(mine, key=lambda line: line.board.number):
        if not _has_table_score(result):
            continue
        view = _view(result.board, rows.get(result.board_id), [result])
        if view.analysis is None:
            pending += view.state == PENDING
            continue
        side = "NS" if result.ns_pair_id == pair.pk else "EW"
        sign = 1 if side == "NS" else -1
        number = result.board.number
        own_deal = pair.section.letter if result.board.section_id else ""
        boards.append(PairBoard(number, sign * result.ns_score, sign * view.analysis.par_score, result.text, own_deal))
        if result.kind == ResultKind.PLAYED and Seat(result.declarer).side.value == side:
            declared.append(DeclaredBoard(number, result.text, result.tricks, view.line(result.pk).dd_tricks))
    return PairParSummary(pair, boards, declared, pending)
