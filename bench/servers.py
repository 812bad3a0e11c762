"""Benchmark of more than one app server: two gunicorns on one PostgreSQL and one Redis.

Run from the project root (PostgreSQL from DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres,
Redis from REDIS_URL or redis://127.0.0.1:6379/0):

    .venv/bin/python bench/servers.py [--seconds 5] [--clients 8] [--workers 2] [--corrections 20]

It builds web.py's published 15-table Mitchell (405 results) in a throwaway PostgreSQL
database, starts two gunicorn instances on it, both with the same Redis as their cache
(keys under a prefix of the run's own) and WORK_QUEUE=rq (nothing of the slow work in
their processes), then prints:

- requests per second from a round-robin client (``--clients`` threads, each sending its
  requests to the instances in turn) against one instance, then against both;
- stale pages: the board's traveller is read from one instance (a cache there then holds
  it), a correction posted through the other (the director's board entry, a new lead and
  result for a line), and the traveller read again at once from the first; a page
  without the new lead is stale (there must be none);
- a phone's table entry whose requests alternate between the instances: page, send,
  confirm, the retry of the send, the next board; one line stored.

The machine's CPUs serve the clients and both instances: on 2 CPUs the second instance
adds workers, not cores. Speed is printed, never asserted.
"""

from __future__ import annotations

import argparse
import datetime
import http.client
import os
import re
import sys
import threading
import time
import uuid
from contextlib import ExitStack
from dataclasses import dataclass
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.web import (  # noqa: E402
    PAGES, ROUNDS, TABLES, WARM_UP_SECONDS, BenchSession, bench_environment, build_session, gunicorn, page_path,
    throwaway_database,
)

SETTINGS = "bench.servers_settings"
DEFAULT_REDIS = "redis://127.0.0.1:6379/0"
MEASURED = ("rankings", "traveller, board 1", "director: standings", "trivial view")


@dataclass
class Answer:
    status: int
    body: str
    cookies: dict[str, str]


def fetch(port: int, method: str, path: str, cookies: dict[str, str] | None = None,
          form: dict[str, str] | None = None) -> Answer:
    """One request on a new connection; the cookies the answer sets come back with it."""
    headers = {"Cookie": "; ".join(f"{name}={value}" for name, value in (cookies or {}).items())}
    body = None
    if form is not None:
        body = urlencode(form)
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        jar: SimpleCookie = SimpleCookie()
        for header in response.headers.get_all("Set-Cookie") or []:
            jar.load(header)
        return Answer(response.status, response.read().decode("utf-8", "replace"),
                      {name: morsel.value for name, morsel in jar.items()})
    finally:
        connection.close()


def csrf_token(page: str) -> str:
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    if found is None:
        raise SystemExit("no CSRF token on the page")
    return found.group(1)


# --- the servers -------------------------------------------------------------------------------


def server_environment(url: str, redis_url: str) -> dict[str, str]:
    return {
        **bench_environment(url), "DJANGO_SETTINGS_MODULE": SETTINGS, "REDIS_URL": redis_url,
        "BENCH_CACHE_PREFIX": f"bench-servers-{os.getpid()}", "WORK_QUEUE": "rq",
        "RQ_QUEUE": f"bench-servers-{os.getpid()}",
    }


# --- throughput --------------------------------------------------------------------------------


def round_robin(ports: list[int], path: str, cookies: dict[str, str], clients: int, seconds: float) -> dict:
    """``clients`` threads for ``seconds``, each sending one request at a time to the instances in turn."""
    counts, errors = [0] * clients, [0] * clients
    stop = time.monotonic() + seconds

    def client(index: int) -> None:
        turn = index
        while time.monotonic() < stop:
            turn += 1
            if fetch(ports[turn % len(ports)], "GET", path, cookies).status == 200:
                counts[index] += 1
            else:
                errors[index] += 1

    started = time.monotonic()
    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"rps": sum(counts) / (time.monotonic() - started), "errors": sum(errors)}


