"""Travellers and table-round sheets: pre-filled from the movement, fixed query counts."""

import random

import pytest

from sessions.models import Board, Section, Session
from sessions.movements import mitchell
from sessions.pairs.selectors.entry import board_traveller, table_round_sheet
from sessions.pairs.selectors.sessions import session_change_log, session_progress
from sessions.pairs.services.results import result_record
from tests.factories import make_club, make_event, make_session
from tests.once import built_once

CONTRACTS = ["4S N =", "4S N +1", "3NT S =", "4H E -1", "2S W +1", "PASS"]


def enter_everything(session: Session, seed: int = 1) -> None:
    chooser = random.Random(seed)
    boards = {board.number: board for board in session.boards.all()}
    for section in session.sections.all():
        for seating in section.seatings.select_related("ns_pair", "ew_pair"):
            for number in seating.boards:
                result_record(
                    board=boards[number], section=section, ns_pair=seating.ns_pair.label,
                    ew_pair=seating.ew_pair.label, text=chooser.choice(CONTRACTS),
                )


def loaded_board(session: Session, number: int) -> Board:
    return Board.objects.select_related("session__event").get(session=session, number=number)


def test_a_traveller_lists_the_tables_that_play_the_board_in_table_order(session):
    rows = board_traveller(board=loaded_board(session, 1)).rows

    assert [(r.table, r.round, r.ns_pair.label, r.ew_pair.label) for r in rows] == [
        (1, 1, "1NS", "1EW"), (2, 3, "2NS", "3EW"), (3, 2, "3NS", "2EW"),
    ]
    assert all(row.result is None for row in rows)


def test_a_traveller_row_carries_its_result_and_matchpoints(session):
    result_record(board=session.boards.get(number=1), section=session.sections.get(),
                  ns_pair="2NS", ew_pair="3EW", text="4S N +1")
    result_record(board=session.boards.get(number=1), section=session.sections.get(),
                  ns_pair="1NS", ew_pair="1EW", text="4S N =")

    sheet = board_traveller(board=loaded_board(session, 1))

    first, second, third = sheet.rows
    assert first.result.text == "4S N =" and second.result.text == "4S N +1" and third.result is None
    assert first.scored.ns_points < second.scored.ns_points
    assert sheet.entered == 2
    assert sheet.row_after(first.key) == third  # skips the row already entered


def test_a_line_turned_round_stays_on_its_tables_row_as_played(session):
    from sessions.pairs.services.repair import result_turn_round

    line = result_record(board=session.boards.get(number=1), section=session.sections.get(),
                         ns_pair="3NS", ew_pair="2EW", text="4S N =").result
    result_turn_round(result=line, version=1)  # 2EW sat North-South on this board

    rows = board_traveller(board=loaded_board(session, 1)).rows

    assert [(r.table, r.ns_pair.label, r.ew_pair.label, r.result is not None) for r in rows] == [
        (1, "1NS", "1EW", False), (2, "2NS", "3EW", False), (3, "2EW", "3NS", True),
    ]


def test_a_table_round_sheet_lists_the_boards_of_that_round(session):
    section = Section.objects.select_related("session__event").get(session=session)

    sheet = table_round_sheet(section=section, round=2, table=1)

    assert [(r.board.number, r.ns_pair.label, r.ew_pair.label) for r in sheet.rows] == [(3, "1NS", "3EW"), (4, "1NS", "3EW")]
    assert table_round_sheet(section=section, round=9, table=1) is None


def test_progress_counts_entered_and_expected_lines(session):
    result_record(board=session.boards.get(number=1), section=session.sections.get(),
                  ns_pair="1NS", ew_pair="1EW", text="4S N =")

    progress = session_progress(session=session)

    assert (progress.entered, progress.expected) == (1, 18)
    assert (progress.boards[0].entered, progress.boards[0].expected) == (1, 3)
    first_table = progress.rounds()[0][1][0]
    assert (first_table.round, first_table.table, first_table.entered, first_table.expected) == (1, 1, 1, 2)


@pytest.fixture(scope="module")
def small_and_large_pks(django_db_setup, django_db_blocker) -> tuple[int, int]:
    """Every line entered: 3 tables (18 lines), and 2 sections of 5 tables (100 lines).
    Built once for the module: the tests that take them only read."""

    def build() -> tuple[int, int]:
        event = make_event(make_club())
        small = make_session(event, mitchell(3, 2))
        large = make_session(event, mitchell(5, 2), sections=("A", "B"))
        enter_everything(small)
        enter_everything(large)
        return small.pk, large.pk

    yield from built_once(django_db_blocker, build)


@pytest.fixture
def small_and_large(small_and_large_pks, db) -> tuple[Session, Session]:
    small, large = (Session.objects.get(pk=pk) for pk in small_and_large_pks)
    return small, large


def test_a_traveller_takes_five_queries_whatever_the_size(small_and_large, django_assert_num_queries):
    for session, tables in zip(small_and_large, (3, 10)):
        board = loaded_board(session, 1)
        # 1. the session's pairs  2. the session's lines (rows, for the scores)  3. the boards of
        # that number (one per section playing its own deal)  4. the seatings  5. the lines of
        # that number (Results, for the rows shown)
        with django_assert_num_queries(5):
            sheet = board_traveller(board=board)
            [(row.result.text, row.scored.ns_points) for row in sheet.rows]
        assert len(sheet.rows) == tables


def test_a_table_round_sheet_takes_five_queries_whatever_the_size(small_and_large, django_assert_num_queries):
    for session in small_and_large:
        section = Section.objects.select_related("session__event").filter(session=session).first()
        # 1. the seating  2. its boards  3. the session's pairs  4. the session's lines (rows)
        # 5. the lines shown (Results)
        with django_assert_num_queries(5):
            sheet = table_round_sheet(section=section, round=2, table=2)
            [(row.result.text, row.scored) for row in sheet.rows]


def test_progress_takes_three_queries_whatever_the_size(small_and_large, django_assert_num_queries):
    for session in small_and_large:
        # 1. boards with their counts  2. seatings  3. lines per table and round
        with django_assert_num_queries(3):
            progress = session_progress(session=session)
            progress.rounds()
        assert progress.entered == progress.expected


def test_the_change_log_takes_one_query_whatever_the_size(small_and_large, django_assert_num_queries):
    for session, lines in zip(small_and_large, (18, 100)):
        with django_assert_num_queries(1):
            entries = [(c.board.number, c.ns_pair.label, c.ew_pair.label, c.changed_by)
                       for c in session_change_log(session=session)]
        assert len(entries) == lines
