"""A pair's handicap from its players' figures, and the club rating (RULES 14)."""

from decimal import Decimal
from fractions import Fraction

import pytest

from sessions.scoring import ScoringError
from sessions.scoring.handicaps import PairFigure, pair_handicap, player_figures, stored_handicap

F = Fraction

#: RULES 14's worked example: two sessions, oldest first.
WINDOW = [
    [PairFigure(("A", "B"), F(60)), PairFigure(("C", "D"), F(40))],
    [PairFigure(("A", "C"), F(55)), PairFigure(("B", "E"), F(45))],
]


@pytest.mark.parametrize(("player", "average", "rating", "sessions"), [
    ("A", F("57.5"), F("53.75"), 2),
    ("B", F("52.5"), F("50.625"), 2),
    ("C", F("47.5"), F("49.375"), 2),
    ("D", F(40), F(45), 1),
    ("E", F(45), F("47.5"), 1),
])
def test_the_worked_example_gives_each_player_average_and_rating(player, average, rating, sessions):
    figure = player_figures(WINDOW)[player]
    assert (figure.average, figure.rating, figure.sessions) == (average, rating, sessions)


def test_the_worked_example_handicaps():
    figures = player_figures(WINDOW)
    a, d = figures["A"], figures["D"]
    assert stored_handicap(pair_handicap([a.average, d.average])) == Decimal("1.25")
    assert stored_handicap(pair_handicap([a.rating, d.rating])) == Decimal("0.63")
    assert stored_handicap(pair_handicap([a.average, None])) == Decimal("-3.75")


def test_a_player_in_no_session_of_the_window_has_no_figure():
    assert "F" not in player_figures(WINDOW)
    assert player_figures([]) == {}


def test_a_pair_of_newcomers_has_no_handicap():
    assert pair_handicap([None, None]) == 0


def test_a_lone_session_rates_each_player_by_the_strength_of_the_others():
    # Everyone's only session: the others' averages are their own percentages here.
    (figures,) = [player_figures([[PairFigure(("A", "B"), F(70)), PairFigure(("C",), F(30))]])]
    assert figures["A"].rating == 70 + 30 - 50
    assert figures["C"].rating == 30 + 70 - 50


@pytest.mark.parametrize(("figures", "handicap"), [
    ([F(90), F(90)], F(-25)),  # 50 - 90 = -40, cut to the limit
    ([F(10), F(0)], F(25)),
    ([F(56), F(56)], F(-6)),
    ([F(45), F(45)], F(5)),
])
def test_a_computed_handicap_is_cut_to_the_limit(figures, handicap):
    assert pair_handicap(figures) == handicap


@pytest.mark.parametrize(("exact", "kept"), [
    (F("-6.125"), Decimal("-6.13")), (F("6.125"), Decimal("6.13")), (F(1, 3), Decimal("0.33")), (F(0), Decimal("0.00")),
])
def test_the_kept_handicap_has_two_decimals_halves_away_from_zero(exact, kept):
    assert stored_handicap(exact) == kept


def test_a_pair_of_three_players_is_refused():
    with pytest.raises(ScoringError, match="two players"):
        pair_handicap([F(50)] * 3)


def test_a_percentage_below_0_after_a_penalty_counts_as_it_is():
    assert player_figures([[PairFigure(("A",), F(-3))]])["A"].average == -3
