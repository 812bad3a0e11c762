"""Sensible movements for a number of pairs, most usual first, for the director to pick.

Rules of thumb (club practice): a Howell gives one winner and everyone meets, but
its rounds grow with the pairs, so it comes first up to 5 tables; from 6 tables a
Mitchell comes first, and Howells are offered up to 15 tables (the largest kept
designs), as long as their rounds fit the boards. Each option gets as
many boards per round as fit in ``max_boards`` (at least 2: one-board rounds waste
time on moving). An odd number of pairs gets a phantom: in a Mitchell the last
table's NS pair, so EW pairs sit out at that table in turn.
"""

from __future__ import annotations

from typing import TypedDict

from sessions.movements.howell import howell, howell_round_options
from sessions.movements.howell_starters import MAX_TABLES
from sessions.movements.mitchell import max_mitchell_rounds, mitchell
from sessions.movements.model import Movement, MovementError

MIN_BOARDS_PER_ROUND = 2
HOWELL_FIRST_UP_TO_TABLES = 5
#: The largest Howell built (howell_starters.py); beyond it every club plays a Mitchell.
MAX_HOWELL_TABLES = MAX_TABLES


def suggest_movements(pairs: int, max_boards: int = 28) -> list[Movement]:
    """Valid movements for ``pairs`` pairs playing at most ``max_boards`` boards each."""
    if pairs < 3:
        raise MovementError(f"a pairs session needs at least 3 pairs, not {pairs}")
    if max_boards < MIN_BOARDS_PER_ROUND:
        raise MovementError(f"{max_boards} boards is too few for a session")
    tables = (pairs + 1) // 2
    howells = _howells(pairs, max_boards) if tables <= MAX_HOWELL_TABLES else []
    mitchells = _mitchells(pairs, tables, max_boards) if tables >= 3 else []
    if tables <= HOWELL_FIRST_UP_TO_TABLES:
        return howells + mitchells
    return mitchells + howells


def _howells(pairs: int, max_boards: int) -> list[Movement]:
    """The complete Howell if it fits, else the longest short Howell that does."""
    for rounds in sorted(howell_round_options(pairs), reverse=True):
        if max_boards // rounds >= MIN_BOARDS_PER_ROUND:
            return [howell(pairs, max_boards // rounds, rounds=rounds)]
    return []


class _MitchellOptions(TypedDict):
    tables: int
    boards_per_round: int
    rounds: int
    even: str | None


def _mitchells(pairs: int, tables: int, max_boards: int) -> list[Movement]:
    phantom = f"{tables}NS" if pairs % 2 else None
    variants: list[str | None] = [None] if tables % 2 else ["relay", "skip"]
    options: list[_MitchellOptions] = []
    for even in variants:
        rounds = min(max_mitchell_rounds(tables, even), max_boards // MIN_BOARDS_PER_ROUND)
        if even == "relay" and rounds < tables:
            continue  # a relay only balances over all its rounds
        options.append(
            _MitchellOptions(
                tables=tables, boards_per_round=max_boards // rounds, rounds=rounds, even=even
            )
        )
    movements = [mitchell(**o, phantom=phantom) for o in options]
    if options:  # the same with one winner
        movements.append(mitchell(**options[0], phantom=phantom, arrow_switch_last_round=True))
    return movements
