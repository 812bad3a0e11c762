"""Benchmark of the web pages: server time, SQL queries and requests per second.

Run from the project root:

    .venv/bin/python bench/web.py                                # SQLite (and PostgreSQL if DATABASE_URL is set)
    .venv/bin/python bench/web.py --databases sqlite,postgres    # both; PostgreSQL from DATABASE_URL
                                                                 # or postgres://postgres@127.0.0.1:5432/postgres

Each database is a throwaway one (a temporary SQLite file, or a new PostgreSQL database
dropped at the end) holding a 15-table Mitchell of 9 rounds of 3 boards (27 boards a
pair, 45 in play, 405 results with named players, seeded random contracts entered
through the app's services) and published. Then, for the players' pages, the director's
and a trivial view of the benchmark's own URLconf (bench/web_urls.py):

- the median time Django's test Client takes to serve the page (N repetitions, after a
  warm-up) and the page's SQL queries (CaptureQueriesContext);
- requests per second from 8 concurrent clients (threads with http.client, a new
  connection a request) against gunicorn on a free loopback port, bench/web_settings.py.
  The clients share the machine with the server: the trivial view shows the ceiling.

Pages are named by URL name (PAGES): a page is added with one line. Speed is printed,
never asserted.
"""

from __future__ import annotations

import argparse
import datetime
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = "bench.web_settings"
DEFAULT_POSTGRES = "postgres://postgres@127.0.0.1:5432/postgres"
TABLES, ROUNDS, BOARDS_PER_ROUND = 15, 9, 3
SEED = 20251123
WARM_UP_SECONDS = 1.0  # each gunicorn worker's first request of a page is several times slower
LABELS = {"sqlite": "SQLite", "postgres": "PostgreSQL"}


@dataclass(frozen=True)
class Page:
    """A page to measure: its URL name, its arguments from the session, and who asks."""

    title: str
    url_name: str
    args: Callable[["BenchSession"], list]
    director: bool = False


@dataclass(frozen=True)
class BenchSession:
    session_id: int
    pair_id: int  # pair 1NS, for its score card


PAGES = [
    Page("rankings", "sessions:session_results", lambda s: [s.session_id]),
    Page("traveller, board 1", "sessions:board", lambda s: [s.session_id, 1]),
    Page("score card, 1NS", "sessions:scorecard", lambda s: [s.session_id, s.pair_id]),
    Page("director: board 1 entry", "sessions:director_board", lambda s: [s.session_id, 1], director=True),
    Page("director: standings", "sessions:director_standings", lambda s: [s.session_id], director=True),
    Page("trivial view", "bench_trivial", lambda s: []),
]


# --- the parent: one child process per database ----------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--databases", default=None,
                        help="sqlite, postgres or both (default: sqlite, and postgres if DATABASE_URL is set)")
    parser.add_argument("--repeat", type=int, default=30, help="test-Client requests per page (median taken)")
    parser.add_argument("--seconds", type=float, default=5.0, help="load time per page under gunicorn")
    parser.add_argument("--clients", type=int, default=8, help="concurrent clients")
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1) + 1, help="gunicorn workers")
    parser.add_argument("--child", help=argparse.SUPPRESS)  # internal: measure one database URL
    options = parser.parse_args()
    if options.child:
        print(json.dumps(measure(options)))
        return
    databases = (options.databases or ("sqlite,postgres" if os.environ.get("DATABASE_URL") else "sqlite")).split(",")
    load_before = os.getloadavg()
    figures = {}
    for database in databases:
        if database not in LABELS:
            parser.error(f"unknown database {database!r}: sqlite or postgres")
        with throwaway_database(database) as url:
            figures[database] = run_child(url, options)
    print_table(figures, options, load_before)


