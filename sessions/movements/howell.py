"""Howell movements: every pair meets every other (or, short, many others) once.

2n pairs play on n tables. Board sets number as many as rounds, and in every Howell
built here each pair plays every set exactly once, so each set is played by all
pairs, n times (one fewer with a phantom). In design terms the schedule is a Howell
design H(r, 2n): an r x r array, rounds by board sets, whose filled cells are the
matches; each pair once in every row and every column, no two pairs meeting twice.
A complete Howell (r = 2n - 1) is a Room square.

Construction is cyclic ("starter and adder"): the round-1 matches and their sets are
found by a small backtracking search over Z_r, and round t adds t to every pair and
set number, except for 2n - r stationary pairs (they stay at tables 1.., one per
table). This exists for most odd r between n and 2n - 1. Where it does not:

- 4 and 6 pairs (2 and 3 tables, complete): no Room square of side 3 or 5 exists,
  so tables share a set in some rounds (a relay), found by search: for 4 pairs both
  tables share every round; for 6 pairs one round has all three tables sharing.
- Other sizes the search cannot find, and even round counts, are refused with the
  round counts that are available (``howell_round_options``).

The search runs once, offline: its designs up to 15 tables are kept in
howell_starters.py, so a movement is built at once whatever its size.

An odd number of pairs plays with a phantom: the highest-numbered pair, which is
stationary; the pair meeting it sits out.
"""

from __future__ import annotations

from functools import lru_cache

from sessions.movements.howell_starters import MAX_TABLES, STARTERS
from sessions.movements.model import Movement, MovementError, Seating, build_movement, set_boards

#: A round's matches in table order: (pair, pair, board set), numbered from 0.
Round = tuple[tuple[int, int, int], ...]

#: Search effort after which a cyclic design is taken not to exist (a few seconds): the
#: designs found are kept in howell_starters.py, so building a movement never searches.
_SEARCH_LIMIT = 200_000
#: Complete Howells with no cyclic design, built with tables sharing boards (4 and 6 pairs).
SHARED_BOARD_TABLES = 3


def howell(pairs: int, boards_per_round: int, *, rounds: int | None = None) -> Movement:
    """A Howell for ``pairs`` pairs: complete by default, shorter if ``rounds`` says so."""
    if pairs < 3:
        raise MovementError(f"a Howell needs at least 3 pairs, not {pairs}")
    if boards_per_round < 1:
        raise MovementError("a round needs at least one board")
    tables = (pairs + 1) // 2
    if tables > MAX_TABLES:
        raise MovementError(f"a Howell is offered for up to {MAX_TABLES} tables ({2 * MAX_TABLES} pairs), not {tables}")
    full = 2 * tables - 1
    rounds = full if rounds is None else rounds
    schedule = _design(tables, rounds)
    if schedule is None:
        raise MovementError(
            f"no {rounds}-round Howell for {pairs} pairs here; choose "
            f"{_options_text(howell_round_options(pairs))} rounds"
        )
    phantom = str(2 * tables) if pairs % 2 else None
    labels = tuple(str(p) for p in range(1, pairs + 1))
    return build_movement(
        kind="howell",
        tables=tables,
        rounds=rounds,
        boards_per_round=boards_per_round,
        pairs=labels,
        fields={p: "" for p in labels},
        schedule=_seatings(schedule, boards_per_round),
        description=_describe(pairs, tables, rounds, boards_per_round, schedule, phantom),
        phantom=phantom,
        complete=rounds == full,
    )


def howell_round_options(pairs: int) -> tuple[int, ...]:
    """Round counts a Howell for this many pairs can be built with, fewest first."""
    tables = (pairs + 1) // 2
    return tuple(r for r in range(tables, 2 * tables) if _design(tables, r) is not None)


def _seatings(schedule: tuple[Round, ...], boards_per_round: int) -> list[Seating]:
    set_number = _sets_in_order_of_play(schedule)
    seatings = []
    for round, matches in enumerate(schedule, start=1):
        for table, (ns, ew, board_set) in enumerate(matches, start=1):
            boards = set_boards(set_number[board_set], boards_per_round)
            seatings.append(Seating(round, table, str(ns + 1), str(ew + 1), boards))
    return seatings


