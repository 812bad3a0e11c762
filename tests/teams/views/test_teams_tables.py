"""The teams tables (django-tables2): standings, matches, scorecard and cross-table as
the pages show them, with plain values for an export and names escaped."""

from django.urls import reverse

from sessions.teams.selectors.teams import cross_table, standing_rows, team_event_score
from sessions.pairs.tables import CrossTable, TeamScorecardTable, TeamStandingsTable
from tests.teams.views.test_public_teams import _played_round_robin


def test_the_standings_table_has_a_column_for_each_round(client, club, tables_of):
    event, _ = _played_round_robin(club)

    standings = tables_of(client.get(reverse("sessions:team_event", args=[event.pk])).content.decode())[0]

    assert standings[0] == ["Place", "Team", "After round 1", "After round 2", "After round 3", "VPs", "IMPs +/-"]
    assert standings[1] == ["1=", "2 Team 2", "15", "15", "15", "15", "12 / 0"]
    assert [row[1] for row in standings[1:]] == ["2 Team 2", "1 Team 1", "4 Team 4", "3 Team 3"]


def test_the_standings_export_values_are_plain(club):
    event, _ = _played_round_robin(club)
    score = team_event_score(event)

    table = TeamStandingsTable(standing_rows(score), event=event, rounds=score.rounds)
    header, first, *_ = table.as_values()

    assert header == ["Place", "Team", "After round 1", "After round 2", "After round 3", "VPs", "IMPs +/-"]
    assert first == ["1=", "Team 2", "15", "15", "15", "15", "12 / 0"]


def test_the_scorecard_table_totals_the_match_in_its_footer(client, club, tables_of):
    event, match = _played_round_robin(club)

    scorecard = tables_of(client.get(reverse("sessions:team_match", args=[event.pk, match.pk])).content.decode())[0]

    assert scorecard[1] == ["1", "4S N =", "420", "4S N -1", "-50", "10", ""]
    assert scorecard[-1] == ["Total", "", "", "", "", "11", "0"]


def test_the_scorecard_of_a_match_with_nothing_entered_has_no_footer(club):
    event, _ = _played_round_robin(club)
    scored = next(m for m in team_event_score(event).matches if m.outcome is None)

    table = TeamScorecardTable([{"number": 1, "open": None, "closed": None, "outcome": None}], scored=scored)

    assert table.totals == {}


def test_the_cross_table_reads_each_teams_vps_against_the_others(client, club, tables_of):
    event, _ = _played_round_robin(club)

    cross = tables_of(client.get(reverse("sessions:team_event", args=[event.pk])).content.decode())[2]

    assert cross[0] == ["Team", "1", "2", "3", "4"]
    assert cross[1] == ["1 Team 1", "-", "·", "·", "15"]
    assert cross[4] == ["4 Team 4", "5", "·", "·", "-"]


def test_the_cross_table_exports_the_vps(club):
    event, _ = _played_round_robin(club)
    score = team_event_score(event)

    values = list(CrossTable(cross_table(score), event=event, teams=score.teams).as_values())

    assert values[1][1:] == ["", "", "", "15"]


def test_team_names_are_escaped_in_every_table(client, club):
    event, match = _played_round_robin(club)
    match.home.name = "<b>Bold</b>"
    match.home.save()

    for url in (reverse("sessions:team_event", args=[event.pk]),
                reverse("sessions:team_match", args=[event.pk, match.pk]),
                reverse("sessions:team_page", args=[event.pk, match.home_id])):
        page = client.get(url).content.decode()
        assert "<b>Bold</b>" not in page and "&lt;b&gt;Bold&lt;/b&gt;" in page, url
