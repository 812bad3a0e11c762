"""English Bridge Union: black (local) points for club sessions.

Implements the EBU Licensing and Master Points Handbook (January 2018 and 2021
editions), chapter 3 (3.5 Tied Positions) and chapter 4 (4.1 Use of the Basic
Scales), the pairs scales for events of 18 to 35 boards, at Club status and the
statuses that multiply it. The Handbook's tables are not reproduced in any public
text the project could read, so the scale is kept as the rule the tables follow,
pinned by the awards EBUScore, ScoreBridge, RealBridge, BBO Extractor, BriAn and
PairsScorer wrote in tests/data/usebio (docs/RULES.md, "Master points"):

- awards go to the top third of each field, to the nearest pair (17 pairs: 6 awards;
  13: 4; a two-winner direction of 9: 3, of 11: 4);
- the last award is one decrement, each place above one decrement more: 6 points in a
  one-winner pairs field, 10 in a direction of a two-winner movement (Club status);
- no award below the status's minimum (6 at Club: the EBU's own answer on its forum,
  "an over-riding minimum of 6 points for any club award, and corresponding minima of
  9, 12, 18, 24" for the other statuses), which also sets each status's multiplier;
- tied pairs share the awards of the places they cover (3= over 24 and 18: 21 each),
  rounded to the nearest black point.

Units: black points, 100 to a master point (the files write 36 for 0.36).
"""

from __future__ import annotations

from fractions import Fraction

from sessions.scoring.errors import ScoringError
from sessions.scoring.masterpoints.base import Award, Field, places_among, round_half_up, shared_awards, third_of

FEDERATION = "ebu"
NAME = "English Bridge Union"
UNIT = "black points (100 = 1 master point)"
POINT_TYPE = "BLACK"
#: Club status and the statuses above it, by the multiplier their minimum award gives.
SCALES: dict[str, Fraction] = {
    "club": Fraction(1),
    "district": Fraction(3, 2),
    "county": Fraction(2),
    "regional": Fraction(3),
    "national": Fraction(4),
}
#: How pages show an award: decimals of the unit, and the column's name.
SHOWN_PLACES = 0
COLUMN = "Black points"
#: A member's national number as the body issues it (EBU numbers are whole numbers; lengths and check
#: digits are not pinned: a number that fails this is surely wrong, one that passes may not be right).
NATIONAL_NUMBER = r"[0-9]+"
DEFAULT_SCALE = "club"
#: Decrement per place at Club status, by the field's kind.
CLUB_DECREMENT = {"one_winner": 6, "two_winner": 10}
CLUB_MINIMUM = 6
#: The board counts whose scale the files pin; other lengths have their own columns.
PINNED_BOARDS = range(18, 36)


def field_awards(field: Field, scale: str, boards: int) -> dict[str, Award]:
    if scale not in SCALES:
        raise ScoringError(f"EBU scale {scale!r} is not known: one of {', '.join(SCALES)}")
    if boards not in PINNED_BOARDS:
        raise ScoringError(
            f"EBU awards for a session of {boards} boards: ClubScore knows the scale for 18 to 35 boards only"
        )
    multiplier = SCALES[scale]
    decrement = CLUB_DECREMENT["two_winner" if field.two_winner else "one_winner"] * multiplier
    minimum = CLUB_MINIMUM * multiplier
    count = third_of(len(field.players))

    def place_award(place: int, covered: range) -> Fraction:
        if place > count:
            return Fraction(0)
        return max(decrement * (count - place + 1), minimum)

    points = shared_awards(field.players, place_award, round_half_up)
    # A pair tied into the awards gets at least the minimum (not pinned by a file: the
    # minimum is "for any club award").
    places = places_among(list(field.players))
    least = round_half_up(minimum)
    return {pair: Award(max(value, least) if places[pair] <= count else value, POINT_TYPE)
            for pair, value in points.items()}