def throughput(ports: list[int], session: BenchSession, director_cookies: dict[str, str],
               options: argparse.Namespace) -> dict[str, dict[int, dict]]:
    """Requests per second of each measured page, against the first instance alone, then both."""
    figures: dict[str, dict[int, dict]] = {}
    for page in (page for page in PAGES if page.title in MEASURED):
        path = page_path(page, session)
        cookies = director_cookies if page.director else {}
        figures[page.title] = {}
        for count in (1, 2):
            round_robin(ports[:count], path, cookies, options.clients, WARM_UP_SECONDS)
            figures[page.title][count] = round_robin(ports[:count], path, cookies, options.clients, options.seconds)
    return figures


# --- a correction through one server, read from the other ----------------------------------------

LEADS = [f"{suit}{rank}" for suit in "SHDC" for rank in "AKQJT98765432"]


def stale_pages(ports: list[int], session: BenchSession, director_cookies: dict[str, str],
                corrections: int) -> tuple[int, int, list[str]]:
    """(stale traveller pages, refused corrections, what went wrong) over ``corrections`` corrections."""
    from django.urls import reverse

    from sessions.models import Result
    from sessions.pairs.tables import card_html

    stale, refused, notes = 0, 0, []
    board_count = Result.objects.filter(board__session_id=session.session_id).values("board").distinct().count()
    for number in range(corrections):
        writer, reader = ports[number % 2], ports[(number + 1) % 2]
        board = number % board_count + 1
        line = (Result.objects.filter(board__session_id=session.session_id, board__number=board)
                .select_related("ns_pair", "ew_pair", "section").order_by("ns_pair__number").first())
        entry = reverse("sessions:director_board", args=[session.session_id, board])
        traveller_path = reverse("sessions:board", args=[session.session_id, board])
        lead = LEADS[number % len(LEADS)]
        # Read first on the other server, so a cache there holds the page as it was: the check can fail.
        if str(card_html(lead)) in fetch(reader, "GET", traveller_path).body:
            raise SystemExit(f"board {board}'s traveller already shows the lead {lead}: the check could not tell")
        page = fetch(writer, "GET", entry, director_cookies)
        answer = fetch(writer, "POST", entry, {**director_cookies, **page.cookies}, {
            "csrfmiddlewaretoken": csrf_token(page.body),
            "row": f"{line.section.letter}-{board}-{line.ns_pair_id}-{line.ew_pair_id}",
            "result": str(line.pk), "version": str(line.version), "text": other_result(line.text), "lead": lead,
        })
        stored = Result.objects.get(pk=line.pk)
        if answer.status != 302 or stored.lead != lead:
            refused += 1
            notes.append(f"correction {number + 1} on board {board}: answered {answer.status}, lead {stored.lead!r}")
            continue
        traveller = fetch(reader, "GET", traveller_path).body
        if str(card_html(lead)) not in traveller:
            stale += 1
            notes.append(f"board {board}: the other server's traveller lacks the new lead {lead}")
    return stale, refused, notes


def other_result(text: str) -> str:
    """The same contract made or one down ("4S N +1" -> "4S N =", "4S N =" -> "4S N -1"): always possible.

    A line passed out or adjusted keeps its text; its lead still changes."""
    parts = text.split()
    if len(parts) != 3:
        return text
    contract, declarer, outcome = parts
    return f"{contract} {declarer} {'-1' if outcome == '=' else '='}"


# --- a phone alternating between the servers -------------------------------------------------------


def phone_session(director) -> str:
    """A 3-table Mitchell with nothing entered: the table 1 link's token."""
    from sessions.models import Event
    from sessions.movements import mitchell
    from sessions.pairs.services.sessions import session_create
    from sessions.phones.services.tables import table_links_ensure

    event = Event.objects.get(name="Monday Pairs")
    movement = mitchell(3, 2)
    session = session_create(event=event, name="Phones", date=datetime.date(2025, 11, 25), movement=movement,
                             pair_players={label: [f"N {label}", f"S {label}"] for label in movement.pairs},
                             by=director)
    return next(link.token for link in table_links_ensure(session=session) if link.table == 1)


