"""Butler (datum) IMPs on one board (RULES 6).

The datum is the mean of the board's NS scores after dropping the k highest and the
k lowest, rounded to the nearest 10 with halves away from zero (-445 -> -450, as
Compscore3 does). k = 0 for up to 3 results, 1 for 4 to 10, then one more from each
end for every further 15 results. Each result scores imps(score - datum). Options: the
median instead when a board has 3 results or fewer, or the median whatever the field
("Sometimes, the median score is used instead", seeds/000).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from .errors import ScoringError
from .imps import DEFAULT_IMP_TABLE, imps
from .matchpoints import Comparable, atoms
from .options import ButlerDatum
from .rounding import round_half_away

#: Datum rules: the trimmed mean (default), the median when a board has <= 3 results, the median always.
DATUM_RULES = tuple(ButlerDatum)


def trim_count(results: int) -> int:
    """How many scores to drop from each end before averaging."""
    if results <= 3:
        return 0
    if results <= 10:
        return 1
    return math.ceil((results - 10) / 15) + 1


def round_to_ten(value: Fraction) -> int:
    """The nearest multiple of 10, halves away from zero: -445 -> -450, 445 -> 450."""
    return 10 * round_half_away(Fraction(value) / 10)


def butler_datum(scores: Sequence[int], rule: str = ButlerDatum.TRIMMED_MEAN) -> int:
    """The datum of a board's plain NS scores under ``rule`` (see DATUM_RULES)."""
    if rule not in DATUM_RULES:
        raise ScoringError(f"unknown Butler datum rule {rule!r}: use one of {', '.join(DATUM_RULES)}")
    if not scores:
        raise ScoringError("a Butler datum needs at least one played score on the board")
    for score in scores:
        if isinstance(score, bool) or not isinstance(score, int):
            raise ScoringError(f"a Butler datum is taken over plain NS scores, not {score!r}")
    ordered = sorted(scores)
    if rule == ButlerDatum.MEDIAN or (rule == ButlerDatum.MEDIAN_SMALL and len(ordered) <= 3):
        return round_to_ten(_median(ordered))
    k = trim_count(len(ordered))
    kept = ordered[k : len(ordered) - k]
    return round_to_ten(Fraction(sum(kept), len(kept)))


def _median(ordered: Sequence[int]) -> Fraction:
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return Fraction(ordered[middle])
    return Fraction(ordered[middle - 1] + ordered[middle], 2)


def butler_imps(score: Comparable, datum: int, table: str = DEFAULT_IMP_TABLE) -> Fraction:
    """IMPs a result scores against the datum; a weighted score, the weighted sum."""
    return sum((Fraction(weight) * imps(value - datum, table) for weight, value in atoms(score)), Fraction(0))


def butler_board(
    scores: Sequence[Comparable], rule: str = ButlerDatum.TRIMMED_MEAN, table: str = DEFAULT_IMP_TABLE
) -> tuple[int, tuple[Fraction, ...]]:
    """The datum and each result's NS Butler IMPs for one comparison group.

    The datum is taken over the plain scores only: a weighted score is not one NS
    score, so it is scored against the datum of the others.
    """
    plain = [score for score in scores if isinstance(score, int) and not isinstance(score, bool)]
    if not plain:
        raise ScoringError("a Butler board needs at least one plain score to set the datum")
    datum = butler_datum(plain, rule)
    return datum, tuple(butler_imps(score, datum, table) for score in scores)
