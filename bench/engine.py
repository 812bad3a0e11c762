"""Benchmark of the pairs-scoring engine: results per second on one board, and a session.

Run from the project root: .venv/bin/python bench/engine.py
The data is random but seeded, so runs are comparable; each figure is the best of
five rounds. Printed: results scored per
second on one board of 10 to 10,000 results; how a board's cost grows with its size,
as ratios (linear growth is x100 from 10 to 1,000 results and x10 from 1,000 to
10,000: a quadratic step would show as x10,000 and x100); 20,000 boards of 13 scored
one call a board and in one call; a whole session. bench/peer.py compares the
figures with bridge-scorer (JavaScript) on the same boards.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sessions.scoring.butler import butler_board, butler_boards  # noqa: E402
from sessions.scoring.crossimps import cross_imps_board, cross_imps_boards  # noqa: E402
from sessions.scoring.matchpoints import matchpoint_board, matchpoint_boards  # noqa: E402
from sessions.scoring.session import Line, ScoringOptions, SessionInput, score_session  # noqa: E402

BOARD_SIZES = (10, 100, 1_000, 10_000)
METHODS: dict[str, Callable[[list[int]], object]] = {
    "matchpoints": matchpoint_board,
    "cross-IMPs": cross_imps_board,
    "Butler": butler_board,
}
BATCHES: dict[str, Callable[[list[list[int]]], object]] = {
    "matchpoints": matchpoint_boards,
    "cross-IMPs": cross_imps_boards,
    "Butler": butler_boards,
}
GROWTH_STEPS = ((10, 1_000), (1_000, 10_000))


def random_board(results: int, generator: random.Random) -> list[int]:
    """NS scores as a real board spreads them: mostly a few contracts, some outliers."""
    common = [generator.choice(range(-1400, 1460, 10)) for _ in range(6)]
    return [
        generator.choice(common) if generator.random() < 0.8 else generator.choice(range(-2000, 2010, 10))
        for _ in range(results)
    ]


def seconds_per_call(function: Callable[[], object], minimum_seconds: float = 0.3, rounds: int = 5) -> float:
    """Best average wall time of ``function`` over ``rounds`` rounds, each repeating it
    for at least ``minimum_seconds`` / ``rounds``: the best round is the least disturbed
    on a shared machine."""
    best = float("inf")
    for _ in range(rounds):
        calls, started = 0, time.perf_counter()
        while True:
            function()
            calls += 1
            elapsed = time.perf_counter() - started
            if elapsed >= minimum_seconds / rounds:
                break
        best = min(best, elapsed / calls)
    return best


def mitchell_session(tables: int, boards: int, generator: random.Random) -> SessionInput:
    """A full Mitchell: every table plays every board, EW pairs move up a table a round."""
    lines = []
    for board in range(1, boards + 1):
        scores = random_board(tables, generator)
        for table in range(1, tables + 1):
            ew = (table + board - 2) % tables + 1
            lines.append(Line(board, f"{table}NS", f"{ew}EW", scores[table - 1]))
    fields = {pair: pair[-2:] for line in lines for pair in (line.ns_pair, line.ew_pair)}
    return SessionInput(tuple(lines), fields)


def main() -> None:
    generator = random.Random(20240601)
    print("Results scored per second on one board")
    print(f"{'results':>10}" + "".join(f"{name:>16}" for name in METHODS))
    seconds: dict[tuple[str, int], float] = {}
    for size in BOARD_SIZES:
        board = random_board(size, generator)
        for name, function in METHODS.items():
            seconds[(name, size)] = seconds_per_call(lambda f=function, b=board: f(b))
        print(f"{size:>10,}" + "".join(f"{size / seconds[(name, size)]:>16,.0f}" for name in METHODS))

    print()
    print("How a board's cost grows with its size (time of the larger board / the smaller)")
    print(f"{'results':>16}{'linear':>8}" + "".join(f"{name:>16}" for name in METHODS))
    for small, large in GROWTH_STEPS:
        ratios = "".join(f"{seconds[(name, large)] / seconds[(name, small)]:>15,.1f}x" for name in METHODS)
        print(f"{small:>7,} -> {large:>6,}{large // small:>7}x" + ratios)

    boards = [random_board(13, generator) for _ in range(20_000)]
    print()
    print("20,000 boards of 13 results, results per second")
    print(f"{'':>22}" + "".join(f"{name:>16}" for name in METHODS))
    one_by_one = [
        len(boards) * 13 / seconds_per_call(lambda f=function: [f(board) for board in boards], 1.0)
        for function in METHODS.values()
    ]
    print(f"{'one call a board':>22}" + "".join(f"{rate:>16,.0f}" for rate in one_by_one))
    at_once = [len(boards) * 13 / seconds_per_call(lambda f=function: f(boards), 1.0) for function in BATCHES.values()]
    print(f"{'every board in a call':>22}" + "".join(f"{rate:>16,.0f}" for rate in at_once))

    session = mitchell_session(tables=13, boards=26, generator=generator)
    print()
    print(f"A 13-table, 26-board Mitchell ({len(session.lines)} lines), whole session scored and ranked:")
    for method in ("matchpoints", "cross_imps", "butler"):
        options = ScoringOptions(method=method)
        timed = SessionInput(session.lines, session.fields, options)
        print(f"  {method:<12} {seconds_per_call(lambda t=timed: score_session(t)) * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
