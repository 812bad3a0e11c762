"""Benchmark of results in and out: importing a file and exporting a session.

Run from the project root: .venv/bin/python bench/transfer.py
A Mitchell of 3, 15 and 150 tables (up to 9 rounds of 3 boards, every board played at
every table, named players; 15 tables: 405 traveller lines) is generated from a fixed
seed, written as a PBN file and imported into a throwaway in-memory database; the
imported session is then exported in every format. Each figure is the best of a few
runs; the last lines show how each grows per line from one size to the next.
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubscore.settings_test")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from sessions.formats import ParsedBoard, ParsedEvent, ParsedLine, ParsedPair, ParsedPlayer, write_pbn  # noqa: E402
from sessions.models import Club  # noqa: E402
from sessions.scoring.boards import Seat, is_vulnerable, vulnerability  # noqa: E402
from sessions.scoring.contracts import parse_contract  # noqa: E402
from sessions.scoring.deal_score import deal_score  # noqa: E402
from sessions.transfer.exporters import EXPORTERS  # noqa: E402
from sessions.transfer.services.importing import results_import  # noqa: E402

SIZES, ROUNDS, BOARDS_PER_ROUND = (3, 15, 150), 9, 3  # tables: growth from one size to the next
RUNS = 3
CONTRACTS = ("4S", "3NT", "2H", "5DX", "1NT", "4H", "3C", "6S")


def random_line(board: int, ns: str, ew: str, generator: random.Random, table: int, round_: int) -> ParsedLine:
    contract = generator.choice(CONTRACTS)
    declarer = generator.choice("NESW")
    needed = parse_contract(contract).tricks_needed
    tricks = max(0, min(13, needed + generator.choice((-2, -1, 0, 0, 0, 1, 1))))
    score = deal_score(contract, tricks, is_vulnerable(vulnerability(board), Seat(declarer)))
    ns_score = score if declarer in "NS" else -score
    return ParsedLine(ns, ew, contract, declarer, tricks, "", str(ns_score), None, None, round=round_, table=table)


def generated_file(generator: random.Random, tables: int) -> bytes:
    """Round r: every table plays boards 3r-2..3r; EW pairs move up one table a round
    (as many rounds as tables, at most ROUNDS)."""
    rounds = min(ROUNDS, tables)
    pairs = [
        ParsedPair(f"A:{t}{d}", "A", str(t), d, [ParsedPlayer(f"Player {d}{t}a", f"{d}{t}1"),
                                                  ParsedPlayer(f"Player {d}{t}b", f"{d}{t}2")], None, None, None)
        for d in ("NS", "EW") for t in range(1, tables + 1)
    ]
    boards = []
    for round_ in range(1, rounds + 1):
        for board in range((round_ - 1) * BOARDS_PER_ROUND + 1, round_ * BOARDS_PER_ROUND + 1):
            lines = [
                random_line(board, f"A:{t}NS", f"A:{(t + round_ - 2) % tables + 1}EW", generator, t, round_)
                for t in range(1, tables + 1)
            ]
            boards.append(ParsedBoard(board, "A", lines))
    event = ParsedEvent("pbn", "ClubScore", "MatchPoints;MP1", "matchpoints", "Bench Pairs", "2025-03-04",
                        "Bench Club", pairs, boards, movement="mitchell")
    return write_pbn(event)


def best_of(function: Callable[[], object]) -> float:
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return min(times)


def measure(club: Club, tables: int) -> dict[str, float]:
    """Seconds to import the generated file and to export it in each format (best of RUNS)."""
    content = generated_file(random.Random(20250304), tables)
    imported = []
    seconds = {"import": best_of(lambda: imported.append(results_import(club=club, data=content, filename="bench.pbn")))}
    report = imported[-1]
    print(f"A {tables}-table Mitchell of {min(ROUNDS, tables) * BOARDS_PER_ROUND} boards: {report.pairs} pairs, "
          f"{report.lines} traveller lines, PBN file of {len(content):,} bytes")
    print(f"  import (read, store, score, compare)  {seconds['import'] * 1000:8.1f} ms")
    for identifier, exporter in EXPORTERS.items():
        size = len(exporter.render(report.session)[2])
        seconds[identifier] = best_of(lambda e=exporter: e.render(report.session))
        print(f"  export {identifier:<15} {seconds[identifier] * 1000:8.1f} ms  ({size:,} bytes)")
    seconds["lines"] = report.lines
    return seconds


def main() -> None:
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, serialize=False)
    try:
        club = Club.objects.create(name="Bench Club", slug="bench")
        figures = {tables: measure(club, tables) for tables in SIZES}
        print("\nGrowth per traveller line from one size to the next (1.0 = linear):")
        for small, large in zip(SIZES, SIZES[1:]):
            scale = figures[large]["lines"] / figures[small]["lines"]
            ratios = ", ".join(
                f"{name} x{figures[large][name] / figures[small][name] / scale:.2f}"
                for name in figures[small] if name != "lines"
            )
            print(f"  {small} -> {large} tables: {ratios}")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
