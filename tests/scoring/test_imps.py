"""IMP tables from seeds/000 (and the tutorial's scale in seeds/004), every band edge."""

from fractions import Fraction

import pytest

from sessions.scoring import IMP_TABLES, imps
from sessions.scoring.errors import ScoringError
from sessions.scoring.imps import max_imps

# (from, to, IMPs) exactly as printed in the seed; None = "or more".
WBF_1962 = [
    (0, 10, 0), (20, 40, 1), (50, 80, 2), (90, 120, 3), (130, 160, 4), (170, 210, 5),
    (220, 260, 6), (270, 310, 7), (320, 360, 8), (370, 420, 9), (430, 490, 10),
    (500, 590, 11), (600, 740, 12), (750, 890, 13), (900, 1090, 14), (1100, 1290, 15),
    (1300, 1490, 16), (1500, 1740, 17), (1750, 1990, 18), (2000, 2240, 19),
    (2250, 2490, 20), (2500, 2990, 21), (3000, 3490, 22), (3500, 3990, 23), (4000, None, 24),
]
IMP_1961 = [
    (0, 10, 0), (20, 40, 1), (50, 80, 2), (90, 120, 3), (130, 160, 4), (170, 210, 5),
    (220, 260, 6), (270, 310, 7), (320, 360, 8), (370, 420, 9), (430, 490, 10),
    (500, 590, 11), (600, 690, 12), (700, 790, 13), (800, 890, 14), (900, 1040, 15),
    (1050, 1190, 16), (1200, 1340, 17), (1350, 1490, 18), (1500, 1740, 19),
    (1750, 1990, 20), (2000, 2240, 21), (2250, 2490, 22), (2500, 2990, 23),
    (3000, 3490, 24), (3500, None, 25),
]
# The seed prints 20-40 = 1 then 70-130 = 2: 50 and 60 are tested separately below.
IMP_1948 = [
    (0, 10, 0), (20, 40, 1), (70, 130, 2), (140, 210, 3), (220, 340, 4), (350, 490, 5),
    (500, 740, 6), (750, 990, 7), (1000, 1240, 8), (1250, 1490, 9), (1500, 1990, 10),
    (2000, 2490, 11), (2500, 2990, 12), (3000, 3490, 13), (3500, 3990, 14), (4000, None, 15),
]
EMP_1938 = [
    (0, 0, 0), (10, 30, 1), (40, 60, 2), (70, 100, 3), (110, 180, 4), (190, 290, 5),
    (300, 390, 6), (400, 490, 7), (500, 590, 8), (600, 740, 9), (750, 1490, 10),
    (1500, 1990, 11), (2000, None, 12),
]
SEED_TABLES = {"wbf": WBF_1962, "1961": IMP_1961, "1948": IMP_1948, "emp1938": EMP_1938}

BAND_CASES = [
    pytest.param(table, low, high, value, id=f"{table}-{low}")
    for table, rows in SEED_TABLES.items()
    for low, high, value in rows
]


@pytest.mark.parametrize(("table", "low", "high", "value"), BAND_CASES)
def test_both_ends_of_every_band_score_the_band(table, low, high, value):
    top = high if high is not None else low + 10_000
    assert imps(low, table) == value
    assert imps(top, table) == value


@pytest.mark.parametrize(("table", "low", "high", "value"), BAND_CASES)
def test_negative_differences_score_negative_imps(table, low, high, value):
    top = high if high is not None else low + 10_000
    assert imps(-low, table) == -value
    assert imps(-top, table) == -value


@pytest.mark.parametrize(("table", "low", "high", "value"), [case for case in BAND_CASES if case.values[3] > 0])
def test_ten_below_a_band_scores_one_imp_less(table, low, high, value):
    assert imps(low - 10, table) == value - 1
    assert imps(-(low - 10), table) == -(value - 1)


@pytest.mark.parametrize("table", list(SEED_TABLES))
def test_exposed_band_edges_are_the_seed_lower_edges(table):
    assert IMP_TABLES[table] == tuple(low for low, _, _ in SEED_TABLES[table])
    assert max_imps(table) == SEED_TABLES[table][-1][2]


def test_wbf_is_the_default_table():
    assert imps(4000) == 24
    assert imps(3990) == 23


def test_tutorial_appendix_a_scale_is_the_wbf_table():
    # seeds/004 Appendix A lists the same bands from 20-40 = 1 up to 4000+ = 24.
    appendix_a = [(20, 1), (50, 2), (90, 3), (130, 4), (170, 5), (220, 6), (270, 7),
                  (320, 8), (370, 9), (430, 10), (500, 11), (600, 12), (750, 13),
                  (900, 14), (1100, 15), (1300, 16), (1500, 17), (1750, 18),
                  (2000, 19), (2250, 20), (2500, 21), (3000, 22), (3500, 23), (4000, 24)]
    assert [(low, imps(low)) for low, _ in appendix_a] == appendix_a


@pytest.mark.parametrize(("difference", "expected"), [(720, 12), (920, 14), (-30, -1), (450, 10), (-270, -7)])
def test_seed_worked_differences(difference, expected):
    assert imps(difference) == expected


@pytest.mark.parametrize("difference", [50, 60])
def test_1948_gap_between_40_and_70_scores_one_imp(difference):
    assert imps(difference, "1948") == 1


def test_a_difference_between_two_steps_scores_the_band_it_has_reached():
    assert imps(15) == 0
    assert imps(Fraction(45, 2)) == 1
    assert imps(-15) == 0


def test_unknown_table_is_refused():
    with pytest.raises(ScoringError, match="unknown IMP table 'acbl'"):
        imps(100, "acbl")


@pytest.mark.parametrize("bad", [1.5, "100", None, True])
def test_non_exact_difference_is_refused(bad):
    with pytest.raises(ScoringError, match="IMP difference"):
        imps(bad)


def test_tutorial_grand_slam_swings():
    """seeds/004: 2210 against 1460 gains 13 IMPs; -100 against +1430, "You will lose 17
    IMPs by being -1530"."""
    from sessions.scoring import deal_score

    grand, small = deal_score("7S", 13, True), deal_score("6S", 13, True)
    assert (grand, small) == (2210, 1460)
    assert imps(grand - small) == 13
    down, theirs = deal_score("7S", 12, True), deal_score("6S", 12, True)
    assert (down, theirs) == (-100, 1430)
    assert down - theirs == -1530
    assert imps(down - theirs) == -17
