"""RealBridge's per-table teams PBN read and rescored through the engine, to its figures.

tests/data/README.md: one round of a national online teams event, boards 11-20, 15
matches at 30 tables; 279 scores and 278 per-board IMPs from the two tables of each
match; one match unplayed and one board missing its other room; no totals or VPs.
"""

from decimal import Decimal

import pytest

from sessions.formats import FormatError
from sessions.formats.teams import score_parsed_teams
from sessions.formats.teams_realbridge import is_realbridge_teams, parse_realbridge_teams
from sessions.scoring.team_events import MatchSettings
from tests.formats.data_files import DATA_DIR

REALBRIDGE = DATA_DIR / "teams" / "realbridge_online_qual_2021_open_r2.pbn"


@pytest.fixture(scope="module")
def realbridge():
    event = parse_realbridge_teams(REALBRIDGE.read_bytes())
    return event, score_parsed_teams(event, MatchSettings(vp_scale="wbf2013"))


def test_the_file_reads_as_thirty_teams_in_fifteen_matches_of_boards_11_to_20(realbridge):
    event, _ = realbridge

    assert (event.title, event.date, event.scoring) == ("2021 Online Qual: Open R2", "2021.08.23", "imps")
    assert (len(event.teams), len(event.matches)) == (30, 15)
    assert {(m.first_board, m.last_board) for m in event.matches} == {(11, 20)}
    assert all(len(team.players) == 4 for team in event.teams)
    rooms = [room for m in event.matches for b in m.boards for room in (b.open_room, b.closed_room) if room]
    assert len(rooms) == 279


def test_the_home_team_of_the_lower_table_sits_ns_in_the_open_room(realbridge):
    event, _ = realbridge
    match = next(m for m in event.matches if {m.team, m.opponents} == {"AUSTRIA", "DENMARK"})

    # Tables 7 (DENMARK home) and 11 (AUSTRIA home): table 7 is the open room.
    assert (match.team, match.opponents) == ("DENMARK", "AUSTRIA")
    board_11 = next(b for b in match.boards if b.number == 11)
    assert (board_11.open_room.score, board_11.closed_room.score, board_11.published_imps) == ("-150", "PASS", -4)


def test_every_boards_imps_are_the_published_ones(realbridge):
    event, scored = realbridge
    compared = 0
    for match, outcome in zip(event.matches, scored.outcomes):
        ours = {board.number: board for board in outcome.boards}
        for board in match.boards:
            if board.published_imps is None:
                assert ours[board.number].home is None  # one room only: no IMPs
                continue
            assert ours[board.number].home - ours[board.number].away == board.published_imps, (match.team, board.number)
            compared += 1
    assert compared * 2 == 278  # each board's IMPs are written at both tables


def test_every_matchs_imps_are_the_sum_the_file_gives(realbridge):
    event, scored = realbridge
    played = [(m, o) for m, o in zip(event.matches, scored.outcomes) if m.boards]

    assert len(played) == 14
    for match, outcome in played:
        assert (outcome.home_points, outcome.away_points) == (
            match.published_team_imps, match.published_opponents_imps), match.team
    iceland = next(m for m, _ in played if m.team == "ICELAND")
    assert (iceland.published_team_imps, iceland.published_opponents_imps) == (Decimal(1), Decimal(31))


def test_the_unplayed_match_and_the_lone_board_are_noted(realbridge):
    event, _ = realbridge

    assert event.notes == [
        "WALES v ITALY (tables 1 and 17): no table has a score: not played, stored without a result",
        "TURKEY v SWITZERLAND (tables 6 and 12): board 20 has a score at one table only",
    ]
    wales = next(m for m in event.matches if m.team == "WALES")
    assert wales.boards == [] and wales.published_team_imps is None


def test_a_doubled_contract_in_lower_case_keeps_its_score(realbridge):
    event, _ = realbridge
    doubled = [room for m in event.matches for b in m.boards for room in (b.open_room, b.closed_room)
               if room and room.contract.endswith("X")]

    assert doubled and all(room.score.lstrip("-").isdigit() for room in doubled)


def test_only_realbridge_files_are_recognised():
    assert is_realbridge_teams(REALBRIDGE.read_bytes())
    assert not is_realbridge_teams((DATA_DIR / "teams" / "ruter_swiss_teams_salo_2013.pbn").read_bytes())


def test_a_match_at_three_tables_is_refused():
    data = REALBRIDGE.read_bytes().replace(b'[Table "17"]', b'[Table "99"]', 1)  # one game moved

    with pytest.raises(FormatError, match="WALES v ITALY is played at 3 tables, not two"):
        parse_realbridge_teams(data)


def test_a_score_that_is_not_ns_or_ew_is_refused():
    data = REALBRIDGE.read_bytes().replace(b'[Score "NS 120"]', b'[Score "XX 120"]', 1)

    with pytest.raises(FormatError, match='Score .XX 120. is not "NS n" or "EW n"'):
        parse_realbridge_teams(data)
