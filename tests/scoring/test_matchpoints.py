"""Matchpoints on one board, Neuberg and ratio factoring (RULES 4, 5; seeds 000 and 004)."""

from fractions import Fraction

import pytest

from sessions.scoring.errors import ScoringError
from sessions.scoring.matchpoints import (
    SCALES,
    matchpoint_board,
    matchpoints_two_one,
    neuberg,
    ratio_scaled,
    scale_named,
)
from sessions.scoring.scores import Weighted

# seeds/004 "Match Point Scoring": the five pairs of the IMP example, 1 per beaten and
# 1/2 per tie. The tutorial prints pair 5's score as 100; its IMP example (same deal)
# has -100, which is what its "Low score" row needs (seeds/README's known slip).
SEED_004_SCORES = [620, 170, 140, 140, -100]
SEED_004_MATCHPOINTS = ["4", "3", "1.5", "1.5", "0"]
SEED_004_PERCENTAGES = ["100", "75", "37.5", "37.5", "0"]


def test_seed_004_matchpoint_table_on_the_acbl_scale():
    assert matchpoint_board(SEED_004_SCORES, "acbl") == tuple(Fraction(m) for m in SEED_004_MATCHPOINTS)


def test_seed_004_percentages_are_the_same_on_both_scales():
    for scale in ("acbl", "two_one"):
        top = SCALES[scale].top(len(SEED_004_SCORES))
        percentages = [points / top * 100 for points in matchpoint_board(SEED_004_SCORES, scale)]
        assert percentages == [Fraction(p) for p in SEED_004_PERCENTAGES]


def test_seed_000_top_scores_two_n_minus_two_then_two_n_minus_four_down_to_zero():
    # "if the board is played n times, the top result achieves 2n-2 matchpoints, the
    # next 2n-4, down to zero."
    scores = [620, 420, 170, 140, 110, -50, -100]
    n = len(scores)
    assert matchpoint_board(scores) == tuple(Fraction(2 * n - 2 * rank) for rank in range(1, n + 1))


def test_seed_000_identical_results_receive_the_average():
    # 2 per beaten, 1 per tie: the two 140s would have had 4 and 2 if split; each gets 3.
    assert matchpoint_board([620, 140, 140, -100]) == (6, 3, 3, 0)


def test_a_lone_result_scores_zero_of_a_zero_top():
    assert matchpoint_board([420]) == (0,)
    assert SCALES["two_one"].top(1) == 0


@pytest.mark.parametrize(
    ("points", "actual", "expected", "scale", "factored"),
    [
        # RULES 5: (M + 1) x E / A - 1; top of 5 results as if 6: (8 + 1) x 6/5 - 1.
        (8, 5, 6, "two_one", Fraction(49, 5)),
        (2, 5, 6, "two_one", Fraction(13, 5)),  # NZ Scorer prints 2.6 for this line
        (0, 5, 6, "two_one", Fraction(1, 5)),
        # (M + 1/2) x E / A - 1/2 on the ACBL scale: exactly half the figures above.
        (4, 5, 6, "acbl", Fraction(49, 10)),
        (0, 5, 6, "acbl", Fraction(1, 10)),
        # A board played 4 times in a field of 6 (Compscore3 file mitchell_04).
        (6, 4, 6, "two_one", Fraction(19, 2)),
        # A lone result scores half the full top.
        (0, 1, 6, "two_one", Fraction(5)),
    ],
)
def test_neuberg_formula(points, actual, expected, scale, factored):
    assert neuberg(Fraction(points), actual, expected, scale) == factored


def test_neuberg_keeps_the_two_sides_summing_to_the_full_top():
    ns, ew = Fraction(5), Fraction(3)  # a 5-result board: top 8
    full_top = SCALES["two_one"].top(7)
    assert neuberg(ns, 5, 7) + neuberg(ew, 5, 7) == full_top


def test_neuberg_with_nothing_missing_changes_nothing():
    assert neuberg(Fraction(7, 2), 6, 6) == Fraction(7, 2)


def test_matchpoint_board_factors_to_the_expected_results():
    assert matchpoint_board([620, 170, 140, 140, -100], expected=6) == (
        Fraction(49, 5), Fraction(37, 5), Fraction(19, 5), Fraction(19, 5), Fraction(1, 5)
    )


@pytest.mark.parametrize(
    ("points", "ratio"),
    # NZ Scorer's phantom Howell, boards 1-3: 5 results (top 8) scaled to a top of 10
    # and rounded: 8 -> 10, 6 -> 7.5 -> 8, 5 -> 6.25 -> 6, 3 -> 3.75 -> 4, 1 -> 1.25 -> 1.
    [(8, 10), (6, 8), (5, 6), (3, 4), (1, 1), (0, 0)],
)
def test_ratio_scaling_rounds_to_a_whole_matchpoint(points, ratio):
    assert ratio_scaled(Fraction(points), 5, 6) == ratio


def test_ratio_scaling_of_a_lone_result_is_half_the_full_top():
    assert ratio_scaled(Fraction(0), 1, 6) == 5


def test_weighted_score_earns_the_weighted_sum_of_its_parts():
    # 2/3 of 620 and 1/3 of -100 against 650, 420, -100:
    # 620 beats 420 and -100 (4); -100 ties -100 (1): 2/3 x 4 + 1/3 x 1 = 3.
    weighted = Weighted(((Fraction(2, 3), 620), (Fraction(1, 3), -100)))
    points = matchpoints_two_one([weighted, 650, 420, -100])
    # The others earn against its parts likewise: 420 beats -100 a third of the time.
    assert points == (3, 6, Fraction(8, 3), Fraction(1, 3))
    assert sum(points) == 4 * 3  # still n(n-1)


def test_a_weighted_score_of_one_part_is_that_score():
    assert matchpoints_two_one([Weighted(((Fraction(1), 420),)), 450, 400]) == matchpoints_two_one(
        [420, 450, 400]
    )


def test_unknown_scale_is_refused():
    with pytest.raises(ScoringError, match="unknown matchpoint scale 'percent'"):
        scale_named("percent")


def test_factoring_down_to_fewer_results_is_refused():
    with pytest.raises(ScoringError, match="cannot be factored down"):
        neuberg(Fraction(2), 6, 5)


def test_a_score_that_is_not_a_number_is_refused():
    with pytest.raises(ScoringError, match="cannot be compared"):
        matchpoints_two_one([420, "450"])
