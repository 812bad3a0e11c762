"""International Match Points: converting a point difference to IMPs.

The tables are those of the reference text (seeds/000, "International Match Points"
and its history section):

- ``"wbf"``: the WBF table effective 1 September 1962, still current (Law 78B);
  0-10 = 0, 20-40 = 1 ... 4000 and more = 24. The default.
- ``"1961"``: the 1961 revision, up to 25.
- ``"1948"``: the 1948 Copenhagen table, up to 15.
- ``"emp1938"``: the original European Match Points of Oslo 1938, up to 12
  (10-30 = 1: any difference of 10 or more scores).

Each table is stored as the lower edge of every band, index = IMPs, so
``IMP_TABLES["wbf"][3] == 90``: a difference of 90 or more (and below the next edge)
is worth 3 IMPs. Deal scores are multiples of 10, so every difference the engine
meets falls on the table's steps; a difference between two steps (say 15) scores the
band whose lower edge it has passed (0 here), which is what "from ... to ..." reads as.
The 1948 table in the seed jumps from "20-40 = 1" to "70-130 = 2"; read by lower
edges, 50 and 60 score 1.
"""

from __future__ import annotations

from bisect import bisect_right
from fractions import Fraction
from numbers import Rational

from sessions.scoring.errors import ScoringError

#: Lower edge of each IMP band, per table; the index is the number of IMPs.
IMP_TABLES: dict[str, tuple[int, ...]] = {
    "wbf": (
        0, 20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600,
        750, 900, 1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000,
    ),
    "1961": (
        0, 20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600,
        700, 800, 900, 1050, 1200, 1350, 1500, 1750, 2000, 2250, 2500, 3000, 3500,
    ),
    "1948": (
        0, 20, 70, 140, 220, 350, 500, 750, 1000, 1250, 1500, 2000, 2500, 3000, 3500, 4000,
    ),
    "emp1938": (0, 10, 40, 70, 110, 190, 300, 400, 500, 600, 750, 1500, 2000),
}

DEFAULT_IMP_TABLE = "wbf"


def imp_table(table: str = DEFAULT_IMP_TABLE) -> tuple[int, ...]:
    """The lower band edges of ``table``; an unknown name raises ScoringError."""
    try:
        return IMP_TABLES[table]
    except KeyError:
        known = ", ".join(IMP_TABLES)
        raise ScoringError(f"unknown IMP table {table!r}: use one of {known}") from None


def imps(difference: int | Fraction, table: str = DEFAULT_IMP_TABLE) -> int:
    """Signed IMPs for a point difference: imps(-720) == -12 on the WBF table."""
    edges = imp_table(table)
    if isinstance(difference, bool) or not isinstance(difference, Rational):
        raise ScoringError(f"an IMP difference must be a whole or exact number, not {difference!r}")
    # bisect_right counts the edges at or below the size of the swing; band = count - 1.
    size = bisect_right(edges, abs(difference)) - 1
    return size if difference >= 0 else -size


def imps_lookup(table: str = DEFAULT_IMP_TABLE) -> dict[int, int]:
    """Signed IMPs of every whole difference within the table's last edge, built once.

    A dictionary look-up is several times cheaper than imps(): the engine's hot loops
    use it, with ``max_imps`` for the differences beyond the last edge.
    """
    lookup = _LOOKUPS.get(table)
    if lookup is None:
        edges = imp_table(table)
        lookup = {}
        for size, (low, high) in enumerate(zip(edges, edges[1:] + (edges[-1] + 1,))):
            for difference in range(low, high):
                lookup[difference] = size
                lookup[-difference] = -size
        _LOOKUPS[table] = lookup
    return lookup


_LOOKUPS: dict[str, dict[int, int]] = {}


def max_imps(table: str = DEFAULT_IMP_TABLE) -> int:
    """The most IMPs one board can give on ``table`` (24 on the WBF table)."""
    return len(imp_table(table)) - 1
