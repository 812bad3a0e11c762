"""The result notations a director types on a traveller line (RULES.md section 2).

``parse_result(text, board=None)`` reads one line into a frozen result; letters may be
in any case and spaces are free. The forms:

=======================================  ==============================================
played: contract, declarer, outcome      ``4SX N 10`` (tricks taken, 0-13),
                                         ``4S N =``, ``4H S -1``, ``4H S +1``; or the
                                         outcome before the declarer: ``3NT= W``,
                                         ``3NT=W``, ``4H-1 S``, ``4H+1 N``. The
                                         contract is read by ``parse_contract`` (suit
                                         symbols, N for NT, X/XX or */**); the
                                         declarer is N E S W or the word; "by" may
                                         come before it (``4S by N 10``).
passed out                               ``P``, ``PASS``, ``passed out``, ``all pass``
assigned score (Law 12C1)                ``NS 420``, ``EW 100`` (= NS -100), ``NS -50``
artificial adjusted score (Law 12C2)     ``A60/40``, ``A6040``, ``A 50/50``, ``A40/40``,
                                         ``A60/60``, NS first; or ``Ave+/Ave-``,
                                         ``Ave/Ave-`` ... NS first; ``Ave`` alone is
                                         A50/50. ``Ave+`` alone is refused: it does
                                         not say what the other side gets.
weighted score (Law 12C1c)               ``W`` then weight and assigned score per part,
                                         separated by commas or semicolons:
                                         ``W 2/3 NS 620, 1/3 EW 100``; a weight is a
                                         fraction (2/3), a percentage (40%) or a
                                         decimal (0.4); the weights must sum to 1.
points assigned by the director          ``MP 23/11`` (matchpoints, NS first),
                                         ``IMP 3/-3`` (IMPs); figures may be decimal
                                         (``MP 23.5/10.5``). The adjusted score the
                                         director wrote may come first, shown on the
                                         traveller: ``A50/50 MP 23/11``, ``NS 420 MP
                                         20/14``. The line is compared with no other.
not played                               ``NP``, ``not played``
=======================================  ==============================================

An assigned score (alone or in a weighted score) must be one that some contract can
produce (current laws, any contract, doubling and trick count); with a board number,
one that can be produced at that board's vulnerability (on board 1, none vulnerable,
NS 620 is refused). Impossible played outcomes are refused with the reason.

``format_result`` writes the house short form, which ``parse_result`` reads back:
contract, declarer, then the outcome relative to the contract: ``4SX N =``,
``4H S -1``, ``3NT W +1``; ``PASS``; ``NS 420`` / ``EW 100``; ``A60/40``;
``W 2/3 NS 620, 1/3 EW 100``; ``A50/50 MP 23/11``; ``NP``.

``parse_lead`` reads an opening lead, suit then card or card then suit, in letters or
suit symbols (``HK``, ``kh``, ``♥K``, ``S10``, ``10s``), into the house form ``HK``/``ST``.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import cache
from typing import NoReturn, Union

from sessions.scoring.boards import Seat, Side, Vulnerability, is_vulnerable, parse_seat, vulnerability
from sessions.scoring.contracts import MAX_TRICKS, Contract, Doubling, Strain, check_tricks, is_pass, parse_contract
from sessions.scoring.deal_score import deal_score
from sessions.scoring.errors import ScoringError
from sessions.scoring.scores import NOT_PLAYED, Artificial, AssignedPoints, LineScore, NotPlayed, Weighted


@dataclass(frozen=True)
class Played:
    """A contract played to a finish: ``tricks`` is the number declarer took (0-13)."""

    contract: Contract
    declarer: Seat
    tricks: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "declarer", Seat(self.declarer))
        check_tricks(self.contract, self.tricks, self.declarer)

    @property
    def relative(self) -> int:
        """Tricks over (positive) or under (negative) the contract; 0 = made exactly."""
        return self.tricks - self.contract.tricks_needed


@dataclass(frozen=True)
class PassedOut:
    """The board was passed out: 0 for both sides."""


PASSED_OUT = PassedOut()


@dataclass(frozen=True)
class Assigned:
    """An assigned score (Law 12C1), from NS's point of view."""

    ns_score: int

    def __post_init__(self) -> None:
        check_producible(self.ns_score)


Result = Union[Played, PassedOut, Assigned, Artificial, Weighted, AssignedPoints, NotPlayed]

# --- which scores a deal can produce ----------------------------------------------


@cache
def _declarer_scores(vulnerable: bool) -> frozenset[int]:
    """Every score a declaring side can get at this vulnerability (current laws)."""
    return frozenset(
        deal_score(Contract(level, strain, doubling), tricks, vulnerable)
        for level in range(1, 8)
        for strain in Strain
        for doubling in Doubling
        for tricks in range(MAX_TRICKS + 1)
    )


