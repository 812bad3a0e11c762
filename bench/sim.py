"""Benchmark of a national simultaneous pairs: import, a correction, the pages, and growth.

Run from the project root:

    .venv/bin/python bench/sim.py                                   # SQLite
    .venv/bin/python bench/sim.py --databases sqlite,postgres       # both (PostgreSQL from DATABASE_URL
                                                                    # or postgres://postgres@127.0.0.1:5432/postgres)
    .venv/bin/python bench/sim.py --tables 3,15 --repeat 3          # a quick run

The event, as federations run them: every club a section of up to 12 tables playing the
same 24 boards, matchpointed across the field (3,000 tables: 200 sections of 15 tables,
6,000 pairs, 72,000 traveller lines). Each section is a Mitchell of 12 rounds of 2
boards (every table plays its own copy of the round's boards, EW pairs move up a table);
3 tables play 3 rounds of 8 boards. Results are
random but seeded; every player is named, with a national number.

For each size, on a throwaway database (bench/web.py's) in a fresh process:

- import: the event written as a USEBIO file by the app's own writer (the one the USEBIO
  export uses), then results_import (read, store, score, compare; one transaction);
- correction: one line changed through result_correct, then the next request of the
  ranking page, of the board's traveller and of a pair's score card (Django's test
  Client): the time until the change is visible;
- pages: the median time of the same three pages, and their SQL queries.

Each time is wall time and, in brackets, this process's CPU time: on a machine shared
with other work the CPU time is what the code costs (PostgreSQL's own work is not in
it; SQLite's is). The settings are bench/web.py's with a dummy cache, so no page comes from the page
cache (which only helps from the second request of a page after a change); the scored
figures are kept in the process, as on a server (sessions.core.selectors.kept_scores), so
the first request after the correction scores the corrected board again and the
pages after it only render. The last table shows how each figure grows from one size to the next,
per table: 1.0 is linear growth, and a page that does not grow with the session (it is
paginated) shows the size ratio's inverse. Speed is printed, never asserted.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.web import LABELS, throwaway_database  # noqa: E402

SETTINGS = "bench.sim_settings"
SIZES = (3, 15, 3_000)
BOARDS = 24
SECTION_TABLES = 15  # a club's section; more tables than this make more sections
SEED = 20251125
TARGETS = {"import s": 20.0, "correction ms": 1000.0, "page ms": 200.0}
PAGES = {"ranking": "sessions:session_results", "traveller": "sessions:board", "score card": "sessions:scorecard"}


# --- the parent: one child process per database and size ----------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--databases", default="sqlite", help="sqlite, postgres or both (comma-separated)")
    parser.add_argument("--tables", default=",".join(str(size) for size in SIZES), help="sizes, in tables")
    parser.add_argument("--repeat", type=int, default=5, help="test-Client requests per page (median taken)")
    parser.add_argument("--child", help=argparse.SUPPRESS)  # internal: measure one size on one database URL
    options = parser.parse_args()
    if options.child:
        print(json.dumps(measure(int(options.child), options.repeat)))
        return
    sizes = [int(size) for size in options.tables.split(",")]
    for database in options.databases.split(","):
        if database not in LABELS:
            parser.error(f"unknown database {database!r}: sqlite or postgres")
        figures = {}
        for tables in sizes:
            with throwaway_database(database) as url:
                figures[tables] = run_child(url, tables, options.repeat)
            print_size(database, tables, figures[tables])
        print_growth(database, figures)


def run_child(url: str, tables: int, repeat: int) -> dict:
    """Measure in a fresh process: Django's settings can be set up once per process."""
    command = [sys.executable, __file__, "--child", str(tables), "--repeat", str(repeat)]
    environment = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": SETTINGS, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(command, env=environment, stdout=subprocess.PIPE, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def print_size(database: str, tables: int, figures: dict) -> None:
    print(f"\n{LABELS[database]}, {tables:,} tables: {figures['sections']} sections, {figures['pairs']:,} pairs, "
          f"{figures['lines']:,} lines, USEBIO file {figures['file_mb']:.1f} MB written in {figures['write_s']:.1f} s")
    print(f"  import {figures['import_s']:.2f} s, CPU {figures['import_cpu_s']:.2f} s (target {TARGETS['import s']:g} s); "
          f"correction saved in {figures['correct_ms']:.0f} ms")
    print(f"  {'page':<11} {'after correction ms (CPU)':>26} {'median ms (CPU)':>16} {'queries':>8}")
    for title in PAGES:
        page = figures["pages"][title]
        print(f"  {title:<11} {page['after_ms']:>17.0f} ({page['after_cpu_ms']:>6.0f}) "
              f"{page['median_ms']:>7.1f} ({page['median_cpu_ms']:>6.1f}) {page['queries']:>8}")
    visible = figures["correct_ms"] + figures["pages"]["ranking"]["after_ms"]
    print(f"  correction visible on the ranking in {visible:.0f} ms (target {TARGETS['correction ms']:g} ms); "
          f"pages target {TARGETS['page ms']:g} ms", flush=True)


