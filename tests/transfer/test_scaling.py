"""Import and export cost grows with the results, not faster: proved by counting work, never by timing.

One board played at N tables (bench/import_scaling.py times the same files): the table
plan is rebuilt with a number of heap steps that grows as N (it was a pass over every
meeting left for each meeting: N squared), and the import and every export run the same
number of queries at 100 and at 1,000 results (players, pairs, boards, results and
seatings each go in one bulk statement; players were inserted one query each).
"""

from __future__ import annotations

import heapq

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from sessions.models import Player, Result
from sessions.movements import howell
from sessions.clubs.services import players
from sessions.transfer.exporters import EXPORTERS
from sessions.transfer.services.importing import results_import
from sessions.transfer import seating
from sessions.transfer.seating import PlayedLine, plan_section
from tests.factories import make_club
from tests.transfer.helpers import one_board_file

# --- the table plan ------------------------------------------------------------------------------


def heap_steps(meetings: int, monkeypatch) -> tuple[int, int]:
    """(heap operations, rounds) to plan one board played at ``meetings`` tables, no rounds given."""
    counted = [0]

    def counting(operation):
        def step(*args):
            counted[0] += 1
            return operation(*args)
        return step

    monkeypatch.setattr(seating, "heapq", type("Counting", (), {
        name: staticmethod(counting(getattr(heapq, name))) for name in ("heappop", "heappush", "heapify")
    }))
    plan = plan_section([PlayedLine(1, f"{table}NS", f"{table}EW") for table in range(1, meetings + 1)])
    return counted[0], plan.rounds


def test_a_board_played_at_ten_times_the_tables_takes_ten_times_the_planning_steps(monkeypatch):
    small, small_rounds = heap_steps(100, monkeypatch)
    large, large_rounds = heap_steps(1_000, monkeypatch)
    assert (small_rounds, large_rounds) == (100, 1_000)  # a board is at one table a round
    assert 100 <= small and large <= 3 * 1_000  # each meeting off the heap once, or twice when it was late
    assert large <= 11 * small, (small, large)  # quadratic work would be 100 times


def test_a_movement_plan_is_the_dsatur_colouring_still():
    # Eight pairs, two boards a round, no rounds in the file: the seven rounds of the
    # Howell played (the greedy order is unchanged for real movements, none is crowded).
    movement = howell(8, 2)
    lines = [PlayedLine(board, s.ns_pair, s.ew_pair) for s in movement.seatings for board in s.boards]
    assert plan_section(lines).rounds == movement.rounds == 7


# --- queries -------------------------------------------------------------------------------------


@pytest.fixture
def one_statement_per_bulk_write(monkeypatch):
    """Each bulk insert or update in one statement: the database's batch size is the only
    growth left to the query count, and this takes it away."""
    monkeypatch.setattr(connection.ops, "bulk_batch_size", lambda fields, objs: max(len(objs), 1))
    monkeypatch.setattr(players, "BATCH_SIZE", None)


def import_queries(results: int, sections: int) -> tuple[int, object]:
    club = make_club(name=f"Club {results}")
    with CaptureQueriesContext(connection) as queries:
        report = results_import(club=club, data=one_board_file(results, sections), filename="one-board.pbn")
    assert report.lines == results
    assert Player.objects.filter(club=club).count() == 4 * results
    return len(queries), report.session


@pytest.mark.django_db
def test_the_import_runs_as_many_queries_for_1000_results_as_for_100(one_statement_per_bulk_write):
    small, _ = import_queries(100, sections=1)
    large, session = import_queries(1_000, sections=2)  # pair numbers end at 999
    assert large == small
    assert Result.objects.filter(board__session=session).count() == 1_000


@pytest.mark.django_db
def test_every_export_runs_as_many_queries_for_1000_results_as_for_100(one_statement_per_bulk_write):
    _, small = import_queries(100, sections=2)
    _, large = import_queries(1_000, sections=2)
    for identifier, exporter in EXPORTERS.items():
        counts = []
        for session in (small, large):
            with CaptureQueriesContext(connection) as queries:
                exporter.render(session)
            counts.append(len(queries))
        assert counts[0] == counts[1], identifier


@pytest.mark.django_db
def test_known_players_are_found_in_one_query_whatever_their_number():
    club = make_club()
    file = one_board_file(50)
    results_import(club=club, data=file, filename="first.pbn")
    with CaptureQueriesContext(connection) as queries:
        players.players_find_or_add(club=club, typed=[(f"P A{t}NSa", f"A{t}NS1") for t in range(1, 51)])
    assert len(queries) == 1
    assert Player.objects.filter(club=club).count() == 200  # all found: nobody added
