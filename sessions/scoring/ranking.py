"""Places with ties, and rounding for display only (RULES 8).

Scores are compared exactly (fractions); equal scores share a place written "3="
on every tied line, and the next place skips accordingly (1, 2=, 2=, 4). Ties are
never broken silently. Rounding happens only here, when a figure is shown.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .rounding import Exact, round_to_places


def place_numbers(values: Sequence[Exact]) -> tuple[int, ...]:
    """Each value's place, highest first: 1 + the number of values strictly higher."""
    ordered = sorted(values, reverse=True)
    first_place: dict[Exact, int] = {}
    for index, value in enumerate(ordered):
        first_place.setdefault(value, index + 1)
    return tuple(first_place[value] for value in values)


def place_labels(values: Sequence[Exact]) -> tuple[str, ...]:
    """Each value's place as shown: "1", "3=" for every value sharing third place."""
    counts = Counter(values)
    return tuple(
        f"{place}=" if counts[value] > 1 else str(place)
        for value, place in zip(values, place_numbers(values))
    )


def format_points(value: Exact | None, places: int = 2) -> str:
    """A figure as shown on a results sheet: "9.25", "-7.75", "" for no figure."""
    if value is None:
        return ""
    return str(round_to_places(value, places))
