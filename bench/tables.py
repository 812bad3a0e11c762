"""Benchmark of table entry: every table's phone sending and confirming a round at once.

Run from the project root (PostgreSQL by default, as in production; SQLite with
--databases sqlite):

    .venv/bin/python bench/tables.py [--tables 3,15,30] [--databases postgres,sqlite]
    .venv/bin/python bench/tables.py --tables 50 --rounds 3 --readers 200 --workers 4   # phones and players
    .venv/bin/python bench/tables.py --tables 30,300 --sections 1,20   # 30 tables in one section, 300 in 20

For each size in --tables, a throwaway database (bench/web.py's) holds a Mitchell of that
many tables, 2 boards a round, with a link per table; with --sections S, S sections of a
Mitchell each, sharing the boards (each section scored on its own, the event's default),
as a large simultaneous event is laid out (a 300-table room: --tables 300 --sections 20,
sections of 15 tables). gunicorn serves the app on loopback (gunicorn.conf.py's threaded
workers; ``--gunicorn`` passes other options, e.g. "--worker-class sync"); one thread per
table plays --rounds rounds as a phone does: open the table page (the CSRF cookie), then for each
board POST Send and POST Confirm (the phone's script's requests: HX-Request, and
X-Table-Round, the round its page shows, so the answer is only the parts that changed). A
director's thread polls the session's progress grid meanwhile and notes when each line count
first shows (its progress grid, polled). With --readers R the session is published (one
line of its last round entered first) and players reload its public pages (the rankings
and board 1's traveller, in turn) at R requests a second, paced, from --reader-threads
threads, while the phones play: how many a second they got, and how long each took. With
--pages-workers N the players' pages and the director's grid have a pool of their own, as
deploy/nginx.conf splits production's (the phones keep --workers).
Printed: p50 / p95 of one phone's page alone, of Send and of Confirm with every table at
once, and of the time from a Confirm's answer until the director's grid shows the line;
the readers' rate and times; then how each median grows from one size to the next. Never
asserted. At 300 tables the grid itself is some 600 KB and most of a second to draw: at
the default --grid-every 0.2 the director's polls take a good share of the CPUs.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
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

from bench.web import LABELS, bench_environment, forget_redis_keys, gunicorn, throwaway_database  # noqa: E402

BOARDS_PER_ROUND = 2
CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
SHOWN_ROUND = re.compile(r'id="board-in-play"[^>]*data-round="(\d*)"')
LINES_ENTERED = re.compile(r"(\d+) of (\d+)\s*(?:</strong>)?\s*lines entered")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="3,15,30", help="sizes, in tables (growth from one to the next)")
    parser.add_argument("--databases", default="postgres", help="postgres, sqlite or both")
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1) + 1, help="gunicorn workers")
    parser.add_argument("--gunicorn", default=f"--config {ROOT / 'gunicorn.conf.py'}",
                        help='gunicorn options (default: the project\'s gunicorn.conf.py); "--worker-class sync" '
                             'for one request a worker')
    parser.add_argument("--sections", default="1",
                        help="sections each size is split into, one figure per size or one for all (sizes a multiple)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds each phone plays, one after the other")
    parser.add_argument("--readers", type=float, default=0.0, help="public page reloads asked a second meanwhile")
    parser.add_argument("--reader-threads", type=int, default=32, help="players' threads sharing those reloads")
    parser.add_argument("--cache", choices=("local", "redis"), default="local",
                        help="each worker's local memory (default) or the Redis at BENCH_REDIS_URL, as production")
    parser.add_argument("--pages-workers", type=int, default=0,
                        help="serve the players' pages and the director's grid from a second pool of this many "
                             "workers, as deploy/nginx.conf splits them (GUNICORN_POOL); 0: one pool serves all")
    parser.add_argument("--grid-every", type=float, default=0.2,
                        help="seconds between the director's polls of the progress grid (the page itself: 5; "
                             "the default times when each line shows, at the cost of a busier director)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.child:
        print(json.dumps(measure(options)))
        return
    for database in options.databases.split(","):
        if database not in LABELS:
            parser.error(f"unknown database {database!r}: sqlite or postgres")
        medians: dict[int, dict[str, float]] = {}
        for tables, sections in sizes(options, parser):
            with throwaway_database(database) as url:
                command = [sys.executable, __file__, "--child", url, "--tables", str(tables),
                           "--sections", str(sections),
                           "--workers", str(options.workers), "--pages-workers", str(options.pages_workers),
                           f"--gunicorn={options.gunicorn}",
                           "--rounds", str(options.rounds), "--readers", str(options.readers),
                           "--grid-every", str(options.grid_every),
                           "--reader-threads", str(options.reader_threads)]
                environment, prefix = bench_environment(url), f"bench-tables-{uuid.uuid4().hex}"
                if options.cache == "redis":
                    environment.update(BENCH_CACHE="redis", BENCH_CACHE_PREFIX=prefix)
                try:
                    done = subprocess.run(command, env=environment, stdout=subprocess.PIPE, text=True, check=True)
                finally:
                    if options.cache == "redis":
                        forget_redis_keys(prefix)
                figures = json.loads(done.stdout.strip().splitlines()[-1])
                report(database, tables, sections, figures, options)
                medians[tables] = {step: statistics.median(figures[step]) for step in STEPS if figures[step]}
        print_growth(medians)


def sizes(options: argparse.Namespace, parser: argparse.ArgumentParser) -> list[tuple[int, int]]:
    """Each size in tables with the sections it is split into."""
    tables = [int(size) for size in options.tables.split(",")]
    sections = [int(count) for count in options.sections.split(",")]
    if len(sections) == 1:
        sections *= len(tables)
    if len(sections) != len(tables):
        parser.error("--sections: one figure, or one for each size in --tables")
    for size, count in zip(tables, sections):
        if count < 1 or size % count or size // count < 3:
            parser.error(f"{size} tables do not split into {count} sections of 3 tables or more")
    return list(zip(tables, sections))


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


STEPS = ("page alone", "send", "confirm", "grid", "reload alone", "reload")
READERS_ALONE_SECONDS = 3.0  # the players' reloads alone first, to compare


def report(database: str, tables: int, sections: int, figures: dict, options: argparse.Namespace) -> None:
    rounds = "round 1" if options.rounds == 1 else f"rounds 1-{options.rounds}"
    server = options.gunicorn.replace(str(ROOT) + "/", "")
    cache = "Redis" if options.cache == "redis" else "each worker's memory"
    pools = f" for the phones and {options.pages_workers} for the pages" if options.pages_workers else ""
    laid_out = f" in {sections} sections of {tables // sections}" if sections > 1 else ""
    print(f"\n{LABELS[database]}: {tables} tables{laid_out}, {rounds} ({figures['lines']} lines) sent and confirmed "
          f"at once; gunicorn {options.workers} workers{pools} ({server}, cache: {cache}) on {os.cpu_count()} CPUs "
          f"shared with the phones; the director's grid polled every {options.grid_every:g} s; load average before "
          f"{figures['load']:.1f}.")
    print("| step | p50 ms | p95 ms | max ms |")
    print("| --- | ---: | ---: | ---: |")
    for step in STEPS:
        values = sorted(figures[step])
        if not values:
            print(f"| {step} | - | - | - |")
            continue
        p95 = values[min(len(values) - 1, int(round(0.95 * (len(values) - 1))))]
        print(f"| {step} | {statistics.median(values):.0f} | {p95:.0f} | {values[-1]:.0f} |")
    print(f"Stored lines: {figures['stored']} of {figures['lines']}; errors: {figures['errors']} "
          f"({figures.get('timeouts', 0)} phones gave up after 60 s); played in {figures['seconds']:.1f} s.")
    if options.readers:
        print(f"Public reloads: {figures['reload_alone_rate']:.0f} a second of the {options.readers:g} asked alone "
              f"({READERS_ALONE_SECONDS:g} s), {figures['reload_rate']:.0f} a second while the phones play "
              f"({len(figures['reload'])} in all, {figures['reload_errors']} errors).")


# --- the child: build, serve, play ------------------------------------------------------------


def build(tables: int, rounds: int = 1, publish: bool = False, sections: int = 1):
    """The session, its director and each table's (token, boards of the first ``rounds``
    rounds); ``publish``: one line of the last round entered, and the session published.
    ``sections``: the tables split into that many sections, each its own Mitchell."""
    from django.contrib.auth import get_user_model

    from sessions.models import Club, ClubDirector, Event, Seating
    from sessions.movements import mitchell
    from sessions.pairs.services.results import result_record
    from sessions.pairs.services.sessions import session_create, session_publish
    from sessions.phones.services.tables import table_links_ensure

    director = get_user_model().objects.create_user("bench-director", password="bench-director")
    club = Club.objects.create(name="Benchmark Bridge Club", slug="bench")
    ClubDirector.objects.create(user=director, club=club)
    event = Event.objects.create(club=club, name="Phones night")
    import datetime

    movement = mitchell(tables // sections, BOARDS_PER_ROUND)
    session = session_create(event=event, name="Phones", date=datetime.date(2026, 11, 23), movement=movement,
                             section_letters=section_letters(sections), by=director)
    links = table_links_ensure(session=session)
    boards: dict[tuple[int, int], list[int]] = {}
    seatings = Seating.objects.filter(section__session=session).select_related("ns_pair", "ew_pair")
    for seating in seatings.order_by("round", "table"):
        if seating.round <= rounds:
            boards.setdefault((seating.section_id, seating.table), []).extend(seating.boards)
    if publish:
        last = seatings.order_by("-round", "table").first()
        result_record(board=session.boards.get(number=last.boards[0]), section=last.section,
                      ns_pair=last.ns_pair.label, ew_pair=last.ew_pair.label, text="4S N =", by=director)
        session_publish(session=session, by=director)
    return session, director, [(link.token, boards[link.section_id, link.table]) for link in links]


def section_letters(count: int) -> list[str]:
    """A to Z, then AA, AB, ... as a large event letters its sections."""
    letters = [chr(ord("A") + index) for index in range(26)]
    return (letters + [first + second for first in letters for second in letters])[:count]


class Phone:
    """One table's phone over HTTP: its cookies, its CSRF token."""

    def __init__(self, port: int, token: str) -> None:
        self.port, self.token, self.cookies = port, token, {}
        self.csrf = self.round = ""

    def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, str, float]:
        # The round the page shows, as the phone's script says it (table.js shownRound).
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()), "HX-Request": "true",
                   "X-Table-Round": self.round}
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
        shown = SHOWN_ROUND.search(text)  # the answer's parts or main part has the board in play, if any
        self.round = shown[1] if shown else ""
        return response.status, text, elapsed