@cache
def _ns_scores(vul: Vulnerability) -> frozenset[int]:
    """Every NS score a board with this vulnerability can produce (0 for a pass-out)."""
    ns_declares = _declarer_scores(is_vulnerable(vul, Side.NS))
    ew_declares = _declarer_scores(is_vulnerable(vul, Side.EW))
    return ns_declares | {-score for score in ew_declares} | {0}


def producible_ns_scores(board: int | None = None) -> frozenset[int]:
    """NS scores some result can produce: on ``board``, or on any board if None."""
    if board is not None:
        return _ns_scores(vulnerability(board))
    return frozenset().union(*(_ns_scores(vul) for vul in Vulnerability))


def check_producible(ns_score: int, board: int | None = None) -> None:
    """Refuse an assigned NS score that no contract can produce (on this board)."""
    if isinstance(ns_score, bool) or not isinstance(ns_score, int):
        raise ScoringError(f"an assigned score must be a whole number of points, not {ns_score!r}")
    if ns_score in producible_ns_scores(board):
        return
    where = f" on board {board} ({vulnerability(board)} vulnerable)" if board is not None else ""
    raise ScoringError(f"NS {ns_score} is not a score any contract can produce{where}")


# --- parsing ------------------------------------------------------------------------

_SEAT = r"NORTH|EAST|SOUTH|WEST|[NESW]"
_RELATIVE = r"=|[+-]\s*\d+"
# The contract is the shortest leading text after which a declarer and an outcome fit;
# parse_contract then reads it (and explains what is wrong with it).
_CONTRACT = r"\d+\s*\S+?(?:\s+(?:XX|X|\*\*|\*))?"  # spaces only before the level's X/XX
_PLAYED_RE = re.compile(
    rf"(?P<contract>{_CONTRACT})\s*(?:"
    rf"(?P<out1>{_RELATIVE})\s*(?:BY\s+)?(?P<seat1>{_SEAT})"
    rf"|(?:BY\s+)?(?P<seat2>{_SEAT})\s*(?P<out2>{_RELATIVE}|\d+))",
    re.ASCII,
)
_LOOSE_PLAYED_RE = re.compile(rf"(?P<contract>\d\S*)\s+(?:BY\s+)?(?P<seat>\S+?)\s*(?P<out>{_RELATIVE}|\d+)", re.ASCII)
_NO_OUTCOME_RE = re.compile(rf"{_CONTRACT}\s*(?:BY\s+)?(?:{_SEAT})", re.ASCII)
_ASSIGNED_RE = re.compile(r"(?P<side>NS|EW|N/S|E/W|N-S|E-W)\s*(?P<score>[+-]?\s*\d+)", re.ASCII)
_ARTIFICIAL_RE = re.compile(r"A\s*(?P<ns>\d\d)\s*/?\s*(?P<ew>\d\d)", re.ASCII)
_AVE_PAIR_RE = re.compile(r"AVE\s*(?P<ns>[+-]?)\s*/\s*AVE\s*(?P<ew>[+-]?)", re.ASCII)
_WEIGHTED_RE = re.compile(r"(?:W|WEIGHTED)\s+(?P<parts>.+)", re.ASCII)
_WEIGHT_PART_RE = re.compile(r"(?P<weight>\d+\s*/\s*\d+|\d+(?:\.\d+)?\s*%|\d*\.\d+|1)\s+(?P<score>.+)", re.ASCII)
_FIGURE = r"[+-]?\s*(?:\d+(?:\.\d*)?|\.\d+)"
_POINTS_RE = re.compile(
    rf"(?:(?P<ruling>.*?)\s*)?\b(?P<unit>MPS?|IMPS?)\s*(?P<ns>{_FIGURE})\s*/\s*(?P<ew>{_FIGURE})", re.ASCII,
)
_NOT_PLAYED_WORDS = frozenset({"NP", "NOT PLAYED", "N/P"})
_AVE_PERCENT = {"+": 60, "": 50, "-": 40}

_EXAMPLES = "e.g. 4S N 10, 3NT= W, 4H S -1, PASS, NS 420, A60/40, W 2/3 NS 620, 1/3 EW 100, MP 23/11 or NP"


def _normalise(text: str) -> str:
    return " ".join(text.replace("\ufe0f", "").upper().split())


