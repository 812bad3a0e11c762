"""Helpers both readers share: numbers as published, score texts, pair keys, movements,
the limits every number read from a file is held to, and the check of each line's score.

Numbers are read with ASCII digits only ("²" and "٣" are digits to str.isdigit, not to
a results file), never more than a few digits long (Python's int() refuses texts of over
4,300 digits), and within the limits below: the same on every database, checked before
anything is stored, each refused with one plain message.
"""

from __future__ import annotations

import codecs
import functools
import re
from decimal import Decimal, InvalidOperation

from sessions.scoring import boards as engine_boards
from sessions.scoring.contracts import MAX_TRICKS, is_pass, parse_contract
from sessions.scoring.deal_score import deal_score
from sessions.scoring.notation import producible_ns_scores

from sessions.formats.conventions import carried_era
from sessions.formats.errors import FormatError
from sessions.formats.model import ParsedEvent, ParsedLine

#: Board numbers run from 1 to MAX_BOARD_NUMBER (far above any real session; a board
#: number is a PositiveSmallIntegerField, at most 32767 on PostgreSQL).
MAX_BOARD_NUMBER = 999
#: Pairs, tables and rounds are numbered from 1 to this, for the same reasons.
MAX_PAIR_NUMBER = 999
MAX_TABLE_NUMBER = 999
MAX_ROUND_NUMBER = 999

_ARTIFICIAL_SPLIT = re.compile(r"A([0-9]{1,2})\s*[A/\- ]\s*A?([0-9]{1,2})")  # A60A40, A60/40, A60-40
_ARTIFICIAL_JOINED = re.compile(r"A([0-9]{2})([0-9]{2})")  # A6040
#: A whole number as a results file writes one: ASCII digits, at most nine of them.
_SIGNED_INTEGER = re.compile(r"[+-]?[0-9]{1,9}")
_DIGITS = re.compile(r"[0-9]+")
#: A published figure: "52.63", "-3", ".5"; no exponent, NaN or infinity.
_DECIMAL = re.compile(r"[+-]?(?:[0-9]{1,12}(?:\.[0-9]{0,12})?|\.[0-9]{1,12})")
PASSED_OUT_CONTRACTS = {"PASS", "P", "AP", "ALLPASS", "ALL PASS", "PASSED", "PO"}
NOT_PLAYED_TEXTS = {"NP", "NOT PLAYED", "N/P"}
#: What a declared character set must decode like: ASCII as ASCII. Refuses UTF-16/32,
#: UTF-7 ("+AGE-" is "a"), EBCDIC, the escape codecs ("\\u0041" is "A"), IDNA
#: ("xn--ls8h" is an emoji), and codecs that are no text encoding ("undefined", "zlib").
_ASCII_PROBE = bytes(range(128)).replace(b"\\", b"") + b"\\u0041 +AGE- .xn--ls8h."


def shown(text: str, limit: int = 24) -> str:
    """``text`` for a message: quoted, and cut short when long (a 5,000-digit number)."""
    text = text.strip()
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f" (and {len(text) - limit} more characters)"


def text_encoding(name: str) -> str:
    """The codec for a file's declared character set, or FormatError when ClubScore cannot read it.

    Any encoding Python knows that reads ASCII as ASCII is accepted (UTF-8, ISO-8859-x,
    Windows code pages ...): the file's markup is ASCII, so it must be.
    """
    try:
        codec = codecs.lookup(name).name
        readable = _ASCII_PROBE.decode(codec) == _ASCII_PROBE.decode("ascii")
    except (LookupError, UnicodeError, ValueError):
        readable = False
    if not readable:
        raise unsupported_encoding(name)
    return codec


def unsupported_encoding(name: str) -> FormatError:
    return FormatError(
        f"unsupported encoding: the file says it is written in the character set {shown(name)}, "
        "which ClubScore cannot read; save it as UTF-8 or ISO-8859-1 (Latin-1) and upload it again"
    )


def is_number(text: str) -> bool:
    """Whether ``text`` is a whole number written in ASCII digits (no sign, no spaces)."""
    return _DIGITS.fullmatch(text) is not None


def in_range(digits: str, what: str, limit: int, where: str) -> int:
    """A board, pair, table or round number written in ASCII digits, from 1 to ``limit``.

    One message for zero, for a number too large for the database and for one too long
    for int(): "line 9: board 0: boards are numbered from 1 to 999".
    """
    significant = digits.strip().lstrip("0") or "0"
    number = int(significant) if len(significant) <= 9 else limit + 1
    if not 1 <= number <= limit:
        written = significant if len(significant) <= 12 else f"{significant[:12]}... ({len(significant)} digits)"
        raise FormatError(f"{where}: {what} {written}: {what}s are numbered from 1 to {limit}")
    return number


