"""The teams PBN export: a full PBN 2.1 teams file that other programs read, and ours.

One game per board per room played (the standard's 15 mandatory tags, Room, Round,
HomeTeam and VisitTeam), Ruter's ScoreTable of matches and TotalScoreTable of teams in
the first game. Every export (a teams event entered here, and each real teams file of
tests/data imported and exported again) is read by endplay's PBN reader with the
right boards, deals, contracts and results, passes the PBN 2.1 export-format checker
(tests/formats/pbn_checker.py), and imports again to the same match totals, VPs and
places.
"""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from endplay.parsers import pbn as endplay_pbn
from endplay.types import Deal

from sessions.formats.teams_pbn import parse_pbn_teams, write_pbn_teams
from sessions.formats.teams_realbridge import parse_realbridge_teams
from sessions.models import MatchLine, ResultKind, Room, TeamEvent
from sessions.teams.selectors.teams import team_event_score
from sessions.teams.services.teams import match_record_line, round_robin_schedule, team_event_publish
from tests.factories import make_club, make_team_event
from tests.formats.data_files import DATA_DIR, TEAMS_FILES
from tests.formats.pbn_checker import export_problems
from tests.transfer.helpers import run_import

DENOMINATIONS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs", "NT": "nt"}
PENALTIES = {"": "passed", "X": "doubled", "XX": "redoubled"}
SEATS = {"N": "north", "E": "east", "S": "south", "W": "west"}
#: The demo event's lines: (round-1 match index, board, open room, closed room).
DEMO_LINES = [
    (0, 1, "4S N =", "4S N -1"),
    (0, 2, "3NT S +1", "PASS"),
    (0, 3, "4HX E -2", "A60/40"),
    (1, 1, "2D W =", "NP"),
    (1, 2, "6NTXX N =", "3NT N +2"),
]


def _export(event: TeamEvent, tmp_path) -> bytes:
    path = tmp_path / "out.pbn"
    call_command("export_results", str(event.pk), "--teams", "--format", "pbn", "--output", str(path),
                 stderr=StringIO())
    return path.read_bytes()


def _contract(contract) -> tuple | None:
    """endplay's contract as (level, denomination, penalty, declarer, result); "Pass"; None for "?"."""
    if contract is None:
        return None
    if contract.level == 0:
        return ("Pass",)
    return (contract.level, contract.denom.name, contract.penalty.name, contract.declarer.name, contract.result)


def _hands(deal: Deal) -> tuple[str, ...]:
    return tuple(hand.to_pbn() for hand in (deal.north, deal.east, deal.south, deal.west))


def endplay_games(content: bytes) -> list[tuple]:
    """Each room's game as endplay reads it: board, round, room, home, visitors, hands,
    contract (an event of match totals alone has one game, for the tables, and no room)."""
    games = endplay_pbn.loads(content.decode("iso-8859-1"))
    rooms = [game for game in games if "Room" in game.info]
    assert len(rooms) == len(games) or len(games) == 1
    return sorted(
        (board.board_num, board.info["Round"], board.info["Room"], board.info["HomeTeam"], board.info["VisitTeam"],
         _hands(board.deal), _contract(board.contract))
        for board in rooms
    )


def _expected_contract(line: MatchLine) -> tuple | None:
    if line.kind == ResultKind.PASSED:
        return ("Pass",)
    if line.kind != ResultKind.PLAYED:
        return None  # an adjusted score: "?"
    return (line.level, DENOMINATIONS[line.strain], PENALTIES[line.doubling], SEATS[line.declarer],
            line.tricks - line.level - 6)


def stored_games(event: TeamEvent) -> list[tuple]:
    """Every room's line of the event but those not played, as its game should read."""
    no_cards = _hands(Deal(""))
    lines = MatchLine.objects.filter(match__event=event).exclude(kind=ResultKind.NOT_PLAYED)
    return sorted(
        (line.board, str(line.match.round), "Open" if line.room == Room.OPEN else "Closed",
         line.match.home.name, line.match.away.name, no_cards, _expected_contract(line))
        for line in lines.select_related("match__home", "match__away")
    )


def figures(event: TeamEvent) -> tuple[list, list]:
    """Every match's IMP totals and VPs, every team's VPs and place, by team names."""
    score = team_event_score(event)
    matches = sorted(
        (m.match.round, m.match.home.name, m.match.away.name,
         m.outcome.home_points if m.outcome else None, m.outcome.away_points if m.outcome else None,
         m.home_vp, m.away_vp)
        for m in score.matches if m.match.away_id is not None
    )
    names = {team.pk: team.name for team in score.teams}
    teams = sorted((names[line.team], line.vp, line.place) for line in score.standings)
    return matches, teams


def check_export(event: TeamEvent, tmp_path) -> bytes:
    content = _export(event, tmp_path)
    assert export_problems(content) == []
    assert endplay_games(content) == stored_games(event)
    return content


def check_round_trip(event: TeamEvent, content: bytes, tmp_path) -> None:
    path = tmp_path / "again.pbn"
    path.write_bytes(content)
    output = run_import(path)
    assert "every match's VPs, every team's total and place are the file's" in output
    again = TeamEvent.objects.get(pk=int(output[-1]))
    assert figures(again) == figures(event)