def _sets_in_order_of_play(schedule: tuple[Round, ...]) -> dict[int, int]:
    """Renumber sets so round 1 plays sets 1, 2, ... from table 1 upwards."""
    order: dict[int, int] = {}
    for matches in schedule:
        for _, _, board_set in matches:
            order.setdefault(board_set, len(order) + 1)
    return order


@lru_cache(maxsize=None)
def _design(tables: int, rounds: int) -> tuple[Round, ...] | None:
    """The schedule for 2 * tables pairs over ``rounds`` rounds, or None."""
    if not tables <= rounds <= 2 * tables - 1:
        return None
    starter = STARTERS.get((rounds, 2 * tables - rounds)) if rounds % 2 else None
    if starter is not None:
        return _develop(starter, rounds)
    if rounds == 2 * tables - 1 and tables <= SHARED_BOARD_TABLES:
        return _shared_round_robin(tables)
    return None


# -- cyclic designs ------------------------------------------------------------


def _cyclic_starter(r: int, stationary: int) -> tuple[tuple[int, int, int], ...] | None:
    """Round 1 of a cyclic design over Z_r: matches (pair, pair, set).

    Pairs 0..r-1 move (round t: pair + t), pairs r.. are stationary. Conditions:
    the differences of the moving-moving matches, with their negatives, are all
    distinct (no two pairs meet twice); the sets are distinct (one table per set);
    and ``set - pair`` over all moving pairs is a permutation of Z_r, so each pair
    plays each set exactly once as t runs through the rounds.
    """
    matches: list[tuple[int, int, int]] = []
    free = [True] * r
    used_differences: set[int] = set()
    used_sets: set[int] = set()
    used_offsets: set[int] = set()
    effort = 0

    def place(pair_sets: list[tuple[int, int]]) -> bool:
        offsets = {(s - p) % r for p, s in pair_sets}
        return len(offsets) == len(pair_sets) and not offsets & used_offsets

    def search(stationary_used: int) -> bool:
        nonlocal effort
        effort += 1
        if effort > _SEARCH_LIMIT:
            return False
        if True not in free:
            return stationary_used == stationary
        left, stationary_left = free.count(True), stationary - stationary_used
        if left < stationary_left or (left - stationary_left) % 2:
            return False
        first = free.index(True)
        free[first] = False
        for second in (p for p in range(first + 1, r) if free[p]):
            difference = (second - first) % r
            if difference in used_differences:
                continue
            for board_set in range(r):
                pair_sets = [(first, board_set), (second, board_set)]
                if board_set in used_sets or not place(pair_sets):
                    continue
                free[second] = False
                used_differences.update({difference, r - difference})
                used_sets.add(board_set)
                used_offsets.update((s - p) % r for p, s in pair_sets)
                matches.append((first, second, board_set))
                if search(stationary_used):
                    return True
                matches.pop()
                free[second] = True
                used_differences.difference_update({difference, r - difference})
                used_sets.discard(board_set)
                used_offsets.difference_update((s - p) % r for p, s in pair_sets)
        if stationary_used < stationary:
            for board_set in range(r):
                if board_set in used_sets or not place([(first, board_set)]):
                    continue
                used_sets.add(board_set)
                used_offsets.add((board_set - first) % r)
                matches.append((r + stationary_used, first, board_set))
                if search(stationary_used + 1):
                    return True
                matches.pop()
                used_sets.discard(board_set)
                used_offsets.discard((board_set - first) % r)
        free[first] = True
        return False

    if not search(0):
        return None
    # Stationary pairs first, so they sit at tables 1, 2, ...
    return tuple(sorted(matches, key=lambda m: (m[0] < r, m)))


def _develop(starter: tuple[tuple[int, int, int], ...], r: int) -> tuple[Round, ...]:
    """Every round of a cyclic design: round t adds t to moving pairs and to sets.

    A stationary pair sits NS in odd rounds and EW in even ones; of two moving
    pairs the one listed first sits NS, so each pair sits both ways about as often.
    """

    def move(pair: int, t: int) -> int:
        return (pair + t) % r if pair < r else pair

    schedule = []
    for t in range(r):
        matches = []
        for a, b, board_set in starter:
            ns, ew = move(a, t), move(b, t)
            if a >= r and t % 2:
                ns, ew = ew, ns
            matches.append((ns, ew, (board_set + t) % r))
        schedule.append(tuple(matches))
    return tuple(schedule)


