"""Cross-IMPs on one board: every result against every other comparable result (RULES 6).

The naive way compares every pair of results: n^2 IMP look-ups. Here the scores are
sorted once and, for each IMP band, bisect counts how many results lie at least the
band's lower edge below (each gains the result one IMP) or above (each costs one).
A board of n results with d distinct scores costs O(d x bands x log d).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from .imps import DEFAULT_IMP_TABLE, imp_table, imps
from .matchpoints import Comparable, WeightedTally, atoms


def _imps_against_all(value: int, tally: WeightedTally, edges: Sequence[int]) -> Fraction | int:
    """IMPs ``value`` earns against every result in ``tally`` (itself included, worth 0)."""
    total: Fraction | int = 0
    for edge in edges[1:]:  # the 0-IMP band gains nothing
        total += tally.weight_below(value - edge + 1)  # others at least ``edge`` below
        total -= tally.weight_at_or_above(value + edge)  # others at least ``edge`` above
    return total


def _kept_in_field(scores: Sequence[Comparable], exclude: int) -> list[bool]:
    """Which results stay in the comparison field once the ``exclude`` highest and lowest
    plain scores are left out (weighted scores always stay). Nothing is left out unless
    at least two plain results remain."""
    plain = sorted((score, index) for index, score in enumerate(scores) if isinstance(score, int))
    kept = [True] * len(scores)
    if exclude <= 0 or len(plain) - 2 * exclude < 2:
        return kept
    for _, index in plain[:exclude] + plain[-exclude:]:
        kept[index] = False
    return kept


def cross_imps_board(
    scores: Sequence[Comparable], average: bool = True, table: str = DEFAULT_IMP_TABLE, exclude: int = 0
) -> tuple[Fraction, ...]:
    """Each result's cross-IMPs against the other results of one comparison group.

    ``average``: divide by the number of comparisons (n - 1), as Compscore3 and the
    EBU files do (the seed: 37 / 4 = 9.25); otherwise the sum, as Ruter and JFR do.
    ``exclude``: compare against the field without its ``exclude`` top and bottom
    results ("sometimes excluding top and bottom results", seeds/000); every result,
    those left out included, is scored against the results that remain. A weighted
    score earns the weighted sum of its parts' IMPs. Without exclusions the sums over
    a board are zero. A lone result scores 0.
    """
    edges = imp_table(table)
    kept = _kept_in_field(scores, exclude)
    field = [score for score, stays in zip(scores, kept) if stays]
    tally = WeightedTally(field)
    by_value: dict[int, Fraction | int] = {}
    results = []
    for score, in_field in zip(scores, kept):
        parts = atoms(score)
        earned: Fraction | int = 0
        for weight, value in parts:
            if value not in by_value:
                by_value[value] = _imps_against_all(value, tally, edges)
            earned += weight * by_value[value]
        # The tally holds this result too: its parts against each other do not count.
        if len(parts) > 1 and in_field:
            earned -= sum(w1 * w2 * imps(v1 - v2, table) for w1, v1 in parts for w2, v2 in parts)
        comparisons = len(field) - (1 if in_field else 0)
        if average and comparisons > 0:
            results.append(Fraction(earned) / comparisons)
        else:
            results.append(Fraction(earned))
    return tuple(results)
