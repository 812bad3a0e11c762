"""The table plan rebuilt from traveller lines: no pair or board twice in a round."""

from collections import Counter

import pytest

from sessions.movements import howell, mitchell
from sessions.transfer.seating import CROWDED, PlayedLine, plan_section


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


def crowded_lines(tables: int, board_sets: int) -> list[PlayedLine]:
    """Every board played at ``tables`` tables (more than seating.CROWDED): NS pair t meets
    EW pair t + s (mod tables) on boards 2s+1 and 2s+2."""
    return [
        PlayedLine(board, f"{table}NS", f"{(table + step) % tables}EW")
        for step in range(board_sets)
        for table in range(tables)
        for board in (2 * step + 1, 2 * step + 2)
    ]


@pytest.mark.parametrize(("tables", "board_sets"), [(200, 1), (80, 10)])
def test_boards_played_at_more_tables_than_any_movement_are_still_seated_without_clashes(tables, board_sets):
    assert tables > CROWDED
    lines = crowded_lines(tables, board_sets)
    plan = plan_section(lines)
    assert_a_valid_plan(plan, lines)
    assert tables <= plan.rounds <= tables * 1.1  # a board set is at one table a round: at least ``tables`` rounds
