"""What a teams room's phone and the director's round page read: the state derived from
the stored lines and sends, in a fixed number of queries."""

import pytest

from sessions.models import Room
from sessions.phones.selectors.team_tables import match_table_link_by_token, room_page, round_tables
from sessions.phones.services.team_tables import match_table_links_ensure, match_table_send
from sessions.teams.services.teams import match_record_line, round_robin_schedule
from tests.factories import make_team_event


def scheduled(club, teams, boards):
    event = make_team_event(club, teams=teams, form="round_robin", boards_per_match=boards)
    round_robin_schedule(event=event)
    return event, match_table_links_ensure(event=event, round=1)


def test_the_board_in_play_is_the_rooms_first_board_without_its_line(club):
    event, links = scheduled(club, 2, 3)
    closed = match_table_link_by_token(next(link for link in links if link.room == Room.CLOSED).token)
    match = closed.match
    match_record_line(match=match, board=1, room=Room.CLOSED, text="4S N =")
    match_record_line(match=match, board=2, room=Room.OPEN, text="3NT S =")  # the other room's only
    match_table_send(link=closed, board=2, text="3NT S -1", client_key="k" * 20)

    page = room_page(link=closed)

    assert (page.ns_team, page.ew_team) == (match.away, match.home)
    assert page.in_play.board.number == 2 and page.in_play.pending.text == "3NT S -1"
    assert (page.in_play.board.dealer, page.in_play.board.vulnerability) == ("E", "NS")
    assert [b.done for b in page.boards] == [True, False, False]
    assert page.boards[0].swing is None  # the open room has not played board 1 yet


@pytest.mark.parametrize("teams", [4, 10])
def test_round_tables_reads_four_queries_whatever_the_rounds_size(club, teams, django_assert_num_queries):
    event, links = scheduled(club, teams, 2)
    match = links[0].match
    match_record_line(match=match, board=1, room=Room.OPEN, text="4S N =")

    with django_assert_num_queries(4):  # matches with teams, links, lines, sends waiting
        rows = round_tables(event=event, round=1)

    assert len(rows) == teams  # two rooms for each of teams/2 matches
    first = next(row for row in rows if row.match.pk == match.pk and row.room == Room.OPEN)
    assert (first.on_board, first.done, first.link is not None) == (2, 1, True)