def play(phone: Phone, boards: list[int], figures: dict, confirmed_at: list, lock: threading.Lock) -> None:
    """One phone's round; a post unanswered in 60 s (the client's timeout) counts as an
    error and that phone stops there."""
    try:
        _play(phone, boards, figures, confirmed_at, lock)
    except OSError:
        with lock:
            figures["errors"] += 1
            figures["timeouts"] = figures.get("timeouts", 0) + 1


def _play(phone: Phone, boards: list[int], figures: dict, confirmed_at: list, lock: threading.Lock) -> None:
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


def watch_grid(port: int, session_id: int, cookie: str, lines: int, seen_at: dict, stop: threading.Event,
               already: int = 0, every: float = 0.2) -> None:
    """The director's progress grid, polled as the session page does (every 5 s there; here
    every ``every`` seconds, 0.2 by default, to time when each count of lines first shows)."""
    path = f"/director/sessions/{session_id}/progress/"
    while not stop.is_set():
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        connection.request("GET", path, headers={"Cookie": cookie, "HX-Request": "true"})
        text = connection.getresponse().read().decode()
        connection.close()
        match = LINES_ENTERED.search(text)
        now = time.perf_counter()
        if match:
            entered = int(match[1]) - already  # the phones' lines
            for count in range(1, entered + 1):
                seen_at.setdefault(count, now)
            if entered >= lines:
                return
        time.sleep(every)


