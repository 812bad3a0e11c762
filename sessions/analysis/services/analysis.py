"""Writing deals onto boards, and their double-dummy analysis.

Deals arrive three ways: a director uploads a hand-record PBN file, generates random
deals, or imports a results file that carries them (sessions.transfer stores
Board.deal); the admin can also correct a board's deal. Each way ends the same: the
code that stored the deals calls ``analysis_request`` in its transaction, which makes
the boards *pending*, and after the commit ``analysis_start`` analyses them. (Explicit
calls, no signals: whoever stores deals asks for their analysis.)

The request that stores deals never analyses them (a session of 27 boards takes
seconds of CPU): ``analysis_start`` puts a pass on the work queue when there is one
(WORK_QUEUE=rq: a worker process runs it, clubscore.work_queue), else hands the work to
one background thread (with its own database connection, closed when it ends), or runs
it at once when the ANALYSIS_BACKGROUND setting is False (tests). ``analysis_run`` is
that work, the same for the queue, the thread and ``manage.py analyse_boards`` (cron,
or after a crash); on PostgreSQL its passes take turns wherever they run.
Analysing holds no transaction: each finished board is written on its own, and only
if the board still has the deal that was analysed (a deal corrected meanwhile stays
pending for the next pass).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from sessions.formats.errors import FormatError
from sessions.handrecords import Analysis, Deal, analyse, analyse_many, parse_deal, random_deals, read_hand_records
from sessions.models import AnalysisStatus, Board, BoardAnalysis, Section, Session
from sessions.core.services.background import BackgroundWorker
from sessions.core.services.unit_of_work import unit, unit_of_work, write
from sessions.scoring import boards as engine_boards
from sessions.scoring.errors import ScoringError

logger = logging.getLogger(__name__)

_INPUTS = ("deal", "dealer", "vulnerability")  # the board fields an analysis is made from


@dataclass(frozen=True)
class DealsStored:
    """What a load or a generation did: the boards given a deal, and anything to know."""

    boards: tuple[int, ...]
    notes: tuple[str, ...] = ()


@dataclass
class AnalysisReport:
    """What one ``analysis_run`` did: boards analysed, and boards whose analysis failed."""

    done: list[Board] = field(default_factory=list)
    failed: list[tuple[Board, str]] = field(default_factory=list)


# --- deals onto boards -------------------------------------------------------------------


@write
def hand_records_load(*, session: Session, data: bytes, section: Section | None = None) -> DealsStored:
    """Put the deals of a hand-record PBN file onto the session's boards, by board number.

    A file that cannot be read, or has a bad deal, raises ValidationError naming the
    board, and changes nothing. Boards the file has beyond the session are ignored
    (dealing-machine files often hold 32 or 36 boards), with a note.
    """
    try:
        deals = read_hand_records(data)
    except (FormatError, ScoringError) as error:
        raise ValidationError(f"not a hand-record file: {error}; nothing was changed") from None
    boards = _boards_by_number(session, section)
    used = {number: deal for number, deal in deals.items() if number in boards}
    if not used:
        raise ValidationError(
            f"the file has boards {_ranges(deals)} but the session plays boards {_ranges(boards)}: "
            "nothing was changed"
        )
    notes = []
    if extra := sorted(set(deals) - set(used)):
        notes.append(f"boards {_ranges(extra)} of the file are not in this session and were left out")
    if missing := sorted(set(boards) - set(used)):
        notes.append(f"the file has no deal for boards {_ranges(missing)}")
    _store_deals(boards, used)
    return DealsStored(tuple(sorted(used)), tuple(notes))


@write
def deals_generate(
    *, session: Session, replace: bool = False, seed: int | str | None = None, section: Section | None = None
) -> DealsStored:
    """Random deals for every board of the session (``seed`` only for tests).

    Boards that already have deals are kept unless ``replace``: the hands may already
    be dealt into the wallets.
    """
    boards = _boards_by_number(session, section)
    dealt = sorted(number for number, board in boards.items() if board.deal)
    if dealt and not replace:
        raise ValidationError(
            f"boards {_ranges(dealt)} already have deals: choose to replace them to deal new ones"
        )
    numbers = sorted(boards)
    _store_deals(boards, dict(zip(numbers, random_deals(len(numbers), seed=seed), strict=True)))
    return DealsStored(tuple(numbers))


def _boards_by_number(session: Session, section: Section | None) -> dict[int, Board]:
    """The boards the deals go onto: the shared ones, or ``section``'s own deals (a section
    on different boards has its own hand records)."""
    if section is not None and section.session_id != session.pk:
        raise ValidationError(f"section {section.letter} is not a section of this session: nothing was changed")
    # Locked (on databases that lock rows): two directors loading deals at once take turns.
    unit().lock(sessions=[session])
    boards = {board.number: board for board in unit().lock_rows(Board.objects.filter(session=session, section=section))}
    if not boards and section is not None:
        raise ValidationError(f"section {section.letter} plays the shared boards: load their deals without a section")
    if not boards:
        raise ValidationError("every section plays deals of its own: choose the section these deals are for")
    return boards


def _store_deals(boards: Mapping[int, Board], deals: Mapping[int, Deal]) -> None:
    changed = [boards[number] for number in sorted(deals)]
    for board in changed:
        board.deal = deals[board.number].to_pbn()
    Board.objects.bulk_update(changed, ["deal"])
    unit().touch(sessions={board.session_id for board in changed}, places=False)  # deals move no place
    analysis_request(boards=changed)


_deferred: ContextVar[bool] = ContextVar("analysis_deferred", default=False)


@contextmanager
def analysis_deferred() -> Iterator[None]:
    """Within the block, deals stored stay pending and no analysis starts: for a command
    whose caller runs ``analyse_boards`` itself (bin/demo runs it beside the server), so
    the command neither waits for the solver nor leaves a thread in it as it exits."""
    token = _deferred.set(True)
    try:
        yield
    finally:
        _deferred.reset(token)


@write
def analysis_request(*, boards: Iterable[Board]) -> None:
    """Ask for the analysis of boards whose deal was just stored: called by whoever stores deals.

    The boards become pending now (in the caller's transaction), and ``analysis_start``
    runs after the commit (at once outside a transaction). Boards without a deal are
    left alone; when none has one, nothing is asked.
    """
    dealt = [board for board in boards if board.deal]
    if dealt:
        mark_pending(dealt)
        if not _deferred.get():  # asked now: the commit may come after the deferring block
            transaction.on_commit(analysis_start)


@write(savepoint=False)
def mark_pending(boards: Iterable[Board], *, redo: bool = False) -> None:
    """Make each board's analysis row pending for its current deal (one or two queries).

    A board whose row is already done for the very same deal keeps it (loading the
    same file twice analyses nothing), unless ``redo``.
    """
    boards = [board for board in boards if board.deal]
    current = {
        row.board_id: row
        for row in BoardAnalysis.objects.filter(board__in=boards, status=AnalysisStatus.DONE)
    } if not redo else {}
    rows = [
        BoardAnalysis(board=board, status=AnalysisStatus.PENDING, deal=board.deal, dealer=board.dealer,
                      vulnerability=board.vulnerability, data=None, error="", analysed_at=None)
        for board in boards
        if not (board.pk in current and current[board.pk].is_for(board))
    ]
    BoardAnalysis.objects.bulk_create(
        rows, update_conflicts=True, unique_fields=["board"],
        update_fields=["status", *_INPUTS, "data", "error", "analysed_at"],
    )
    # The boards' deals or analysis state changed: their sessions' pages show both.
    unit().touch(sessions={board.session_id for board in boards}, places=False)


# --- which boards need analysing ------------------------------------------------------------


def boards_needing_analysis(*, session: Session | None = None, redo: bool = False) -> QuerySet[Board]:
    """Boards with a deal and no current analysis: none yet, pending, or made from other inputs.

    With ``redo``, every board with a deal (failed and done ones too).
    """
    boards = Board.objects.exclude(deal="")
    if session is not None:
        boards = boards.filter(session=session)
    if not redo:
        boards = boards.filter(
            Q(analysis__isnull=True)
            | Q(analysis__status=AnalysisStatus.PENDING)
            | ~Q(analysis__deal=F("deal"))
            | ~Q(analysis__dealer=F("dealer"))
            | ~Q(analysis__vulnerability=F("vulnerability"))
        )
    return boards.order_by("session_id", "number")


# --- analysing ------------------------------------------------------------------------------


def analysis_run(*, session: Session | None = None, redo: bool = False) -> AnalysisReport:
    """Analyse every board that needs it (of ``session``, else of every session)."""
    report = AnalysisReport()
    by_session: dict[int, list[Board]] = {}
    for board in boards_needing_analysis(session=session, redo=redo):
        by_session.setdefault(board.session_id, []).append(board)
    for boards in by_session.values():
        with unit_of_work():
            mark_pending(boards, redo=True)  # every board now has a row for its current deal
        _analyse_boards(boards, report)
    return report


def _analyse_boards(boards: list[Board], report: AnalysisReport) -> None:
    """Analyse one session's boards and write each result (the DDS work holds no transaction)."""
    deals: dict[int, Deal] = {}
    for board in boards:
        try:
            deals[board.pk] = parse_deal(board.deal)
        except ScoringError as error:
            _save_failure(board, f"the deal is not a valid deal: {error}", report)
    ready = [board for board in boards if board.pk in deals]
    for board, outcome in _analyses(ready, deals):
        if isinstance(outcome, Analysis):
            _save_analysis(board, outcome, report)
        else:
            _save_failure(board, outcome, report)


def _analyses(boards: list[Board], deals: Mapping[int, Deal]) -> Iterable[tuple[Board, Analysis | str]]:
    """Each board's Analysis, or the reason it failed.

    Boards whose dealer and vulnerability follow their number go through DDS's batch
    solver together; any other board (a file that says otherwise) is analysed alone.
    """
    standard = [board for board in boards if _follows_number(board)]
    try:
        batch = analyse_many({board.number: deals[board.pk] for board in standard})
    except Exception:  # the batch failed as a whole: find the culprit board by board
        logger.exception("batch double-dummy analysis failed; analysing the boards one by one")
        batch = {}
    for board in boards:
        if board.number in batch and board in standard:
            yield board, batch[board.number]
            continue
        try:
            yield board, analyse(deals[board.pk], board.dealer, board.vulnerability)
        except Exception as error:  # a solver error is stored for the director, not raised
            logger.exception("double-dummy analysis of %s failed", board)
            yield board, f"the solver failed: {error}"


def _follows_number(board: Board) -> bool:
    return (board.dealer, board.vulnerability) == (
        engine_boards.dealer(board.number).value, engine_boards.vulnerability(board.number).value,
    )


def _this_deal(board: Board) -> QuerySet[BoardAnalysis]:
    """The board's row, only while it is still for the deal that was analysed."""
    return BoardAnalysis.objects.filter(board=board, **{name: getattr(board, name) for name in _INPUTS})


@write
def _save_analysis(board: Board, analysis: Analysis, report: AnalysisReport) -> None:
    if _this_deal(board).update(status=AnalysisStatus.DONE, data=analysis.to_dict(), error="",
                                analysed_at=timezone.now()):
        unit().touch(sessions=[board.session_id], places=False)
        report.done.append(board)


@write
def _save_failure(board: Board, reason: str, report: AnalysisReport) -> None:
    if _this_deal(board).update(status=AnalysisStatus.FAILED, data=None, error=reason, analysed_at=timezone.now()):
        unit().touch(sessions=[board.session_id], places=False)
        report.failed.append((board, reason))


# --- in the background ------------------------------------------------------------------------

def analysis_start() -> threading.Thread | None:
    """Analyse the pending boards: queued, in the background thread or now (see services.background)."""
    return WORKER.start(
        background=getattr(settings, "ANALYSIS_BACKGROUND", True), pending=lambda: boards_needing_analysis().exists()
    )


WORKER = BackgroundWorker(
    name="board-analysis", path=f"{__name__}.WORKER", run=analysis_run,
    exclusive=True,  # a pass analyses every pending board: two at once would solve each deal twice
    summary=lambda report: f"analysed {len(report.done)} boards, {len(report.failed)} failed",
    stopped="background analysis of the pending boards stopped",
)


# --- small helpers ------------------------------------------------------------------------------


def _ranges(numbers: Iterable[int]) -> str:
    """[1, 2, 3, 5, 7, 8] -> "1-3, 5, 7-8"."""
    ordered = sorted(numbers)
    spans: list[list[int]] = []
    for number in ordered:
        if spans and number == spans[-1][1] + 1:
            spans[-1][1] = number
        else:
            spans.append([number, number])
    return ", ".join(str(low) if low == high else f"{low}-{high}" for low, high in spans)
