"""Our figures against a file's: compared as precisely as the file printed them."""

from decimal import Decimal
from fractions import Fraction

import pytest

from sessions.transfer.compare import figure_agrees


@pytest.mark.parametrize(
    ("ours", "published", "agrees"),
    [
        (Fraction(5225, 100), "52.25", True),
        (Fraction(5226, 100), "52.25", False),
        (Fraction(21, 4), "5.3", True),  # 5.25 shown to one decimal, halves away from zero
        (Fraction(21, 4), "5.2", True),  # exactly on a half: the other neighbour too (floats, half-even)
        (Fraction(527, 100), "5.2", False),
        (Fraction(1369, 20), "68.42", False),  # 68.45 is no half of a hundredth
        (Fraction(68425, 1000), "68.42", True),  # Compscore3's float rounding of 68.425
        (Fraction(62019, 1000), "62.01923", True),  # more decimals printed: compared to two
        (Fraction(6203, 100), "62.01923", False),
    ],
)
def test_a_figure_agrees_to_the_precision_the_file_printed(ours, published, agrees):
    assert figure_agrees(ours, Decimal(published)) is agrees


def test_a_missing_figure_agrees_only_with_a_missing_one():
    assert figure_agrees(None, None)
    assert not figure_agrees(Fraction(1), None)
    assert not figure_agrees(None, Decimal("1"))
