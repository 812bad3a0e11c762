"""Template filters of the teams pages."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from django import template

from sessions.scoring.ranking import format_points

register = template.Library()


@register.filter
def figure(value: Fraction | Decimal | int | None) -> str:
    """IMPs or VPs as a scorecard shows them: whole numbers plain ("10"), others to 2 decimals."""
    if value is None:
        return ""
    exact = Fraction(value)
    return str(exact.numerator) if exact.denominator == 1 else format_points(exact)
