"""American Contract Bridge League: black points for open club games.

Implements the ACBL Handbook, Chapter 4 (Club Masterpoint Awards), "I. Calculating the
awards" (acbl.org, about-acbl/administration/acbl-handbook): in an open club game the
first place in each group receives 0.10 masterpoint per table (a half table counted
whole; an eight-table Mitchell is two groups of 8 pairs, a five-table Howell one group
of 10 pairs), at most 1.50; second 70% of first, third 50%, fourth 35%, fifth 1/5,
sixth 1/6 and so on; awards go to 40% of the group's pairs, rounded to the nearest
pair with .5 up. Only the section awards of open games are kept here: overall awards
and restricted games need the ACBL's full charts (a stratified session awards each
stratum's group by this rule: masterpoints/stratified.py, RULES 15). No real ACBLscore file is
in tests/data, so the scale is tested against the Handbook's own words only.

Units: hundredths of a masterpoint (80 = 0.80).
"""

from __future__ import annotations

from fractions import Fraction

from sessions.scoring.errors import ScoringError
from sessions.scoring.rounding import round_half_away
from sessions.scoring.masterpoints.base import Award, Field, round_half_up, shared_awards

FEDERATION = "acbl"
NAME = "American Contract Bridge League"
UNIT = "hundredths of a masterpoint (80 = 0.80)"
POINT_TYPE = "BLACK"
#: First place per table and the cap, in hundredths, by scale.
SCALES: dict[str, tuple[int, int]] = {"open": (10, 150)}
#: How pages show an award: decimals of the unit, and the column's name.
SHOWN_PLACES = 2
COLUMN = "Masterpoints"
#: A member's national number as the body issues it (ACBL player numbers: digits, some after a letter; lengths and check
#: digits are not pinned: a number that fails this is surely wrong, one that passes may not be right).
NATIONAL_NUMBER = r"[A-Z]?[0-9]+"
DEFAULT_SCALE = "open"
#: Second, third and fourth place as a share of first; from fifth on, 1/place.
SHARES = {2: Fraction(7, 10), 3: Fraction(1, 2), 4: Fraction(35, 100)}
DEPTH = Fraction(2, 5)


def field_awards(field: Field, scale: str, boards: int) -> dict[str, Award]:
    if scale not in SCALES:
        raise ScoringError(f"ACBL scale {scale!r} is not known: one of {', '.join(SCALES)}")
    per_table, cap = SCALES[scale]
    top = min(per_table * field.tables, cap)
    count = round_half_away(DEPTH * len(field.players))

    def place_award(place: int, covered: range) -> Fraction:
        if place > count:
            return Fraction(0)
        share = Fraction(1) if place == 1 else SHARES.get(place, Fraction(1, place))
        return Fraction(round_half_up(top * share))

    points = shared_awards(field.players, place_award, round_half_up)
    return {pair: Award(value, POINT_TYPE) for pair, value in points.items()}
