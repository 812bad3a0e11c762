"""Cross-IMPs on one board: every result against every other comparable result (RULES 6).

The naive way compares every pair of results: n^2 IMP look-ups. Plain scores are
counted once per distinct score; a board with few distinct scores (a club board)
compares those pairwise, one dictionary look-up each. With many distinct scores, the
distinct scores are sorted once and, for each IMP band, bisect counts how many
results lie at least the band's lower edge below (each gains the result one IMP) or
above (each costs one): O(d x bands x log d) for d distinct scores. Large boards do
the same with numpy (vectorized.py). Sums are ints; an average is divided once, at
the end.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from itertools import accumulate

from sessions.scoring import vectorized
from sessions.scoring.imps import DEFAULT_IMP_TABLE, imp_table, imps, imps_lookup, max_imps
from sessions.scoring.matchpoints import Comparable, WeightedTally, all_plain, atoms
from sessions.scoring.rounding import exact_quotients

#: Up to this many distinct scores, comparing them pairwise is quicker than the bands.
_PAIRWISE_DISTINCT = 24


def cross_imps_board(
    scores: Sequence[Comparable], average: bool = True, table: str = DEFAULT_IMP_TABLE, exclude: int = 0
) -> tuple[int | Fraction, ...]:
    """Each result's cross-IMPs against the other results of one comparison group.

    ``average``: divide by the number of comparisons (n - 1), as Compscore3 and the
    EBU files do (the seed: 37 / 4 = 9.25); otherwise the sum, as Ruter and JFR do.
    ``exclude``: compare against the field without its ``exclude`` top and bottom
    results ("sometimes excluding top and bottom results", seeds/000); every result,
    those left out included, is scored against the results that remain. A weighted
    score earns the weighted sum of its parts' IMPs. Without exclusions the sums over
    a board are zero. A lone result scores 0. Whole figures are ints, others Fractions.
    """
    imp_table(table)  # an unknown table is refused even on an empty board
    kept = _kept_in_field(scores, exclude)
    if not all(kept):
        return _weighted_cross_imps(scores, average, table, kept)
    if all_plain(scores):
        board = vectorized.board_array(scores) if len(scores) >= vectorized.LARGE_BOARD else None  # type: ignore[arg-type]
        if board is not None:
            sums = vectorized.cross_imps_sums(board, table)
            return vectorized.quotient_rows(sums, len(scores) - 1 if average else 1)[0]
        return averaged(plain_cross_imps_sums(scores, table), len(scores), average)  # type: ignore[arg-type]
    return _weighted_cross_imps(scores, average, table, kept)


def averaged(sums: Sequence[int], results: int, average: bool) -> tuple[int | Fraction, ...]:
    """The board's IMP sums, or their averages over the n - 1 comparisons: one division each."""
    if average and results > 1:
        return tuple(exact_quotients(sums, results - 1))
    return tuple(sums)


def plain_cross_imps_sums(scores: Sequence[int], table: str = DEFAULT_IMP_TABLE) -> list[int]:
    """Each plain score's IMPs against every other score of the board, summed (pure Python)."""
    counts = Counter(scores)
    if len(counts) <= _PAIRWISE_DISTINCT:
        earned = _pairwise(counts, table)
    else:
        earned = _banded(counts, table)
    return [earned[score] for score in scores]


def _pairwise(counts: Counter[int], table: str) -> dict[int, int]:
    lookup, most = imps_lookup(table), max_imps(table)
    items = list(counts.items())
    earned = {}
    for value, _ in items:
        total = 0
        for other, count in items:
            gained = lookup.get(value - other)
            if gained is None:  # beyond the last edge
                gained = most if value > other else -most
            total += gained * count
        earned[value] = total
    return earned


def _banded(counts: Counter[int], table: str) -> dict[int, int]:
    values = sorted(counts)
    below = [0, *accumulate(counts[value] for value in values)]  # results below values[i]: below[i]
    edges = imp_table(table)[1:]  # the 0-IMP band gains nothing
    return {value: _band_total(value, values, below, edges) for value in values}


def _band_total(value: int, values: Sequence[int], below: Sequence[int], edges: Sequence[int]) -> int:
    """IMPs ``value`` earns against the board: one per result per band edge it clears."""
    total = 0
    for edge in edges:
        total += below[bisect_left(values, value - edge + 1)]  # others at least ``edge`` below
        total -= below[-1] - below[bisect_left(values, value + edge)]  # others at least ``edge`` above
    return total


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
    kept = [True] * len(scores)
    if exclude <= 0:
        return kept
    plain = sorted((score, index) for index, score in enumerate(scores) if isinstance(score, int))
    if len(plain) - 2 * exclude < 2:
        return kept
    for _, index in plain[:exclude] + plain[-exclude:]:
        kept[index] = False
    return kept


def _weighted_cross_imps(
    scores: Sequence[Comparable], average: bool, table: str, kept: Sequence[bool]
) -> tuple[int | Fraction, ...]:
    """Cross-IMPs against the results ``kept`` in the field, each weighted score's parts
    weighted, in Fractions: boards with weighted scores or results left out."""
    edges = imp_table(table)
    field = [score for score, stays in zip(scores, kept) if stays]
    tally = WeightedTally(field)
    by_value: dict[int, Fraction | int] = {}
    results: list[int | Fraction] = []
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
        figure = Fraction(earned) / comparisons if average and comparisons > 0 else Fraction(earned)
        results.append(figure.numerator if figure.denominator == 1 else figure)
    return tuple(results)


def cross_imps_boards(
    boards: Sequence[Sequence[Comparable]], average: bool = True, table: str = DEFAULT_IMP_TABLE
) -> list[tuple[int | Fraction, ...]]:
    """cross_imps_board of every board, in order: boards of plain scores of one size are
    scored together (numpy), far quicker than one call a board for many small boards."""
    imp_table(table)
    scored: list[tuple[int | Fraction, ...]] = [()] * len(boards)
    stacked, others = vectorized.stacks(boards)
    for indexes, scores in stacked:
        sums = vectorized.cross_imps_sums(scores, table)
        figures = vectorized.quotient_rows(sums, max(scores.shape[1] - 1, 1) if average else 1)
        for index, figure in zip(indexes, figures):
            scored[index] = figure
    for index in others:
        scored[index] = cross_imps_board(boards[index], average, table)
    return scored