def read_pages(port: int, paths: list[str], rate: float, threads: int, stop: threading.Event,
               figures: dict, lock: threading.Lock) -> threading.Thread:
    """Players reloading ``paths`` in turn at ``rate`` requests a second in all, paced: each
    of ``threads`` threads asks at its own slots and, when behind, at once (never more often
    than its share). Returns the thread that runs them (joined once ``stop`` is set)."""

    def player(index: int) -> None:
        every = threads / rate
        slot = time.perf_counter() + index / rate
        turn = index
        while not stop.is_set():
            wait = slot - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
            slot = max(slot + every, time.perf_counter())
            path, turn = paths[turn % len(paths)], turn + 1
            started = time.perf_counter()
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                connection.request("GET", path)
                status = connection.getresponse().status
                connection.close()
            except OSError:
                status = 0
            with lock:
                figures["reload"].append((time.perf_counter() - started) * 1000)
                figures["reload_errors"] += status != 200

    def run() -> None:
        started = time.perf_counter()
        players = [threading.Thread(target=player, args=(index,)) for index in range(threads)]
        for thread in players:
            thread.start()
        for thread in players:
            thread.join()
        figures["reload_rate"] = len(figures["reload"]) / (time.perf_counter() - started)

    runner = threading.Thread(target=run)
    runner.start()
    return runner


