"""A results file's ranking as the master point engine's fields, and the scale it names.

A file's places may run across the whole field (NZ Scorer's WINNER_TYPE 1 over three
sections) while the awards go to each section's direction: a pair's place in its field
is one more than the pairs of that field placed strictly above it. A file names its
scale in EVENT's MASTER_POINT_SCALE ("Club", "CLUB"); its program says which
federation's rules made its awards (sessions.scoring.masterpoints.PROGRAM_FEDERATIONS).
"""

from __future__ import annotations

import math
from collections import defaultdict

from sessions.scoring.masterpoints import FEDERATIONS, Field, Placing, federation_for_program, scale_key

from sessions.formats.model import ParsedEvent, ParsedPair


def place_number(text: str | None) -> int | None:
    """ "3=" -> 3, "12" -> 12; None when the pair has no place."""
    digits = (text or "").strip().rstrip("=").strip()
    return int(digits) if digits.isdigit() else None


def award_fields(event: ParsedEvent) -> list[Field]:
    """One field per section and direction (a Howell's pairs have no direction)."""
    by_field: dict[tuple[str, str], list[ParsedPair]] = defaultdict(list)
    section_pairs: dict[str, int] = defaultdict(int)
    for pair in event.pairs:
        section_pairs[pair.section] += 1
        if place_number(pair.published_place) is not None:
            by_field[(pair.section, pair.direction)].append(pair)
    fields = []
    for (section, direction), pairs in by_field.items():
        overall = {pair.key: place_number(pair.published_place) or 0 for pair in pairs}
        placings = tuple(
            Placing(
                pair=pair.key,
                place=1 + sum(1 for other in overall.values() if other < overall[pair.key]),
                boards_played=pair.boards_played,
                is_phantom=pair.is_phantom,
            )
            for pair in pairs
        )
        tables = math.ceil(section_pairs[section] / 2)
        fields.append(Field(f"{section} {direction}".strip(), placings, tables, two_winner=bool(direction)))
    return fields


def session_boards(event: ParsedEvent) -> int:
    """The boards of the session: the most board numbers any section played."""
    numbers: dict[str, set[int]] = defaultdict(set)
    for board in event.boards:
        numbers[board.section].add(board.number)
    return max((len(found) for found in numbers.values()), default=0)


def file_federation(event: ParsedEvent) -> str | None:
    return federation_for_program(event.program)


def file_scale(event: ParsedEvent) -> str:
    """The file's MASTER_POINT_SCALE as a scale name ("" when it names none)."""
    return scale_key(event.extra.get("MASTER_POINT_SCALE", ""))


def file_masterpoints(event: ParsedEvent) -> str:
    """ "federation:scale" for a file whose program awarded master points ("ebu:club",
    "nzb:" for NZ Scorer, which names no scale); "" when it awarded none (MPS_AWARDED_FLAG
    N) or its program's federation is not known; a scale the federation lacks is left
    empty (its club scale)."""
    federation = file_federation(event)
    if federation is None or event.extra.get("MPS_AWARDED_FLAG", "").strip().upper() == "N":
        return ""
    scale = file_scale(event)
    return f"{federation}:{scale if scale in FEDERATIONS[federation].SCALES else ''}"
