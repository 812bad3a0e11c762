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

import heapq
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


#: A pair or board in more meetings than this (no movement has one: a board is played at
#: each table once, a pair plays each round once) is tracked lazily by _rounds.
CROWDED = 64


def _rounds(meetings: list[tuple[tuple[str, str], set[int]]]) -> dict[tuple[str, str], int]:
    """A round (0, 1, ...) for each meeting, so that no pair and no board is in two
    meetings of a round, in few rounds: DSatur colouring of the meetings' conflict
    graph (the meeting with the most rounds already barred goes next, then the one with
    the most conflicts, then the earliest board, then the first listed).

    In time and memory that grow with the meetings: the next meeting comes off a heap
    (not a pass over every meeting left), and the graph is never built. A meeting is
    barred from the rounds of the meetings it shares a pair or board with; each round
    given is passed at once to the other meetings of the pair or board, unless that
    pair or board is CROWDED (one board played at N tables is N meetings that all
    clash: N squared edges). A crowded member keeps its rounds itself (bits of an int),
    and a meeting's place in the heap is brought up to date with them when it comes to
    the top (a meeting's barred rounds only grow). With no crowded member, as in any
    real movement, this is DSatur exactly.
    """
    members = [(ns, ew, *sorted(boards)) for (ns, ew), boards in meetings]
    meetings_of: dict[str | int, list[int]] = {}
    for index, meeting in enumerate(members):
        for member in meeting:
            meetings_of.setdefault(member, []).append(index)
    crowded = {member: 0 for member, indexes in meetings_of.items() if len(indexes) > CROWDED}  # -> its rounds
    conflicts = [_conflicts(index, meeting, meetings_of, crowded) for index, meeting in enumerate(members)]
    first_board = [meeting[2] for meeting in members]
    heap = [(0, -conflicts[index], first_board[index], index) for index in range(len(members))]
    heapq.heapify(heap)
    barred = [0] * len(members)  # each meeting's barred rounds, one bit each (crowded members' apart)
    colour: dict[int, int] = {}
    while heap:
        key, _, _, index = heapq.heappop(heap)
        if index in colour:
            continue  # an older place of a meeting already given its round
        rounds = barred[index]
        for member in members[index]:
            rounds |= crowded.get(member, 0)
        if rounds.bit_count() > -key:  # a crowded member's rounds came since: back in its true place
            heapq.heappush(heap, (-rounds.bit_count(), -conflicts[index], first_board[index], index))
            continue
        round_ = (~rounds & (rounds + 1)).bit_length() - 1  # the lowest round not barred
        colour[index] = round_
        bit = 1 << round_
        for member in members[index]:
            if member in crowded:
                crowded[member] |= bit
                continue
            for other in meetings_of[member]:
                if other not in colour and not barred[other] & bit:
                    barred[other] |= bit
                    heapq.heappush(heap, (-barred[other].bit_count(), -conflicts[other], first_board[other], other))
    return {meetings[index][0]: round_ for index, round_ in colour.items()}


def _conflicts(index: int, meeting: tuple, meetings_of: dict[str | int, list[int]], crowded: dict) -> int:
    """How many other meetings share a pair or a board with this one; a crowded member's
    meetings are counted, not listed (exact unless two crowded boards are in one meeting)."""
    listed = {other for member in meeting if member not in crowded for other in meetings_of[member]}
    listed.discard(index)
    counted = [len(meetings_of[member]) - 1 for member in meeting if member in crowded]
    return len(listed) + max(counted, default=0)


class _Round:
    def __init__(self) -> None:
        self.pairs: set[str] = set()
        self.boards: set[int] = set()
        self.tables: dict[int, tuple[str, str, tuple[int, ...]]] = {}
        self.free = 1  # no table below this number is free (tables are only ever taken)

    def add(self, ns: str, ew: str, boards: set[int], table: int | None) -> None:
        if table is None or table in self.tables:
            while self.free in self.tables:
                self.free += 1
            table = self.free
        self.pairs |= {ns, ew}
        self.boards |= boards
        self.tables[table] = (ns, ew, tuple(sorted(boards)))

    def seatings(self, number: int) -> list[PlannedSeating]:
        return [PlannedSeating(number, table, ns, ew, boards) for table, (ns, ew, boards) in self.tables.items()]
