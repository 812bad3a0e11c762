"""Bridge NZ: C points for club sessions.

Implements the New Zealand Bridge Manual (effective 12 May 2020), Part E, Master Point
Regulations, the club-session C point awards: the winners of each field (each
direction, each section) receive 40 C points and the pairs below them a proportion of
40, down to the top third of the field (with 15 tables the top five pairs in each
direction win points). How the proportion runs and how ties are shared is pinned by
NZ Scorer's awards in tests/data/usebio (docs/RULES.md, "Master points"):

- the number of awards is a third of the field's pairs to the nearest pair (9: 3;
  11: 4; 13: 4; 14: 5);
- place k of n awards receives 40 x (n - k + 1) / n C points, rounded to the nearest
  whole C point (n = 3: 4000, 2700, 1300 hundredths);
- tied pairs share the awards of the places they cover, to the nearest whole C point.
  Not pinned: a tie straddling the last award. NZ Scorer gave two pairs 4= of 13 (4
  awards: 1000 and nothing to share) 600 each, which no sharing rule the project could
  find explains (straight sharing gives 500, the 5-award scale 1200); ClubScore shares
  straight, and tests/formats/test_masterpoint_files.py names the difference.

Units: hundredths of a C point (4000 for a win); 100 C points make a B point.
"""

from __future__ import annotations

from fractions import Fraction

from sessions.scoring.errors import ScoringError
from sessions.scoring.masterpoints.base import Award, Field, round_to_multiple, shared_awards, third_of

FEDERATION = "nzb"
NAME = "Bridge NZ"
UNIT = "hundredths of a C point (4000 = 40 C points)"
POINT_TYPE = "c"
#: The winner's award by scale (club sessions only: tournaments award A and B points).
SCALES: dict[str, int] = {"club": 4000}
#: How pages show an award: decimals of the unit, and the column's name.
SHOWN_PLACES = 2
COLUMN = "C points"
#: A member's national number as the body issues it (Bridge NZ numbers are whole numbers; lengths and check
#: digits are not pinned: a number that fails this is surely wrong, one that passes may not be right).
NATIONAL_NUMBER = r"[0-9]+"
DEFAULT_SCALE = "club"
ROUND_TO = 100


def field_awards(field: Field, scale: str, boards: int) -> dict[str, Award]:
    if scale not in SCALES:
        raise ScoringError(f"Bridge NZ scale {scale!r} is not known: one of {', '.join(SCALES)}")
    top = SCALES[scale]
    count = third_of(len(field.players))

    def place_award(place: int, covered: range) -> Fraction:
        if place > count:
            return Fraction(0)
        return Fraction(round_to_multiple(Fraction(top * (count - place + 1), count), ROUND_TO))

    points = shared_awards(field.players, place_award, lambda value: round_to_multiple(value, ROUND_TO))
    return {pair: Award(value, POINT_TYPE) for pair, value in points.items()}
