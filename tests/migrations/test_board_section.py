"""Migration 0014_board_section: existing boards stay shared by every section of their session."""

import datetime

import pytest

from tests.migrations.test_club_owner import migrate, migrated_back  # noqa: F401 (the fixture)

BEFORE = [("clubsessions", "0013_match_table_entry")]
AFTER = [("clubsessions", "0014_board_section")]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("migrated_back")
def test_existing_boards_and_their_lines_stay_shared():
    apps = migrate(BEFORE)
    Club = apps.get_model("clubsessions", "Club")
    Event = apps.get_model("clubsessions", "Event")
    Session = apps.get_model("clubsessions", "Session")
    Board = apps.get_model("clubsessions", "Board")
    club = Club.objects.create(name="North", slug="north")
    event = Event.objects.create(club=club, name="Pairs")
    session = Session.objects.create(event=event, name="Monday", date=datetime.date(2025, 1, 6), tables=3,
                                     rounds=3, boards_per_round=2, board_count=2, movement_kind="mitchell")
    for number in (1, 2):
        Board.objects.create(session=session, number=number, dealer="N", vulnerability="None", deal=f"deal {number}")

    apps = migrate(AFTER)

    boards = apps.get_model("clubsessions", "Board").objects.values_list("number", "section", "deal")
    assert sorted(boards) == [(1, None, "deal 1"), (2, None, "deal 2")]
