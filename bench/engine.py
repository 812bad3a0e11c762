"""Benchmark of the pairs-scoring engine: results per second on one board, and a session.

Run from the project root: .venv/bin/python bench/engine.py
The data is random but seeded, so runs are comparable.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sessions.scoring.butler import butler_board  # noqa: E402
from sessions.scoring.crossimps import cross_imps_board  # noqa: E402
from sessions.scoring.matchpoints import matchpoint_board  # noqa: E402
from sessions.scoring.session import Line, ScoringOptions, SessionInput, score_session  # noqa: E402

BOARD_SIZES = (10, 100, 1_000, 10_000)
METHODS: dict[str, Callable[[list[int]], object]] = {
    "matchpoints": matchpoint_board,
    "cross-IMPs": cross_imps_board,
    "Butler": butler_board,
}


def random_board(results: int, generator: random.Random) -> list[int]:
    """NS scores as a real board spreads them: mostly a few contracts, some outliers."""
    common = [generator.choice(range(-1400, 1460, 10)) for _ in range(6)]
    return [
        generator.choice(common) if generator.random() < 0.8 else generator.choice(range(-2000, 2010, 10))
        for _ in range(results)
    ]


def seconds_per_call(function: Callable[[], object], minimum_seconds: float = 0.3) -> float:
    """Average wall time of ``function``, repeated until at least ``minimum_seconds`` pass."""
    calls, started = 0, time.perf_counter()
    while True:
        function()
        calls += 1
        elapsed = time.perf_counter() - started
        if elapsed >= minimum_seconds:
            return elapsed / calls


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
    for size in BOARD_SIZES:
        board = random_board(size, generator)
        rates = [size / seconds_per_call(lambda f=function, b=board: f(b)) for function in METHODS.values()]
        print(f"{size:>10,}" + "".join(f"{rate:>16,.0f}" for rate in rates))

    session = mitchell_session(tables=13, boards=26, generator=generator)
    print()
    print(f"A 13-table, 26-board Mitchell ({len(session.lines)} lines), whole session scored and ranked:")
    for method in ("matchpoints", "cross_imps", "butler"):
        options = ScoringOptions(method=method)
        timed = SessionInput(session.lines, session.fields, options)
        print(f"  {method:<12} {seconds_per_call(lambda t=timed: score_session(t)) * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
