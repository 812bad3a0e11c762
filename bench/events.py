"""Benchmark of an event's combined ranking as its sessions grow (RULES 11).

Run from the project root:

    .venv/bin/python bench/events.py [--sessions 3,10,30] [--tables 7] [--repeat 10]

On a throwaway SQLite database, an event gets its sessions one after another: each a
Mitchell of --tables tables, 7 rounds of 3 boards, every line entered through the
services, the same named pairs every time, published. At each count in --sessions it
prints the SQL queries and the median time of event_ranking alone and of the players'
event page (Django's test Client). Speed is printed, never asserted.
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ["4S N =", "4S N +1", "3NT S =", "4H E -1", "2S W +1", "PASS", "3NT S +1", "5DX E -2"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", default="3,10,30", help="session counts to measure at")
    parser.add_argument("--tables", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=10)
    options = parser.parse_args()
    counts = sorted(int(count) for count in options.sessions.split(","))
    with tempfile.TemporaryDirectory(prefix="clubscore-bench-") as folder:
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
        os.environ["DJANGO_SETTINGS_MODULE"] = "bench.web_settings"
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        measure(counts, options)


def measure(counts: list[int], options: argparse.Namespace) -> None:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from sessions.models import Club, Event
    from sessions.pairs.selectors.events import event_ranking

    club = Club.objects.create(name="Bench Club", slug="bench")
    event = Event.objects.create(club=club, name="Winter League", sessions_counted=8, minimum_sessions=2)
    client = Client()
    url = reverse("sessions:event_results", args=[event.pk])
    print(f"{options.tables}-table Mitchells, 7 rounds of 3 boards, every line entered; median of {options.repeat}.\n")
    print("| sessions | lines | SQL queries (ranking / page) | event_ranking ms | event page ms | growth per line |")
    print("| ---: | ---: | ---: | ---: | ---: | --- |")
    made = lines = 0
    before: tuple[int, float, float] | None = None
    for count in counts:
        while made < count:
            lines += add_session(event, options.tables, made)
            made += 1
        with CaptureQueriesContext(connection) as captured:
            event_ranking(event=event)
        ranking_queries = len(captured)  # now: the next request clears the connection's log
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        page_queries = len(captured)
        ranking_ms = median_ms(lambda: event_ranking(event=event), options.repeat)
        page_ms = median_ms(lambda: client.get(url), options.repeat)
        # How much more each costs than at the count before, per line: 1.0 is linear growth.
        growth = "" if before is None else (
            f"ranking x{ranking_ms / before[1] / (lines / before[0]):.2f}, page x{page_ms / before[2] / (lines / before[0]):.2f}"
        )
        print(f"| {count} | {lines:,} | {ranking_queries} / {page_queries} | {ranking_ms:.0f} | {page_ms:.0f} | {growth} |")
        before = (lines, ranking_ms, page_ms)


def add_session(event, tables: int, number: int) -> int:
    from sessions.movements import mitchell
    from sessions.pairs.services.results import result_record
    from sessions.pairs.services.sessions import session_create, session_publish

    players = {f"{n}{side}": [f"Player {n}{side} one", f"Player {n}{side} two"]
               for n in range(1, tables + 1) for side in ("NS", "EW")}
    session = session_create(
        event=event, name=f"Week {number + 1}", date=datetime.date(2026, 1, 5) + datetime.timedelta(weeks=number),
        movement=mitchell(tables, 3), pair_players=players,
    )
    section = session.sections.get()
    boards = {board.number: board for board in session.boards.all()}
    entered = 0
    for seating in section.seatings.select_related("ns_pair", "ew_pair"):
        for board in seating.boards:
            text = RESULTS[(board * 7 + seating.table * 3 + number) % len(RESULTS)]
            result_record(board=boards[board], section=section, ns_pair=seating.ns_pair.label,
                          ew_pair=seating.ew_pair.label, text=text)
            entered += 1
    session_publish(session=session)
    return entered


def median_ms(action, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


if __name__ == "__main__":
    main()