def print_growth(database: str, figures: dict[int, dict]) -> None:
    sizes = sorted(figures)
    if len(sizes) < 2:
        return
    print(f"\n{LABELS[database]}: growth of the CPU times per table from one size to the next "
          f"(1.0 = linear; x = the figure's own ratio)")
    print(f"  {'tables':>14} {'import':>15} " + " ".join(f"{title:>15}" for title in PAGES))
    for small, large in zip(sizes, sizes[1:]):
        scale = large / small
        before, after = figures[small], figures[large]
        cells = [growth(after["import_cpu_s"], before["import_cpu_s"], scale)]
        cells += [growth(after["pages"][t]["median_cpu_ms"], before["pages"][t]["median_cpu_ms"], scale) for t in PAGES]
        print(f"  {small:>5,} -> {large:>5,} " + " ".join(f"{cell:>15}" for cell in cells))


def growth(after: float, before: float, scale: float) -> str:
    ratio = after / before
    return f"x{ratio:,.1f} ({ratio / scale:.2f})"


# --- the event, as a parsed model -----------------------------------------------------------


def section_names(count: int) -> list[str]:
    """A, B ... Z, then AA, AB ...: two letters at most, as sections are stored."""
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    names = list(letters) + [first + second for first in letters for second in letters]
    return names[:count]


