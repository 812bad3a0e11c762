"""The table plan rebuilt from traveller lines: no pair or board twice in a round."""

from collections import Counter

import pytest

from sessions.movements import howell, mitchell
from sessions.transfer.seating import PlayedLine, plan_section


def lines_of(movement) -> list[PlayedLine]:
    return [
        PlayedLine(board, seating.ns_pair, seating.ew_pair)
        for seating in movement.seatings
        for board in seating.boards
    ]


def assert_a_valid_plan(plan, lines):
    for round_number in {seating.round for seating in plan.seatings}:
        in_round = [s for s in plan.seatings if s.round == round_number]
        pairs = Counter(p for s in in_round for p in (s.ns_pair, s.ew_pair))
        boards = Counter(b for s in in_round for b in s.boards)
        tables = Counter(s.table for s in in_round)
        assert max(pairs.values()) == max(boards.values()) == max(tables.values()) == 1
    seated = plan.by_line()
    assert all((line.ns_pair, line.ew_pair, line.board) in seated for line in lines)


@pytest.mark.parametrize("tables", [3, 7, 9, 11])
def test_a_mitchell_gets_its_own_rounds_and_tables_back(tables):
    movement = mitchell(tables, 3)
    plan = plan_section(lines_of(movement), {f"{t}NS": t for t in range(1, tables + 1)})
    assert not plan.from_file
    assert_a_valid_plan(plan, lines_of(movement))
    assert (plan.rounds, plan.tables, plan.boards_per_round) == (movement.rounds, movement.tables, 3)
    ns_tables = {(s.ns_pair, s.table) for s in plan.seatings}
    assert ns_tables == {(f"{t}NS", t) for t in range(1, tables + 1)}


@pytest.mark.parametrize("pairs", [8, 10, 12])
def test_a_howell_is_seated_without_clashes(pairs):
    movement = howell(pairs, 2)
    plan = plan_section(lines_of(movement))
    assert_a_valid_plan(plan, lines_of(movement))
    assert plan.rounds >= movement.rounds


def test_the_files_rounds_and_tables_are_kept():
    lines = [PlayedLine(1, "1", "2", round=1, table=2), PlayedLine(2, "1", "2", round=1, table=2),
             PlayedLine(3, "2", "1", round=2, table=1)]
    plan = plan_section(lines)
    assert plan.from_file
    assert [(s.round, s.table, s.ns_pair, s.boards) for s in plan.seatings] == [(1, 2, "1", (1, 2)), (2, 1, "2", (3,))]


def test_two_meetings_at_one_table_in_one_round_are_not_a_plan():
    lines = [PlayedLine(1, "1", "2", round=1, table=1), PlayedLine(2, "3", "4", round=1, table=1)]
    plan = plan_section(lines)
    assert not plan.from_file
    assert_a_valid_plan(plan, lines)
