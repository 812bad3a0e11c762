"""Butler datum and IMPs (RULES 6)."""

from fractions import Fraction

import pytest

from sessions.scoring.butler import butler_board, butler_boards, butler_datum, butler_imps, round_to_ten, trim_count
from sessions.scoring.imps import imps
from sessions.scoring.options import ButlerDatum
from sessions.scoring.errors import ScoringError
from sessions.scoring.scores import Weighted


@pytest.mark.parametrize(
    ("results", "k"),
    [(1, 0), (2, 0), (3, 0), (4, 1), (10, 1), (11, 2), (25, 2), (26, 3), (40, 3), (41, 4)],
)
def test_trim_count_is_one_up_to_ten_then_one_more_per_fifteen(results, k):
    assert trim_count(results) == k


@pytest.mark.parametrize(
    ("mean", "datum"),
    [
        (Fraction(-445), -450),  # RULES 6: halves away from zero, as Compscore3
        (Fraction(445), 450),
        (Fraction(-444), -440),
        (Fraction(1345, 2), 670),  # 672.5
        (Fraction(-5), -10),
        (Fraction(5), 10),
        (Fraction(4), 0),
    ],
)
def test_datum_rounds_to_the_nearest_ten_halves_away_from_zero(mean, datum):
    assert round_to_ten(mean) == datum


def test_datum_drops_the_highest_and_lowest_of_up_to_ten_results():
    # 1430 and -200 dropped; mean of 420, 450, 450, 170 = 372.5 -> 370.
    assert butler_datum([1430, 420, 450, 450, 170, -200]) == 370


def test_datum_of_three_results_or_fewer_is_the_plain_mean():
    assert butler_datum([620, 170, -100]) == 230  # 230 exactly
    assert butler_datum([620, -100]) == 260
    assert butler_datum([-450]) == -450


def test_median_option_for_small_fields():
    # Magic Contest: with 3 results the datum is the middle one.
    assert butler_datum([620, 170, -100], rule="median_small") == 170
    # Two results: the median is their mean.
    assert butler_datum([620, -100], rule="median_small") == 260
    # Four or more: the trimmed mean as usual.
    assert butler_datum([620, 170, 140, -100], rule="median_small") == butler_datum([620, 170, 140, -100])


def test_eleven_results_drop_two_from_each_end():
    scores = [2000, 1000, 650, 620, 620, 600, 450, 420, 100, -500, -1000]
    # kept: 650, 620, 620, 600, 450, 420, 100 -> 3460 / 7 = 494.3 -> 490
    assert butler_datum(scores) == 490


def test_each_result_scores_imps_against_the_datum():
    datum, board = butler_board([620, 170, 140, 140, -100])
    # drop 620 and -100: (170 + 140 + 140) / 3 = 150
    assert datum == 150
    assert board == (10, 1, 0, 0, -6)  # +470 is 10 IMPs, -250 is -6


def test_weighted_score_against_the_datum_of_the_plain_scores():
    weighted = Weighted(((Fraction(1, 2), 620), (Fraction(1, 2), -100)))
    datum, board = butler_board([weighted, 170, 140, 140, 170])
    assert datum == 160  # plain scores only: 170, 140, 140, 170 -> drop one of each -> 155 -> 160
    assert board[0] == Fraction(1, 2) * 10 + Fraction(1, 2) * -6  # +460 and -260
    assert butler_imps(weighted, datum) == board[0]


def test_unknown_datum_rule_is_refused():
    with pytest.raises(ScoringError, match="unknown Butler datum rule 'mode'"):
        butler_datum([100], rule="mode")


def test_a_board_without_a_plain_score_has_no_datum():
    with pytest.raises(ScoringError, match="at least one plain score"):
        butler_board([Weighted(((Fraction(1), 100),))])


def test_median_datum_for_any_field_size():
    """seeds/000: "Sometimes, the median score is used instead" (of the trimmed mean)."""
    scores = [620, 650, 170, 140, -100, -200, 1430]  # median 170; without -200 and 1430: 1480 / 5 -> 300
    assert butler_datum(scores, rule="median") == 170
    assert butler_datum(scores) == 300
    assert butler_datum([620, 170, 140, -100], rule="median") == 160  # (170 + 140) / 2 = 155 -> 160
    datum, earned = butler_board(scores, rule="median")
    assert datum == 170 and earned[0] == 10  # 620 - 170 = 450: 10 IMPs


def test_a_median_datum_holds_on_boards_large_enough_for_numpy():
    """Large boards (and many boards at once) go through numpy, which takes trimmed
    means: a median datum must not be lost on the way (300 results: median 0, trimmed mean 100)."""
    scores = [0] * 151 + [200] * 148 + [30_000]
    datum, figures = butler_board(scores, ButlerDatum.MEDIAN)
    assert datum == 0 and figures[0] == 0 and figures[151] == imps(200)
    assert butler_boards([scores, scores], ButlerDatum.MEDIAN) == [(datum, figures)] * 2
    assert butler_board(scores)[0] != 0  # the trimmed mean of the same board