# -- shared boards (4 and 6 pairs) --------------------------------------------


def _shared_round_robin(tables: int) -> tuple[Round, ...] | None:
    """A complete Howell where tables may share a set in a round (a relay).

    The matches are the circle method (pair 2n-1 stationary at table 1, the others
    rotating); sets are assigned by backtracking so that each pair plays every set
    once, allowing as few tables per set in a round as possible. For 4 pairs both
    tables share every round; for 6 pairs (any two 1-factorizations of K6 share a
    factor) one round has all three tables on the same set.
    """
    r = 2 * tables - 1
    rounds = tuple(
        ((r, t), *(((t + i) % r, (t - i) % r) for i in range(1, tables))) for t in range(r)
    )
    # Allow every table to share in the first `crowded` rounds, two elsewhere,
    # taking the fewest crowded rounds that work.
    for crowded in range(r + 1):
        most_sharing = [tables] * crowded + [2] * (r - crowded)
        sets = _assign_sets(rounds, r, most_sharing)
        if sets is not None:
            return tuple(
                tuple(
                    (b, a, sets[t][i]) if i == 0 and t % 2 else (a, b, sets[t][i])
                    for i, (a, b) in enumerate(rounds[t])
                )
                for t in range(r)
            )
    return None


def _assign_sets(
    rounds: tuple[tuple[tuple[int, int], ...], ...], sets: int, most_sharing: list[int]
) -> list[list[int]] | None:
    """Sets for each match so every pair plays every set once, or None.

    In round t at most ``most_sharing[t]`` tables play one set. Backtracking, the
    match with fewest possible sets first.
    """
    cells = [(t, i) for t in range(len(rounds)) for i in range(len(rounds[t]))]
    chosen: dict[tuple[int, int], int] = {}
    sets_of_pair: dict[int, set[int]] = {p: set() for m in rounds[0] for p in m}
    tables_with_set = [[0] * sets for _ in rounds]

    def options(cell: tuple[int, int]) -> list[int]:
        t, i = cell
        a, b = rounds[t][i]
        taken = sets_of_pair[a] | sets_of_pair[b]
        return [
            s for s in range(sets) if tables_with_set[t][s] < most_sharing[t] and s not in taken
        ]

    def search() -> bool:
        open_cells = [c for c in cells if c not in chosen]
        if not open_cells:
            return True
        cell = min(open_cells, key=lambda c: len(options(c)))
        t, i = cell
        a, b = rounds[t][i]
        for s in options(cell):
            chosen[cell] = s
            tables_with_set[t][s] += 1
            sets_of_pair[a].add(s)
            sets_of_pair[b].add(s)
            if search():
                return True
            del chosen[cell]
            tables_with_set[t][s] -= 1
            sets_of_pair[a].discard(s)
            sets_of_pair[b].discard(s)
        return False

    if not search():
        return None
    return [[chosen[(t, i)] for i in range(len(rounds[t]))] for t in range(len(rounds))]


# -- text --------------------------------------------------------------------


def _describe(
    pairs: int,
    tables: int,
    rounds: int,
    boards_per_round: int,
    schedule: tuple[Round, ...],
    phantom: str | None,
) -> str:
    full = 2 * tables - 1
    kind = "complete Howell" if rounds == full else f"short Howell ({rounds} of {full} rounds)"
    text = (
        f"{pairs}-pair {kind} on {tables} tables, {rounds} rounds of "
        f"{boards_per_round} boards ({rounds * boards_per_round} boards)"
    )
    if _shares_boards(schedule, phantom=2 * tables - 1 if phantom else None):
        text += ", some tables share boards"
    if phantom:
        text += f", pair {phantom} is a phantom (its opponents sit out)"
    return text


def _shares_boards(schedule: tuple[Round, ...], phantom: int | None) -> bool:
    for matches in schedule:
        played = [s for a, b, s in matches if phantom not in (a, b)]
        if len(set(played)) < len(played):
            return True
    return False


def _options_text(options: tuple[int, ...]) -> str:
    if not options:
        return "no number of"
    return ", ".join(str(o) for o in options[:-1]) + (" or " if len(options) > 1 else "") + str(
        options[-1]
    )
