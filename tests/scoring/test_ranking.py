"""Places with ties and display rounding (RULES 8)."""

from decimal import Decimal
from fractions import Fraction

import pytest

from sessions.scoring.ranking import format_points, place_labels, place_numbers
from sessions.scoring.rounding import round_half_away, round_to_places


def test_equal_scores_share_a_place_and_the_next_place_skips():
    values = [Fraction(60), Fraction(55), Fraction(52), Fraction(52), Fraction(50)]
    assert place_labels(values) == ("1", "2", "3=", "3=", "5")
    assert place_numbers(values) == (1, 2, 3, 3, 5)


def test_places_follow_the_input_order_not_the_sorted_order():
    assert place_labels([Fraction(1), Fraction(3), Fraction(2), Fraction(3)]) == ("4", "1=", "3", "1=")


def test_ties_are_exact_not_rounded():
    # 51.285714... and 51.29 print the same but are not equal: no tie.
    assert place_labels([Fraction(359, 7), Fraction(5129, 100)]) == ("2", "1")


def test_a_three_way_tie_for_first():
    assert place_labels([Fraction(5)] * 3 + [Fraction(1)]) == ("1=", "1=", "1=", "4")


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (Fraction(37, 4), "9.25"),
        (Fraction(-31, 4), "-7.75"),
        (Fraction(2737, 40), "68.43"),  # 68.425: halves away from zero
        (Fraction(-2737, 40), "-68.43"),
        (Fraction(1, 3), "0.33"),
        (Fraction(2, 3), "0.67"),
        (Fraction(60), "60.00"),
        (Fraction(0), "0.00"),
    ],
)
def test_format_points_rounds_halves_away_from_zero(value, shown):
    assert format_points(value) == shown


def test_format_points_to_other_precisions():
    assert format_points(Fraction(97, 7), places=1) == "13.9"
    assert format_points(Fraction(5, 2), places=0) == "3"
    assert format_points(Fraction(-5, 2), places=0) == "-3"


def test_no_figure_formats_as_blank():
    assert format_points(None) == ""


def test_round_to_places_is_a_decimal_with_exactly_that_many_places():
    assert round_to_places(Fraction(1, 8), 2) == Decimal("0.13")
    assert str(round_to_places(Fraction(7), 2)) == "7.00"


@pytest.mark.parametrize(("value", "rounded"), [(Fraction(5, 2), 3), (Fraction(-5, 2), -3), (Fraction(7, 3), 2)])
def test_round_half_away(value, rounded):
    assert round_half_away(value) == rounded


def test_places_in_one_sort_are_the_definition_on_a_large_field_with_ties():
    """1 + the number of values strictly higher; "=" when another value is equal."""
    import random
    from fractions import Fraction

    from sessions.scoring.ranking import places

    generator = random.Random(7)
    values = [Fraction(generator.randint(0, 400), generator.choice((1, 2, 3))) for _ in range(3000)]
    numbers, labels = places(values)

    assert numbers == tuple(1 + sum(other > value for other in values) for value in values)
    assert labels == tuple(
        f"{number}=" if values.count(value) > 1 else str(number) for number, value in zip(numbers, values)
    )
    assert places([]) == ((), ())


def test_figures_closer_than_a_float_tells_are_still_placed_exactly():
    """The sort goes by floats first: these three have the same float, and differ."""
    third = Fraction(1, 3)
    nudge = Fraction(1, 10**30)
    values = [third, third + nudge, third - nudge, third + nudge, Fraction(1, 2)]
    assert len({float(value) for value in values[:4]}) == 1
    assert place_numbers(values) == (4, 2, 5, 2, 1)
    assert place_labels(values) == ("4", "2=", "5", "2=", "1")
