"""A table plan rebuilt from a results file's traveller lines (pure Python, no Django).

Results files carry no movement, only who played which board against whom. A stored
session needs Seating rows (round, table, NS pair, EW pair, boards), so they are
rebuilt from the lines: one seating per meeting of two pairs.

When every line of a section gives its round and table (PBN files from Ruter and
Magic Contest do), those are kept, provided each round-and-table holds one meeting.
Otherwise the rounds are derived: one seating per meeting of two pairs, the meetings
shared out among rounds, no pair and no board twice in a round (what a real movement
looks like): as a Mitchell moves its boards when the lines fit that, else in as few
rounds as a greedy colouring finds; a Mitchell table takes its NS pair's place
among the NS pairs, a Howell table the next free number.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class PlayedLine:
    """What the planner needs of a traveller line."""

    board: int
    ns_pair: str
    ew_pair: str
    round: int | None = None
    table: int | None = None


@dataclass(frozen=True)
class PlannedSeating:
    round: int
    table: int
    ns_pair: str
    ew_pair: str
    boards: tuple[int, ...]


@dataclass(frozen=True)
class TablePlan:
    seatings: tuple[PlannedSeating, ...]
    from_file: bool  # rounds and tables as the file gave them, or derived

    @property
    def rounds(self) -> int:
        return max((seating.round for seating in self.seatings), default=1)

    @property
    def tables(self) -> int:
        return max((seating.table for seating in self.seatings), default=1)

    @property
    def boards_per_round(self) -> int:
        """The usual number of boards a meeting plays (the most common)."""
        counts = Counter(len(seating.boards) for seating in self.seatings)
        return counts.most_common(1)[0][0] if counts else 1

    def by_line(self) -> dict[tuple[str, str, int], PlannedSeating]:
        """Each (NS pair, EW pair, board) with the seating it was played in."""
        return {
            (seating.ns_pair, seating.ew_pair, board): seating
            for seating in self.seatings
            for board in seating.boards
        }


def plan_section(lines: Sequence[PlayedLine], table_numbers: dict[str, int] | None = None) -> TablePlan:
    """The section's seatings; ``table_numbers`` gives a Mitchell's stationary NS pairs their tables."""
    given = _plan_from_file(lines)
    if given is not None:
        return TablePlan(given, from_file=True)
    return TablePlan(_derived_plan(lines, table_numbers or {}), from_file=False)


def _plan_from_file(lines: Sequence[PlayedLine]) -> tuple[PlannedSeating, ...] | None:
    if not lines or any(line.round is None or line.table is None for line in lines):
        return None
    meetings: dict[tuple[int, int], tuple[str, str]] = {}
    boards: dict[tuple[int, int], list[int]] = {}
    for line in lines:
        where = (line.round, line.table)
        if where not in meetings:
            meetings[where] = (line.ns_pair, line.ew_pair)
        elif meetings[where] != (line.ns_pair, line.ew_pair):
            return None  # two meetings at one table in one round: the file's numbers are not a plan
        boards.setdefault(where, []).append(line.board)
    if min(line.round for line in lines) < 1 or min(line.table for line in lines) < 1:
        return None
    return tuple(
        PlannedSeating(round_, table, *meetings[(round_, table)], tuple(sorted(set(boards[(round_, table)]))))
        for round_, table in sorted(meetings)
    )


def _derived_plan(lines: Sequence[PlayedLine], table_numbers: dict[str, int]) -> tuple[PlannedSeating, ...]:
    meetings: dict[tuple[str, str], set[int]] = {}
    for line in lines:
        meetings.setdefault((line.ns_pair, line.ew_pair), set()).add(line.board)
    round_of = _mitchell_rounds(meetings, table_numbers) or _rounds(list(meetings.items()))
    rounds = [_Round() for _ in range(max(round_of.values(), default=0) + 1)]
    for (ns, ew), boards in sorted(meetings.items(), key=lambda item: (min(item[1]), item[0])):
        rounds[round_of[(ns, ew)]].add(ns, ew, boards, table_numbers.get(ns))
    rounds.sort(key=lambda round_: min(round_.boards))
    return tuple(
        seating
        for number, round_ in enumerate(rounds, start=1)
        for seating in sorted(round_.seatings(number), key=lambda seating: seating.table)
    )


def _mitchell_rounds(
    meetings: dict[tuple[str, str], set[int]], table_numbers: dict[str, int]
) -> dict[tuple[str, str], int] | None:
    """Rounds as a Mitchell plays them, if that fits: the boards move down one table a
    round, so the round follows from the set of boards and the NS pair's table
    (whatever way the EW pairs move). None when the lines do not fit that pattern."""
    if not table_numbers or any(ns not in table_numbers for ns, _ in meetings):
        return None
    sets = sorted({tuple(sorted(boards)) for boards in meetings.values()})
    index = {boards: number for number, boards in enumerate(sets)}
    round_of = {
        (ns, ew): (index[tuple(sorted(boards))] - table_numbers[ns] + 1) % len(sets)
        for (ns, ew), boards in meetings.items()
    }
    busy: set[tuple[int, str | int]] = set()
    for (ns, ew), boards in meetings.items():
        round_ = round_of[(ns, ew)]
        for member in (ns, ew, *boards):
            if (round_, member) in busy:
                return None
            busy.add((round_, member))
    return round_of


def _rounds(meetings: list[tuple[tuple[str, str], set[int]]]) -> dict[tuple[str, str], int]:
    """A round (0, 1, ...) for each meeting, so that no pair and no board is in two
    meetings of a round, in few rounds: DSatur colouring of the meetings' conflict
    graph (the meeting with the most rounds already barred goes next)."""
    by_member: dict[str | int, list[int]] = {}
    for index, ((ns, ew), boards) in enumerate(meetings):
        for member in (ns, ew, *boards):
            by_member.setdefault(member, []).append(index)
    neighbours = [set() for _ in meetings]
    for indexes in by_member.values():
        for index in indexes:
            neighbours[index].update(indexes)
    for index, others in enumerate(neighbours):
        others.discard(index)
    barred: list[set[int]] = [set() for _ in meetings]
    colour: dict[int, int] = {}
    first_board = [min(boards) for _, boards in meetings]
    while len(colour) < len(meetings):
        chosen = max(
            (index for index in range(len(meetings)) if index not in colour),
            key=lambda index: (len(barred[index]), len(neighbours[index]), -first_board[index]),
        )
        round_ = next(number for number in range(len(meetings)) if number not in barred[chosen])
        colour[chosen] = round_
        for other in neighbours[chosen]:
            barred[other].add(round_)
    return {meetings[index][0]: round_ for index, round_ in colour.items()}


class _Round:
    def __init__(self) -> None:
        self.pairs: set[str] = set()
        self.boards: set[int] = set()
        self.tables: dict[int, tuple[str, str, tuple[int, ...]]] = {}

    def add(self, ns: str, ew: str, boards: set[int], table: int | None) -> None:
        if table is None or table in self.tables:
            table = next(number for number in range(1, len(self.tables) + 2) if number not in self.tables)
        self.pairs |= {ns, ew}
        self.boards |= boards
        self.tables[table] = (ns, ew, tuple(sorted(boards)))

    def seatings(self, number: int) -> list[PlannedSeating]:
        return [PlannedSeating(number, table, ns, ew, boards) for table, (ns, ew, boards) in self.tables.items()]