def phone_sequence(ports: list[int], token: str) -> list[str]:
    """The phone's steps, each on the other server; what went wrong (nothing, when it works)."""
    from sessions.models import Result

    servers = iter(ports * 10)
    problems: list[str] = []
    page = fetch(next(servers), "GET", f"/t/{token}/")
    cookies = page.cookies
    key = uuid.uuid4().hex
    send = {"csrfmiddlewaretoken": csrf_token(page.body), "board": "1", "text": "4S N 10", "lead": "",
            "client_key": key}
    if (status := fetch(next(servers), "POST", f"/t/{token}/send/", cookies, send).status) != 302:
        problems.append(f"send answered {status}")
    if "NS sent:" not in fetch(next(servers), "GET", f"/t/{token}/").body:
        problems.append("the other server's page does not show the send waiting for EW")
    confirm = {"csrfmiddlewaretoken": send["csrfmiddlewaretoken"], "client_key": key}
    if (status := fetch(next(servers), "POST", f"/t/{token}/confirm/", cookies, confirm).status) != 302:
        problems.append(f"confirm answered {status}")
    fetch(next(servers), "POST", f"/t/{token}/send/", cookies, send)  # the outbox's late retry
    if not re.search(r'Board <span class="board-number">2</span>', fetch(next(servers), "GET", f"/t/{token}/").body):
        problems.append("the other server's page is not on board 2")
    if (lines := Result.objects.filter(board__session__name="Phones").count()) != 1:
        problems.append(f"{lines} lines stored, not 1")
    return problems


# --- the run --------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="load time per page and per instance count")
    parser.add_argument("--clients", type=int, default=8, help="concurrent clients")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers per instance")
    parser.add_argument("--corrections", type=int, default=20, help="corrections for the stale-page check")
    options = parser.parse_args()
    redis_url = os.environ.get("REDIS_URL") or DEFAULT_REDIS
    load_before = os.getloadavg()
    with throwaway_database("postgres") as url:
        environment = server_environment(url, redis_url)
        os.environ.update(environment)  # this process builds the session and reads the database
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connections
        from django.test import Client

        try:
            call_command("migrate", verbosity=0)
            session, director = build_session("bench", TABLES, ROUNDS)
            token = phone_session(director)
            login = Client()
            login.force_login(director)
            director_cookies = {"sessionid": login.cookies["sessionid"].value}
            with ExitStack() as stack:
                ports = [stack.enter_context(gunicorn(options.workers, environment=environment)) for _ in range(2)]
                figures = throughput(ports, session, director_cookies, options)
                stale, refused, notes = stale_pages(ports, session, director_cookies, options.corrections)
                phone = phone_sequence(ports, token)
        finally:
            connections.close_all()
    print_report(figures, options, load_before, (stale, refused, notes), phone)


def print_report(figures: dict[str, dict[int, dict]], options: argparse.Namespace, load_before: tuple[float, ...],
                 stale: tuple[int, int, list[str]], phone: list[str]) -> None:
    print(f"\nPostgreSQL, 15-table Mitchell (405 results); gunicorn instances of {options.workers} sync workers on one "
          f"database and one Redis; {options.clients} round-robin clients, {options.seconds:g} s a page; "
          f"{os.cpu_count()} CPUs shared by clients and servers; load average before "
          f"{' '.join(f'{load:.1f}' for load in load_before)}.\n")
    print("| page | req/s, one instance | req/s, two instances | two / one |")
    print("| --- | ---: | ---: | ---: |")
    for title, by_count in figures.items():
        one, two = by_count[1], by_count[2]
        errors = f" ({one['errors'] + two['errors']} errors)" if one["errors"] + two["errors"] else ""
        print(f"| {title}{errors} | {one['rps']:,.0f} | {two['rps']:,.0f} | {two['rps'] / one['rps']:.2f} |")
    count, refused, notes = stale
    print(f"\nStale pages: {count} of {options.corrections - refused} corrections posted through one instance "
          f"and read at once from the other" + (f" ({refused} corrections refused)" if refused else "") + ".")
    for note in notes:
        print(f"  {note}")
    print("Phone alternating between the instances (page, send, page, confirm, retried send, page): "
          + ("one line stored, every step right." if not phone else "; ".join(phone)))


if __name__ == "__main__":
    main()
