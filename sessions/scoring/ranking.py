"""Places with ties, and rounding for display only (RULES 8).

Scores are compared exactly (fractions); equal scores share a place written "3="
on every tied line, and the next place skips accordingly (1, 2=, 2=, 4). Ties are
never broken silently. Rounding happens only here, when a figure is shown.
"""

from __future__ import annotations

from collections.abc import Sequence

from .rounding import Exact, round_to_places


def place_numbers(values: Sequence[Exact]) -> tuple[int, ...]:
    """Each value's place, highest first: 1 + the number of values strictly higher."""
    return places(values)[0]


def place_labels(values: Sequence[Exact]) -> tuple[str, ...]:
    """Each value's place as shown: "1", "3=" for every value sharing third place."""
    return places(values)[1]


def places(values: Sequence[Exact]) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """place_numbers and place_labels in one sort: a field of 3,000 pairs is sorted once,
    and its Fractions compared, never hashed (hashing a Fraction costs a modular inverse)."""
    order = sorted(range(len(values)), key=values.__getitem__, reverse=True)
    numbers = [0] * len(values)
    tied = [False] * len(values)
    first = 0
    for position, index in enumerate(order):
        if position and values[index] == values[order[position - 1]]:
            tied[index] = tied[order[position - 1]] = True
        else:
            first = position
        numbers[index] = first + 1
    labels = tuple(f"{number}=" if tie else str(number) for number, tie in zip(numbers, tied))
    return tuple(numbers), labels


def format_points(value: Exact | None, places: int = 2) -> str:
    """A figure as shown on a results sheet: "9.25", "-7.75", "" for no figure."""
    if value is None:
        return ""
    return str(round_to_places(value, places))