def board_number(text: str, where: str, label: str = "board number") -> int:
    """A board number as a file writes it; FormatError when it is no number or out of range."""
    if not is_number(text.strip()):
        raise FormatError(f"{where}: {label} {shown(text)} is not a number")
    return in_range(text, "board", MAX_BOARD_NUMBER, where)


def adjustment_or_none(figure: Decimal | None) -> Decimal | None:
    """A procedural penalty's effect from a pair's published adjustment (USEBIO ADJUSTMENT,
    ClubScore's PBN Penalty column; negative), or None: RealBridge writes 0.00 for every
    pair without one, and a positive one is no penalty (it stays among the pair's extra
    figures, as every adjustment does)."""
    return figure if figure is not None and figure < 0 else None


def decimal_or_none(text: str | None, where: str) -> Decimal | None:
    """A published figure exactly as printed, or None when the file leaves it blank."""
    text = (text or "").strip()
    if text in ("", "-"):
        return None
    if not _DECIMAL.fullmatch(text):
        raise FormatError(f"{where}: {shown(text)} is not a number")
    try:
        return Decimal(text)
    except InvalidOperation:  # pragma: no cover - the pattern only lets numbers through
        raise FormatError(f"{where}: {shown(text)} is not a number") from None


def int_or_none(text: str | None, where: str) -> int | None:
    text = (text or "").strip()
    if text in ("", "-"):
        return None
    if not _SIGNED_INTEGER.fullmatch(text):
        raise FormatError(f"{where}: {shown(text)} is not a whole number")
    return int(text)


def number_or_none(text: str | None, what: str, limit: int, where: str) -> int | None:
    """A table or round number, None when blank; refused when no number or out of range."""
    text = (text or "").strip()
    if text in ("", "-", "?"):
        return None
    if not is_number(text):
        raise FormatError(f"{where}: {what} {shown(text)} is not a number")
    return in_range(text, what, limit, where)


def normalise_score(raw_score: str, contract: str, where: str) -> str:
    """The NS score text in the model's one spelling (see ParsedLine.score).

    A passed-out board is "PASS" whatever score the program wrote beside it (0 or
    blank); "NP" in the contract or the score means not played; "A6040"-style texts
    are artificial adjusted scores, NS percent first. Anything else must be a number.
    """
    score = raw_score.strip().upper()
    contract = contract.strip().upper()
    if score in NOT_PLAYED_TEXTS or contract in NOT_PLAYED_TEXTS:
        return "NP"
    if score in PASSED_OUT_CONTRACTS or (contract in PASSED_OUT_CONTRACTS and score in ("", "0")):
        return "PASS"
    artificial = _ARTIFICIAL_SPLIT.fullmatch(score) or _ARTIFICIAL_JOINED.fullmatch(score)
    if artificial:
        ns_percent, ew_percent = (int(group) for group in artificial.groups())
        return f"A{ns_percent:02d}{ew_percent:02d}"
    if _SIGNED_INTEGER.fullmatch(score):
        return str(int(score))
    raise FormatError(f"{where}: score {shown(raw_score)} is neither a number, PASS, NP nor an adjusted score")


def negated(score: str) -> str:
    """A normalised score from the other side: "420" <-> "-420", "A6040" <-> "A4060"."""
    if _ARTIFICIAL_JOINED.fullmatch(score):
        return f"A{score[3:5]}{score[1:3]}"
    if _SIGNED_INTEGER.fullmatch(score):
        return str(-int(score))
    return score


def pair_key(section: str, number: str, direction: str) -> str:
    return f"{section}:{number}{direction}"


# -- each line's score against its contract ----------------------------------------------

#: Contract texts longer than this are not contracts ("7NTXX" is 5 characters).
_LONGEST_CONTRACT = 12
#: Lines whose score stands as an assigned score are named up to this many, then counted.
_NOTED_LINES = 10


def check_lines(event: ParsedEvent) -> None:
    """Refuse a traveller line whose tricks or score cannot be; note a director's score.

    The rule (tests/data holds real files of every kind):
    - tricks, when given, run from 0 to 13;
    - a score that follows from the line's contract, declarer, tricks and the board's
      vulnerability is a played result;
    - a score that does not (the contract unreadable, the tricks or declarer missing, or
      another score altogether) is a score the director entered: it stands as an
      assigned score, the contract as information, provided it is a score some result
      can produce on that board (Law 12C1, and what ClubScore asks of any assigned
      score). Real files carry such lines: Pianola's "42 S 12" scoring NS 480, and NZ
      Scorer's "6NT W 7" scoring NS -250 and "6NT N 0" scoring NS -170. Each is noted.
    - a score no result can produce on that board is refused, naming board and pairs:
      "4S N 10" scoring 425 is a slip of the pen, not a director's ruling.
    PASS, NP and artificial (A6040) scores say nothing of a contract and are not checked.
    """
    several_sections = len({board.section for board in event.boards}) > 1
    era = carried_era(event.extra)
    notes = []
    for board in event.boards:
        vulnerability = board.vulnerability or engine_boards.vulnerability(board.number).value
        for line in board.lines:
            where = f"board {board.number}" + (f" section {board.section}" if several_sections else "")
            where += f", {_label(line.ns_pair)} v {_label(line.ew_pair)}"
            note = check_line(line, vulnerability, where, era)
            if note:
                notes.append(note)
    event.notes.extend(notes[:_NOTED_LINES])
    if len(notes) > _NOTED_LINES:
        event.notes.append(f"and {len(notes) - _NOTED_LINES} more lines whose score stands as an assigned score")


