"""What the USEBIO and PBN writers share: figures, dates, deals, text and sections.

The writers turn a `ParsedEvent` back into a file. Published figures are written to
two decimals, halves away from zero (the engine's one rounding rule); dates are
recognised in the spellings the readers meet and rewritten in each format's own.
"""

from __future__ import annotations

import re
from decimal import Decimal

from sessions.scoring.rounding import round_to_places

from sessions.formats.errors import FormatError
from sessions.formats.model import ParsedEvent
from sessions.formats.usebio import DEFAULT_SECTION as UNNAMED_SECTION  # both readers' name for an unnamed section

SEATS = ("N", "E", "S", "W")
PROGRAM_NAME = "ClubScore"

_DAY_FIRST = re.compile(r"([0-9]{1,2})[/.\-]([0-9]{1,2})[/.\-]([0-9]{4})")  # USEBIO 09/03/2026
_YEAR_FIRST = re.compile(r"([0-9]{4})[.\-/]([0-9]{1,2})[.\-/]([0-9]{1,2})")  # PBN 2013.08.20, ISO
#: Characters no XML 1.0 document may hold, and (with tab, CR, LF) no PBN string.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")


def two_decimals(value: Decimal | None) -> str | None:
    """A published figure as written: "12.50", "-3.00"; None stays None."""
    return None if value is None else str(round_to_places(value, 2))


def points_text(value: Decimal | None, assigned: bool) -> str | None:
    """A line's published points: two decimals, except points a director assigned to more
    places, written exactly (the figure is the director's, not a rounding of ours)."""
    if value is None or not assigned or value == round_to_places(value, 2):
        return two_decimals(value)
    return format(value.normalize(), "f")


def date_parts(text: str) -> tuple[int, int, int] | None:
    """(year, month, day) from "09/03/2026", "5/12/2015", "2013.08.20" or "2025-04-07"."""
    text = text.strip()
    year_first = _YEAR_FIRST.fullmatch(text)
    if year_first:
        year, month, day = (int(part) for part in year_first.groups())
        return year, month, day
    day_first = _DAY_FIRST.fullmatch(text)
    if day_first:
        day, month, year = (int(part) for part in day_first.groups())
        return year, month, day
    return None


def without_control_characters(text: str) -> str:
    """The text with characters XML cannot hold removed (tab, CR and LF stay)."""
    return _CONTROL.sub("", text)


def hands_by_seat(deal: str, where: str) -> dict[str, str]:
    """ "N:AKQ.. ... ... ..." (hands clockwise from the first seat, "-" for an unknown
    hand) as {seat: "AKQ.JT9.8765.432"}; unknown hands are left out."""
    first, separator, hands_text = deal.strip().partition(":")
    hands = hands_text.split()
    malformed_hand = any(hand != "-" and hand.count(".") != 3 for hand in hands)
    if not separator or first.upper() not in SEATS or len(hands) != 4 or malformed_hand:
        raise FormatError(f"{where}: deal {deal!r} is not a PBN deal (\"N:<hand> <hand> <hand> <hand>\")")
    start = SEATS.index(first.upper())
    return {
        SEATS[(start + offset) % 4]: hand
        for offset, hand in enumerate(hands)
        if hand != "-"
    }


def sections_in_order(event: ParsedEvent) -> list[str]:
    """The event's sections as they first appear among its pairs, then its boards."""
    sections = [pair.section for pair in event.pairs] + [board.section for board in event.boards]
    return list(dict.fromkeys(sections))


def sections_need_names(sections: list[str]) -> bool:
    """Whether a file must name its sections: more than one, or one the readers would not guess."""
    return len(sections) > 1 or sections not in ([], [UNNAMED_SECTION])