def section_tables(tables: int) -> list[int]:
    count = -(-tables // SECTION_TABLES)
    return [tables // count + (index < tables % count) for index in range(count)]


def parsed_event(tables: int):
    """The simultaneous pairs as the readers' model, ready for the USEBIO writer."""
    from sessions.formats.conventions import CONVENTIONS_KEY, write_conventions
    from sessions.formats.model import ParsedBoard, ParsedEvent, ParsedLine, ParsedPair, ParsedPlayer

    chooser = random.Random(SEED + tables)
    field = {board: field_contract(chooser) for board in range(1, BOARDS + 1)}
    pairs, boards = [], []
    for name, size in zip(section_names(len(section_tables(tables))), section_tables(tables)):
        for number in range(1, size + 1):
            for direction in ("NS", "EW"):
                who = f"{name}{number}{direction}"
                players = [ParsedPlayer(f"Player {who} {seat}", f"{who}{seat}") for seat in "ab"]
                pairs.append(ParsedPair(f"{name}:{number}{direction}", name, str(number), direction, players,
                                        None, None, None))
        rounds = min(size, 12)
        per_round = BOARDS // rounds
        lines: dict[int, list] = {board: [] for board in range(1, rounds * per_round + 1)}
        for round_ in range(1, rounds + 1):
            for table in range(1, size + 1):
                ew = (table + round_ - 2) % size + 1  # EW pairs move up a table a round
                for board in range((round_ - 1) * per_round + 1, round_ * per_round + 1):
                    contract, declarer, tricks, score = table_result(field[board], board, chooser)
                    lines[board].append(ParsedLine(
                        f"{name}:{table}NS", f"{name}:{ew}EW", contract, declarer, tricks, "", str(score),
                        None, None, round=round_, table=table,
                    ))
        boards += [ParsedBoard(board, name, board_lines) for board, board_lines in lines.items()]
    conventions = write_conventions({"method": "matchpoints", "across_field": True, "rankings": "two"})
    return ParsedEvent("usebio", "ClubScore", "MP_PAIRS", "matchpoints", "National Simultaneous Pairs",
                       "25/11/2025", "National Federation", pairs, boards, movement="mitchell",
                       extra={CONVENTIONS_KEY: conventions, "WINNER_TYPE": "2"})


def field_contract(chooser: random.Random) -> tuple[str, str, int]:
    contract = chooser.choice(["4S", "4H", "3NT", "2S", "3D", "1NT", "6NT"])
    return contract, chooser.choice(["N", "S", "E", "W"]), int(contract[0]) + 6 + chooser.choice([-1, 0, 0, 1])


def table_result(field: tuple[str, str, int], board: int, chooser: random.Random) -> tuple[str, str, int, int]:
    """(contract, declarer, tricks, NS score): mostly the field's contract, some tables differ."""
    from sessions.scoring.boards import Seat, is_vulnerable, vulnerability
    from sessions.scoring.contracts import parse_contract
    from sessions.scoring.deal_score import deal_score

    contract, declarer, tricks = field
    if chooser.random() < 0.15:
        contract = chooser.choice(["3NT", "4S", "2H", "5DX", "1NT"])
    tricks = max(0, min(13, max(tricks, 7) + chooser.choice([-1, 0, 0, 1])))
    tricks = min(tricks, 13) if parse_contract(contract).tricks_needed <= 13 else tricks
    score = deal_score(contract, tricks, is_vulnerable(vulnerability(board), Seat(declarer)))
    return contract, declarer, tricks, score if declarer in "NS" else -score


# --- the child: build, import, correct, measure ----------------------------------------------


def measure(tables: int, repeat: int) -> dict:
    import django

    django.setup()
    from django.core.management import call_command

    from sessions.formats.usebio_write import write_usebio
    from sessions.models import Club, Result
    from sessions.pairs.services.results import result_correct
    from sessions.pairs.services.sessions import session_publish
    from sessions.transfer.services.importing import results_import

    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    parsed = parsed_event(tables)
    data = write_usebio(parsed)
    write_seconds = time.perf_counter() - started
    club = Club.objects.create(name="National Federation", slug="national")
    started, cpu = time.perf_counter(), time.process_time()
    report = results_import(club=club, data=data, filename="simultaneous.xml")
    import_seconds, import_cpu = time.perf_counter() - started, time.process_time() - cpu
    session = session_publish(session=report.session)
    # The pages are served by a process that did not import the file (a worker did, or
    # another request): what the import built is let go before they are measured.
    figures = {"sections": len(section_tables(tables)), "pairs": len(parsed.pairs), "lines": report.lines,
               "file_mb": len(data) / 1048576}
    del parsed, data, report
    gc.collect()
    line = Result.objects.filter(board__session=session, board__number=1).order_by("pk").first()
    assert line is not None
    pair_id = line.ns_pair_id
    paths = {title: page_path(name, session.pk, pair_id) for title, name in PAGES.items()}
    client = warmed_client(paths)
    started = time.perf_counter()
    result_correct(result=line, text="7NTX N 3", version=line.version)  # a typo fixed: -3,000 or so
    correct_ms = (time.perf_counter() - started) * 1000
    pages = {title: dict(zip(("after_ms", "after_cpu_ms"), timed_get(client, path))) for title, path in paths.items()}
    for title, path in paths.items():
        pages[title].update(page_figures(client, path, repeat))
    return {
        **figures, "write_s": write_seconds, "import_s": import_seconds, "import_cpu_s": import_cpu,
        "correct_ms": correct_ms, "pages": pages,
    }


def page_path(url_name: str, session_id: int, pair_id: int) -> str:
    from django.urls import reverse

    args = {"sessions:board": [session_id, 1], "sessions:scorecard": [session_id, pair_id]}.get(url_name, [session_id])
    return reverse(url_name, args=args)


def warmed_client(paths: dict[str, str]):
    """A test Client that has served each page once (templates loaded, code imported)."""
    from django.test import Client

    client = Client()
    for path in paths.values():
        timed_get(client, path)
    return client


def timed_get(client, path: str) -> tuple[float, float]:
    """(wall ms, CPU ms of this process) of one request."""
    started, cpu = time.perf_counter(), time.process_time()
    response = client.get(path)
    elapsed = (time.perf_counter() - started) * 1000, (time.process_time() - cpu) * 1000
    if response.status_code != 200:
        raise SystemExit(f"{path} answered {response.status_code}")
    return elapsed


def page_figures(client, path: str, repeat: int) -> dict:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        timed_get(client, path)
    queries = len(captured)  # now: the next request clears the connection's log
    times = [timed_get(client, path) for _ in range(repeat)]
    return {
        "median_ms": statistics.median(wall for wall, _ in times),
        "median_cpu_ms": statistics.median(cpu for _, cpu in times), "queries": queries,
    }


if __name__ == "__main__":
    main()
