"""Seats, sides, and what a board number fixes: the dealer and the vulnerability.

RULES.md section 1: the dealer of board n is N, E, S, W for n mod 4 = 1, 2, 3, 0, and
the vulnerability repeats every 16 boards (1 None, 2 NS, 3 EW, 4 Both, ...).
"""

from __future__ import annotations

from enum import StrEnum

from sessions.scoring.errors import ScoringError


class Side(StrEnum):
    NS = "NS"
    EW = "EW"

    @property
    def other(self) -> Side:
        return Side.EW if self is Side.NS else Side.NS


class Seat(StrEnum):
    N = "N"
    E = "E"
    S = "S"
    W = "W"

    @property
    def side(self) -> Side:
        return Side.NS if self in (Seat.N, Seat.S) else Side.EW

    @property
    def next(self) -> Seat:
        """The seat on this one's left: the next dealer."""
        return _SEATS[(_SEATS.index(self) + 1) % 4]


_SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)

_SEAT_NAMES = {"N": Seat.N, "NORTH": Seat.N, "E": Seat.E, "EAST": Seat.E,
               "S": Seat.S, "SOUTH": Seat.S, "W": Seat.W, "WEST": Seat.W}


class Vulnerability(StrEnum):
    NONE = "None"
    NS = "NS"
    EW = "EW"
    BOTH = "Both"


# Board 1 to 16, in order (RULES.md section 1).
_VULNERABILITY_CYCLE = (
    Vulnerability.NONE, Vulnerability.NS, Vulnerability.EW, Vulnerability.BOTH,
    Vulnerability.NS, Vulnerability.EW, Vulnerability.BOTH, Vulnerability.NONE,
    Vulnerability.EW, Vulnerability.BOTH, Vulnerability.NONE, Vulnerability.NS,
    Vulnerability.BOTH, Vulnerability.NONE, Vulnerability.NS, Vulnerability.EW,
)


def parse_seat(text: str) -> Seat:
    """N/E/S/W or the full word, any case: parse_seat("north") is Seat.N."""
    try:
        return _SEAT_NAMES[text.strip().upper()]
    except KeyError:
        raise ScoringError(f"unknown declarer {text.strip()!r}: use N, E, S or W") from None


def _check_board(board: int) -> None:
    if isinstance(board, bool) or not isinstance(board, int) or board < 1:
        raise ScoringError(f"{board!r} is not a board number: boards are numbered from 1")


def dealer(board: int) -> Seat:
    """The dealer of ``board``: N, E, S, W in turn from board 1."""
    _check_board(board)
    return _SEATS[(board - 1) % 4]


def vulnerability(board: int) -> Vulnerability:
    """The vulnerability of ``board``; board 17 is like board 1."""
    _check_board(board)
    return _VULNERABILITY_CYCLE[(board - 1) % 16]


def is_vulnerable(vul: Vulnerability, seat_or_side: Seat | Side) -> bool:
    """Whether the seat's (or side's) partnership is vulnerable under ``vul``."""
    side = seat_or_side.side if isinstance(seat_or_side, Seat) else Side(seat_or_side)
    return vul is Vulnerability.BOTH or vul.value == side.value
