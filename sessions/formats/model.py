"""The neutral parsed model every results-file reader produces.

Plain dataclasses holding what the file says, as published: pair keys tie traveller
lines to pairs, published figures are Decimals exactly as printed (never recomputed),
and anything a reader had to drop or guess is listed in `ParsedEvent.notes`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal


@dataclass
class ParsedPlayer:
    name: str
    national_id: str = ""


@dataclass
class ParsedPair:
    key: str  # unique in the event: "A:1NS" (section, number, direction) or "A:7"
    section: str  # section name ("A" when the file has one unnamed section)
    number: str  # "1", as printed, without direction
    direction: str  # "NS", "EW" or "" (Howell / one field)
    players: list[ParsedPlayer]
    published_total: Decimal | None  # USEBIO TOTAL_SCORE, PBN TotalScoreMP/IMP ...
    published_percentage: Decimal | None
    published_place: str | None  # "3" or "3=" as published
    is_phantom: bool = False
    handicap: Decimal | None = None  # USEBIO HANDICAP (NZ Scorer, BriAn)
    boards_played: int | None = None  # as published, when the file says
    extra: dict[str, str] = field(default_factory=dict)  # other published per-pair figures
    # ClubScore's master point award, in the federation's unit, and its type ("BLACK",
    # "c", "GREEN"): written in USEBIO's MASTER_POINTS (a reader keeps a file's in extra).
    masterpoints: int | None = None
    masterpoint_type: str = ""
    # A procedural penalty's effect on the ranking's figure, negative: percentage points
    # when matchpointed, IMPs otherwise (USEBIO ADJUSTMENT, as RealBridge writes it; PBN's
    # TotalScoreTable column Penalty). None: no penalty.
    adjustment: Decimal | None = None


@dataclass
class ParsedLine:
    ns_pair: str  # pair key
    ew_pair: str  # pair key
    contract: str  # as written ("4S", "3NTX", "1Nx", "PASS", "" when none)
    declarer: str  # "N"/"E"/"S"/"W" or ""
    tricks: int | None
    lead: str
    # NS score normalised: "420", "-100", "PASS" (passed out), "NP" (not played),
    # "A6040" (artificial: NS percent then EW percent, two digits each).
    score: str
    published_ns_points: Decimal | None  # matchpoints / cross-IMPs / Butler IMPs
    published_ew_points: Decimal | None
    published_datum: int | None = None  # e.g. PBN ButlerDatum
    round: int | None = None
    table: int | None = None
    raw_score: str = ""  # the score text exactly as the file wrote it
    note: str = ""  # a per-line note from the file, e.g. USEBIO NOTES "Adjusted score"
    extra: dict[str, str] = field(default_factory=dict)  # e.g. PBN Percentage_NS
    # The published points are the director's own (an "A5050" published at 23 / 11): set
    # by to_engine.mark_assigned_points, or by a reader where a ClubScore file says so.
    # ``score`` stays the adjusted score written on the line.
    assigned: bool = False


@dataclass
class ParsedBoard:
    number: int
    section: str
    lines: list[ParsedLine]
    dealer: str = ""  # "N"/"E"/"S"/"W" when the file says
    vulnerability: str = ""  # "None", "NS", "EW", "Both" when the file says
    deal: str | None = None  # PBN deal string "N:AKQ.. ..." when known
    extra: dict[str, str] = field(default_factory=dict)  # e.g. DoubleDummyTricks


@dataclass
class ParsedEvent:
    source_format: str  # "usebio" | "pbn"
    program: str  # "Compscore3", "EBUScore Pairs", "Ruter", "Magic Contest", ...
    event_type: str  # as written: "MP_PAIRS", "PAIRS", PBN "MatchPoints;MP1" ...
    scoring: str  # "matchpoints" | "cross_imps" | "butler" ("" for hand records)
    title: str
    date: str
    club: str
    pairs: list[ParsedPair]
    boards: list[ParsedBoard]  # one per (section, board number)
    movement: str = ""  # "mitchell" | "howell" | "" (unknown or sections differ)
    notes: list[str] = field(default_factory=list)  # anything dropped or guessed
    section_movements: dict[str, str] = field(default_factory=dict)  # per section
    extra: dict[str, str] = field(default_factory=dict)  # e.g. WINNER_TYPE, Barometer

    def pairs_by_key(self) -> dict[str, ParsedPair]:
        return {pair.key: pair for pair in self.pairs}

    def sections_play_different_deals(self) -> bool:
        """Some board number carries different deals in different sections: those are
        different boards, stored and written apart and never compared across the field."""
        deals: dict[int, set[str]] = {}
        for board in self.boards:
            if board.deal:
                deals.setdefault(board.number, set()).add(board.deal)
        return any(len(found) > 1 for found in deals.values())
