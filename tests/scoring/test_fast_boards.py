"""The fast board scoring gives the figures of the slow reference, on every path.

reference_boards.py is the engine as it was (Fractions on every comparison). The
engine now has three paths for plain scores (pure Python for small boards, numpy for
large boards, numpy for many boards at once) and the Fraction path for weighted
scores: each must give the reference's figures, as ints when whole.
"""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sessions.scoring import vectorized
from sessions.scoring.butler import butler_board, butler_boards, plain_butler_board
from sessions.scoring.crossimps import cross_imps_board, cross_imps_boards, plain_cross_imps_sums
from sessions.scoring.errors import ScoringError
from sessions.scoring.imps import IMP_TABLES
from sessions.scoring.matchpoints import matchpoint_board, matchpoint_boards, plain_matchpoints_two_one
from sessions.scoring.options import ButlerDatum
from sessions.scoring.scores import Weighted

from tests.scoring import reference_boards as reference

SOME = settings(max_examples=150, deadline=None)
# Scores as deals give them (tens) and any whole number (the engine takes any int).
ns_scores = st.one_of(
    st.integers(min_value=-300, max_value=300).map(lambda tens: tens * 10),
    st.integers(min_value=-9_000, max_value=9_000),
)
boards = st.lists(ns_scores, min_size=1, max_size=40)
# Up to 300 results: past vectorized.LARGE_BOARD, and past its pairwise limit.
long_boards = st.lists(st.integers(min_value=-60, max_value=60).map(lambda tens: tens * 10), min_size=1, max_size=300)
tables = st.sampled_from(sorted(IMP_TABLES))
rules = st.sampled_from(list(ButlerDatum))


@st.composite
def weighted_scores(draw):
    parts = draw(st.lists(st.tuples(st.integers(1, 5), ns_scores), min_size=1, max_size=3))
    total = sum(weight for weight, _ in parts)
    return Weighted(tuple((Fraction(weight, total), score) for weight, score in parts))


mixed_boards = st.lists(st.one_of(ns_scores, weighted_scores()), min_size=1, max_size=15)


def whole_as_int(figures):
    """Every figure exact, and an int exactly when it is whole."""
    return all(type(figure) is int or (type(figure) is Fraction and figure.denominator != 1) for figure in figures)


@SOME
@given(st.one_of(boards, mixed_boards, long_boards), st.sampled_from(["two_one", "acbl"]))
def test_matchpoints_equal_the_reference(scores, scale):
    figures = matchpoint_board(scores, scale)
    assert figures == reference.matchpoint_board(scores, scale)
    assert whole_as_int(figures)


@SOME
@given(st.one_of(boards, mixed_boards), st.sampled_from(["two_one", "acbl"]), st.integers(0, 5))
def test_neuberg_factored_matchpoints_equal_the_reference(scores, scale, missing):
    expected = len(scores) + missing
    figures = matchpoint_board(scores, scale, expected)
    assert figures == reference.matchpoint_board(scores, scale, expected)
    assert whole_as_int(figures)


@SOME
@given(st.one_of(boards, mixed_boards, long_boards), st.booleans(), tables)
def test_cross_imps_equal_the_reference(scores, average, table):
    figures = cross_imps_board(scores, average, table)
    assert figures == reference.cross_imps_board(scores, average, table)
    assert whole_as_int(figures)


@SOME
@given(st.one_of(boards, mixed_boards, long_boards), rules, tables)
def test_butler_equals_the_reference(scores, rule, table):
    if not any(isinstance(score, int) for score in scores):
        scores = [*scores, 0]  # a datum needs a plain score
    datum, figures = butler_board(scores, rule, table)
    assert (datum, figures) == reference.butler_board(scores, rule, table)
    assert whole_as_int(figures)


# --- numpy against pure Python, directly ---------------------------------------------


@SOME
@given(long_boards)
def test_numpy_matchpoints_equal_the_pure_python_ones(scores):
    board = vectorized.board_array(scores)
    assert vectorized.rows(vectorized.matchpoints_two_one(board)) == [plain_matchpoints_two_one(scores)]


