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

from sessions.scoring.errors import ScoringError
from sessions.scoring import vectorized
from sessions.scoring.imps import DEFAULT_IMP_TABLE, imps, imps_lookup, max_imps
from sessions.scoring.matchpoints import Comparable, all_plain, atoms
from sessions.scoring.options import ButlerDatum
from sessions.scoring.rounding import nearest_quotient, round_half_away

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
    return _plain_datum(scores, rule)


def _plain_datum(scores: Sequence[int], rule: str) -> int:
    """butler_datum of checked plain scores: one division, in integers."""
    ordered = sorted(scores)
    if _takes_median(rule, len(ordered)):
        return round_to_ten(_median(ordered))
    k = trim_count(len(ordered))
    kept = len(ordered) - 2 * k
    return 10 * nearest_quotient(sum(ordered[k : k + kept]), 10 * kept)


def _takes_median(rule: str, results: int) -> bool:
    """Whether ``rule`` sets the datum of a board of ``results`` plain scores at their median."""
    return rule == ButlerDatum.MEDIAN or (rule == ButlerDatum.MEDIAN_SMALL and results <= 3)


def _median(ordered: Sequence[int]) -> Fraction:
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return Fraction(ordered[middle])
    return Fraction(ordered[middle - 1] + ordered[middle], 2)


def butler_imps(score: Comparable, datum: int, table: str = DEFAULT_IMP_TABLE) -> int | Fraction:
    """IMPs a result scores against the datum; a weighted score, the weighted sum."""
    if type(score) is int:
        return imps(score - datum, table)
    earned = sum((Fraction(weight) * imps(value - datum, table) for weight, value in atoms(score)), Fraction(0))
    return earned.numerator if earned.denominator == 1 else earned


def butler_board(
    scores: Sequence[Comparable], rule: str = ButlerDatum.TRIMMED_MEAN, table: str = DEFAULT_IMP_TABLE
) -> tuple[int, tuple[int | Fraction, ...]]:
    """The datum and each result's NS Butler IMPs for one comparison group.

    The datum is taken over the plain scores only: a weighted score is not one NS
    score, so it is scored against the datum of the others. Plain scores earn ints.
    """
    if rule not in DATUM_RULES:
        raise ScoringError(f"unknown Butler datum rule {rule!r}: use one of {', '.join(DATUM_RULES)}")
    if scores and all_plain(scores):
        large = len(scores) >= vectorized.LARGE_BOARD and not _takes_median(rule, len(scores))
        board = vectorized.board_array(scores) if large else None  # type: ignore[arg-type]
        if board is not None:  # numpy takes trimmed means only
            datums, earned = vectorized.butler(board, trim_count(len(scores)), table)
            return datums[0], vectorized.rows(earned)[0]
        return plain_butler_board(scores, rule, table)  # type: ignore[arg-type]
    plain = [score for score in scores if isinstance(score, int) and not isinstance(score, bool)]
    if not plain:
        raise ScoringError("a Butler board needs at least one plain score to set the datum")
    datum = butler_datum(plain, rule)
    return datum, tuple(butler_imps(score, datum, table) for score in scores)


def plain_butler_board(scores: Sequence[int], rule: str, table: str) -> tuple[int, tuple[int, ...]]:
    """butler_board of checked plain scores, in pure Python: one IMP look-up a result."""
    datum = _plain_datum(scores, rule)
    lookup, most = imps_lookup(table), max_imps(table)
    earned = [lookup.get(score - datum) for score in scores]
    if None in earned:  # a difference beyond the table's last edge scores the most
        earned = [(most if score > datum else -most) if gained is None else gained for score, gained in zip(scores, earned)]
    return datum, tuple(earned)  # type: ignore[arg-type]


def butler_boards(
    boards: Sequence[Sequence[Comparable]], rule: str = ButlerDatum.TRIMMED_MEAN, table: str = DEFAULT_IMP_TABLE
) -> list[tuple[int, tuple[int | Fraction, ...]]]:
    """butler_board of every board, in order: boards of plain scores of one size are
    scored together (numpy), far quicker than one call a board for many small boards."""
    if rule not in DATUM_RULES:
        raise ScoringError(f"unknown Butler datum rule {rule!r}: use one of {', '.join(DATUM_RULES)}")
    scored: list[tuple[int, tuple[int | Fraction, ...]]] = [(0, ())] * len(boards)
    stacked, others = vectorized.stacks(boards)
    for indexes, scores in stacked:
        size = scores.shape[1]
        if _takes_median(rule, size):  # numpy takes trimmed means only
            others.extend(indexes)
            continue
        datums, earned = vectorized.butler(scores, trim_count(size), table)
        for index, datum, figures in zip(indexes, datums, vectorized.rows(earned)):
            scored[index] = (datum, figures)
    for index in others:
        scored[index] = butler_board(boards[index], rule, table)
    return scored
