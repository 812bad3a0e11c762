"""The board scoring of plain scores with numpy: large boards, and many boards at once.

The same figures as the pure-Python paths in matchpoints.py, crossimps.py and
butler.py (tests/scoring/test_fast_boards.py compares them on random boards), computed
on integer arrays: a board of 10,000 results, or 20,000 boards of 13 stacked in one
array (a row a board), cost a few numpy calls instead of a Python loop per result.
Only plain scores (ints) come here, small enough that no sum or difference can
overflow (``stacks`` checks); weighted scores stay on the pure-Python paths.

Figures leave as Python ints (``tolist``); the one division of an average is made
once per distinct figure (``exact_quotients``), exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import chain

import numpy as np

from sessions.scoring.imps import imp_table, imps_lookup
from sessions.scoring.rounding import exact_quotients

#: From this many results a single board is scored here rather than in pure Python.
LARGE_BOARD = 256

#: Fewer small boards of one size than this are scored one by one in pure Python:
#: numpy's fixed cost per call outweighs a few small boards.
_FEW_BOARDS = 8

#: Scores below this size: int64 sums and differences of a board of up to eight
#: million of them cannot overflow. Below _SMALL_SCORE, int32 differences suffice (and are quicker).
_SAFE_SCORE = 1 << 40
_SMALL_SCORE = 1 << 29

#: Boards up to this many results are compared pairwise (boards x n x n at once)...
_PAIRWISE_RESULTS = 64
#: ...in chunks of boards that keep the array to about this many elements.
_PAIRWISE_ELEMENTS = 1 << 21


Stack = tuple[list[int], np.ndarray]


def stacks(boards: Sequence[Sequence[object]]) -> tuple[list[Stack], list[int]]:
    """The boards worth scoring here, as (their indexes, their scores a row each) by
    size, and the indexes of the others (weighted or odd scores, a few small boards)."""
    if set(map(type, chain.from_iterable(boards))) <= {int}:  # as matchpoints.all_plain, in one pass
        plain: Sequence[int] = range(len(boards))
        others: list[int] = []
    else:
        plain = [index for index, board in enumerate(boards) if set(map(type, board)) <= {int}]
        others = sorted(set(range(len(boards))) - set(plain))
    if len(set(map(len, boards))) == 1 and len(plain) == len(boards):  # the usual case: one size
        by_size = {len(boards[0]): list(plain)}
    else:
        by_size = {}
        for index in plain:
            by_size.setdefault(len(boards[index]), []).append(index)
    stacked: list[Stack] = []
    for size, indexes in by_size.items():
        scores = None
        if size and (size >= LARGE_BOARD or len(indexes) >= _FEW_BOARDS):
            scores = _array(boards if len(indexes) == len(boards) else [boards[index] for index in indexes])
        if scores is None:
            others.extend(indexes)
        else:
            stacked.append((indexes, scores))
    return stacked, others


def board_array(scores: Sequence[int]) -> np.ndarray | None:
    """One board of plain ints as a one-row array, or None if its scores are too large."""
    return _array([scores])


def _array(boards: Sequence[Sequence[object]]) -> np.ndarray | None:
    """Boards of plain ints as an int32 array (int64 for large scores; None for huger)."""
    for dtype, bound in ((np.int32, _SMALL_SCORE), (np.int64, _SAFE_SCORE)):
        try:
            scores = np.array(boards, dtype=dtype)
        except OverflowError:
            continue
        if max(-int(scores.min()), int(scores.max())) < bound:
            return scores
    return None


def rows(figures: np.ndarray) -> list[tuple[int, ...]]:
    """A 2-D array of figures as a tuple of Python ints per board."""
    return list(map(tuple, figures.tolist()))


def matchpoints_two_one(scores: np.ndarray) -> np.ndarray:
    """Matchpoints (2 per beaten, 1 per tie) of each score, a board a row.

    As matchpoints.py: a score sorted to positions first..last (its equals between)
    scores first + last. Each row is sorted; a run of equal scores starts where the
    score changes, so a running maximum of run starts gives every position its first,
    and a running minimum from the right of run ends its last.
    """
    results = scores.shape[1]
    order = np.argsort(scores, axis=1, kind="stable")
    ordered = np.take_along_axis(scores, order, axis=1)
    positions = np.broadcast_to(np.arange(results), scores.shape)
    starts = np.ones(scores.shape, dtype=bool)
    starts[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    ends = np.ones(scores.shape, dtype=bool)
    ends[:, :-1] = starts[:, 1:]
    first = np.maximum.accumulate(np.where(starts, positions, 0), axis=1)
    last = np.minimum.accumulate(np.where(ends, positions, results)[:, ::-1], axis=1)[:, ::-1]
    points = np.empty(scores.shape, dtype=np.int64)
    np.put_along_axis(points, order, first + last, axis=1)
    return points


def _chunks(scores: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """Consecutive slices of boards small enough for boards x n x n arrays."""
    step = max(1, _PAIRWISE_ELEMENTS // (scores.shape[1] ** 2))
    return [(start, scores[start : start + step]) for start in range(0, len(scores), step)]


def _imp_table(table: str) -> tuple[np.ndarray, int]:
    """Signed IMPs of every difference from -last edge to +last edge, and that edge."""
    found = _IMP_ARRAYS.get(table)
    if found is None:
        last = imp_table(table)[-1]
        lookup = imps_lookup(table)
        found = _IMP_ARRAYS[table] = (np.array([lookup[d] for d in range(-last, last + 1)], dtype=np.int64), last)
    return found


_IMP_ARRAYS: dict[str, tuple[np.ndarray, int]] = {}


def _imps(differences: np.ndarray, table: str) -> np.ndarray:
    """Signed IMPs of an array of point differences (changed in place: pass a temporary)."""
    imps_of, last = _imp_table(table)
    np.clip(differences, -last, last, out=differences)  # beyond the last edge: the most IMPs
    differences += last
    return imps_of[differences]


def cross_imps_sums(scores: np.ndarray, table: str) -> np.ndarray:
    """Each score's IMPs summed against every other score of its board, a board a row.

    Small boards: every pair compared at once. Large boards: the board's distinct
    scores, with for each IMP band the number of results at least the band's lower
    edge below (one IMP each) or above (minus one), as crossimps.py does.
    """
    if scores.shape[1] <= _PAIRWISE_RESULTS:
        sums = np.empty(scores.shape, dtype=np.int64)
        for start, chunk in _chunks(scores):
            sums[start : start + len(chunk)] = _imps(chunk[:, :, None] - chunk[:, None, :], table).sum(axis=2)
        return sums
    return np.array([_banded_sums(board, table) for board in scores], dtype=np.int64).reshape(scores.shape)


def _banded_sums(board: np.ndarray, table: str) -> np.ndarray:
    distinct, where, counts = np.unique(board.astype(np.int64), return_inverse=True, return_counts=True)
    below = np.concatenate(([0], np.cumsum(counts)))  # results below distinct[i]: below[i]
    total = np.zeros(len(distinct), dtype=np.int64)
    for edge in imp_table(table)[1:]:  # the 0-IMP band gains nothing
        total += below[np.searchsorted(distinct, distinct - edge + 1, side="left")]
        total -= len(board) - below[np.searchsorted(distinct, distinct + edge, side="left")]
    figures: np.ndarray = total[where.ravel()]
    return figures


def quotient_rows(numerators: np.ndarray, denominator: int) -> list[tuple[int | Fraction, ...]]:
    """Each figure / denominator exactly (an int when whole), a tuple a board: one
    division per distinct figure (an average's n - 1, the ACBL scale's halving)."""
    if denominator == 1 or numerators.size == 0:
        return list(map(tuple, numerators.tolist()))
    low, high = int(numerators.min()), int(numerators.max())
    if high - low < numerators.size:  # the usual case: few possible figures, a table of them all
        quotients = np.array(exact_quotients(range(low, high + 1), denominator), dtype=object)
        return list(map(tuple, quotients[numerators - low].tolist()))
    distinct, where = np.unique(numerators, return_inverse=True)
    quotients = np.array(exact_quotients(distinct.tolist(), denominator), dtype=object)
    return list(map(tuple, quotients[where.reshape(numerators.shape)].tolist()))


def butler(scores: np.ndarray, trim: int, table: str) -> tuple[list[int], np.ndarray]:
    """Datums (trimmed mean, ``trim`` dropped from each end, to the nearest ten with
    halves away from zero) and each score's IMPs against its board's datum."""
    kept = scores.shape[1] - 2 * trim
    sums = np.sort(scores, axis=1)[:, trim : trim + kept].sum(axis=1, dtype=np.int64)
    # rounding.nearest_quotient(sum, 10 x kept), for every board at once
    magnitudes = (np.abs(sums) * 2 + 10 * kept) // (20 * kept)
    datums = 10 * np.where(sums >= 0, magnitudes, -magnitudes)
    return datums.tolist(), _imps(scores - datums[:, None], table)
