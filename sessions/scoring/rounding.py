"""Rounding halves away from zero, exactly: the one rounding rule the engine uses.

Python's round() rounds halves to even and floats are inexact; published bridge
figures (Butler datums, ratio-scaled matchpoints, two-decimal totals) round halves
away from zero, so the engine rounds fractions with integer arithmetic instead.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from fractions import Fraction
from typing import Union

#: Quotients already built, by denominator then numerator: an average of IMPs over
#: n - 1 comparisons recurs board after board, and building a Fraction costs more
#: than scoring the result. Bounded, since numerators come from the caller's data.
_QUOTIENTS: dict[int, dict[int, int | Fraction]] = {}
_QUOTIENTS_KEPT = 4096

#: An exact number: what the engine computes with (Fraction, int) and stores (Decimal).
#: (numbers.Rational would not do: type checkers see neither int nor Decimal as one.)
Exact = Union[int, Fraction, Decimal]


def round_half_away(value: Exact) -> int:
    """The nearest whole number, halves away from zero (2.5 -> 3, -2.5 -> -3)."""
    exact = Fraction(value)
    return nearest_quotient(exact.numerator, exact.denominator)


def nearest_quotient(numerator: int, denominator: int) -> int:
    """numerator / denominator (denominator > 0) to the nearest whole number, halves away
    from zero, in integers: no Fraction is built (the engine's hot paths divide so)."""
    magnitude = (abs(numerator) * 2 + denominator) // (2 * denominator)
    return magnitude if numerator >= 0 else -magnitude


def round_to_places(value: Exact, places: int = 2) -> Decimal:
    """``value`` as a Decimal with ``places`` decimals, halves away from zero."""
    return Decimal(round_half_away(Fraction(value) * 10**places)).scaleb(-places)


def exact_quotients(numerators: Iterable[int], denominator: int) -> list[int | Fraction]:
    """Each numerator / denominator (> 0) exactly: an int when whole, else a Fraction."""
    if denominator == 1:
        return list(numerators)
    known = _QUOTIENTS.get(denominator)
    if known is None:
        if len(_QUOTIENTS) >= _QUOTIENTS_KEPT:
            _QUOTIENTS.clear()
        known = _QUOTIENTS[denominator] = {}
    quotients = []
    for numerator in numerators:
        quotient = known.get(numerator)
        if quotient is None:
            whole, remainder = divmod(numerator, denominator)
            quotient = whole if remainder == 0 else Fraction(numerator, denominator)
            if len(known) < _QUOTIENTS_KEPT:
                known[numerator] = quotient
        quotients.append(quotient)
    return quotients
