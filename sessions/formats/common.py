"""Helpers both readers share: numbers as published, score texts, pair keys, movements."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from .errors import FormatError
from .model import ParsedEvent

_ARTIFICIAL_SPLIT = re.compile(r"A(\d{1,2})\s*[A/\- ]\s*A?(\d{1,2})")  # A60A40, A60/40, A60-40
_ARTIFICIAL_JOINED = re.compile(r"A(\d{2})(\d{2})")  # A6040
_SIGNED_INTEGER = re.compile(r"[+-]?\d+")
PASSED_OUT_CONTRACTS = {"PASS", "P", "AP", "ALLPASS", "ALL PASS", "PASSED", "PO"}
NOT_PLAYED_TEXTS = {"NP", "NOT PLAYED", "N/P"}


def decimal_or_none(text: str | None, where: str) -> Decimal | None:
    """A published figure exactly as printed, or None when the file leaves it blank."""
    text = (text or "").strip()
    if text in ("", "-"):
        return None
    try:
        return Decimal(text)
    except InvalidOperation:
        raise FormatError(f"{where}: {text!r} is not a number") from None


def int_or_none(text: str | None, where: str) -> int | None:
    text = (text or "").strip()
    if text in ("", "-"):
        return None
    if not _SIGNED_INTEGER.fullmatch(text):
        raise FormatError(f"{where}: {text!r} is not a whole number")
    return int(text)


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
    raise FormatError(f"{where}: score {raw_score!r} is neither a number, PASS, NP nor an adjusted score")


def pair_key(section: str, number: str, direction: str) -> str:
    return f"{section}:{number}{direction}"


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
