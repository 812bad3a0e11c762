"""Benchmark of sessions.core.tables_speed, the seam where django-tables2 is sped up.

Run from the project root:

    .venv/bin/python bench/tables2_seam.py [--tables 15,60] [--repeat 20]

For each size, a throwaway SQLite database (bench/web.py's) holds one published Mitchell
of that many tables, 9 rounds of 3 boards, every line entered. The players' ranking, a
board's traveller and a score card are served by Django's test Client with no cache
(every request renders), with the seam (``SPEED_UP``) and without it, alternating: the
median server ms of each, and the share the seam saves. Speed is printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="15,60", help="session sizes (tables) to measure")
    parser.add_argument("--repeat", type=int, default=20)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="clubscore-bench-") as folder:
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
        os.environ["DJANGO_SETTINGS_MODULE"] = "bench.web_settings"
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        print("| tables | page | with the seam ms | without ms | saved |")
        print("| ---: | --- | ---: | ---: | ---: |")
        for tables in (int(size) for size in options.tables.split(",")):
            measure(tables, options.repeat)


def measure(tables: int, repeat: int) -> None:
    from django.test import Client
    from django.urls import reverse

    from bench.web import ROUNDS, build_session, no_cache
    from sessions.core import tables_speed

    session, _ = build_session(f"seam-{tables}", tables, ROUNDS)
    pages = {
        "ranking": reverse("sessions:session_results", args=[session.session_id]),
        "traveller": reverse("sessions:board", args=[session.session_id, 1]),
        "score card": reverse("sessions:scorecard", args=[session.session_id, session.pair_id]),
    }
    client = Client()
    with no_cache():
        for title, path in pages.items():
            times: dict[bool, list[float]] = {True: [], False: []}
            for _ in range(repeat):
                for speed_up in (True, False):
                    tables_speed.SPEED_UP = speed_up
                    started = time.perf_counter()
                    assert client.get(path).status_code == 200
                    times[speed_up].append((time.perf_counter() - started) * 1000)
            tables_speed.SPEED_UP = True
            fast, plain = statistics.median(times[True]), statistics.median(times[False])
            print(f"| {tables} | {title} | {fast:.1f} | {plain:.1f} | {1 - fast / plain:.0%} |")


if __name__ == "__main__":
    main()
