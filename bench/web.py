"""Benchmark of the web pages: server time, SQL queries and requests per second.

Run from the project root:

    .venv/bin/python bench/web.py                                # SQLite (and PostgreSQL if DATABASE_URL is set)
    .venv/bin/python bench/web.py --databases sqlite,postgres    # both; PostgreSQL from DATABASE_URL
                                                                 # or postgres://postgres@127.0.0.1:5432/postgres

Each database is a throwaway one (a temporary SQLite file, or a new PostgreSQL database
dropped at the end) holding a 15-table Mitchell of 9 rounds of 3 boards (27 boards a
pair, 45 in play, 405 results with named players, seeded random contracts entered
through the app's services) and published, and a 3-table one for how cost grows. Then,
for the players' pages, the director's and a trivial view of the benchmark's own
URLconf (bench/web_urls.py):

- the median time Django's test Client takes to serve the page (N repetitions, after a
  warm-up) and the page's SQL queries (CaptureQueriesContext), uncached (Django's dummy
  cache: every request renders and scores) and cached (the page and the scored session
  kept by revision, sessions/core/views/caching.py);
- requests per second from 8 concurrent clients (threads with http.client, a new
  connection a request) against gunicorn on a free loopback port, bench/web_settings.py,
  once without a cache and once with one (each worker's local memory, or Redis with
  --redis). The clients share the machine with the server: the trivial view shows the
  ceiling; the issue's goal is cached public pages at half its rate or better, each
  compared with the trivial view timed in the same server in alternating slices;
- conditional refreshes: the clients reload the rankings sending the ETag they last
  got (as phones do), while a director corrects a line every --correct-every seconds:
  the share of 304s, requests per second, and whether any client ever got a page older
  than the last correction (a stale page);
- growth: each public page's uncached and cached time on the 3-table and the 15-table
  session, and their ratio (15 tables hold 15 times the results).

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
from typing import Callable, Iterator, Sequence
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = "bench.web_settings"
DEFAULT_POSTGRES = "postgres://postgres@127.0.0.1:5432/postgres"
TABLES, ROUNDS, BOARDS_PER_ROUND = 15, 9, 3
SMALL_TABLES, SMALL_ROUNDS = 3, 3  # the growth comparison's small session
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
    cached: bool = False  # a players' page served from the cache by revision


@dataclass(frozen=True)
class BenchSession:
    session_id: int
    pair_id: int  # pair 1NS, for its score card
    player_id: int  # North 1NS, for the player's page
    event_id: int
    club_slug: str


PAGES = [
    Page("rankings", "sessions:session_results", lambda s: [s.session_id], cached=True),
    Page("traveller, board 1", "sessions:board", lambda s: [s.session_id, 1], cached=True),
    Page("score card, 1NS", "sessions:scorecard", lambda s: [s.session_id, s.pair_id], cached=True),
    Page("player page, North 1NS", "sessions:player", lambda s: [s.player_id], cached=True),
    Page("event ranking", "sessions:event_results", lambda s: [s.event_id], cached=True),
    Page("club page", "sessions:club", lambda s: [s.club_slug], cached=True),
    Page("director: board 1 entry", "sessions:director_board", lambda s: [s.session_id, 1], director=True),
    Page("director: standings", "sessions:director_standings", lambda s: [s.session_id], director=True),
    Page("trivial view", "bench_trivial", lambda s: []),
]
#: The page the conditional refreshes reload (the live ranking the players follow).
REFRESHED = PAGES[0]


# --- the parent: one child process per database ----------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--databases", default=None,
                        help="sqlite, postgres or both (default: sqlite, and postgres if DATABASE_URL is set)")
    parser.add_argument("--repeat", type=int, default=30, help="test-Client requests per page (median taken)")
    parser.add_argument("--seconds", type=float, default=5.0, help="load time per page under gunicorn")
    parser.add_argument("--clients", type=int, default=8, help="concurrent clients")
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1) + 1, help="gunicorn workers")
    parser.add_argument("--redis", action="store_true",
                        help="the cached run shares Redis (BENCH_REDIS_URL, default redis://127.0.0.1:6379/0) "
                             "instead of each worker's local memory")
    parser.add_argument("--correct-every", type=float, default=1.0,
                        help="seconds between a director's corrections during the conditional refreshes")
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
    print_figures(figures, options, load_before)


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
        "--correct-every", str(options.correct_every), *(["--redis"] if options.redis else []),
    ]
    done = subprocess.run(command, env=bench_environment(url), stdout=subprocess.PIPE, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def bench_environment(url: str, cache: str = "") -> dict[str, str]:
    """The child's and gunicorn's environment; ``cache``: "none", "redis" or "" (local memory)."""
    environment = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": SETTINGS, "PYTHONPATH": str(ROOT)}
    environment.pop("REDIS_URL", None)  # the cache is the benchmark's choice, never the caller's
    if cache:
        environment["BENCH_CACHE"] = cache
    return environment


def print_figures(figures: dict[str, dict], options: argparse.Namespace, load_before: tuple[float, ...]) -> None:
    first = next(iter(figures.values()))
    print(f"\n{first['description']}; {first['results']} results.")
    for database, result in figures.items():
        print(f"{LABELS[database]}: built and entered through the services in {result['build_seconds']:.1f} s.")
    cache = "Redis" if options.redis else "each worker's local memory"
    print(f"Median of {options.repeat} test-Client requests; req/s: {options.clients} concurrent clients, "
          f"gunicorn with {options.workers} sync workers, {options.seconds:g} s a page, cache: {cache}; "
          f"{os.cpu_count()} CPUs shared by clients and server; load average before the run "
          f"{' '.join(f'{load:.1f}' for load in load_before)} (other work skews the figures).")
    for database, result in figures.items():
        print_pages(LABELS[database], result)
        print_refreshes(LABELS[database], result["refreshes"], options)
        print_growth(LABELS[database], result["growth"])


def print_pages(label: str, result: dict) -> None:
    print(f"\n{label}: uncached / cached (a page of a revision already served)\n")
    print("| page | SQL queries | ms | req/s | req/s vs trivial |")
    print("| --- | ---: | ---: | ---: | ---: |")
    trivial = result["pages"]["trivial view"]["rps"]
    for page in PAGES:
        row = result["pages"][page.title]
        if page.cached:
            cells = [f"{row['queries']} / {row['cached_queries']}", f"{row['median_ms']:.1f} / {row['cached_ms']:.1f}",
                     f"{row['rps']:,.0f} / {row['cached_rps']:,.0f}{_errors(row)}",
                     f"{row['rps'] / trivial:.1%} / {_cached_share(row):.1%}"]
        else:
            cells = [str(row["queries"]), f"{row['median_ms']:.1f}", f"{row['rps']:,.0f}{_errors(row)}",
                     f"{row['rps'] / trivial:.1%}"]
        print(f"| {page.title} | " + " | ".join(cells) + " |")
    cached = [_cached_share(result["pages"][page.title]) for page in PAGES if page.cached]
    print("\nA cached page's share is of the trivial view timed alongside it, in alternating slices "
          "in the same server.")
    print(f"Slowest cached public page: {min(cached):.0%} of the trivial view's req/s (goal: 50 % or more).")


def _cached_share(row: dict) -> float:
    return row["cached_rps"] / row["trivial_alongside_rps"]


def _errors(row: dict) -> str:
    errors = row.get("errors", 0) + row.get("cached_errors", 0)
    return f" ({errors} errors)" if errors else ""


def print_refreshes(label: str, refreshes: dict, options: argparse.Namespace) -> None:
    print(f"\n{label}: {options.clients} phones reloading the {REFRESHED.title} with their last ETag for "
          f"{options.seconds:g} s, a correction every {options.correct_every:g} s ({refreshes['corrections']} made): "
          f"{refreshes['requests']:,} requests, {refreshes['rps']:,.0f} req/s, "
          f"{refreshes['not_modified'] / max(1, refreshes['requests']):.1%} answered 304, "
          f"{refreshes['stale']} stale pages after a correction, {refreshes['errors']} errors.")


def print_growth(label: str, growth: dict) -> None:
    small, large = growth["sizes"]
    print(f"\n{label}: how a page's cost grows with the session ({small['tables']} tables, {small['results']} results "
          f"-> {large['tables']} tables, {large['results']} results: x{large['results'] / small['results']:.0f}), "
          "test-Client ms\n")
    print("| page | uncached ms | ratio | cached ms | ratio |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for title, row in growth["pages"].items():
        print(f"| {title} | {row['small_ms']:.1f} -> {row['large_ms']:.1f} | x{row['large_ms'] / row['small_ms']:.1f} "
              f"| {row['small_cached_ms']:.1f} -> {row['large_cached_ms']:.1f} "
              f"| x{row['large_cached_ms'] / row['small_cached_ms']:.1f} |")


# --- the child: build, then measure ------------------------------------------------------


def measure(options: argparse.Namespace) -> dict:
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    session, director = build_session("bench", TABLES, ROUNDS)
    build_seconds = time.perf_counter() - started
    small, _ = build_session("small", SMALL_TABLES, SMALL_ROUNDS)

    pages = server_times(session, director, options.repeat)
    prefix = f"clubscore-bench-{os.getpid()}"
    try:
        for title, rps in load_test(session, director, options, prefix).items():
            pages[title].update(rps)
        refreshes = conditional_refreshes(session, director, options, prefix)
    finally:
        if options.redis:
            forget_redis_keys(prefix)
    return {
        "description": session_description(session),
        "results": results_of(session),
        "build_seconds": build_seconds,
        "pages": pages,
        "refreshes": refreshes,
        "growth": growth(small, session, director, options.repeat),
    }


def results_of(session: BenchSession) -> int:
    from sessions.models import Result

    return Result.objects.filter(board__session_id=session.session_id).count()


def build_session(slug: str, tables: int, rounds: int):
    """A club with one published session; returns (BenchSession, the club's director)."""
    from django.contrib.auth import get_user_model

    from sessions.models import Club, ClubDirector, Event, Player
    from sessions.movements import mitchell
    from sessions.pairs.services.sessions import session_create, session_publish

    director = get_user_model().objects.create_user(f"{slug}-director", password="bench-director")
    club = Club.objects.create(name=f"Benchmark Bridge Club ({slug})", slug=slug)
    ClubDirector.objects.create(user=director, club=club)
    event = Event.objects.create(club=club, name="Monday Pairs")
    movement = mitchell(tables, BOARDS_PER_ROUND, rounds=rounds)
    chooser = random.Random(SEED)
    session = session_create(
        event=event, name="Benchmark evening", date=datetime.date(2025, 11, 24), movement=movement,
        pair_players={label: [f"North {label}", f"South {label}"] for label in movement.pairs},
        by=director,
    )
    enter_every_result(session, chooser, director)
    session_publish(session=session)
    pair = session.sections.get().pairs.get(number=1, direction="NS")
    player = Player.objects.get(club=club, name="North 1NS")
    return BenchSession(session.pk, pair.pk, player.pk, event.pk, club.slug), director


def enter_every_result(session, chooser: random.Random, director) -> None:
    """Plausible results: on each board most tables play the field's contract, a few differ."""
    from sessions.pairs.services.results import result_record

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


@contextmanager
def no_cache() -> Iterator[None]:
    """The test Client without any cache: every request renders and scores."""
    from django.core.cache import cache
    from django.test import override_settings

    with override_settings(CACHES={"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}):
        yield
    cache.clear()


def client_time(client, path: str, repeat: int) -> tuple[int, float]:
    """The first request's SQL queries (it also warms up) and the median ms of ``repeat`` more."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        response = client.get(path)
    queries = len(captured)  # now: the next request clears the connection's log
    if response.status_code != 200:
        raise SystemExit(f"{path} answered {response.status_code}")
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        client.get(path)
        times.append(time.perf_counter() - started)
    return queries, statistics.median(times) * 1000


def server_times(session: BenchSession, director, repeat: int) -> dict[str, dict]:
    """Median test-Client time and SQL query count of each page, uncached then cached."""
    from django.core.cache import cache
    from django.test import Client

    figures = {}
    for page in PAGES:
        client = Client()
        if page.director:
            client.force_login(director)
        path = page_path(page, session)
        with no_cache():
            queries, median_ms = client_time(client, path, repeat)
        figures[page.title] = {"path": path, "queries": queries, "median_ms": median_ms}
        if page.cached:
            cache.clear()
            client.get(path)  # the miss that fills the cache
            cached_queries, cached_ms = client_time(client, path, repeat)
            figures[page.title].update(cached_queries=cached_queries, cached_ms=cached_ms)
    return figures


def growth(small: BenchSession, large: BenchSession, director, repeat: int) -> dict:
    """Each public page's uncached and cached time on the small and the large session."""
    from django.core.cache import cache
    from django.test import Client

    from sessions.models import Session

    pages = {}
    for page in PAGES:
        if not page.cached:
            continue
        row = {}
        for name, session in (("small", small), ("large", large)):
            client, path = Client(), page_path(page, session)
            with no_cache():
                row[f"{name}_ms"] = client_time(client, path, repeat)[1]
            cache.clear()
            client.get(path)
            row[f"{name}_cached_ms"] = client_time(client, path, repeat)[1]
        pages[page.title] = row
    sizes = [{"tables": Session.objects.get(pk=s.session_id).tables, "results": results_of(s)} for s in (small, large)]
    return {"sizes": sizes, "pages": pages}


# --- requests per second under gunicorn ---------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def gunicorn(
    workers: int, cache: str = "", prefix: str = "", environment: dict[str, str] | None = None,
    options: Sequence[str] = (),
) -> Iterator[int]:
    """One gunicorn instance on a free loopback port: this benchmark's environment, or the
    caller's; ``options``: more of gunicorn's (``--threads 4``)."""
    port = free_port()
    if environment is None:
        environment = bench_environment(os.environ["DATABASE_URL"], cache)
        environment["BENCH_CACHE_PREFIX"] = prefix
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "clubscore.wsgi:application", "--bind", f"127.0.0.1:{port}",
         "--workers", str(workers), "--chdir", str(ROOT), "--log-level", "warning", *options],
        env=environment,
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


def fetch(port: int, path: str, headers: dict[str, str]) -> tuple[int, str, bytes]:
    """One request on a new connection: the status, the ETag and the body."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        body = response.read()
        return response.status, response.getheader("ETag") or "", body
    finally:
        connection.close()


def get(port: int, path: str, headers: dict[str, str]) -> int:
    return fetch(port, path, headers)[0]


def load_test(session: BenchSession, director, options: argparse.Namespace, prefix: str) -> dict[str, dict]:
    """Every page without a cache, then the players' pages with one (req/s, errors)."""
    from django.test import Client

    cookie_client = Client()
    cookie_client.force_login(director)
    director_cookie = {"Cookie": f"sessionid={cookie_client.cookies['sessionid'].value}"}
    figures: dict[str, dict] = {}
    with gunicorn(options.workers, cache="none") as port:
        for page in PAGES:
            headers = director_cookie if page.director else {}
            figures[page.title] = hammer(port, page_path(page, session), headers, options.clients, options.seconds)
    trivial = page_path(next(page for page in PAGES if page.url_name == "bench_trivial"), session)
    with gunicorn(options.workers, cache="redis" if options.redis else "", prefix=prefix) as port:
        for page in PAGES:
            if page.cached:
                done = side_by_side(port, page_path(page, session), trivial, options.clients, options.seconds)
                figures[page.title].update(cached_rps=done["rps"], cached_errors=done["errors"],
                                           trivial_alongside_rps=done["trivial_rps"])
    return figures


def side_by_side(port: int, path: str, trivial: str, clients: int, seconds: float, slices: int = 5) -> dict:
    """The page's req/s and the trivial view's, in alternating slices of ``seconds``
    each: both meet the same load from the machine's other work, so their ratio is
    fairer than that of two runs minutes apart."""
    load(port, path, {}, clients, WARM_UP_SECONDS)
    load(port, trivial, {}, clients, WARM_UP_SECONDS)
    page_runs, trivial_runs = [], []
    for _ in range(slices):
        page_runs.append(load(port, path, {}, clients, seconds / slices))
        trivial_runs.append(load(port, trivial, {}, clients, seconds / slices))
    return {
        "rps": statistics.fmean(run["rps"] for run in page_runs),
        "errors": sum(run["errors"] for run in page_runs),
        "trivial_rps": statistics.fmean(run["rps"] for run in trivial_runs),
    }


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


def conditional_refreshes(session: BenchSession, director, options: argparse.Namespace, prefix: str) -> dict:
    """Phones reloading the live ranking with their last ETag while the director corrects
    lines: how many reloads are 304s, and whether a reload after a correction ever got
    the page from before it (a stale page)."""
    path = page_path(REFRESHED, session)
    lines = correctable_lines(session)
    chooser = random.Random(SEED)
    corrections: list[tuple[float, float]] = []  # (started, committed) of each correction
    stop = time.monotonic() + options.seconds
    requests, not_modified, stale, errors = [0], [0], [0], [0]
    counter = threading.Lock()

    def missed_correction(received_at: float, asked_at: float) -> bool:
        """A correction begun after the phone's copy came back and committed before it asked again."""
        return any(received_at < started and committed < asked_at for started, committed in corrections)

    def phone() -> None:
        etag, received_at = "", 0.0
        while time.monotonic() < stop:
            asked_at = time.monotonic()
            status, new_etag, _ = fetch(port, path, {"If-None-Match": etag} if etag else {})
            with counter:
                requests[0] += 1
                if status == 304:
                    not_modified[0] += 1
                    stale[0] += missed_correction(received_at, asked_at)
                elif status == 200:
                    etag, received_at = new_etag, time.monotonic()
                else:
                    errors[0] += 1

    def director_corrects() -> None:
        while time.monotonic() < stop:
            time.sleep(options.correct_every)
            started = time.monotonic()
            correct_one(chooser.choice(lines), chooser, director)
            corrections.append((started, time.monotonic()))

    with gunicorn(options.workers, cache="redis" if options.redis else "", prefix=prefix) as port, \
            writing_to(options, prefix):
        load(port, path, {}, options.clients, WARM_UP_SECONDS)
        stop = time.monotonic() + options.seconds
        started = time.monotonic()
        threads = [threading.Thread(target=phone) for _ in range(options.clients)]
        threads.append(threading.Thread(target=director_corrects))
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - started
    return {"requests": requests[0], "rps": requests[0] / elapsed, "not_modified": not_modified[0],
            "stale": stale[0], "errors": errors[0], "corrections": len(corrections)}


@contextmanager
def writing_to(options: argparse.Namespace, prefix: str) -> Iterator[None]:
    """The director's corrections made with the servers' cache, as every app server is
    configured alike: with Redis a write puts its new revisions there after its commit, and
    the servers serve their pages by them (sessions.core.selectors.revisions)."""
    if not options.redis:
        yield
        return
    from django.test import override_settings

    from sessions.core import shared_cache

    redis = {"BACKEND": "clubscore.redis_cache.RedisCache", "KEY_PREFIX": prefix,
             "LOCATION": os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")}
    with override_settings(CACHES={"default": redis}):
        shared_cache.resume()
        yield


def correctable_lines(session: BenchSession) -> list[int]:
    from sessions.models import Result, ResultKind

    return list(Result.objects.filter(board__session_id=session.session_id, kind=ResultKind.PLAYED)
                .values_list("pk", flat=True))


def correct_one(result_id: int, chooser: random.Random, director) -> None:
    """A director's correction through the service: one more or one less trick."""
    from django.db import connection

    from sessions.models import Result
    from sessions.pairs.services.results import result_correct

    line = Result.objects.select_related("board").get(pk=result_id)
    tricks = max(0, min(13, line.tricks + chooser.choice([-1, 1])))
    result_correct(result=line, text=f"{line.level}{line.strain} {line.declarer} {tricks}", version=line.version,
                   by=director)
    connection.close()  # this thread's connection: never left open when the run ends


def forget_redis_keys(prefix: str) -> None:
    """The run's own keys on the shared Redis server, and nothing else."""
    from redis import Redis

    server = Redis.from_url(os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0"))
    for key in server.scan_iter(match=f"{prefix}:*"):
        server.delete(key)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
