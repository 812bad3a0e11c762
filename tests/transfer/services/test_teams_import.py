"""Teams files in: `manage.py import_results` stores a teams event and rescores it to the file."""

import re
from fractions import Fraction

import pytest
from django.core.management.base import CommandError

from sessions.formats.usebio import parse_usebio_teams
from sessions.models import Match, MatchLine, Player, Team, TeamEvent
from sessions.teams.selectors.teams import team_event_score
from tests.formats.data_files import DATA_DIR
from tests.transfer.helpers import run_import

TEAMSSCORER = DATA_DIR / "teams" / "ebu_example_multiple_teams_teamsscorer.xml"


def _counts():
    return [model.objects.count() for model in (TeamEvent, Team, Match, MatchLine, Player)]


@pytest.mark.django_db
def test_the_command_imports_the_teamsscorer_file_to_its_published_figures():
    output = run_import(TEAMSSCORER)

    event = TeamEvent.objects.get(pk=int(output[-1]))
    assert (event.vp_scale, event.boards_per_match, event.scoring) == ("3board", 3, "imps")
    assert (event.teams.count(), event.matches.count(), MatchLine.objects.filter(match__event=event).count()) == (
        10, 40, 240)
    assert "every match's VPs, every team's total and place are the file's" in output
    # The stored event, rescored from its 240 lines, gives the file's totals and places.
    parsed = parse_usebio_teams(TEAMSSCORER.read_bytes())
    standings = {line.team: line for line in team_event_score(event).standings}
    for team in parsed.teams:
        stored = event.teams.get(number=int(team.key))
        assert standings[stored.pk].vp == Fraction(team.published_total), team.key
        assert standings[stored.pk].place == team.published_place, team.key
    assert event.teams.get(number=1).players.count() == 4


@pytest.mark.django_db
def test_a_teams_file_with_an_impossible_line_is_refused_and_stores_nothing(tmp_path):
    data = TEAMSSCORER.read_bytes().replace(b"<SCORE>-460</SCORE>", b"<SCORE>-470</SCORE>", 1)
    path = tmp_path / "bad.xml"
    path.write_bytes(data)
    before = _counts()

    with pytest.raises(CommandError, match="scores -460, but the file says -470"):
        run_import(path)
    assert _counts() == before


@pytest.mark.django_db
def test_a_teams_file_naming_an_unknown_team_is_refused(tmp_path):
    path = tmp_path / "bad.xml"
    path.write_bytes(TEAMSSCORER.read_bytes().replace(b"<TEAM>1</TEAM>", b"<TEAM>77</TEAM>", 1))

    with pytest.raises(CommandError, match="team '77' is not among the PARTICIPANTS"):
        run_import(path)
    assert TeamEvent.objects.count() == 0


RUTER = DATA_DIR / "teams" / "ruter_swiss_teams_salo_2013.pbn"


@pytest.mark.django_db
def test_the_command_imports_ruters_swiss_from_its_match_totals():
    output = run_import(RUTER)

    event = TeamEvent.objects.get(pk=int(output[-1]))
    assert (event.vp_scale, event.boards_per_match, event.form) == ("wbf2013", 8, "swiss")
    assert "every match's VPs, every team's total and place are the file's" in output
    assert "note: matches of 8 boards: the length that gives the file's VPs" in output
    winner = team_event_score(event).standings[0]
    assert (event.teams.get(pk=winner.team).number, winner.vp) == (5, Fraction("75.23"))


REALBRIDGE = DATA_DIR / "teams" / "realbridge_online_qual_2021_open_r2.pbn"


@pytest.mark.django_db
def test_the_command_imports_realbridges_per_table_pbn_to_its_imps():
    from sessions.formats.teams_realbridge import parse_realbridge_teams

    output = run_import(REALBRIDGE)

    event = TeamEvent.objects.get(pk=int(output[-1]))
    assert (event.teams.count(), event.matches.count(), event.boards_per_match, event.vp_scale) == (
        30, 15, 10, "wbf2013")
    assert MatchLine.objects.filter(match__event=event).count() == 279
    assert "every match's IMPs are the file's (it publishes no VPs, totals or places)" in output
    assert "note: the file gives no VPs: scored on the WBF 2013 scale" in output
    assert "note: WALES v ITALY (tables 1 and 17): no table has a score: not played, stored without a result" in output
    # The stored event, rescored from its lines, gives each match's IMPs as the file adds them up.
    published = {(m.team, m.opponents): m for m in parse_realbridge_teams(REALBRIDGE.read_bytes()).matches}
    checked = 0
    for scored in team_event_score(event).matches:
        match = published[scored.match.home.name, scored.match.away.name]
        if match.boards:
            assert (scored.outcome.home_points, scored.outcome.away_points) == (
                match.published_team_imps, match.published_opponents_imps), scored.match
            checked += 1
        else:
            assert scored.outcome is None and not scored.complete
    assert checked == 14
    iceland = next(m for m in team_event_score(event).matches if m.match.home.name == "ICELAND")
    assert (iceland.home_vp, iceland.away_vp) == (Fraction("2.16"), Fraction("17.84"))  # WBF 2013, 10 boards: 30 IMPs


