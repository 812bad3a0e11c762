"""Hand-made deals whose double-dummy answer is known, hand-record files, and stored analyses.

The analysis runs inline in these tests (ANALYSIS_BACKGROUND = False): what the web
app does in a background thread after the commit happens during the commit here.
Only a few boards go through the solver; the rest store an analysis directly.
"""

from __future__ import annotations

import pytest
from django.utils import timezone

from sessions.handrecords import Analysis, analyse, parse_deal, write_hand_records
from sessions.models import AnalysisStatus, Board, BoardAnalysis, Pair, Session
from sessions.scoring.boards import dealer, vulnerability
from sessions.pairs.services.results import result_record

# NS hold exactly ten top tricks and no length winner; EW cannot take enough tricks for a
# sacrifice to cost less than 500 (tests/handrecords/test_analysis.py): par 3NT+1 by NS,
# NS +430 when NS are not vulnerable.
TEN_TRICKS_NS = "N:AKQ2.543.AK2.543 JT98.76.QJT.QJT9 543.AKQ2.543.AK2 76.JT98.9876.876"
# The same cards turned a quarter: East holds North's hand and West South's, so EW have
# the ten tricks: par 3NT+1 by EW, NS -430 when EW are not vulnerable.
TEN_TRICKS_EW = "E:AKQ2.543.AK2.543 JT98.76.QJT.QJT9 543.AKQ2.543.AK2 76.JT98.9876.876"
# North holds every top card: N or S takes 13 tricks in any strain.
NORTH_HOLDS_EVERYTHING = "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6.5432.5432.5432 5432.876.876.876"


@pytest.fixture(autouse=True)
def inline_analysis(settings):
    settings.ANALYSIS_BACKGROUND = False


def pbn_file(deals: dict[int, str]) -> bytes:
    """A hand-record PBN file of board number -> PBN deal string."""
    return write_hand_records({number: parse_deal(text) for number, text in deals.items()}, event="Test")


_ANALYSES: dict[tuple[str, int], Analysis] = {}


def solved(deal: str, number: int) -> Analysis:
    """The solver's analysis of ``deal`` as board ``number`` (each deal solved once per run)."""
    key = (deal, number)
    if key not in _ANALYSES:
        _ANALYSES[key] = analyse(parse_deal(deal), dealer(number), vulnerability(number))
    return _ANALYSES[key]


def give_deal(board: Board, deal: str, analysis: Analysis | None = None) -> Board:
    """Store ``deal`` on the board, and its analysis as done when given (no analysis asked for, no solver)."""
    board.deal = deal
    Board.objects.filter(pk=board.pk).update(deal=deal)
    if analysis is not None:
        BoardAnalysis.objects.update_or_create(board=board, defaults={
            "status": AnalysisStatus.DONE, "deal": deal, "dealer": board.dealer,
            "vulnerability": board.vulnerability, "data": analysis.to_dict(), "analysed_at": timezone.now(),
        })
    return board


def board_of(session: Session, number: int) -> Board:
    return session.boards.get(number=number)


def opponents(session: Session, pair_label: str, number: int) -> tuple[str, str]:
    """(NS label, EW label) of the table where ``pair_label`` plays board ``number``."""
    for seating in session.sections.get().seatings.select_related("ns_pair", "ew_pair"):
        labels = (seating.ns_pair.label, seating.ew_pair.label)
        if number in seating.boards and pair_label in labels:
            return labels
    raise AssertionError(f"{pair_label} does not play board {number}")


def pair(session: Session, label: str) -> Pair:
    return next(p for p in session.sections.get().pairs.all() if p.label == label)


#: Pair 1NS's first three boards: (deal, result); see tests/analysis/selectors/test_analysis.py.
CARD = {1: (TEN_TRICKS_NS, "3NT N +2"), 2: (TEN_TRICKS_EW, "3NT E +1"), 3: (TEN_TRICKS_NS, "3NT S -1")}


@pytest.fixture
def hand_made(session):
    """The default session with boards 1-3 dealt, analysed, and played by pair 1NS as CARD says."""
    section = session.sections.get()
    for number, (deal, text) in CARD.items():
        analysis = solved(deal, number)
        assert analysis.par_score == (430 if deal == TEN_TRICKS_NS else -430)  # the case's premise
        board = give_deal(board_of(session, number), deal, analysis)
        ns, ew = opponents(session, "1NS", number)
        result_record(board=board, section=section, ns_pair=ns, ew_pair=ew, text=text)
    return session