def _tricks_from_outcome(contract: Contract, seat: Seat, outcome: str) -> int:
    """Total tricks from "10", "=", "+2" or "-3", refusing impossible outcomes."""
    outcome = outcome.replace(" ", "")
    if outcome == "=":
        return contract.tricks_needed
    if outcome[0] not in "+-":
        return int(outcome)
    change = int(outcome)
    name = f"{contract} by {seat}"
    if change > 0 and contract.level == 7:
        raise ScoringError(f"{name} cannot make an overtrick: a 7-level contract needs all 13 tricks")
    most_over = MAX_TRICKS - contract.tricks_needed
    if change > most_over:
        raise ScoringError(f"{name} cannot make {change} overtricks: at most {most_over}")
    if -change > contract.tricks_needed:
        raise ScoringError(
            f"{name} cannot go down {-change}: at most {contract.tricks_needed} undertricks"
        )
    return contract.tricks_needed + change


def _parse_played(text: str, original: str) -> Played:
    match = _PLAYED_RE.fullmatch(text)
    if match is None:
        _explain_unreadable_played(text, original)
    contract = parse_contract(match["contract"])
    seat = parse_seat(match["seat1"] or match["seat2"])
    tricks = _tricks_from_outcome(contract, seat, match["out1"] or match["out2"])
    return Played(contract, seat, tricks)


def _explain_unreadable_played(text: str, original: str) -> NoReturn:
    """Raise the most helpful error for a line that starts like a contract."""
    loose = _LOOSE_PLAYED_RE.fullmatch(text)
    if loose is not None:
        parse_contract(loose["contract"])
        parse_seat(loose["seat"])
    if _NO_OUTCOME_RE.fullmatch(text):
        raise ScoringError(f"{original.strip()!r} has no outcome: add the tricks taken (10), = or +1 / -1")
    raise ScoringError(f"{original.strip()!r} is not a result: write {_EXAMPLES}")


def _parse_assigned(match: re.Match[str], board: int | None) -> int:
    """The NS score of "NS 420" / "EW 100", checked against the board."""
    score = int(match["score"].replace(" ", ""))
    ns_score = score if match["side"].startswith("N") else -score
    check_producible(ns_score, board)
    return ns_score


def _parse_weight(text: str) -> Fraction:
    text = text.replace(" ", "")
    if text.endswith("%"):
        return Fraction(text[:-1]) / 100
    numerator, _, denominator = text.partition("/")
    if denominator and int(denominator) == 0:
        raise ScoringError(f"the weight {text} divides by 0: write a fraction such as 2/3, or a percentage")
    return Fraction(text)


def _parse_weighted(parts_text: str, board: int | None) -> Weighted:
    parts = []
    for part in re.split(r"\s*[,;]\s*", parts_text.strip()):
        match = _WEIGHT_PART_RE.fullmatch(part)
        assigned = _ASSIGNED_RE.fullmatch(match["score"]) if match else None
        if match is None or assigned is None:
            raise ScoringError(
                f"{part!r} is not a part of a weighted score: write a weight and an assigned "
                "score, e.g. W 2/3 NS 620, 1/3 EW 100"
            )
        parts.append((_parse_weight(match["weight"]), _parse_assigned(assigned, board)))
    return Weighted(tuple(parts))


def _parse_points(match: re.Match[str], text: str, board: int | None) -> AssignedPoints:
    """ "A50/50 MP 23/11": the director's points, after the adjusted score shown (if any)."""
    ruling: Artificial | int | None = None
    if match["ruling"]:
        written = parse_result(match["ruling"], board)
        if isinstance(written, Assigned):
            ruling = written.ns_score
        elif isinstance(written, Artificial):
            ruling = written
        else:
            raise ScoringError(
                f"{text.strip()!r}: only an adjusted score (A50/50, NS 420) may come before the points assigned"
            )
    unit = "IMP" if match["unit"].startswith("I") else "MP"
    ns_points, ew_points = (Fraction(match[side].replace(" ", "")) for side in ("ns", "ew"))
    return AssignedPoints(ns_points, ew_points, unit=unit, ruling=ruling)


def parse_result(text: str, board: int | None = None) -> Result:
    """Read a traveller line's result; see the module docstring for the forms."""
    cleaned = _normalise(text)
    if not cleaned:
        raise ScoringError(f"no result entered: write {_EXAMPLES}")
    if board is not None:
        vulnerability(board)  # refuses a bad board number before anything else
    if match := _POINTS_RE.fullmatch(cleaned):
        return _parse_points(match, text, board)
    if cleaned in _NOT_PLAYED_WORDS:
        return NOT_PLAYED
    if is_pass(cleaned):
        return PASSED_OUT
    if cleaned[0] in string.digits:
        return _parse_played(cleaned, text)
    if match := _ASSIGNED_RE.fullmatch(cleaned):
        return Assigned(_parse_assigned(match, board))
    if match := _ARTIFICIAL_RE.fullmatch(cleaned):
        return Artificial(int(match["ns"]), int(match["ew"]))
    if match := _AVE_PAIR_RE.fullmatch(cleaned):
        return Artificial(_AVE_PERCENT[match["ns"]], _AVE_PERCENT[match["ew"]])
    if cleaned == "AVE":
        return Artificial(50, 50)
    if cleaned in ("AVE+", "AVE-"):
        raise ScoringError(
            f"{text.strip()!r} does not say what the other side gets: "
            "write both, NS first, e.g. Ave+/Ave- or A60/40"
        )
    if match := _WEIGHTED_RE.fullmatch(cleaned):
        return _parse_weighted(match["parts"], board)
    raise ScoringError(f"{text.strip()!r} is not a result: write {_EXAMPLES}")


