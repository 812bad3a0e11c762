"""Procedural penalties (Law 90) in a pairs session: what a penalty takes off a pair's total.

A procedural penalty is not a score adjustment: it lowers the penalised pair's total
only, never its opponents' score nor the board's matchpoints (or IMPs) for anyone else
(Law 90A; the EBU White Book 8.90; RULES 13). The director gives it

- in matchpoints (a matchpointed session): taken off the pair's matchpoint total;
- in percent of a top (a matchpointed session): that share of the top of one board
  (the pair's own tops over its boards: 25% of a 10 top is 2.5 matchpoints);
- in IMPs (a cross-IMP or Butler session): taken off the pair's IMP total.

Per board or for the session, the loss is the same: the board only says where it was
given. The loss is in the units of the total the ranking shows (a pair that played fewer
boards has its total scaled to the full session first, then loses the penalty whole).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from sessions.scoring.errors import ScoringError
from sessions.scoring.options import Method


class PenaltyUnit(StrEnum):
    MATCHPOINTS = "MP"
    TOP_PERCENT = "TOP"
    IMPS = "IMP"


#: The units a penalty may be given in, by the session's scoring method.
UNITS_BY_METHOD = {
    Method.MATCHPOINTS: (PenaltyUnit.MATCHPOINTS, PenaltyUnit.TOP_PERCENT),
    Method.CROSS_IMPS: (PenaltyUnit.IMPS,),
    Method.BUTLER: (PenaltyUnit.IMPS,),
}

UNIT_NAMES = {PenaltyUnit.MATCHPOINTS: "matchpoints", PenaltyUnit.TOP_PERCENT: "percent of a top",
              PenaltyUnit.IMPS: "IMPs"}


@dataclass(frozen=True)
class Penalty:
    amount: Fraction
    unit: str  # a PenaltyUnit

    def __post_init__(self) -> None:
        if self.unit not in tuple(PenaltyUnit):
            raise ScoringError(f"unknown penalty unit {self.unit!r}: use one of {', '.join(PenaltyUnit)}")
        if self.amount <= 0:
            raise ScoringError(f"a penalty takes something off: {self.amount} is not more than 0")
        if self.unit == PenaltyUnit.TOP_PERCENT and self.amount > 100:
            raise ScoringError(f"a penalty of {self.amount}% of a top is more than a whole top")


def check_unit(unit: str, method: str) -> None:
    """ScoringError unless a penalty in ``unit`` fits a session scored by ``method``."""
    allowed = UNITS_BY_METHOD.get(Method(method), ())
    if unit not in allowed:
        names = " or ".join(UNIT_NAMES[PenaltyUnit(one)] for one in allowed)
        raise ScoringError(
            f"this session is scored in {'matchpoints' if method == Method.MATCHPOINTS else 'IMPs'}: "
            f"give the penalty in {names}, not in {UNIT_NAMES.get(PenaltyUnit(unit), unit)}"
        )


def matchpoint_loss(penalties: Iterable[Penalty], *, tops: Fraction, boards: int) -> Fraction:
    """Matchpoints off a pair's total: its matchpoint penalties, and each percent-of-a-top
    penalty as that share of the pair's top of one board (``tops`` over ``boards``)."""
    loss = Fraction(0)
    for penalty in penalties:
        if penalty.unit == PenaltyUnit.MATCHPOINTS:
            loss += penalty.amount
        elif penalty.unit == PenaltyUnit.TOP_PERCENT:
            loss += penalty.amount / 100 * (tops / boards if boards else 0)
        else:
            raise ScoringError("a penalty in IMPs in a matchpointed session: give it in matchpoints or % of a top")
    return loss


def imp_loss(penalties: Iterable[Penalty]) -> Fraction:
    """IMPs off a pair's total."""
    loss = Fraction(0)
    for penalty in penalties:
        if penalty.unit != PenaltyUnit.IMPS:
            raise ScoringError("a penalty in matchpoints in an IMP session: give it in IMPs")
        loss += penalty.amount
    return loss
