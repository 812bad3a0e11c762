"""What the pages read: a board's figures per line, a pair's results against par, in
fixed numbers of queries.

The hand-made case (the ``hand_made`` fixture of tests/analysis/conftest.py): on boards 1 and 3 NS hold ten top
tricks (par NS +430: 3NT+1, NS not vulnerable on either), on board 2 EW hold them
(par NS -430: EW not vulnerable). Pair 1NS's card:

board 1  3NT N +2  NS +460   par +430   +30 (beat par)   declared: 11 tricks, DD 10, +1
board 2  3NT E +1  NS -430   par -430     0 (at par)     EW declared
board 3  3NT S -1  NS  -50   par +430  -480 (below par)  declared:  8 tricks, DD 10, -2
declarer play: (+1 - 2) / 2 = -1/2 a board
"""

from fractions import Fraction

import pytest

from sessions.analysis.selectors.analysis import DONE, NO_DEAL, PENDING, board_analysis, pair_par_summary, session_analyses
from sessions.movements import mitchell
from sessions.pairs.services.results import result_record
from tests.analysis.conftest import TEN_TRICKS_EW, TEN_TRICKS_NS, board_of, give_deal, opponents, pair, solved
from tests.factories import make_session


def test_each_line_gets_its_dd_tricks_and_its_result_against_par(hand_made):
    board = board_of(hand_made, 1)
    view = board_analysis(board=board)
    assert view.state == DONE
    (result,) = board.results.all()
    line = view.line(result.pk)
    assert (line.dd_tricks, line.against_par) == (10, 460 - 430)
    assert view.par_text == "NS +430: 3NT+1 NS"
    assert view.ns_scores == (460,)
    assert view.hands["north"].hcp == 4 + 3 + 2 + 4 + 3  # AKQ2 . 543 . AK2 . 543


def test_a_line_declared_by_ew_looks_up_ews_tricks(hand_made):
    board = board_of(hand_made, 2)
    view = board_analysis(board=board)
    (result,) = board.results.all()
    assert view.line(result.pk).dd_tricks == 10
    assert view.line(result.pk).against_par == 0


def test_the_pairs_card_against_par(hand_made):
    summary = pair_par_summary(pair=pair(hand_made, "1NS"))
    assert [(b.board, b.score, b.par, b.against_par) for b in summary.boards] == [
        (1, 460, 430, 30), (2, -430, -430, 0), (3, -50, 430, -480)]
    assert [b.board for b in summary.beat_par] == [1]
    assert [b.board for b in summary.below_par] == [3]
    assert [b.board for b in summary.at_par] == [2]
    assert [(b.board, b.difference) for b in summary.declared] == [(1, 1), (3, -2)]
    assert summary.declarer_average == Fraction(-1, 2)


def test_an_ew_pair_sees_par_from_its_own_side(hand_made):
    _, ew = opponents(hand_made, "1NS", 2)
    summary = pair_par_summary(pair=pair(hand_made, ew))
    board_2 = next(b for b in summary.boards if b.board == 2)
    assert (board_2.score, board_2.par, board_2.against_par) == (430, 430, 0)
    assert [(b.board, b.difference) for b in summary.declared] == [(2, 0)]


def test_a_board_without_a_current_analysis_is_pending(hand_made):
    board = board_of(hand_made, 1)
    give_deal(board, TEN_TRICKS_EW)  # corrected after the analysis: the stored one is stale
    assert board_analysis(board=board).state == PENDING
    assert pair_par_summary(pair=pair(hand_made, "1NS")).pending == 1
    assert board_analysis(board=board_of(hand_made, 6)).state == NO_DEAL


def test_a_pair_that_declared_nothing_has_no_declarer_average(hand_made):
    _, ew = opponents(hand_made, "1NS", 3)  # defended board 3, its only analysed board
    summary = pair_par_summary(pair=pair(hand_made, ew))
    assert ([b.board for b in summary.boards], summary.declared) == ([3], [])
    assert summary.declarer_average is None


# --- queries: the same number for a small and a large session --------------------------


def sized(event, tables):
    """A Mitchell of ``tables`` tables, one board a round, every board dealt and analysed,
    every line of board 1 and of pair 1NS entered."""
    session = make_session(event, mitchell(tables, 1))
    section = session.sections.get()
    analysis = solved(TEN_TRICKS_NS, 1)
    for board in session.boards.all():
        give_deal(board, TEN_TRICKS_NS, analysis)  # one stored analysis serves: no solver here
    boards = {board.number: board for board in session.boards.all()}
    for seating in section.seatings.select_related("ns_pair", "ew_pair"):
        (number,) = seating.boards
        if number == 1 or seating.ns_pair.label == "1NS":
            result_record(board=boards[number], section=section, ns_pair=seating.ns_pair.label,
                          ew_pair=seating.ew_pair.label, text="3NT N =")
    return session


@pytest.fixture(params=[3, 15], ids=["3 tables", "15 tables"])
def sized_session(request, event):
    return sized(event, request.param)


def test_a_board_takes_two_queries(sized_session, django_assert_num_queries):
    board = board_of(sized_session, 1)
    # 1. the board's analysis row  2. the board's lines
    with django_assert_num_queries(2):
        view = board_analysis(board=board)
        assert len(view.lines) == sized_session.tables


def test_a_board_with_its_lines_given_takes_one_query(sized_session, django_assert_num_queries):
    board = board_of(sized_session, 1)
    results = list(board.results.all())
    with django_assert_num_queries(1):  # the analysis row
        assert len(board_analysis(board=board, results=results).lines) == sized_session.tables


def test_a_session_takes_one_query(sized_session, django_assert_num_queries):
    with django_assert_num_queries(1):  # the boards with their analysis rows
        views = session_analyses(session=sized_session)
        assert [view.state for view in views] == [DONE] * sized_session.board_count


def test_a_pairs_summary_takes_two_queries(sized_session, django_assert_num_queries):
    the_pair = pair(sized_session, "1NS")
    # 1. the pair's lines with their boards  2. the analyses of those boards
    with django_assert_num_queries(2):
        summary = pair_par_summary(pair=the_pair)
        assert len(summary.boards) == sized_session.rounds
