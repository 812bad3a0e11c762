"""Stratification (RULES 15): each pair in the lowest stratum it qualifies for, places
in its stratum and every one above."""

from fractions import Fraction

import pytest

from sessions.scoring import ScoringError
from sessions.scoring.strata import Stratum, pair_stratum, strata_from_limits, stratum_places

F = Fraction
#: RULES 15's example: A open, B below 1500 master points, C below 500.
STRATA = strata_from_limits([F(1500), F(500)])


def test_the_limits_make_an_open_a_and_falling_strata():
    assert STRATA == (Stratum("A", None), Stratum("B", F(1500)), Stratum("C", F(500)))


@pytest.mark.parametrize(("figures", "stratum"), [
    ([F(2000), F(100)], "A"),  # the higher player decides
    ([F(1500), F(0)], "A"),  # at the limit: not below it
    ([F("1499.99"), F(600)], "B"),
    ([F(499), F(12)], "C"),
    ([None, None], "C"),  # newcomers hold none
    ([F(800), None], "B"),
])
def test_each_pair_goes_in_the_lowest_stratum_its_higher_player_qualifies_for(figures, stratum):
    assert pair_stratum(figures, STRATA) == stratum


def test_a_lower_pair_is_ranked_in_its_stratum_and_every_one_above():
    ranked = [("1", F(62), "A"), ("2", F(58), "C"), ("3", F(55), "B"), ("4", F(55), "C"), ("5", F(40), "A")]
    assert stratum_places(ranked, STRATA) == {
        "1": (("A", "1"),),
        "2": (("A", "2"), ("B", "1"), ("C", "1")),
        "3": (("A", "3="), ("B", "2="),),
        "4": (("A", "3="), ("B", "2="), ("C", "2")),
        "5": (("A", "5"),),
    }


@pytest.mark.parametrize(("limits", "message"), [
    ([F(500), F(1500)], "below the one before"),
    ([F(500), F(500)], "below the one before"),
    ([F(0)], "above 0"),
    ([F(5), F(4), F(3), F(2), F(1)], "at most 4"),
])
def test_limits_that_do_not_fall_are_refused(limits, message):
    with pytest.raises(ScoringError, match=message):
        strata_from_limits(limits)


def test_a_stratum_not_of_the_event_is_refused():
    with pytest.raises(ScoringError, match="no stratum 'D'"):
        stratum_places([("1", F(50), "D")], STRATA)
