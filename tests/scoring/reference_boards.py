"""The board scoring as it was before the engine was made fast: the slow reference.

Exact and obviously right: every comparison in `Fraction`, one bisect per score.
tests/scoring/test_fast_boards.py checks the engine's public board functions give
the same figures on random boards. Kept deliberately simple; never used by the app.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Sequence
from fractions import Fraction

from sessions.scoring.imps import imp_table, imps
from sessions.scoring.matchpoints import Comparable, atoms, neuberg, scale_named
from sessions.scoring.rounding import round_half_away


class Tally:
    """The board's results sorted once, with the weight at and below every score."""

    def __init__(self, scores: Sequence[Comparable]) -> None:
        weight_at: dict[int, Fraction] = {}
        for score in scores:
            for weight, value in atoms(score):
                weight_at[value] = weight_at.get(value, Fraction(0)) + Fraction(weight)
        self.values = sorted(weight_at)
        self.weights = [weight_at[value] for value in self.values]
        self.cumulative = [Fraction(0)]
        for weight in self.weights:
            self.cumulative.append(self.cumulative[-1] + weight)

    def below(self, value: int) -> Fraction:
        return self.cumulative[bisect_left(self.values, value)]

    def at_or_above(self, value: int) -> Fraction:
        return self.cumulative[-1] - self.below(value)

    def at(self, value: int) -> Fraction:
        index = bisect_left(self.values, value)
        if index < len(self.values) and self.values[index] == value:
            return self.weights[index]
        return Fraction(0)


def _compare(mine: int, other: int) -> int:
    return 2 if mine > other else 1 if mine == other else 0


def matchpoints_two_one(scores: Sequence[Comparable]) -> tuple[Fraction, ...]:
    tally = Tally(scores)
    points = []
    for score in scores:
        parts = atoms(score)
        earned = sum((Fraction(w) * (2 * tally.below(v) + tally.at(v)) for w, v in parts), Fraction(0))
        earned -= sum((Fraction(w1 * w2) * _compare(v1, v2) for w1, v1 in parts for w2, v2 in parts), Fraction(0))
        points.append(earned)
    return tuple(points)


def matchpoint_board(
    scores: Sequence[Comparable], scale: str = "two_one", expected: int | None = None
) -> tuple[Fraction, ...]:
    chosen = scale_named(scale)
    raw = matchpoints_two_one(scores)
    if expected is not None and expected != len(scores):
        raw = tuple(neuberg(points, len(scores), expected) for points in raw)
    return tuple(chosen.from_two_one(points) for points in raw)


def cross_imps_board(scores: Sequence[Comparable], average: bool = True, table: str = "wbf") -> tuple[Fraction, ...]:
    edges = imp_table(table)
    tally = Tally(scores)
    comparisons = len(scores) - 1
    results = []
    for score in scores:
        parts = atoms(score)
        earned = Fraction(0)
        for weight, value in parts:
            against_all = Fraction(0)
            for edge in edges[1:]:
                against_all += tally.below(value - edge + 1) - tally.at_or_above(value + edge)
            earned += Fraction(weight) * against_all
        earned -= sum((Fraction(w1 * w2) * imps(v1 - v2, table) for w1, v1 in parts for w2, v2 in parts), Fraction(0))
        results.append(earned / comparisons if average and comparisons > 0 else earned)
    return tuple(results)


def trim_count(results: int) -> int:
    if results <= 3:
        return 0
    if results <= 10:
        return 1
    return math.ceil((results - 10) / 15) + 1


def butler_board(
    scores: Sequence[Comparable], rule: str = "trimmed_mean", table: str = "wbf"
) -> tuple[int, tuple[Fraction, ...]]:
    plain = sorted(score for score in scores if isinstance(score, int) and not isinstance(score, bool))
    if rule == "median" or (rule == "median_small" and len(plain) <= 3):
        middle = len(plain) // 2
        mean = Fraction(plain[middle]) if len(plain) % 2 else Fraction(plain[middle - 1] + plain[middle], 2)
    else:
        k = trim_count(len(plain))
        kept = plain[k : len(plain) - k]
        mean = Fraction(sum(kept), len(kept))
    datum = 10 * round_half_away(mean / 10)
    return datum, tuple(
        sum((Fraction(weight) * imps(value - datum, table) for weight, value in atoms(score)), Fraction(0))
        for score in scores
    )
