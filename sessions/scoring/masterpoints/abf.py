"""Australian Bridge Federation: green points for club sessions.

Implements the ABF Masterpoint Manual (Masterpoint Scheme, 10 July 2014 and 8 October
2024 editions): 3.1.1 Session awards (the winners' award from the tables T in the
field and the grade weight W: 0.02WT for a two-winner movement up to 30 tables,
W[1 - exp(-T/32)] above; 0.04WT for a single winner up to 15 tables,
W[1 - exp(-T/16)] above; 3.1.3: T counts a half table as a whole one) and 4.2 Session
awards (placings to the top half of the field, rounding down; runners-up 70% of the
winners' award, place k after that 1/(k-1) of it; ties by 4.4.6, the tied pairs sharing
the places they cover). Compscore3 writes the awards in hundredths of a masterpoint,
each place rounded to the hundredth, a shared award rounded half up (two pairs 3= of
three awards of 0.21: (0.11 + 0) / 2 = 0.055, written 6).

Grade weights: general club sessions (the "Club" scale Compscore3 writes) 1.5,
supervised sessions 0.75, club championships 2.0 (NSW Bridge and Parramatta's
summaries of the Manual); red-point scales are congress events, not club sessions.
Clause 4.2 gives Butler pairs the top third, but Compscore3 gives them the top half
(cobalt_butler_howell.xml, cobalt_notsupported.xml): ClubScore follows the files.
"""

from __future__ import annotations

import math
from fractions import Fraction

from sessions.scoring.errors import ScoringError
from sessions.scoring.masterpoints.base import Award, Field, round_half_up, shared_awards

FEDERATION = "abf"
NAME = "Australian Bridge Federation"
UNIT = "hundredths of a masterpoint (24 = 0.24)"
POINT_TYPE = "GREEN"
#: Grade weight W by scale.
SCALES: dict[str, Fraction] = {
    "club": Fraction(3, 2),
    "supervised": Fraction(3, 4),
    "championship": Fraction(2),
}
#: How pages show an award: decimals of the unit, and the column's name.
SHOWN_PLACES = 2
COLUMN = "Masterpoints"
#: A member's national number as the body issues it (ABF numbers are whole numbers; lengths and check
#: digits are not pinned: a number that fails this is surely wrong, one that passes may not be right).
NATIONAL_NUMBER = r"[0-9]+"
DEFAULT_SCALE = "club"
RUNNER_UP = Fraction(7, 10)


def winners_award(tables: int, weight: Fraction, two_winner: bool) -> Fraction:
    """Clause 3.1.1, in hundredths of a masterpoint (not yet rounded)."""
    if two_winner:
        if tables <= 30:
            return 2 * weight * tables
        return Fraction(100 * float(weight) * (1 - math.exp(-tables / 32)))
    if tables <= 15:
        return 4 * weight * tables
    return Fraction(100 * float(weight) * (1 - math.exp(-tables / 16)))


def field_awards(field: Field, scale: str, boards: int) -> dict[str, Award]:
    if scale not in SCALES:
        raise ScoringError(f"ABF scale {scale!r} is not known: one of {', '.join(SCALES)}")
    top = round_half_up(winners_award(field.tables, SCALES[scale], field.two_winner))
    count = len(field.players) // 2

    def place_award(place: int, covered: range) -> Fraction:
        if place > count:
            return Fraction(0)
        if place == 1:
            return Fraction(top)
        share = RUNNER_UP if place == 2 else Fraction(1, place - 1)
        return Fraction(round_half_up(top * share))

    points = shared_awards(field.players, place_award, round_half_up)
    return {pair: Award(value, POINT_TYPE) for pair, value in points.items()}