def measure(options: argparse.Namespace) -> dict:
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    from sessions.models import Result

    call_command("migrate", verbosity=0)
    session, director, tables = build(int(options.tables), options.rounds, publish=options.readers > 0,
                                      sections=int(options.sections))
    client = Client()
    client.force_login(director)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    lines = sum(len(boards) for _, boards in tables)
    already = Result.objects.filter(board__session=session).count()  # entered before publishing
    figures = {"send": [], "confirm": [], "errors": 0, "reload": [], "reload_errors": 0, "reload_rate": 0.0,
               "reload alone": [], "reload_alone_rate": 0.0, "load": os.getloadavg()[0]}
    confirmed_at: list[float] = []
    seen_at: dict[int, float] = {}
    lock, stop = threading.Lock(), threading.Event()
    serve = functools.partial(gunicorn, cache=os.environ.get("BENCH_CACHE", ""),
                              prefix=os.environ.get("BENCH_CACHE_PREFIX", ""), options=options.gunicorn.split())
    with serve(options.workers) as port, contextlib.ExitStack() as pools:
        # The players' pages and the director's grid: their own pool, or the phones' one.
        pages_port = pools.enter_context(serve(options.pages_workers)) if options.pages_workers else port
        alone = Phone(port, tables[0][0])
        for _ in range(5):  # warm the workers
            alone.request("GET", f"/t/{alone.token}/")
        # One phone alone, to compare: its table page, twenty times in a row.
        figures["page alone"] = [alone.request("GET", f"/t/{alone.token}/")[2] for _ in range(20)]
        watcher = threading.Thread(target=watch_grid, args=(pages_port, session.pk, cookie, lines, seen_at, stop, already,
                                                            options.grid_every))
        watcher.start()
        reading = stop_reading = None
        if options.readers:
            from django.urls import reverse

            pages = [reverse("sessions:session_results", args=[session.pk]),
                     reverse("sessions:board", args=[session.pk, 1])]
            alone_figures = {"reload": [], "reload_errors": 0}
            stop_alone = threading.Event()
            alone_run = read_pages(pages_port, pages, options.readers, options.reader_threads, stop_alone, alone_figures, lock)
            time.sleep(READERS_ALONE_SECONDS)
            stop_alone.set()
            alone_run.join()
            figures["reload alone"] = alone_figures["reload"]
            figures["reload_alone_rate"] = alone_figures["reload_rate"]
            stop_reading = threading.Event()
            reading = read_pages(pages_port, pages, options.readers, options.reader_threads, stop_reading, figures, lock)
        started = time.perf_counter()
        phones = [threading.Thread(target=play, args=(Phone(port, token), boards, figures, confirmed_at, lock))
                  for token, boards in tables]
        for phone in phones:
            phone.start()
        for phone in phones:
            phone.join()
        seconds = time.perf_counter() - started
        if reading is not None:
            stop_reading.set()
            reading.join()
        watcher.join(timeout=30)
        stop.set()
    confirmed_at.sort()
    grid = [(seen_at[i + 1] - at) * 1000 for i, at in enumerate(confirmed_at) if i + 1 in seen_at]
    return {**figures, "grid": [max(0.0, g) for g in grid], "lines": lines, "seconds": seconds,
            "stored": Result.objects.filter(board__session=session).count() - already}


if __name__ == "__main__":
    main()