def check_line(line: ParsedLine, vulnerability: str, where: str, era: str = "current") -> str | None:
    """FormatError for an impossible line; a note when its score stands as an assigned score.
    A played score follows from its contract under ``era`` (a ClubScore file says which)."""
    if line.tricks is not None and not 0 <= line.tricks <= MAX_TRICKS:
        raise FormatError(f"{where}: {line.tricks} tricks cannot be: declarer takes from 0 to 13 tricks")
    if line.score in ("PASS", "NP") or line.score.startswith("A"):
        return None
    score = int(line.score)
    contract = line.contract.strip()
    played = played_score(contract, line.declarer, line.tricks, vulnerability, era)
    if played == score:
        return None
    written = " ".join(
        part for part in (_contract_text(contract), line.declarer, _tricks_text(line.tricks)) if part
    )
    follows = f"{written} (which scores NS {played})" if played is not None else written
    if score not in _producible(vulnerability):
        doubt = f"does not follow from {follows}, and it " if written else ""
        raise FormatError(
            f"{where}: the score NS {score} {doubt}is not a score any contract can produce on this board "
            f"({_vulnerable_text(vulnerability)})"
        )
    if not written or (score == 0 and is_pass(contract)):
        return None  # a bare score, or a pass-out written as 0: nothing to tell
    return f"{where}: the score NS {score} does not follow from {follows}: it stands as an assigned score"


@functools.lru_cache(maxsize=4096)
def played_score(
    contract: str, declarer: str, tricks: int | None, vulnerability: str, era: str = "current"
) -> int | None:
    """NS's score for the contract as played under ``era``, or None when the line does not say enough.

    Remembered: a file of 72,000 lines (a national simultaneous pairs) has a few hundred
    distinct contracts and results, each worked out once.
    """
    if tricks is None or declarer not in ("N", "E", "S", "W") or not contract or len(contract) > _LONGEST_CONTRACT:
        return None
    if is_pass(contract):
        return 0
    try:
        parsed = parse_contract(contract)
    except ValueError:  # ScoringError, or a level too long for int()
        return None
    seat = engine_boards.Seat(declarer)
    vulnerable = engine_boards.is_vulnerable(engine_boards.Vulnerability(vulnerability), seat)
    points = deal_score(parsed, tricks, vulnerable, era)
    return points if seat.side is engine_boards.Side.NS else -points


def _producible(vulnerability: str) -> frozenset[int]:
    """Every NS score some result can produce on a board of this vulnerability."""
    board = next(n for n in range(1, 17) if engine_boards.vulnerability(n).value == vulnerability)
    return producible_ns_scores(board)


def _vulnerable_text(vulnerability: str) -> str:
    return {"None": "neither side vulnerable", "Both": "both sides vulnerable"}.get(
        vulnerability, f"{vulnerability} vulnerable"
    )


def _tricks_text(tricks: int | None) -> str:
    return "" if tricks is None else f"{tricks} tricks"


def _contract_text(contract: str) -> str:
    return contract if len(contract) <= _LONGEST_CONTRACT else f"{contract[:_LONGEST_CONTRACT]}..."


def _label(key: str) -> str:
    """ "A:3NS" -> "3NS"."""
    return key.partition(":")[2] or key


def settle_movements(event: ParsedEvent) -> None:
    """Infer each section's movement from the pairs' directions, and the event's.

    A section whose every pair has a direction is a Mitchell; one where no pair has is
    a Howell (one field). The event's movement is "" when its sections differ.
    """
    sections: dict[str, list[str]] = {}
    for pair in event.pairs:
        sections.setdefault(pair.section, []).append(pair.direction)
    for section, directions in sections.items():
        event.section_movements[section] = "mitchell" if all(directions) else "howell"
    kinds = set(event.section_movements.values())
    if len(kinds) == 1:
        event.movement = kinds.pop()
    elif kinds:
        summary = ", ".join(f"{s} {m}" for s, m in event.section_movements.items())
        event.notes.append(f"sections differ in movement ({summary}): event movement left blank")
