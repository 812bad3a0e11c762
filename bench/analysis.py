"""Benchmark of the double-dummy analysis: seconds for a 27-board session, batch vs one by one.

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

BOARDS = 27
SEED = 2025


def main() -> None:
    deals = dict(enumerate(random_deals(BOARDS, seed=SEED), start=1))
    analyse(random_deals(1, seed=0)[0], "N", "None")  # load and warm the solver

    started = time.perf_counter()
    one_by_one = {number: analyse(deal, dealer(number), vulnerability(number)) for number, deal in deals.items()}
    single_seconds = time.perf_counter() - started

    started = time.perf_counter()
    batch = analyse_many(deals)
    batch_seconds = time.perf_counter() - started

    assert batch == one_by_one, "batch and single analyses disagree"
    print(f"{BOARDS} boards (seed {SEED}), {os.cpu_count()} CPUs")
    print(f"one by one: {single_seconds:6.2f} s  ({single_seconds / BOARDS:.3f} s a board)")
    print(f"batch:      {batch_seconds:6.2f} s  ({batch_seconds / BOARDS:.3f} s a board)")


if __name__ == "__main__":
    main()
