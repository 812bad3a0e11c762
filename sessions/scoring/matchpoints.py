"""Matchpoints on one board: comparing results, Neuberg and ratio factoring (RULES 4, 5).

Everything here works on one comparison group (the results of one board in one field
that played the same cards) and knows nothing of pairs or sessions.

Internally matchpoints are counted on the 2-per-beaten scale (2 per result beaten,
1 per tie); the ACBL scale (1 and 1/2) is exactly half of it, and so are its Neuberg
and ratio figures, which is why a percentage never depends on the scale.

Plain scores are counted in ints, with one division at the end where a figure needs
one (the ACBL halving, Neuberg): a figure is an int when whole and a Fraction only when
it really is fractional. Large boards, and many boards at once (``matchpoint_boards``),
are counted with numpy (vectorized.py); weighted scores keep the Fraction path.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Union

from sessions.scoring.errors import ScoringError
from sessions.scoring import vectorized
from sessions.scoring.rounding import exact_quotients, round_half_away
from sessions.scoring.scores import Weighted

#: A result that takes part in a comparison: a plain NS score or a weighted score.
Comparable = Union[int, Weighted]


@dataclass(frozen=True)
class MatchpointScale:
    """A matchpoint scale: points per result beaten and per tie."""

    name: str
    per_beaten: Fraction
    per_tie: Fraction

    def top(self, results: int) -> Fraction:
        """The most a result can score on a board with ``results`` results."""
        return self.per_beaten * max(results - 1, 0)

    def from_two_one(self, points: Fraction | int) -> Fraction:
        """Convert a figure counted on the 2-per-beaten scale to this scale."""
        return points * self.per_tie


SCALES: dict[str, MatchpointScale] = {
    "two_one": MatchpointScale("two_one", Fraction(2), Fraction(1)),
    "acbl": MatchpointScale("acbl", Fraction(1), Fraction(1, 2)),
}


def scale_named(name: str | MatchpointScale) -> MatchpointScale:
    """The scale called ``name`` ("two_one" or "acbl"); anything else raises ScoringError."""
    if isinstance(name, MatchpointScale):
        return name
    try:
        return SCALES[name]
    except KeyError:
        raise ScoringError(f"unknown matchpoint scale {name!r}: use 'two_one' or 'acbl'") from None


def atoms(score: Comparable) -> tuple[tuple[Fraction | int, int], ...]:
    """A result as (weight, NS score) parts: a plain score is one part of weight 1."""
    if isinstance(score, Weighted):
        return tuple((Fraction(weight), value) for weight, value in score.parts)
    if isinstance(score, bool) or not isinstance(score, int):
        raise ScoringError(f"{score!r} cannot be compared: expected an NS score or a weighted score")
    return ((1, score),)


_PLAIN = {int}


def all_plain(scores: Sequence[object]) -> bool:
    """Whether every score is a plain int (not a bool, a weighted score or anything else):
    those take the engine's fast paths. One pass in C: cheaper than a loop of isinstance."""
    return set(map(type, scores)) <= _PLAIN


class WeightedTally:
    """The results of a board sorted once, with the weight at and below every score.

    Lets each result find how many results it beats and ties in O(log n), so that a
    board of n results is matchpointed in O(n log n), not O(n^2).
    """

    def __init__(self, scores: Sequence[Comparable]) -> None:
        weight_at: dict[int, Fraction | int] = {}
        for score in scores:
            for weight, value in atoms(score):
                weight_at[value] = weight_at.get(value, 0) + weight
        self.values = sorted(weight_at)
        self.weights = [weight_at[value] for value in self.values]
        self.cumulative: list[Fraction | int] = [0]
        for weight in self.weights:
            self.cumulative.append(self.cumulative[-1] + weight)

    def weight_below(self, value: int) -> Fraction | int:
        return self.cumulative[bisect_left(self.values, value)]

    def weight_at_or_above(self, value: int) -> Fraction | int:
        return self.cumulative[-1] - self.weight_below(value)

    def weight_at(self, value: int) -> Fraction | int:
        index = bisect_left(self.values, value)
        if index < len(self.values) and self.values[index] == value:
            return self.weights[index]
        return 0


def _compare_two_one(mine: int, other: int) -> int:
    """Matchpoints (2 per beaten, 1 per tie) one score earns against another."""
    return 2 if mine > other else 1 if mine == other else 0


def matchpoints_two_one(scores: Sequence[Comparable]) -> tuple[int | Fraction, ...]:
    """Each result's matchpoints on the 2-per-beaten scale against all the others.

    Plain scores earn whole numbers (ints). A weighted score earns the weighted sum of
    what each of its parts earns against the other results, and the others earn
    likewise against its parts (RULES 5): Fractions, unless whole.
    """
    if all_plain(scores):
        board = vectorized.board_array(scores) if len(scores) >= vectorized.LARGE_BOARD else None  # type: ignore[arg-type]
        if board is not None:
            return vectorized.rows(vectorized.matchpoints_two_one(board))[0]
        return plain_matchpoints_two_one(scores)  # type: ignore[arg-type]
    tally = WeightedTally(scores)
    points = []
    for score in scores:
        parts = atoms(score)
        earned = sum(
            (Fraction(weight) * (2 * tally.weight_below(value) + tally.weight_at(value)) for weight, value in parts),
            Fraction(0),
        )
        # The tally holds this result too: take away what its parts earn against each other.
        earned -= sum(
            (Fraction(w1 * w2) * _compare_two_one(v1, v2) for w1, v1 in parts for w2, v2 in parts),
            Fraction(0),
        )
        points.append(earned.numerator if earned.denominator == 1 else earned)
    return tuple(points)