@pytest.mark.django_db
def test_realbridge_match_imps_that_differ_are_reported():
    from sessions.transfer.services.teams_import import teams_import
    from tests.factories import make_club

    data = REALBRIDGE.read_bytes()
    report = teams_import(club=make_club(), data=data, filename="rb.pbn")
    assert report.differences == []
    # Table 4's board 11 (ROMANIA home, the open room) now says 5 IMPs where its scores give 1.
    tampered = data.replace(b'[ScoreIMP "NS 1 EW -1"]', b'[ScoreIMP "NS 5 EW -5"]', 1)

    report = teams_import(club=make_club(), data=tampered, filename="rb.pbn")

    assert len(report.differences) == 1 and "IMPs ours" in report.differences[0]


@pytest.mark.django_db
def test_a_ruter_league_in_progress_imports_the_played_rounds_and_keeps_the_rest_as_the_schedule(tmp_path):
    data = RUTER.read_bytes()
    eol = b"\r\n" if b"\r\n" in data else b"\n"
    lines, unplayed = [], []
    standing = re.compile(rb'^ *\d+( +\d+ +\d+ +"\w+" +)[\d.]+ ')  # Rank ... TotalScoreVP: not known mid-event
    for line in data.split(eol):
        if line.startswith(b"6 ") and b'"200,' in line:
            round_, table, home, away = line.split()[:4]
            line = b" ".join([round_, table, home, away, b"-", b"-", b"-", b"-", b"-"])
            unplayed.append((int(home), int(away)))
        line = standing.sub(rb"- \1- ", line)
        lines.append(line)
    assert len(unplayed) == 5
    path = tmp_path / "league.pbn"
    path.write_bytes(eol.join(lines))

    output = run_import(path)

    event = TeamEvent.objects.get(pk=int(output[-1]))
    assert "note: 5 matches not played yet (round 6): kept as the schedule" in output
    assert not any(line.startswith("differs from the file") for line in output), output
    assert event.vp_scale == "wbf2013"
    scheduled = [(m.home.number, m.away.number) for m in event.matches.filter(round=6).select_related("home", "away")]
    assert sorted(scheduled) == sorted(unplayed)
    assert all(m.home_imps is None for m in event.matches.filter(round=6))
    assert event.matches.filter(round__lt=6, home_imps__isnull=False).count() == 25


@pytest.mark.parametrize("points", [1, 2], ids=["1-half-0", "2-1-0"])
def test_a_board_a_match_file_imports_on_the_scale_its_figures_were_published_on(db, tmp_path, points):
    """EBUScoreTeams publishes board-a-match at 2 / 1 / 0 a board: imported on 1 / ½ / 0
    every figure came out at half. The importer takes the scale the file's figures give."""
    import re as regex

    from django.core.management import call_command

    from sessions.teams.services.teams import match_record_line, swiss_draw_next_round
    from tests.factories import make_club, make_team_event

    event = make_team_event(make_club(), teams=2, form="swiss", scoring="bam", bam_points=points, boards_per_match=3)
    (match,) = swiss_draw_next_round(event=event)
    for board, (open_room, closed_room) in enumerate([("4S N =", "4S N -1"), ("3NT S =", "3NT S ="),
                                                      ("2H E +1", "2H E =")], start=1):
        match_record_line(match=match, board=board, room="open", text=open_room)
        match_record_line(match=match, board=board, room="closed", text=closed_room)
    path = tmp_path / "bam.xml"
    call_command("export_results", str(event.pk), "--teams", "--format", "usebio", "--output", str(path))
    # As another program writes it: no ClubScore settings in the file.
    path.write_bytes(regex.sub(rb"<\?CLUBSCORE[^>]*\?>|<CLUBSCORE_SCORING>[^<]*</CLUBSCORE_SCORING>", b"",
                               path.read_bytes()))
    published = parse_usebio_teams(path.read_bytes()).matches[0]
    # Home won board 1, tied board 2, lost board 3: 1.5 points of 3, or 3 of 6.
    assert (published.published_team_score, published.published_opponents_score) == (
        Fraction(3, 2) * points, Fraction(3, 2) * points)

    output = run_import(path)

    imported = TeamEvent.objects.get(pk=int(output[-1]))
    assert imported.bam_points == points
    assert not any(line.startswith("differs from the file") for line in output), output
    scored = team_event_score(imported).matches[0]
    assert (scored.home_vp, scored.away_vp) == (Fraction(3, 2) * points, Fraction(3, 2) * points)
