"""What a traveller line holds once it is scored for comparison.

A board's line is compared by its NS score. Besides a plain number, a director can
enter an artificial adjusted score (Law 12C2), a weighted score (Law 12C1c),
matchpoints or IMPs of their own (AssignedPoints) or "not played". These small frozen types are shared by the notation parser and the
pairs scoring (matchpoints, cross-IMPs, Butler).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Union

from sessions.scoring.errors import ScoringError

#: The percentages an artificial adjusted score may give one side (Ave-, Ave, Ave+).
ARTIFICIAL_PERCENTAGES = (30, 40, 50, 60, 70)


@dataclass(frozen=True)
class Artificial:
    """Artificial adjusted score, NS percentage first: A60/40 is Artificial(60, 40)."""

    ns_percent: int
    ew_percent: int

    def __post_init__(self) -> None:
        for side, value in (("NS", self.ns_percent), ("EW", self.ew_percent)):
            if value not in ARTIFICIAL_PERCENTAGES:
                raise ScoringError(
                    f"{value}% is not an artificial adjusted score for {side}: "
                    "use 60 (Ave+), 50 (Ave) or 40 (Ave-)"
                )


@dataclass(frozen=True)
class Weighted:
    """Weighted score: NS scores with weights summing to 1, e.g. 2/3 of 620, 1/3 of -100."""

    parts: tuple[tuple[Fraction, int], ...]

    def __post_init__(self) -> None:
        if not self.parts:
            raise ScoringError("a weighted score needs at least one component")
        if any(weight <= 0 for weight, _ in self.parts):
            raise ScoringError("every weight of a weighted score must be positive")
        total = sum((Fraction(weight) for weight, _ in self.parts), Fraction(0))
        if total != 1:
            raise ScoringError(f"the weights of a weighted score sum to {total}, not 1")


#: The units a director may assign points in: matchpoints, or IMPs (cross-IMPs or Butler).
POINT_UNITS = ("MP", "IMP")


@dataclass(frozen=True)
class AssignedPoints:
    """Points a director assigned on a line directly, NS first: the line is compared with
    no other, and its pairs get exactly these figures (RULES 5). ``unit`` is "MP"
    (matchpoints on the board's top as the line is shown) or "IMP" (the line's
    cross-IMPs or Butler IMPs). ``ruling`` is the adjusted score the director wrote on
    the traveller, if any (A50/50, or an NS score): shown only, never compared."""

    ns_points: Fraction
    ew_points: Fraction
    unit: str = "MP"
    ruling: Artificial | int | None = None

    def __post_init__(self) -> None:
        if self.unit not in POINT_UNITS:
            raise ScoringError(f"assigned points are matchpoints (MP) or IMPs (IMP), not {self.unit!r}")
        for side, value in (("NS", self.ns_points), ("EW", self.ew_points)):
            if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
                raise ScoringError(f"the {side} points assigned must be a number, not {value!r}")
            if self.unit == "MP" and value < 0:
                raise ScoringError(f"{side} cannot be assigned {value} matchpoints: matchpoints are never negative")
        object.__setattr__(self, "ns_points", Fraction(self.ns_points))
        object.__setattr__(self, "ew_points", Fraction(self.ew_points))

    def check_top(self, top: Fraction, where: str = "") -> None:
        """Refuse matchpoints above the board's ``top`` (what the line is shown out of)."""
        for side, value in (("NS", self.ns_points), ("EW", self.ew_points)):
            if value > top:
                raise ScoringError(
                    f"{where}{side} cannot be assigned {float(value):g} matchpoints: the board's top is {float(top):g}"
                )


@dataclass(frozen=True)
class NotPlayed:
    """The board was not played by these pairs: it is removed for both."""


NOT_PLAYED = NotPlayed()

#: A line's score for comparison: an NS score in points, or one of the special kinds.
LineScore = Union[int, Artificial, Weighted, AssignedPoints, NotPlayed]
