"""Benchmark of table entry: every table's phone sending and confirming a round at once.

Run from the project root (PostgreSQL by default, as in production; SQLite with
--databases sqlite):

    .venv/bin/python bench/tables.py [--tables 3,15,30] [--databases postgres,sqlite]

For each size in --tables, a throwaway database (bench/web.py's) holds a Mitchell of that
many tables, 2 boards a round, with a link per table. gunicorn serves the app on loopback; one thread per
table plays round 1 as a phone does: open the table page (the CSRF cookie), then for
each board POST Send and POST Confirm (the phone's script's requests: HX-Request). A
director's thread polls the session's progress grid meanwhile and notes when each line count
first shows (its progress grid, polled). Printed: p50 / p95 of one phone's page alone,
of Send and of Confirm with every table at once, and of the time from a Confirm's answer
until the director's grid shows the line; then how each median grows from one size to
the next. Never asserted.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.web import LABELS, bench_environment, gunicorn, throwaway_database  # noqa: E402

BOARDS_PER_ROUND = 2
CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
LINES_ENTERED = re.compile(r"(\d+) of (\d+)\s*(?:</strong>)?\s*lines entered")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="3,15,30", help="sizes, in tables (growth from one to the next)")
    parser.add_argument("--databases", default="postgres", help="postgres, sqlite or both")
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1) + 1, help="gunicorn workers")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.child:
        print(json.dumps(measure(options)))
        return
    for database in options.databases.split(","):
        if database not in LABELS:
            parser.error(f"unknown database {database!r}: sqlite or postgres")
        medians: dict[int, dict[str, float]] = {}
        for tables in (int(size) for size in options.tables.split(",")):
            with throwaway_database(database) as url:
                command = [sys.executable, __file__, "--child", url, "--tables", str(tables),
                           "--workers", str(options.workers)]
                done = subprocess.run(command, env=bench_environment(url), stdout=subprocess.PIPE, text=True, check=True)
                figures = json.loads(done.stdout.strip().splitlines()[-1])
                report(database, tables, figures, options)
                medians[tables] = {step: statistics.median(figures[step]) for step in STEPS if figures[step]}
        print_growth(medians)


def print_growth(medians: dict[int, dict[str, float]]) -> None:
    """How each step's median grows from one size to the next: every table plays at once,
    so x1.0 means a table waits no longer in a larger room; the size ratio, linear waiting."""
    sizes = sorted(medians)
    for small, large in zip(sizes, sizes[1:]):
        ratios = ", ".join(
            f"{step} x{medians[large][step] / medians[small][step]:.2f}"
            for step in STEPS if step in medians[small] and step in medians[large]
        )
        print(f"Growth of the medians, {small} -> {large} tables (x{large / small:g} tables): {ratios}")


STEPS = ("page alone", "send", "confirm", "grid")


def report(database: str, tables: int, figures: dict, options: argparse.Namespace) -> None:
    print(f"\n{LABELS[database]}: {tables} tables, round 1 ({figures['lines']} lines) sent and confirmed "
          f"at once; gunicorn {options.workers} sync workers on {os.cpu_count()} CPUs shared with the phones.")
    print("| step | p50 ms | p95 ms | max ms |")
    print("| --- | ---: | ---: | ---: |")
    for step in STEPS:
        values = sorted(figures[step])
        if not values:
            print(f"| {step} | - | - | - |")
            continue
        p95 = values[min(len(values) - 1, int(round(0.95 * (len(values) - 1))))]
        print(f"| {step} | {statistics.median(values):.0f} | {p95:.0f} | {values[-1]:.0f} |")
    print(f"Stored lines: {figures['stored']} of {figures['lines']}; errors: {figures['errors']}; "
          f"round played in {figures['seconds']:.1f} s.")


# --- the child: build, serve, play ------------------------------------------------------------


def build(tables: int):
    from django.contrib.auth import get_user_model

    from sessions.models import Club, ClubDirector, Event, Seating
    from sessions.movements import mitchell
    from sessions.services import session_create
    from sessions.services.tables import table_links_ensure

    director = get_user_model().objects.create_user("bench-director", password="bench-director")
    club = Club.objects.create(name="Benchmark Bridge Club", slug="bench")
    ClubDirector.objects.create(user=director, club=club)
    event = Event.objects.create(club=club, name="Phones night")
    import datetime

    movement = mitchell(tables, BOARDS_PER_ROUND)
    session = session_create(event=event, name="Phones", date=datetime.date(2026, 11, 23), movement=movement,
                             by=director)
    links = table_links_ensure(session=session)
    boards = {s.table: list(s.boards) for s in Seating.objects.filter(section__session=session, round=1)}
    return session, director, [(link.token, boards[link.table]) for link in links]


class Phone:
    """One table's phone over HTTP: its cookies, its CSRF token."""

    def __init__(self, port: int, token: str) -> None:
        self.port, self.token, self.cookies = port, token, {}
        self.csrf = ""

    def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, str, float]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()), "HX-Request": "true"}
        data = None
        if body is not None:
            data = urlencode(body)
            headers.update({"Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": self.csrf,
                            "Referer": f"http://127.0.0.1:{self.port}{path}"})
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        started = time.perf_counter()
        try:
            connection.request(method, path, body=data, headers=headers)
            response = connection.getresponse()
            text = response.read().decode()
        finally:
            connection.close()
        elapsed = (time.perf_counter() - started) * 1000
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";")[0]
        if match := CSRF_INPUT.search(text):
            self.csrf = match[1]
        return response.status, text, elapsed


