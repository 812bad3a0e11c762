"""The players' teams pages: published events only, standings, cross-table, scorecards,
and a fixed number of queries whatever the number of teams."""

from decimal import Decimal

import pytest
from django.urls import reverse

from sessions.teams.services.teams import (
    match_record_line,
    match_set_totals,
    round_robin_schedule,
    swiss_draw_next_round,
    team_event_publish,
)
from tests.factories import make_team_event


def _played_round_robin(club, teams=4, **settings):
    """A round robin with round 1 scored by totals and one match entered board by board."""
    event = make_team_event(club, teams=teams, form="round_robin", vp_scale="20", boards_per_match=2, **settings)
    matches = round_robin_schedule(event=event)
    first = [m for m in matches if m.round == 1 and m.away_id]
    match_record_line(match=first[0], board=1, room="open", text="4S N =")
    match_record_line(match=first[0], board=1, room="closed", text="4S N -1")
    match_record_line(match=first[0], board=2, room="open", text="3NT S +1")
    match_record_line(match=first[0], board=2, room="closed", text="3NT S =")
    for match in first[1:]:
        match_set_totals(match=match, home_imps=Decimal(12), away_imps=Decimal(0))
    return team_event_publish(event=event), first[0]


def test_an_unpublished_event_is_not_found(client, club):
    event = make_team_event(club, teams=2, form="swiss")
    swiss_draw_next_round(event=event)

    assert client.get(reverse("sessions:team_event", args=[event.pk])).status_code == 404


def test_the_standings_show_vps_after_each_round_and_the_cross_table(client, club):
    event, match = _played_round_robin(club)

    page = client.get(reverse("sessions:team_event", args=[event.pk])).content.decode()

    assert "After round 3" in page and "Cross-table" in page
    # Board 1 (none vul): 420 v -50, 470 = 10 IMPs; board 2 (NS vul): 630 v 600, 30 = 1 IMP: 11-0, 15-5.
    assert "11 - 0" in page and "15 - 5" in page


def test_the_scorecard_shows_both_rooms_and_the_imps_each_way(client, club):
    event, match = _played_round_robin(club)

    page = client.get(reverse("sessions:team_match", args=[event.pk, match.pk])).content.decode()

    assert "4S N =" in page and "4S N -1" in page and "420" in page and "-50" in page
    assert "IMPs 11 - 0" in page and "VPs 15 - 5" in page


def test_a_teams_page_lists_its_players_and_matches(client, club):
    event, match = _played_round_robin(club)
    team = match.home

    page = client.get(reverse("sessions:team_page", args=[event.pk, team.pk])).content.decode()

    captain = team.captain.name
    assert f"{captain} (captain)" in page
    # three rounds, each match's IMPs a link to its scorecard
    assert page.count(reverse("sessions:team_match", args=[event.pk, 0]).replace("/0/", "/")) == 3


def test_a_name_is_escaped(client, club):
    event, match = _played_round_robin(club)
    match.home.name = "<script>alert(1)</script>"
    match.home.save()

    page = client.get(reverse("sessions:team_event", args=[event.pk])).content.decode()

    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;" in page


@pytest.fixture(params=[6, 24], ids=["6 teams", "24 teams"])
def sized_event(request, club):
    return _played_round_robin(club, teams=request.param)


def test_the_standings_page_takes_six_queries(client, sized_event, django_assert_num_queries):
    event, _ = sized_event
    # 0. the event's revision (the page's ETag and cache key; once cached, the only query)
    # 1. the published event with its club
    # 2. team_event_score: the teams  3. the matches  4. every room's line  5. the adjustments
    with django_assert_num_queries(6):
        response = client.get(reverse("sessions:team_event", args=[event.pk]))
    assert response.status_code == 200


def test_the_scorecard_takes_six_queries(client, sized_event, django_assert_num_queries):
    event, match = sized_event
    # 0. the event's revision
    # 1. the published event with its club  2-5. team_event_score (teams, matches, lines, adjustments)
    with django_assert_num_queries(6):
        response = client.get(reverse("sessions:team_match", args=[event.pk, match.pk]))
    assert response.status_code == 200


def test_the_team_page_takes_seven_queries(client, sized_event, django_assert_num_queries):
    event, match = sized_event
    # 0. the event's revision
    # 1. the published event with its club  2-5. team_event_score  6. the team's players
    with django_assert_num_queries(7):
        response = client.get(reverse("sessions:team_page", args=[event.pk, match.home_id]))
    assert response.status_code == 200


def test_the_club_page_lists_published_teams_events(client, club):
    event, _ = _played_round_robin(club)
    hidden = make_team_event(club, teams=2, name="Hidden teams")

    page = client.get(reverse("sessions:club", args=[club.slug])).content.decode()

    assert event.name in page and hidden.name not in page


def test_a_knockout_page_says_who_goes_through(client, club):
    from sessions.teams.services.teams import match_create

    event = make_team_event(club, teams=2, form="knockout", vp_scale="20")
    home, away = event.teams.all()
    match = match_create(event=event, round=1, home=home, away=away, boards=16, carry_over=Decimal("-4.5"))
    match_set_totals(match=match, home_imps=Decimal(40), away_imps=Decimal(37))
    team_event_publish(event=event)

    page = client.get(reverse("sessions:team_event", args=[event.pk])).content.decode()

    assert "Team 2 goes through" in page  # 40 against 37 + 4.5 carried over
