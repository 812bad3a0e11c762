"""Benchmark of the double-dummy analysis: seconds for 3, 9 and 27 boards, batch vs one by one.

Run from the project root: .venv/bin/python bench/analysis.py
The deals are random but seeded, so runs are comparable. The solver is loaded (and
warmed on one deal) before timing, as a long-running worker would have it.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sessions.handrecords.analysis import analyse, analyse_many  # noqa: E402
from sessions.handrecords.generate import random_deals  # noqa: E402
from sessions.scoring.boards import dealer, vulnerability  # noqa: E402

BOARDS = (3, 9, 27)  # growth: the cost a board should stay the same
SEED = 2025


def measure(boards: int) -> tuple[float, float]:
    """(seconds one by one, seconds in one batch) for ``boards`` random deals."""
    deals = dict(enumerate(random_deals(boards, seed=SEED), start=1))
    started = time.perf_counter()
    one_by_one = {number: analyse(deal, dealer(number), vulnerability(number)) for number, deal in deals.items()}
    single_seconds = time.perf_counter() - started

    started = time.perf_counter()
    batch = analyse_many(deals)
    batch_seconds = time.perf_counter() - started
    assert batch == one_by_one, "batch and single analyses disagree"
    return single_seconds, batch_seconds


def main() -> None:
    analyse(random_deals(1, seed=0)[0], "N", "None")  # load and warm the solver
    print(f"seed {SEED}, {os.cpu_count()} CPUs; growth: the cost a board against the size before (1.0 = linear)")
    before: tuple[int, float, float] | None = None
    for boards in BOARDS:
        single_seconds, batch_seconds = measure(boards)
        growth = "" if before is None else (
            f"  growth x{single_seconds / before[1] / (boards / before[0]):.2f} / "
            f"x{batch_seconds / before[2] / (boards / before[0]):.2f}"
        )
        print(f"{boards:>3} boards: one by one {single_seconds:6.2f} s ({single_seconds / boards:.3f} s a board), "
              f"batch {batch_seconds:6.2f} s ({batch_seconds / boards:.3f} s a board){growth}")
        before = (boards, single_seconds, batch_seconds)


if __name__ == "__main__":
    main()