def plain_matchpoints_two_one(scores: Sequence[int]) -> tuple[int, ...]:
    """Matchpoints of plain scores (ints, unchecked), in pure Python.

    A score sorted to positions first..last (its equals between) beats ``first``
    results and ties with ``last - first`` others: 2 x first + (last - first) =
    first + last. Two dictionaries give every score its first and last position.
    """
    ordered = sorted(scores)
    last = {value: position for position, value in enumerate(ordered)}
    ordered.reverse()
    top = len(ordered) - 1
    first = {value: top - position for position, value in enumerate(ordered)}
    return tuple([first[value] + last[value] for value in scores])


def neuberg(
    points: Fraction | int, actual: int, expected: int, scale: str | MatchpointScale = "two_one"
) -> Fraction:
    """Neuberg's formula: ``points`` scored among ``actual`` results, as if ``expected``.

    (M + 1) x E / A - 1 on the 2-per-beaten scale, (M + 1/2) x E / A - 1/2 on the
    ACBL scale: the per-tie value is the "+1" in both.
    """
    _check_counts(actual, expected)
    per_tie = scale_named(scale).per_tie
    return (points + per_tie) * Fraction(expected, actual) - per_tie


def ratio_scaled(
    points: Fraction | int, actual: int, expected: int, scale: str | MatchpointScale = "two_one"
) -> Fraction:
    """Ratio scaling: M x full top / actual top, rounded to a whole matchpoint (RULES 5).

    A lone result (actual top 0) has nothing to be compared with and scores half the
    full top, as Neuberg gives it.
    """
    _check_counts(actual, expected)
    chosen = scale_named(scale)
    full_top = chosen.top(expected)
    if actual == 1:
        return full_top / 2
    return Fraction(round_half_away(points * full_top / chosen.top(actual)))


def _check_counts(actual: int, expected: int) -> None:
    if actual < 1:
        raise ScoringError("a board needs at least one compared result to be factored")
    if expected < actual:
        raise ScoringError(f"a board with {actual} results cannot be factored down to {expected} results")


def matchpoint_board(
    scores: Sequence[Comparable], scale: str = "two_one", expected: int | None = None
) -> tuple[int | Fraction, ...]:
    """Each result's matchpoints on ``scale``, Neuberg-factored to ``expected`` results if given.

    ``scores`` are NS scores (or weighted scores) of one comparison group; EW earn
    the complement: top - NS points. Whole figures are ints, others Fractions.
    """
    chosen = scale_named(scale)
    return on_scale(matchpoints_two_one(scores), len(scores), chosen, expected)


def on_scale(
    raw: tuple[int | Fraction, ...], results: int, scale: MatchpointScale, expected: int | None
) -> tuple[int | Fraction, ...]:
    """2-per-beaten matchpoints of a board of ``results`` on ``scale``, factored to ``expected``.

    The one division of the ACBL scale (halving) is done at the end, on each figure.
    """
    if expected is not None and expected != results:
        raw = tuple(neuberg(points, results, expected) for points in raw)
    if scale.per_tie == 1:
        return tuple(_whole_if_whole(points) for points in raw) if expected is not None else raw
    halves = [points for points in raw if type(points) is int]
    if len(halves) == len(raw):
        return tuple(exact_quotients(halves, 2))
    return tuple(_whole_if_whole(scale.from_two_one(Fraction(points))) for points in raw)


def _whole_if_whole(value: int | Fraction) -> int | Fraction:
    if type(value) is int or value.denominator != 1:
        return value
    return value.numerator


def matchpoint_boards(
    boards: Sequence[Sequence[Comparable]], scale: str = "two_one"
) -> list[tuple[int | Fraction, ...]]:
    """matchpoint_board of every board, in order: boards of plain scores of one size are
    scored together (numpy), which is far quicker than one call a board when boards are
    small and many (a simultaneous pairs, a season rescored)."""
    chosen = scale_named(scale)
    scored: list[tuple[int | Fraction, ...]] = [()] * len(boards)
    stacked, others = vectorized.stacks(boards)
    halves = 1 if chosen.per_tie == 1 else 2  # the ACBL scale: one halving, at the end
    for indexes, scores in stacked:
        figures = vectorized.quotient_rows(vectorized.matchpoints_two_one(scores), halves)
        for index, figure in zip(indexes, figures):
            scored[index] = figure
    for index in others:
        scored[index] = matchpoint_board(boards[index], chosen.name)
    return scored


def ties_added(
    points: Fraction | int, actual: int, expected: int, scale: str | MatchpointScale = "two_one"
) -> Fraction:
    """``points`` among ``actual`` results with each missing result counted as a tie
    (NZ Scorer's totals): the board's top grows by the missing results, and each side
    gets half of that growth."""
    _check_counts(actual, expected)
    chosen = scale_named(scale)
    return Fraction(points) + (chosen.top(expected) - chosen.top(actual)) / 2
