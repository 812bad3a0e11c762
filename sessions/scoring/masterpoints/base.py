"""What every federation's club scale works from, and the sharing of tied places.

A session's awards go field by field: a field is the set of pairs whose scores are
compared for one ranking (a Howell; one direction of a two-winner Mitchell; with
several sections, each section's direction as NZ Scorer and Compscore3 award them).
Each federation module turns a field into awards per pair in its own unit (EBU black
points, Bridge NZ hundredths of a C point, ABF and ACBL hundredths of a masterpoint);
awards are whole numbers of that unit.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction

from sessions.scoring.errors import ScoringError
from sessions.scoring.rounding import round_half_away


@dataclass(frozen=True)
class Placing:
    """One pair's place in its field: places run from 1, tied pairs share a number
    (two pairs "3=" both have 3 and the next pair is 5th)."""

    pair: str
    place: int
    boards_played: int | None = None
    is_phantom: bool = False


@dataclass(frozen=True)
class Field:
    """One ranking's pairs. ``tables`` is the tables of its section in play, a half
    table counted whole; ``two_winner`` is a direction of a two-winner movement."""

    name: str
    placings: tuple[Placing, ...]
    tables: int
    two_winner: bool

    @property
    def players(self) -> tuple[Placing, ...]:
        """The pairs who can win: a phantom (a sit-out) neither wins nor counts."""
        return tuple(placing for placing in self.placings if not placing.is_phantom)


@dataclass(frozen=True)
class Award:
    """A pair's award: points in the federation's unit and the type the files write."""

    points: int
    point_type: str


#: The award of a place, given the places its tie group covers (for a scale whose
#: sharing depends on them; the four here look at the place only).
PlaceAward = Callable[[int, range], Fraction]


def shared_awards(players: Iterable[Placing], place_award: PlaceAward,
                  rounding: Callable[[Fraction], int]) -> dict[str, int]:
    """Awards per pair: tied pairs share equally the awards of the places they cover
    (two pairs 3= share the 3rd and 4th awards), then the federation's rounding.
    Places count only the pairs given (phantoms left out), in the order of ``place``."""
    groups: dict[int, list[Placing]] = {}
    players = list(players)
    places = places_among(players)
    for placing in players:
        groups.setdefault(places[placing.pair], []).append(placing)
    awards: dict[str, int] = {}
    for place, group in groups.items():
        covered = range(place, place + len(group))
        total = sum((place_award(each, covered) for each in covered), Fraction(0))
        share = rounding(total / len(group))
        for placing in group:
            awards[placing.pair] = share
    return awards


def places_among(players: list[Placing]) -> dict[str, int]:
    """Each pair's place among the pairs given (a phantom placed above them takes none)."""
    for placing in players:
        if placing.place < 1:
            raise ScoringError(f"pair {placing.pair}: place {placing.place} is not a place")
    ordered = sorted(placing.place for placing in players)
    return {placing.pair: 1 + bisect_left(ordered, placing.place) for placing in players}


def round_half_up(value: Fraction) -> int:
    """Awards are never negative: halves go up (5.5 -> 6)."""
    return round_half_away(value)


def round_to_multiple(value: Fraction, step: int) -> int:
    """To the nearest multiple of step, halves up (NZ's C points in whole hundredths)."""
    return round_half_away(value / step) * step


def third_of(pairs: int) -> int:
    """One third of a field, to the nearest whole number (17 -> 6, 13 -> 4, 11 -> 4)."""
    return round_half_away(Fraction(pairs, 3))