@SOME
@given(long_boards, tables)
def test_numpy_cross_imp_sums_equal_the_pure_python_ones(scores, table):
    board = vectorized.board_array(scores)
    assert vectorized.cross_imps_sums(board, table).tolist() == [plain_cross_imps_sums(scores, table)]


@SOME
@given(long_boards.filter(lambda scores: len(scores) > 3), tables)
def test_numpy_butler_equals_the_pure_python_one(scores, table):
    datums, earned = vectorized.butler(vectorized.board_array(scores), reference.trim_count(len(scores)), table)
    assert (datums[0], vectorized.rows(earned)[0]) == plain_butler_board(scores, ButlerDatum.TRIMMED_MEAN, table)


# --- many boards at once --------------------------------------------------------------

# Many boards of few sizes (so that numpy stacks them), some weighted ones among them.
board_sets = st.integers(1, 14).flatmap(
    lambda size: st.lists(
        st.one_of(st.lists(ns_scores, min_size=size, max_size=size), mixed_boards), min_size=0, max_size=30
    )
)


@SOME
@given(board_sets, st.sampled_from(["two_one", "acbl"]))
def test_many_boards_at_once_score_as_one_at_a_time(boards_, scale):
    assert matchpoint_boards(boards_, scale) == [reference.matchpoint_board(board, scale) for board in boards_]


@SOME
@given(board_sets, st.booleans(), tables)
def test_many_boards_of_cross_imps_score_as_one_at_a_time(boards_, average, table):
    assert cross_imps_boards(boards_, average, table) == [
        reference.cross_imps_board(board, average, table) for board in boards_
    ]


@SOME
@given(board_sets, rules, tables)
def test_many_butler_boards_score_as_one_at_a_time(boards_, rule, table):
    boards_ = [board if any(isinstance(score, int) for score in board) else [*board, 0] for board in boards_]
    scored = butler_boards(boards_, rule, table)
    assert scored == [reference.butler_board(board, rule, table) for board in boards_]
    assert all(whole_as_int(figures) for _, figures in scored)


@pytest.mark.parametrize("size", [10**6, 2**35, 2**45, 10**20])
def test_scores_too_large_for_small_integers_keep_exact_figures(size):
    # int32 differences, int64, and beyond int64: every path gives the same figures.
    boards_ = [[size, -size, size // 3, 0, 7, size] for _ in range(10)]
    assert matchpoint_boards(boards_) == [reference.matchpoint_board(board) for board in boards_]
    assert cross_imps_boards(boards_) == [reference.cross_imps_board(board) for board in boards_]
    assert butler_boards(boards_) == [reference.butler_board(board) for board in boards_]
    large = [size - 10 * index for index in range(300)]
    assert matchpoint_board(large) == reference.matchpoint_board(large)
    assert cross_imps_board(large, average=False) == reference.cross_imps_board(large, average=False)
    assert butler_board(large) == reference.butler_board(large)


@pytest.mark.parametrize("function", [matchpoint_boards, cross_imps_boards, butler_boards])
@pytest.mark.parametrize("odd", [True, 1.5, "420", None])
def test_many_boards_refuse_what_one_board_refuses(function, odd):
    boards_ = [[420, 450, -50, 100] for _ in range(10)] + [[420, odd, 100]]
    with pytest.raises(ScoringError):
        function(boards_)


def test_an_empty_list_of_boards_scores_nothing():
    assert matchpoint_boards([]) == cross_imps_boards([]) == butler_boards([]) == []


def test_boards_compared_pairwise_in_several_chunks_keep_their_order(monkeypatch):
    import random

    generator = random.Random(13)
    boards_ = [[generator.randrange(-60, 60) * 10 for _ in range(9)] for _ in range(50)]
    monkeypatch.setattr(vectorized, "_PAIRWISE_ELEMENTS", 3 * 81)  # three boards a chunk
    assert cross_imps_boards(boards_) == [reference.cross_imps_board(board) for board in boards_]