def play(phone: Phone, boards: list[int], figures: dict, confirmed_at: list, lock: threading.Lock) -> None:
    base = f"/t/{phone.token}/"
    phone.request("GET", base)
    for number in boards:
        key = uuid.uuid4().hex
        status, _, send_ms = phone.request("POST", base + "send/", {
            "board": number, "text": "3NT N =", "lead": "", "client_key": key})
        status_2, _, confirm_ms = phone.request("POST", base + "confirm/", {"client_key": key})
        with lock:
            figures["send"].append(send_ms)
            figures["confirm"].append(confirm_ms)
            figures["errors"] += (status != 200) + (status_2 != 200)
            confirmed_at.append(time.perf_counter())


def watch_grid(port: int, session_id: int, cookie: str, lines: int, seen_at: dict, stop: threading.Event) -> None:
    """The director's progress grid, polled as the session page does (every 5 s there; here
    every 0.2 s, to time when each count of lines first shows)."""
    path = f"/director/sessions/{session_id}/progress/"
    while not stop.is_set():
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        connection.request("GET", path, headers={"Cookie": cookie, "HX-Request": "true"})
        text = connection.getresponse().read().decode()
        connection.close()
        match = LINES_ENTERED.search(text)
        now = time.perf_counter()
        if match:
            for count in range(1, int(match[1]) + 1):
                seen_at.setdefault(count, now)
            if int(match[1]) >= lines:
                return
        time.sleep(0.2)


def measure(options: argparse.Namespace) -> dict:
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    from sessions.models import Result

    call_command("migrate", verbosity=0)
    session, director, tables = build(int(options.tables))
    client = Client()
    client.force_login(director)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    lines = sum(len(boards) for _, boards in tables)
    figures = {"send": [], "confirm": [], "errors": 0}
    confirmed_at: list[float] = []
    seen_at: dict[int, float] = {}
    lock, stop = threading.Lock(), threading.Event()
    with gunicorn(options.workers) as port:
        alone = Phone(port, tables[0][0])
        for _ in range(5):  # warm the workers
            alone.request("GET", f"/t/{alone.token}/")
        # One phone alone, to compare: its table page, twenty times in a row.
        figures["page alone"] = [alone.request("GET", f"/t/{alone.token}/")[2] for _ in range(20)]
        watcher = threading.Thread(target=watch_grid, args=(port, session.pk, cookie, lines, seen_at, stop))
        watcher.start()
        started = time.perf_counter()
        phones = [threading.Thread(target=play, args=(Phone(port, token), boards, figures, confirmed_at, lock))
                  for token, boards in tables]
        for phone in phones:
            phone.start()
        for phone in phones:
            phone.join()
        seconds = time.perf_counter() - started
        watcher.join(timeout=30)
        stop.set()
    confirmed_at.sort()
    grid = [(seen_at[i + 1] - at) * 1000 for i, at in enumerate(confirmed_at) if i + 1 in seen_at]
    return {**figures, "grid": [max(0.0, g) for g in grid], "lines": lines, "seconds": seconds,
            "stored": Result.objects.filter(board__session=session).count()}


if __name__ == "__main__":
    main()
