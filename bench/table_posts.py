"""Benchmark of one table phone's post in-process: server time and SQL queries of Send and Confirm.

Run from the project root (PostgreSQL by default; SQLite with --databases sqlite):

    .venv/bin/python bench/table_posts.py [--tables 30] [--rounds 2] [--databases postgres,sqlite]
    .venv/bin/python bench/table_posts.py --tables 300 --sections 20 --rounds 1   # a large room's size
    .venv/bin/python bench/table_posts.py --profile 25     # and where the time goes (cProfile, top 25)
    BENCH_SORT=tottime .venv/bin/python bench/table_posts.py --profile 25   # by each function's own time
    .venv/bin/python bench/table_posts.py --unprepared     # every query built by the ORM, as without
                                                           # sessions/core/query_speed.py

A throwaway database (bench/web.py's) holds bench/tables.py's Mitchell; each table in
turn (--sections: split into that many sections, as bench/tables.py) plays --rounds
rounds as its phone's script does (HX-Request), through Django's test
Client in this one process, with no other load: the time from the request to the
answer's last byte (the server's time a post, without the network or gunicorn), the
answer's size and the SQL queries of each post. Printed: p50 / p95 of Send and of
Confirm, the median CPU time of this process a post (the app's own work, without the
database server's, and less disturbed by other load on the machine); with --profile, the functions taking the most time over every post. Never asserted.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import re
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.web import LABELS, bench_environment, throwaway_database  # noqa: E402

SCRIPT = {"HTTP_HX_REQUEST": "true"}
SHOWN_ROUND = re.compile(r'id="board-in-play"[^>]*data-round="(\d*)"')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--sections", type=int, default=1, help="sections the tables are split into")
    parser.add_argument("--rounds", type=int, default=2, help="rounds each table plays, one table after the other")
    parser.add_argument("--databases", default="postgres", help="postgres, sqlite or both")
    parser.add_argument("--profile", type=int, default=0, help="print the N functions taking the most time")
    parser.add_argument("--unprepared", action="store_true",
                        help="the prepared queries built by the ORM each time (query_speed.SPEED_UP off)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.child:
        measure(options)
        return
    for database in options.databases.split(","):
        if database not in LABELS:
            parser.error(f"unknown database {database!r}: sqlite or postgres")
        with throwaway_database(database) as url:
            command = [sys.executable, __file__, "--child", url, "--tables", str(options.tables),
                       "--sections", str(options.sections), "--rounds", str(options.rounds), "--profile", str(options.profile),
                       *(["--unprepared"] if options.unprepared else [])]
            done = subprocess.run(command, env=bench_environment(url, cache=""), stdout=subprocess.PIPE,
                                  text=True, check=True)
        figures = json.loads(done.stdout.strip().splitlines()[-1])
        laid_out = f" in {options.sections} sections" if options.sections > 1 else ""
        print(f"\n{LABELS[database]}: {options.tables} tables{laid_out}, {options.rounds} round(s) each, in-process "
              f"(test Client, local-memory cache){', queries unprepared' if options.unprepared else ''}; "
              f"load average before {figures['load']:.1f}.")
        print("| post | p50 ms | p95 ms | p50 CPU ms | queries (p50, max) | answer bytes (p50) |")
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
        for step in ("send", "confirm"):
            times = sorted(figures[step])
            p95 = times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))]
            queries = figures[f"{step} queries"]
            print(f"| {step} | {statistics.median(times):.1f} | {p95:.1f} | {statistics.median(figures[step + ' cpu']):.1f} "
                  f"| {statistics.median(queries):.0f}, {max(queries)} | {statistics.median(figures[step + ' bytes']):.0f} |")
        print(f"Stored lines: {figures['stored']} of {figures['lines']}; answers saying an error: {figures['refused']}.")
        if figures.get("profile"):
            print(figures["profile"])


def measure(options: argparse.Namespace) -> None:
    import io
    import os

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from bench.tables import build
    from sessions.core import query_speed
    from sessions.models import Result

    query_speed.SPEED_UP = not options.unprepared

    call_command("migrate", verbosity=0)
    session, _, tables = build(options.tables, options.rounds, sections=options.sections)
    figures: dict = {"refused": 0, **{f"{step}{what}": [] for step in ("send", "confirm")
                                      for what in ("", " cpu", " queries", " bytes")}, "load": os.getloadavg()[0]}
    profiler = cProfile.Profile() if options.profile else None
    for token, boards in tables:
        client = Client()
        shown = SHOWN_ROUND.search(client.get(f"/t/{token}/").content.decode())
        for number in boards:
            key = uuid.uuid4().hex
            for step, path, data in (("send", "send/", {"board": number, "text": "3NT N =", "lead": "",
                                                        "client_key": key}),
                                     ("confirm", "confirm/", {"client_key": key})):
                with CaptureQueriesContext(connection) as queries:
                    if profiler:
                        profiler.enable()
                    started, cpu = time.perf_counter(), time.process_time()
                    # The round the phone shows, as its script says it (table.js shownRound).
                    response = client.post(f"/t/{token}/{path}", data, **SCRIPT,
                                           HTTP_X_TABLE_ROUND=shown[1] if shown else "")
                    elapsed = (time.perf_counter() - started) * 1000
                    cpu = (time.process_time() - cpu) * 1000
                    if profiler:
                        profiler.disable()
                if response.status_code != 200:
                    raise SystemExit(f"{step} answered {response.status_code}")
                figures[step].append(elapsed)
                figures[f"{step} cpu"].append(cpu)
                shown = SHOWN_ROUND.search(response.content.decode())
                figures["refused"] += 'class="message error"' in response.content.decode()
                figures[f"{step} queries"].append(len(queries))
                figures[f"{step} bytes"].append(len(response.content))
    figures["stored"] = Result.objects.filter(board__session=session).count()
    figures["lines"] = sum(len(boards) for _, boards in tables)
    if profiler:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats(os.environ.get("BENCH_SORT", "cumulative")).print_stats(options.profile)
        figures["profile"] = out.getvalue()
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
