"""Stratification (RULES 15), as ACBL clubs run it: strata A, B, C ... by master points
held or by rating, each pair in the lowest stratum it qualifies for, a ranking per stratum.

Pure Python. Stratum A is open; each later stratum takes the pairs whose figure (the
higher of its two players') is below its limit, the limits falling. A pair of stratum C
is also ranked in B and in A: the places it earns in each are those among the pairs of
that stratum or lower (the ACBL's overlapping awards).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from sessions.scoring.errors import ScoringError

LETTERS = "ABCDE"


@dataclass(frozen=True)
class Stratum:
    letter: str
    limit: Fraction | None  # a pair qualifies below it; None: open (stratum A)


def strata_from_limits(limits: Sequence[Fraction]) -> tuple[Stratum, ...]:
    """A open, then B, C ... below each limit in turn: the limits must fall."""
    if len(limits) >= len(LETTERS):
        raise ScoringError(f"at most {len(LETTERS) - 1} limits (strata B to {LETTERS[-1]}), not {len(limits)}")
    if any(limit <= 0 for limit in limits):
        raise ScoringError("each stratum's limit is above 0")
    if any(lower >= higher for higher, lower in zip(limits, limits[1:])):
        raise ScoringError("each stratum's limit is below the one before it (B 1500, C 500)")
    return (Stratum("A", None), *(Stratum(letter, limit) for letter, limit in zip(LETTERS[1:], limits)))


def pair_stratum(figures: Sequence[Fraction | None], strata: Sequence[Stratum]) -> str:
    """The lowest stratum the pair qualifies for by its higher player's figure (a player
    without one counts 0: a newcomer holds no master points and has no rating yet)."""
    if not strata:
        raise ScoringError("no strata")
    higher = max((Fraction(0) if figure is None else Fraction(figure) for figure in figures), default=Fraction(0))
    letter = strata[0].letter
    for stratum in strata[1:]:
        if stratum.limit is not None and higher < stratum.limit:
            letter = stratum.letter
    return letter


def stratum_places(
    ranked: Sequence[tuple[Hashable, Fraction, str]], strata: Sequence[Stratum],
) -> dict[Hashable, tuple[tuple[str, str], ...]]:
    """Each pair's place in every stratum it is ranked in (its own and those above):
    ``ranked`` is (pair, score, stratum) for one field, any order; higher scores first,
    equal scores share the place ("2="), the next place skipping."""
    order = [stratum.letter for stratum in strata]
    for _, _, letter in ranked:
        if letter not in order:
            raise ScoringError(f"no stratum {letter!r} (strata {', '.join(order)})")
    places: dict[Hashable, list[tuple[str, str]]] = {pair: [] for pair, _, _ in ranked}
    for index, letter in enumerate(order):
        eligible = sorted((row for row in ranked if order.index(row[2]) >= index), key=lambda row: -row[1])
        start = 0
        while start < len(eligible):  # one group of equal scores at a time
            end = start
            while end < len(eligible) and eligible[end][1] == eligible[start][1]:
                end += 1
            place = f"{start + 1}{'=' if end - start > 1 else ''}"
            for pair, _, _ in eligible[start:end]:
                places[pair].append((letter, place))
            start = end
    return {pair: tuple(found) for pair, found in places.items()}