@contextmanager
def throwaway_database(kind: str) -> Iterator[str]:
    if kind == "sqlite":
        with tempfile.TemporaryDirectory(prefix="clubscore-bench-") as folder:
            yield f"sqlite:///{folder}/bench.sqlite3"
        return
    import psycopg

    server = urlsplit(os.environ.get("DATABASE_URL") or DEFAULT_POSTGRES)
    # Create and drop from the maintenance database: DATABASE_URL's own may not exist.
    maintenance = urlunsplit(server._replace(path="/postgres"))
    name = f"clubscore_bench_{os.getpid()}"
    with psycopg.connect(maintenance, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(server._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(maintenance, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def run_child(url: str, options: argparse.Namespace) -> dict:
    """Measure in a fresh process: Django's settings can be set up once per process."""
    command = [
        sys.executable, __file__, "--child", url, "--repeat", str(options.repeat),
        "--seconds", str(options.seconds), "--clients", str(options.clients), "--workers", str(options.workers),
    ]
    done = subprocess.run(command, env=bench_environment(url), stdout=subprocess.PIPE, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def bench_environment(url: str) -> dict[str, str]:
    return {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": SETTINGS, "PYTHONPATH": str(ROOT)}


def print_table(figures: dict[str, dict], options: argparse.Namespace, load_before: tuple[float, ...]) -> None:
    first = next(iter(figures.values()))
    print(f"\n{first['description']}; {first['results']} results.")
    for database, result in figures.items():
        print(f"{LABELS[database]}: built and entered through the services in {result['build_seconds']:.1f} s.")
    print(f"Median of {options.repeat} test-Client requests; req/s: {options.clients} concurrent clients, "
          f"gunicorn with {options.workers} sync workers, {options.seconds:g} s a page, "
          f"{os.cpu_count()} CPUs shared by clients and server; load average before the run "
          f"{' '.join(f'{load:.1f}' for load in load_before)} (other work skews the figures).\n")
    header = ["page", "SQL queries"]
    for database in figures:
        header += [f"ms ({LABELS[database]})", f"req/s ({LABELS[database]})"]
    print("| " + " | ".join(header) + " |")
    print("| --- | " + " | ".join("---:" for _ in header[1:]) + " |")
    for page in PAGES:
        queries = {result["pages"][page.title]["queries"] for result in figures.values()}
        cells = [page.title, "/".join(str(q) for q in sorted(queries))]
        for result in figures.values():
            row = result["pages"][page.title]
            errors = f" ({row['errors']} errors)" if row["errors"] else ""
            cells += [f"{row['median_ms']:.1f}", f"{row['rps']:,.0f}{errors}"]
        print("| " + " | ".join(cells) + " |")


# --- the child: build, then measure ------------------------------------------------------


def measure(options: argparse.Namespace) -> dict:
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    session, director = build_session()
    build_seconds = time.perf_counter() - started
    from sessions.models import Result

    pages = server_times(session, director, options.repeat)
    for title, rps in load_test(session, director, options).items():
        pages[title].update(rps)
    return {
        "description": session_description(session),
        "results": Result.objects.filter(board__session_id=session.session_id).count(),
        "build_seconds": build_seconds,
        "pages": pages,
    }


def build_session():
    """The benchmark's session, published; returns (BenchSession, the director)."""
    from django.contrib.auth import get_user_model

    from sessions.models import Club, ClubDirector, Event
    from sessions.movements import mitchell
    from sessions.services import session_create, session_publish

    director = get_user_model().objects.create_user("bench-director", password="bench-director")
    club = Club.objects.create(name="Benchmark Bridge Club", slug="bench")
    ClubDirector.objects.create(user=director, club=club)
    event = Event.objects.create(club=club, name="Monday Pairs")
    movement = mitchell(TABLES, BOARDS_PER_ROUND, rounds=ROUNDS)
    chooser = random.Random(SEED)
    session = session_create(
        event=event, name="Benchmark evening", date=datetime.date(2025, 11, 24), movement=movement,
        pair_players={label: [f"North {label}", f"South {label}"] for label in movement.pairs},
        by=director,
    )
    enter_every_result(session, chooser, director)
    session_publish(session=session)
    pair = session.sections.get().pairs.get(number=1, direction="NS")
    return BenchSession(session.pk, pair.pk), director


def enter_every_result(session, chooser: random.Random, director) -> None:
    """Plausible results: on each board most tables play the field's contract, a few differ."""
    from sessions.services import result_record

    section = session.sections.get()
    boards = {board.number: board for board in session.boards.all()}
    field = {number: field_contract(chooser) for number in boards}
    for seating in section.seatings.select_related("ns_pair", "ew_pair").order_by("round", "table"):
        for number in seating.boards:
            result_record(
                board=boards[number], section=section, ns_pair=seating.ns_pair.label,
                ew_pair=seating.ew_pair.label, text=table_result(field[number], chooser), by=director,
            )


def field_contract(chooser: random.Random) -> tuple[int, str, str, int]:
    level, strain = chooser.choice([(4, "S"), (4, "H"), (3, "NT"), (2, "S"), (3, "D"), (1, "NT"), (6, "NT")])
    return level, strain, chooser.choice(["NS", "EW"]), level + 6 + chooser.choice([-1, 0, 0, 1])


def table_result(field: tuple[int, str, str, int], chooser: random.Random) -> str:
    level, strain, side, tricks = field
    if chooser.random() < 0.03:
        return "P"
    if chooser.random() < 0.15:
        level = max(1, min(7, level + chooser.choice([-1, 1])))
    declarer = chooser.choice(["N", "S"] if side == "NS" else ["E", "W"])
    return f"{level}{strain} {declarer} {max(0, min(13, tricks + chooser.choice([-1, 0, 0, 1])))}"


def session_description(session: BenchSession) -> str:
    from sessions.models import Session

    found = Session.objects.get(pk=session.session_id)
    return f"{found.movement_description}, {found.sections.get().pairs.count()} pairs"


def page_path(page: Page, session: BenchSession) -> str:
    from django.urls import reverse

    return reverse(page.url_name, args=page.args(session))


def server_times(session: BenchSession, director, repeat: int) -> dict[str, dict]:
    """Median test-Client time and SQL query count of each page."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    figures = {}
    for page in PAGES:
        client = Client()
        if page.director:
            client.force_login(director)
        path = page_path(page, session)
        with CaptureQueriesContext(connection) as captured:
            response = client.get(path)  # also the warm-up
        queries = len(captured)  # now: the next request clears the connection's log
        if response.status_code != 200:
            raise SystemExit(f"{path} answered {response.status_code}")
        times = []
        for _ in range(repeat):
            started = time.perf_counter()
            client.get(path)
            times.append(time.perf_counter() - started)
        figures[page.title] = {
            "path": path, "queries": queries, "median_ms": statistics.median(times) * 1000,
        }
    return figures


# --- requests per second under gunicorn ---------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def gunicorn(workers: int) -> Iterator[int]:
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "clubscore.wsgi:application", "--bind", f"127.0.0.1:{port}",
         "--workers", str(workers), "--chdir", str(ROOT), "--log-level", "warning"],
        env=bench_environment(os.environ["DATABASE_URL"]),
    )
    try:
        wait_until_serving(port, server)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=30)


def wait_until_serving(port: int, server: subprocess.Popen, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"gunicorn stopped (exit {server.returncode})")
        try:
            if get(port, "/bench/trivial/", {}) == 200:
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"gunicorn did not answer on port {port} within {timeout:g} s")


def get(port: int, path: str, headers: dict[str, str]) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def load_test(session: BenchSession, director, options: argparse.Namespace) -> dict[str, dict]:
    from django.test import Client

    cookie_client = Client()
    cookie_client.force_login(director)
    director_cookie = {"Cookie": f"sessionid={cookie_client.cookies['sessionid'].value}"}
    figures = {}
    with gunicorn(options.workers) as port:
        for page in PAGES:
            headers = director_cookie if page.director else {}
            figures[page.title] = hammer(port, page_path(page, session), headers, options.clients, options.seconds)
    return figures


def hammer(port: int, path: str, headers: dict[str, str], clients: int, seconds: float) -> dict:
    """Requests per second from ``clients`` threads, after a first run that warms every worker."""
    load(port, path, headers, clients, WARM_UP_SECONDS)
    return load(port, path, headers, clients, seconds)


def load(port: int, path: str, headers: dict[str, str], clients: int, seconds: float) -> dict:
    """``clients`` threads, each sending one request at a time for ``seconds``."""
    counts, errors = [0] * clients, [0] * clients
    stop = time.monotonic() + seconds

    def client(index: int) -> None:
        while time.monotonic() < stop:
            if get(port, path, headers) == 200:
                counts[index] += 1
            else:
                errors[index] += 1

    started = time.monotonic()
    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    return {"rps": sum(counts) / elapsed, "errors": sum(errors)}


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
