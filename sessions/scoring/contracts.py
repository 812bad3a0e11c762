"""Contracts: level, strain and doubling, and how a director types them.

``parse_contract`` accepts "4S", "3NT", "3N", "6DX", "7NTXX", lower case, the suit
symbols (♠♥♦♣ and the outline forms ♤♡♢♧), spaces between the parts, and "*" / "**"
as the traveller shorthand for X / XX. Anything else raises ScoringError saying what
is wrong with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from sessions.scoring.errors import ScoringError

MAX_TRICKS = 13
BOOK = 6  # tricks declarer needs before the first odd trick counts


class Strain(StrEnum):
    C = "C"
    D = "D"
    H = "H"
    S = "S"
    NT = "NT"

    @property
    def is_minor(self) -> bool:
        return self in (Strain.C, Strain.D)

    @property
    def is_major(self) -> bool:
        return self in (Strain.H, Strain.S)


class Doubling(StrEnum):
    NONE = ""
    DOUBLED = "X"
    REDOUBLED = "XX"

    @property
    def multiplier(self) -> int:
        """How many times the undoubled trick score a contract point is worth."""
        return {Doubling.NONE: 1, Doubling.DOUBLED: 2, Doubling.REDOUBLED: 4}[self]


@dataclass(frozen=True)
class Contract:
    """A final contract, e.g. Contract(4, Strain.S, Doubling.DOUBLED) is 4SX."""

    level: int
    strain: Strain
    doubling: Doubling = Doubling.NONE

    def __post_init__(self) -> None:
        if isinstance(self.level, bool) or not isinstance(self.level, int) or not 1 <= self.level <= 7:
            raise ScoringError(f"{self.level} is not a contract level: levels run from 1 to 7")
        object.__setattr__(self, "strain", Strain(self.strain))
        object.__setattr__(self, "doubling", Doubling(self.doubling))

    @property
    def tricks_needed(self) -> int:
        return self.level + BOOK

    def __str__(self) -> str:
        return f"{self.level}{self.strain}{self.doubling}"


# Symbols first so that the lookup below sees them as one character each.
_STRAIN_WORDS = {
    "C": Strain.C, "♣": Strain.C, "♧": Strain.C,
    "D": Strain.D, "♦": Strain.D, "♢": Strain.D,
    "H": Strain.H, "♥": Strain.H, "♡": Strain.H,
    "S": Strain.S, "♠": Strain.S, "♤": Strain.S,
    "N": Strain.NT, "NT": Strain.NT,
}
_DOUBLING_WORDS = {"": Doubling.NONE, "X": Doubling.DOUBLED, "*": Doubling.DOUBLED,
                   "XX": Doubling.REDOUBLED, "**": Doubling.REDOUBLED}

# Level digits, then the strain (anything up to the doubling), then X/XX/*/**.
_CONTRACT_RE = re.compile(r"(?P<level>\d+)\s*(?P<strain>.*?)\s*(?P<doubling>XX|X|\*\*|\*)?", re.ASCII)

#: What a director may type for a passed-out board.
PASS_WORDS = frozenset({"P", "PASS", "PASSED", "PASSED OUT", "PASSOUT", "ALL PASS"})


def _normalise(text: str) -> str:
    # Emoji suit symbols may carry a variation selector; it is not part of the strain.
    return " ".join(text.replace("\ufe0f", "").upper().split())


def parse_contract(text: str) -> Contract:
    """Parse "4S", "3nt", "6♦X", "7NT XX" ... into a Contract."""
    cleaned = _normalise(text)
    match = _CONTRACT_RE.fullmatch(cleaned)
    if match is None:
        raise ScoringError(f"{text.strip()!r} is not a contract: write the level first, e.g. 4S or 3NT")
    level = int(match["level"])
    if not 1 <= level <= 7:
        raise ScoringError(f"{level} is not a contract level: levels run from 1 to 7")
    strain_text = match["strain"].replace(" ", "")
    if not strain_text:
        raise ScoringError(f"{text.strip()!r} is not a contract: the strain (C, D, H, S or NT) is missing")
    if strain_text not in _STRAIN_WORDS and strain_text.rstrip("X*") in _STRAIN_WORDS:
        raise ScoringError(f"{text.strip()!r} is not a contract: write X for doubled, XX for redoubled")
    if strain_text not in _STRAIN_WORDS:
        raise ScoringError(f"{text.strip()!r} is not a contract: unknown strain {strain_text}")
    return Contract(level, _STRAIN_WORDS[strain_text], _DOUBLING_WORDS[match["doubling"] or ""])


def is_pass(text: str) -> bool:
    """Whether ``text`` is one of the ways of writing a passed-out board."""
    return _normalise(text) in PASS_WORDS


def check_tricks(contract: Contract, tricks: int, declarer: str | None = None) -> None:
    """Refuse a trick count outside 0-13, naming the contract (and declarer if known)."""
    if isinstance(tricks, bool) or not isinstance(tricks, int):
        raise ScoringError(f"tricks must be a whole number, not {tricks!r}")
    if not 0 <= tricks <= MAX_TRICKS:
        by = f" by {declarer}" if declarer else ""
        raise ScoringError(f"{contract}{by} cannot take {tricks} tricks: tricks run from 0 to 13")