@pytest.fixture
def demo_teams(db):
    """A round robin of four teams entered here, with every kind of room line."""
    event = make_team_event(make_club(), teams=4, form="round_robin", boards_per_match=3)
    matches = round_robin_schedule(event=event)
    first_round = [match for match in matches if match.round == 1]
    for index, board, open_text, closed_text in DEMO_LINES:
        match_record_line(match=first_round[index], board=board, room="open", text=open_text)
        match_record_line(match=first_round[index], board=board, room="closed", text=closed_text)
    team_event_publish(event=event)
    return event


def test_the_demo_teams_event_is_one_game_per_board_and_room_endplay_reads(demo_teams, tmp_path):
    content = check_export(demo_teams, tmp_path)

    games = endplay_pbn.loads(content.decode("iso-8859-1"))
    assert len(games) == 9  # 10 lines, one not played
    first = games[0]
    assert (first.board_num, first.info["Room"], first.info["Scoring"], first.info["Score"]) == (1, "Open", "IMP", "NS 420")
    # 420 and 50: the home team's 10 IMPs, NS in the open room and EW in the closed one.
    assert first.info["ScoreIMP"] == "NS 10 EW -10"
    assert (games[1].info["Room"], games[1].info["Score"], games[1].info["ScoreIMP"]) == ("Closed", "EW 50", "NS -10 EW 10")
    assert [first.info[seat] for seat in ("West", "North", "East", "South")] == ["?"] * 4  # who sat where is not known
    assert len(first.info["ScoreTable"]["rows"]) == 6 and len(first.info["TotalScoreTable"]["rows"]) == 4
    assert all("ScoreTable" not in game.info for game in games[1:])
    text = content.decode("iso-8859-1")
    assert '[Contract "Pass"]\r\n[Result ""]' in text and "PASS" not in text
    assert '[Contract "6NTXX"]' in text and '[Score "NS 500"]' in text  # 4HX E -2, East vulnerable


def test_the_demo_teams_event_imports_again_to_the_same_totals_vps_and_places(demo_teams, tmp_path):
    check_round_trip(demo_teams, _export(demo_teams, tmp_path), tmp_path)


def test_a_board_a_match_event_is_scored_bam(db, tmp_path):
    event = make_team_event(make_club(), teams=2, form="round_robin", boards_per_match=1, scoring="bam")
    (match,) = round_robin_schedule(event=event)
    match_record_line(match=match, board=1, room="open", text="4S N =")
    match_record_line(match=match, board=1, room="closed", text="4S N -1")

    content = check_export(event, tmp_path)

    assert {game.info["Scoring"] for game in endplay_pbn.loads(content.decode("iso-8859-1"))} == {"BAM"}
    assert b"ScoreIMP" not in content


@pytest.mark.django_db
@pytest.mark.parametrize("name", TEAMS_FILES)
def test_a_real_teams_file_exported_again_is_export_format_endplay_reads_and_imports_again(name, tmp_path):
    event = TeamEvent.objects.get(pk=int(run_import(DATA_DIR / "teams" / name)[-1]))

    content = check_export(event, tmp_path)

    assert content.count(b"[ScoreTable ") == content.count(b"[TotalScoreTable ") == 1
    check_round_trip(event, content, tmp_path)


def test_a_file_that_knows_the_deals_and_players_keeps_them():
    data = (DATA_DIR / "teams" / "realbridge_online_qual_2021_open_r2.pbn").read_bytes()
    parsed = parse_realbridge_teams(data)
    original = {
        (board.board_num, board.info["HomeTeam"], board.info["VisitTeam"]): board
        for board in endplay_pbn.loads(data.decode("iso-8859-1")) if board.info.get("Score")
    }

    content = write_pbn_teams(parsed)

    assert export_problems(content) == []
    games = endplay_pbn.loads(content.decode("iso-8859-1"))
    assert len(games) == len(original) > 200
    for game in games:
        # The table's home team sits NS: ours in the open room, the visitors in the closed one.
        teams = (game.info["HomeTeam"], game.info["VisitTeam"])
        table = original[(game.board_num, *(teams if game.info["Room"] == "Open" else teams[::-1]))]
        assert _hands(game.deal) == _hands(table.deal)
        assert _contract(game.contract) == _contract(table.contract)
        assert [game.info[seat] for seat in ("West", "North", "East", "South")] == [
            table.info[seat] for seat in ("West", "North", "East", "South")]


def test_every_line_fits_and_the_tables_come_back(demo_teams, tmp_path):
    demo_teams.teams.filter(number=1).update(name="Ünïcode-free Latin-1 team " + "x" * 90)
    for player in demo_teams.teams.get(number=1).players.all():
        player.name = player.name + " " + "y" * 50
        player.save()

    content = check_export(demo_teams, tmp_path)

    assert all(len(line) + 2 <= 255 for line in content.split(b"\r\n"))
    parsed = parse_pbn_teams(content, boards_per_match=3)
    assert [team.name for team in parsed.teams][0].startswith("Ünïcode")
    assert len(parsed.matches) == 6
