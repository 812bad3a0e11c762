"""Benchmark: how import and export time grows with the number of results.

Run from the project root: .venv/bin/python bench/import_scaling.py [SIZE ...]
(default sizes 10 1000 3000 10000; DATABASE_URL=postgres://... to run on PostgreSQL).

Each file is one board played SIZE times: SIZE tables, each with its own NS and EW
pair of two named players with national numbers (4 x SIZE players), a random result
at each table, no rounds and no tables in the file (so the importer rebuilds the table
plan, its costliest case), in a PBN file. Pair numbers run to 999
(sessions.formats.common.MAX_PAIR_NUMBER), so a size above 999 is shared among
sections of up to 999 tables each (10,000 results: 11 sections).

Import is results_import (read, store, score, compare, one transaction); export is
every format of EXPORTERS in turn (each scores the session again). Each import goes
into a fresh club (so every player is new, as the first import of a club is), in a
throwaway test database. The last column is how much slower than the size before,
per result: 1.0 is linear growth.
"""

from __future__ import annotations

import math
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubscore.settings_test")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from sessions.formats.common import MAX_PAIR_NUMBER  # noqa: E402
from sessions.models import Club  # noqa: E402
from sessions.scoring.boards import Seat, is_vulnerable, vulnerability  # noqa: E402
from sessions.scoring.contracts import parse_contract  # noqa: E402
from sessions.scoring.deal_score import deal_score  # noqa: E402
from sessions.transfer.exporters import EXPORTERS  # noqa: E402
from sessions.transfer.services.importing import results_import  # noqa: E402

SIZES = (10, 1_000, 3_000, 10_000)
SECTIONS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
CONTRACTS = ("4S", "3NT", "2H", "5DX", "1NT", "4H", "3C", "6S")


def section_sizes(results: int) -> list[int]:
    """``results`` tables shared as evenly as can be among as few sections as pair numbers allow."""
    count = math.ceil(results / MAX_PAIR_NUMBER)
    if count > len(SECTIONS):
        raise SystemExit(f"{results} results need {count} sections: at most {len(SECTIONS)} (one letter each)")
    return [results // count + (index < results % count) for index in range(count)]


def random_score(generator: random.Random) -> tuple[str, str, int, int]:
    """(contract, declarer, tricks, NS score) of a random result on board 1 (nobody vulnerable)."""
    contract = generator.choice(CONTRACTS)
    declarer = generator.choice("NESW")
    needed = parse_contract(contract).tricks_needed
    tricks = max(0, min(13, needed + generator.choice((-2, -1, 0, 0, 0, 1, 1))))
    score = deal_score(contract, tricks, is_vulnerable(vulnerability(1), Seat(declarer)))
    return contract, declarer, tricks, score if declarer in "NS" else -score


def one_board_file(results: int, generator: random.Random) -> bytes:
    """Board 1 played at ``results`` tables (see the module docstring), as a PBN file.

    Written by hand, with only the columns the import needs (7 cells a line, 6 a pair):
    the writer's full tables (13 and 9) pass the PBN reader's limit of 200,000 table
    cells at about 6,500 results, so 10,000 would be refused before it is read.
    """
    lines = ['% PBN 2.1', '% Creator: bench/import_scaling.py', '[Event "Scaling Pairs"]', '[Site "Bench Club"]',
             '[Date "2025.03.04"]', '[Board "1"]', '[Dealer "N"]', '[Vulnerable "None"]',
             '[Scoring "MatchPoints;MP1"]',
             '[ScoreTable "Section\\2L;PairId_NS\\3R;PairId_EW\\3R;Contract\\4L;Declarer\\1R;Result\\2R;Score_NS\\5R"]']
    sections = list(zip(SECTIONS, section_sizes(results)))
    for section, tables in sections:
        for table in range(1, tables + 1):
            contract, declarer, tricks, score = random_score(generator)
            lines.append(f'"{section}" {table} {table} {contract} {declarer} {tricks} {score}')
    lines.append('[TotalScoreTable "Section\\2L;PairId\\3R;Direction\\2L;Names\\40L;MemberID1\\8L;MemberID2\\8L"]')
    for section, tables in sections:
        for direction in ("NS", "EW"):
            for table in range(1, tables + 1):
                who = f"{section}{table}{direction}"
                lines.append(f'"{section}" {table} {direction} "Player {who} a;Player {who} b" "{who}a" "{who}b"')
    return ("\r\n".join(lines) + "\r\n").encode("ascii")


def measure(results: int) -> tuple[float, float, int]:
    """(import seconds, export seconds for every format, file bytes)."""
    content = one_board_file(results, random.Random(results))
    club = Club.objects.create(name=f"Bench Club {results}", slug=f"bench-{results}")
    started = time.perf_counter()
    report = results_import(club=club, data=content, filename=f"one-board-{results}.pbn")
    imported = time.perf_counter() - started
    assert report.lines == results, (report.lines, results)
    started = time.perf_counter()
    for exporter in EXPORTERS.values():
        exporter.render(report.session)
    exported = time.perf_counter() - started
    return imported, exported, len(content)


def main() -> None:
    sizes = [int(size) for size in sys.argv[1:]] or list(SIZES)
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, serialize=False)
    try:
        print(f"One board, N results ({connection.vendor}); export = {', '.join(EXPORTERS)}")
        print(f"{'results':>8} {'sections':>8} {'file':>9} {'import s':>9} {'export s':>9}  growth per result")
        before: tuple[int, float, float] | None = None
        for results in sizes:
            imported, exported, size = measure(results)
            growth = ""
            if before is not None:
                scale = results / before[0]
                growth = f"import x{imported / before[1] / scale:.2f}, export x{exported / before[2] / scale:.2f}"
            print(f"{results:>8,} {len(section_sizes(results)):>8} {size / 1048576:>7.2f}MB "
                  f"{imported:>9.2f} {exported:>9.2f}  {growth}", flush=True)
            before = (results, imported, exported)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
