"""Master points in a stratified session (RULES 15): each stratum awards its own places.

Stratum A is the whole field; stratum B's group is the pairs of B and below, and so on.
Each group is awarded by the federation's own field rule as if it were the field: its
places among its pairs (ties kept), its depth from its own number of pairs, and its
share of the section's tables (a Mitchell direction of 8 tables whose B group holds 5
pairs counts 5 tables; a Howell of 10 pairs whose C group holds 4 counts 2; a half table
whole), as the ACBL Handbook bases every section award on "the number of pairs in each
group". A pair ranked in several strata receives only its highest award (the ACBL's and
the EBU clubs' rule: one award a pair, the most beneficial).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from sessions.scoring.errors import ScoringError
from sessions.scoring.masterpoints.base import Award, Field

#: A federation's awards (its scale chosen) for a list of fields.
FieldsAwards = Callable[[list[Field]], dict[str, Award]]


def stratum_group(field: Field, pairs: set[str]) -> Field:
    """The field cut to ``pairs`` (a phantom, who never counts, left out), with its share of the tables."""
    placings = tuple(placing for placing in field.placings if placing.pair in pairs and not placing.is_phantom)
    whole = len(field.players)
    tables = math.ceil(field.tables * len(placings) / whole) if whole else 0
    return replace(field, placings=placings, tables=tables)


def stratified_awards(
    *, award: FieldsAwards, fields: list[Field], strata: Mapping[str, str], order: Sequence[str],
) -> dict[str, Award]:
    """Every pair's highest award over the strata it is ranked in. ``strata`` maps a pair
    to its (lowest) stratum, ``order`` lists the strata from A; a pair not in ``strata``
    is in A. ``award`` awards a list of fields (the federation and scale already chosen)."""
    if not order:
        raise ScoringError("no strata")
    unknown = sorted(set(strata.values()) - set(order))
    if unknown:
        raise ScoringError(f"no stratum {unknown[0]!r} (strata {', '.join(order)})")
    rank = {letter: index for index, letter in enumerate(order)}
    best: dict[str, Award] = {}
    for index in range(len(order)):
        groups = []
        for field in fields:
            members = {placing.pair for placing in field.players if rank[strata.get(placing.pair, order[0])] >= index}
            if members:
                groups.append(stratum_group(field, members))
        for pair, won in award(groups).items():
            if pair not in best or won.points > best[pair].points:
                best[pair] = won
    return best

