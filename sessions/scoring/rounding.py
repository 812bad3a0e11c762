"""Rounding halves away from zero, exactly: the one rounding rule the engine uses.

Python's round() rounds halves to even and floats are inexact; published bridge
figures (Butler datums, ratio-scaled matchpoints, two-decimal totals) round halves
away from zero, so the engine rounds fractions with integer arithmetic instead.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Union

#: An exact number: what the engine computes with (Fraction, int) and stores (Decimal).
#: (numbers.Rational would not do: type checkers see neither int nor Decimal as one.)
Exact = Union[int, Fraction, Decimal]


def round_half_away(value: Exact) -> int:
    """The nearest whole number, halves away from zero (2.5 -> 3, -2.5 -> -3)."""
    exact = Fraction(value)
    magnitude = (abs(exact.numerator) * 2 + exact.denominator) // (2 * exact.denominator)
    return magnitude if exact >= 0 else -magnitude


def round_to_places(value: Exact, places: int = 2) -> Decimal:
    """``value`` as a Decimal with ``places`` decimals, halves away from zero."""
    return Decimal(round_half_away(Fraction(value) * 10**places)).scaleb(-places)
