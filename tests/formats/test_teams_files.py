"""Real team-event files read and rescored through the engine, to the published figures.

TeamsScorer's USEBIO example (tests/data/README.md, "Team-of-four results files"): every
board's IMPs from the two tables' scores, every match's VPs, each team's total and place.
"""

from decimal import Decimal

import pytest

from sessions.formats import FormatError
from sessions.formats.teams import score_parsed_teams
from sessions.formats.usebio import parse_usebio_teams
from sessions.scoring.ranking import place_labels
from sessions.scoring.team_events import MatchSettings
from tests.formats.data_files import DATA_DIR

TEAMSSCORER = DATA_DIR / "teams" / "ebu_example_multiple_teams_teamsscorer.xml"
THREE_BOARDS = MatchSettings(vp_scale="3board")


@pytest.fixture(scope="module")
def teamsscorer():
    event = parse_usebio_teams(TEAMSSCORER.read_bytes())
    return event, score_parsed_teams(event, THREE_BOARDS)


def test_the_teamsscorer_file_reads_as_ten_teams_and_forty_matches(teamsscorer):
    event, _ = teamsscorer

    assert (event.program, event.scoring, event.club) == ("TeamsScorer 5.1.17", "imps", "Test Bridge Club")
    assert len(event.teams) == 10 and len(event.matches) == 40
    assert sum(len(match.boards) for match in event.matches) == 120
    assert all(len(team.players) == 4 for team in event.teams)


def test_every_boards_imps_are_the_published_ones(teamsscorer):
    event, scored = teamsscorer
    compared = 0
    for match, outcome in zip(event.matches, scored.outcomes):
        by_number = {board.number: board for board in outcome.boards}
        for board in match.boards:
            engine = by_number[board.number]
            assert engine.home - engine.away == board.published_imps, (match.team, match.opponents, board.number)
            compared += 1
    assert compared == 120


def test_every_matchs_vps_are_the_published_ones(teamsscorer):
    event, scored = teamsscorer

    ours = [(outcome.home_vp, outcome.away_vp) for outcome in scored.outcomes]
    published = [(match.published_team_score, match.published_opponents_score) for match in event.matches]
    assert ours == published


def test_every_teams_total_and_place_are_the_published_ones(teamsscorer):
    event, scored = teamsscorer
    totals = {line.team: line.vp for line in scored.standings}

    assert [totals[index] for index in range(10)] == [team.published_total for team in event.teams]
    places = dict(zip(totals, place_labels(list(totals.values()))))
    assert [places[index] for index in range(10)] == [team.published_place for team in event.teams]
    assert any(team.published_place.endswith("=") for team in event.teams)  # the file's tie, "7="


def test_wins_or_draws_are_the_published_ones(teamsscorer):
    event, scored = teamsscorer
    wins = dict.fromkeys(range(10), 0)
    index = {team.key: number for number, team in enumerate(event.teams)}
    for match, outcome in zip(event.matches, scored.outcomes):
        if outcome.home_points >= outcome.away_points:
            wins[index[match.team]] += 1
        if outcome.away_points >= outcome.home_points:
            wins[index[match.opponents]] += 1

    assert [wins[number] for number in range(10)] == [team.published_wins for team in event.teams]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ((b"<OPPOSING_TEAM>3</OPPOSING_TEAM>", b"<OPPOSING_TEAM>99</OPPOSING_TEAM>"), "team '99' is not among"),
        ((b"<DIRECTION>EW</DIRECTION>", b"<DIRECTION>XX</DIRECTION>"), "DIRECTION is 'XX'"),
        ((b"<MATCH_SCORING_METHOD>VPS", b"<MATCH_SCORING_METHOD>XYZ"), "not supported"),
    ],
)
def test_a_broken_teams_file_is_refused_with_the_reason(change, message):
    data = TEAMSSCORER.read_bytes().replace(*change, 1)

    with pytest.raises(FormatError, match=message):
        parse_usebio_teams(data)


def test_a_pairs_file_is_not_a_teams_file():
    with pytest.raises(FormatError, match="not a teams event"):
        parse_usebio_teams((DATA_DIR / "usebio" / "cross-imp-pairs.xml").read_bytes())


def test_published_totals_are_decimals_as_printed(teamsscorer):
    event, _ = teamsscorer
    assert all(isinstance(team.published_total, Decimal) for team in event.teams)


# --- Ruter's PBN ScoreTable: a Swiss of 10 teams, 6 rounds of 8 boards, WBF 2013 VPs ---------

RUTER = DATA_DIR / "teams" / "ruter_swiss_teams_salo_2013.pbn"


@pytest.fixture(scope="module")
def ruter():
    from sessions.formats.teams_pbn import parse_pbn_teams

    event = parse_pbn_teams(RUTER.read_bytes(), boards_per_match=8)
    return event, score_parsed_teams(event, MatchSettings(vp_scale="wbf2013"))


def test_ruters_matches_are_read_from_the_score_table(ruter):
    event, _ = ruter

    assert (event.program, len(event.teams), len(event.matches)) == ("Ruter 4.7", 10, 30)
    assert all(len(team.players) == 4 for team in event.teams)


def test_ruters_vps_are_the_wbf_2013_scale_for_eight_boards(ruter):
    event, scored = ruter

    ours = [(o.home_vp, o.away_vp) for o in scored.outcomes]
    assert ours == [(m.published_team_score, m.published_opponents_score) for m in event.matches]


def test_ruters_totals_and_ranks_are_the_published_ones(ruter):
    event, scored = ruter
    index = {number: team for number, team in enumerate(event.teams)}
    totals = {index[line.team].key: line.vp for line in scored.standings}

    assert {team.key: totals[team.key] for team in event.teams} == {
        team.key: team.published_total for team in event.teams}
    assert [index[line.team].published_place for line in scored.standings] == [str(n) for n in range(1, 11)]
