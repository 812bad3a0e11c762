"""Cross-IMPs on one board, summed or averaged (RULES 6; seeds 000 and 004)."""

import random
from fractions import Fraction

import pytest

from sessions.scoring.crossimps import cross_imps_board
from sessions.scoring.imps import imps
from sessions.scoring.scores import Weighted

SEED_004_SCORES = [620, 170, 140, 140, -100]  # pair 5 at -100: see seeds/README


def naive_cross_imps(scores, average=True, table="wbf"):
    """The definition, comparison by comparison, to check the fast count against."""
    results = []
    for index, mine in enumerate(scores):
        total = sum(imps(mine - other, table) for other_index, other in enumerate(scores) if other_index != index)
        results.append(Fraction(total, len(scores) - 1) if average and len(scores) > 1 else Fraction(total))
    return tuple(results)


def test_seed_000_averaged_cross_imps_of_the_pair_making_four():
    # +620 against -100, -100, -300, +650: 12 + 12 + 14 - 1 = 37 IMPs over 4 = 9.25.
    board = cross_imps_board([620, -100, -100, -300, 650])
    assert board[0] == Fraction(37, 4)


def test_seed_000_summed_cross_imps_of_the_pair_making_four():
    assert cross_imps_board([620, -100, -100, -300, 650], average=False)[0] == 37


@pytest.mark.parametrize(
    ("average", "expected"),
    [
        # seeds/004 IMP scoring table: 42/4, -1/4, -5/4, -5/4, -31/4.
        (True, ["10.5", "-0.25", "-1.25", "-1.25", "-7.75"]),
        (False, ["42", "-1", "-5", "-5", "-31"]),
    ],
)
def test_seed_004_five_pair_imp_table(average, expected):
    assert cross_imps_board(SEED_004_SCORES, average=average) == tuple(Fraction(x) for x in expected)


def test_cross_imps_on_a_board_sum_to_zero():
    assert sum(cross_imps_board([620, -100, -100, -300, 650, 1430, 0])) == 0


def test_a_lone_result_scores_zero():
    assert cross_imps_board([420]) == (0,)
    assert cross_imps_board([420], average=False) == (0,)


def test_an_empty_board_scores_nothing():
    assert cross_imps_board([]) == ()


@pytest.mark.parametrize("table", ["wbf", "1961", "1948", "emp1938"])
@pytest.mark.parametrize("average", [True, False])
def test_fast_count_agrees_with_the_definition(table, average):
    generator = random.Random(7)
    for _ in range(20):
        scores = [generator.choice(range(-2000, 2010, 10)) for _ in range(generator.randint(2, 25))]
        assert cross_imps_board(scores, average, table) == naive_cross_imps(scores, average, table)


def test_weighted_score_earns_the_weighted_sum_of_its_parts():
    weighted = Weighted(((Fraction(1, 2), 620), (Fraction(1, 2), -100)))
    board = cross_imps_board([weighted, 170, 140], average=False)
    # 620: +10 (450) and +10 (480); -100: -7 (270) and -6 (240): half of each.
    assert board[0] == Fraction(1, 2) * 20 + Fraction(1, 2) * -13
    # 170 against it: -10 half the time, +7 the other half; and +1 against 140.
    assert board[1] == Fraction(1, 2) * -10 + Fraction(1, 2) * 7 + 1
    assert sum(board) == 0


def test_ten_thousand_results_cost_one_band_count_per_distinct_score(monkeypatch):
    # Not quadratic: no pairwise IMP look-up, one sorted band count per distinct score.
    # (Speed itself is measured in bench/engine.py, not asserted here.)
    from sessions.scoring import crossimps

    generator = random.Random(2024)
    scores = [generator.choice(range(-2000, 2010, 10)) for _ in range(10_000)]
    band_counts = []
    real_count = crossimps._band_total
    monkeypatch.setattr(crossimps, "_band_total", lambda *args: band_counts.append(1) or real_count(*args))
    monkeypatch.setattr(crossimps, "_pairwise", lambda *args: pytest.fail("pairwise IMP look-up"))
    sums = crossimps.plain_cross_imps_sums(scores)
    assert len(band_counts) == len(set(scores))
    assert sum(sums) == 0


def test_a_large_board_is_scored_by_bands_in_numpy_not_pairwise(monkeypatch):
    from sessions.scoring import crossimps, vectorized

    generator = random.Random(2024)
    scores = [generator.choice(range(-2000, 2010, 10)) for _ in range(10_000)]
    banded = []
    real_banded = vectorized._banded_sums
    monkeypatch.setattr(vectorized, "_banded_sums", lambda *args: banded.append(1) or real_banded(*args))
    monkeypatch.setattr(vectorized, "_chunks", lambda *args: pytest.fail("pairwise comparison"))
    monkeypatch.setattr(crossimps, "plain_cross_imps_sums", lambda *args: pytest.fail("pure-Python path"))
    board = cross_imps_board(scores, average=False)
    assert banded == [1]
    assert sum(board) == 0
    assert board[scores.index(max(scores))] > 0


def test_cross_imps_excluding_the_top_and_bottom_results():
    """seeds/000: every score compared against every other "(sometimes excluding top and
    bottom results)". The top (1430) and bottom (-200) are left out of the field: each
    result is compared with the three that remain (the others, for one of them)."""
    scores = [1430, 420, 450, 400, -200]
    field = [1, 2, 3]  # the indexes that stay
    trimmed = cross_imps_board(scores, average=False, exclude=1)
    assert trimmed == tuple(sum(imps(s - scores[o]) for o in field if o != i) for i, s in enumerate(scores))
    assert trimmed[0] == imps(1430 - 420) + imps(1430 - 450) + imps(1430 - 400) == 3 * 14
    assert trimmed[1] == imps(420 - 450) + imps(420 - 400)  # 420 against the other two of the field
    averaged = cross_imps_board(scores, average=True, exclude=1)
    assert averaged[1] == Fraction(trimmed[1], 2) and averaged[0] == Fraction(trimmed[0], 3)


def test_too_few_results_to_exclude_any_compare_them_all():
    scores = [420, 450, 400]
    assert cross_imps_board(scores, exclude=1) == cross_imps_board(scores)