# --- scoring and formatting -------------------------------------------------------


def ns_score(result: Result, board: int, era: str = "current") -> LineScore:
    """The NS score used to compare this result with others on ``board``.

    A played, passed-out or assigned result gives an int; an artificial, weighted or
    not-played result is returned as it is, for the comparison to handle. ``era``:
    the laws the deal is scored under (deal_score.ERAS).
    """
    vul = vulnerability(board)
    if isinstance(result, Played):
        score = deal_score(result.contract, result.tricks, is_vulnerable(vul, result.declarer), era)
        return score if result.declarer.side is Side.NS else -score
    if isinstance(result, PassedOut):
        return 0
    if isinstance(result, Assigned):
        check_producible(result.ns_score, board)
        return result.ns_score
    if isinstance(result, Weighted):
        for _, score in result.parts:
            check_producible(score, board)
        return result
    if isinstance(result, AssignedPoints):
        if isinstance(result.ruling, int):
            check_producible(result.ruling, board)
        return result
    if isinstance(result, (Artificial, NotPlayed)):
        return result
    raise ScoringError(f"{result!r} is not a result")


_SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
_LEAD_RE = re.compile(r"(?P<suit>[SHDC])(?P<rank>10|[AKQJT2-9])|(?P<rank2>10|[AKQJT2-9])(?P<suit2>[SHDC])")


def parse_lead(text: str) -> str:
    """An opening lead in the house form ("HK", "ST"); "" for no lead; ScoringError if not a card."""
    letters = "".join(_SUIT_SYMBOLS.get(char, char) for char in text.replace("\ufe0f", "")).upper()
    letters = "".join(letters.split())
    if not letters:
        return ""
    match = _LEAD_RE.fullmatch(letters)
    if match is None:
        raise ScoringError(f"{text.strip()!r} is not a card: write the suit then the card, e.g. HK or S4")
    suit, rank = match["suit"] or match["suit2"], match["rank"] or match["rank2"]
    return suit + ("T" if rank == "10" else rank)


def format_assigned(ns_score: int) -> str:
    """An assigned score in the house form: "NS 420", "EW 100"."""
    return f"NS {ns_score}" if ns_score >= 0 else f"EW {-ns_score}"


def _format_relative(played: Played) -> str:
    return "=" if played.relative == 0 else f"{played.relative:+d}"


def format_result(result: Result) -> str:
    """The house short form of a result (see the module docstring); parse_result reads it back."""
    if isinstance(result, Played):
        return f"{result.contract} {result.declarer} {_format_relative(result)}"
    if isinstance(result, PassedOut):
        return "PASS"
    if isinstance(result, Assigned):
        return format_assigned(result.ns_score)
    if isinstance(result, Artificial):
        return f"A{result.ns_percent}/{result.ew_percent}"
    if isinstance(result, Weighted):
        parts = (f"{Fraction(weight)} {format_assigned(score)}" for weight, score in result.parts)
        return "W " + ", ".join(parts)
    if isinstance(result, AssignedPoints):
        return format_points(result)
    if isinstance(result, NotPlayed):
        return "NP"
    raise ScoringError(f"{result!r} is not a result")


def format_figure(value: Fraction) -> str:
    """A figure as decimals, exactly when it has an exact decimal form ("23", "10.5", "-3");
    else to 4 places (an assigned figure is typed or read as a decimal: always exact)."""
    if value.denominator == 1:
        return str(value.numerator)
    for places in range(1, 9):
        scaled = value * 10**places
        if scaled.denominator == 1:
            return str(Decimal(scaled.numerator).scaleb(-places))
    return str(round(Decimal(value.numerator) / value.denominator, 4))


def format_points(points: AssignedPoints) -> str:
    """ "MP 23/11", "IMP 3/-3", "A50/50 MP 23/11": the ruling shown first when there is one."""
    figures = f"{points.unit} {format_figure(points.ns_points)}/{format_figure(points.ew_points)}"
    if points.ruling is None:
        return figures
    ruling = points.ruling
    shown = format_assigned(ruling) if isinstance(ruling, int) else format_result(ruling)
    return f"{shown} {figures}"
