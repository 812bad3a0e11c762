"""Places with ties, and rounding for display only (RULES 8).

Scores are compared exactly (fractions); equal scores share a place written "3="
on every tied line, and the next place skips accordingly (1, 2=, 2=, 4). Ties are
never broken silently. Rounding happens only here, when a figure is shown.
"""

from __future__ import annotations

from collections.abc import Sequence

from sessions.scoring.rounding import Exact, round_to_places


def place_numbers(values: Sequence[Exact]) -> tuple[int, ...]:
    """Each value's place, highest first: 1 + the number of values strictly higher."""
    return places(values)[0]


def place_labels(values: Sequence[Exact]) -> tuple[str, ...]:
    """Each value's place as shown: "1", "3=" for every value sharing third place."""
    return places(values)[1]


def places(values: Sequence[Exact]) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """place_numbers and place_labels in one sort: a field of 3,000 pairs is sorted once.

    Sorted by each value's float, which keeps the order (a < b gives float(a) <= float(b))
    at a fraction of a Fraction comparison's cost; values whose floats are equal (ties, or
    figures closer than a float tells) are then ordered and compared exactly."""
    approx = [float(value) for value in values]
    order = sorted(range(len(values)), key=approx.__getitem__, reverse=True)
    _order_equal_floats_exactly(order, approx, values)
    numbers = [0] * len(values)
    tied = [False] * len(values)
    first = 0
    for position, index in enumerate(order):
        before = order[position - 1]
        if position and approx[index] == approx[before] and values[index] == values[before]:
            tied[index] = tied[before] = True
        else:
            first = position
        numbers[index] = first + 1
    labels = tuple(f"{number}=" if tie else str(number) for number, tie in zip(numbers, tied))
    return tuple(numbers), labels


def _order_equal_floats_exactly(order: list[int], approx: Sequence[float], values: Sequence[Exact]) -> None:
    """Within each run of equal floats, highest exact value first (stable: ties keep their order)."""
    start = 0
    for end in range(1, len(order) + 1):
        if end == len(order) or approx[order[end]] != approx[order[start]]:
            if end - start > 1:
                order[start:end] = sorted(order[start:end], key=values.__getitem__, reverse=True)
            start = end


def format_points(value: Exact | None, places: int = 2) -> str:
    """A figure as shown on a results sheet: "9.25", "-7.75", "" for no figure."""
    if value is None:
        return ""
    return str(round_to_places(value, places))
