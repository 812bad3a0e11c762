"""Correcting a teams event on the director's pages: edit forms, confirmations, refusals."""

from decimal import Decimal

import pytest
from django.urls import reverse

from sessions.teams.services.teams import (
    adjustment_add,
    edit_token,
    match_create,
    match_record_line,
    round_robin_schedule,
    team_edit,
)
from tests.factories import make_team_event

QUERIES_ON_THE_EVENT_PAGE = 15


def _follow_messages(response):
    return [str(message) for message in response.context["messages"]]


def test_the_team_form_shows_the_stored_team_and_saves_the_change(logged_in, club):
    team = make_team_event(club, teams=1).teams.get()
    url = reverse("sessions:director_team_edit", args=[team.pk])

    page = logged_in.get(url).content.decode()
    assert 'value="Team 1"' in page and f'value="{edit_token(team)}"' in page
    players = list(team.players.all())
    response = logged_in.post(url, {"name": "Aces", "players": [p.pk for p in players],
                                    "captain": players[3].pk, "seen": edit_token(team)})

    team.refresh_from_db()
    assert response.status_code == 302 and (team.name, team.captain) == ("Aces", players[3])


def test_a_stale_team_form_is_refused_on_the_page(logged_in, club):
    team = make_team_event(club, teams=1).teams.get()
    seen = edit_token(team)
    players = list(team.players.all())
    team_edit(team=team, name="Changed elsewhere", players=players)

    response = logged_in.post(reverse("sessions:director_team_edit", args=[team.pk]),
                              {"name": "Mine", "players": [p.pk for p in players], "seen": seen})

    assert response.status_code == 400
    assert "The team was changed since this form was opened: reload the page" in response.content.decode()
    team.refresh_from_db()
    assert team.name == "Changed elsewhere"


def test_an_edit_form_without_its_state_is_refused(logged_in, club):
    team = make_team_event(club, teams=1).teams.get()

    response = logged_in.post(reverse("sessions:director_team_edit", args=[team.pk]),
                              {"name": "Mine", "players": [p.pk for p in team.players.all()]})

    assert response.status_code == 400
    assert "this form is missing its state: reload the page" in response.content.decode()


def test_deleting_a_team_that_played_asks_then_refuses_with_the_reason(logged_in, club):
    event = make_team_event(club, teams=2, form="match")
    first, second = event.teams.all()
    match_create(event=event, round=1, home=first, away=second, boards=2)
    url = reverse("sessions:director_team_delete", args=[first.pk])

    assert "Delete team 1 Team 1?" in logged_in.get(url).content.decode()
    response = logged_in.post(url, follow=True)

    assert "Team 1 has 1 match: delete or undo them first" in _follow_messages(response)[0]
    assert event.teams.count() == 2


def test_a_match_with_a_line_keeps_its_teams_on_the_edit_page(logged_in, club):
    event = make_team_event(club, teams=3, form="match")
    first, second, third = event.teams.all()
    match = match_create(event=event, round=1, home=first, away=second, boards=2)
    match_record_line(match=match, board=1, room="open", text="4S N =")

    response = logged_in.post(reverse("sessions:director_team_match_edit", args=[match.pk]), {
        "round": 1, "home": first.pk, "away": third.pk, "boards": 2, "first_board": 1, "carry_over": 0,
        "seen": edit_token(match)})

    assert response.status_code == 400
    assert "the teams of this match cannot change: it has 1 line entered" in response.content.decode()
    match.refresh_from_db()
    assert match.away == second


def test_deleting_an_empty_match_after_confirming(logged_in, club):
    event = make_team_event(club, teams=2, form="match")
    first, second = event.teams.all()
    match = match_create(event=event, round=1, home=first, away=second, boards=2)

    response = logged_in.post(reverse("sessions:director_team_match_delete", args=[match.pk]), follow=True)

    assert _follow_messages(response) == ["Match deleted."]
    assert not event.matches.exists()


def test_an_adjustment_is_corrected_on_its_page(logged_in, club):
    event = make_team_event(club, teams=2)
    team = event.teams.first()
    adjustment = adjustment_add(event=event, team=team, kind="penalty", vp=Decimal(3))
    url = reverse("sessions:director_team_adjustment_edit", args=[adjustment.pk])

    assert 'name="vp" value="3.00"' in logged_in.get(url).content.decode()  # shown as typed: taken off
    logged_in.post(url, {"team": team.pk, "kind": "penalty", "vp": "4", "reason": "slow", "seen": edit_token(adjustment)})

    adjustment.refresh_from_db()
    assert (adjustment.vp, adjustment.reason) == (-4, "slow")


def test_undoing_a_round_with_a_line_is_refused_with_the_reason(logged_in, club):
    event = make_team_event(club, teams=4, form="round_robin", boards_per_match=2)
    round_robin_schedule(event=event)
    match = event.matches.filter(round=3).first()
    match_record_line(match=match, board=5, room="open", text="3NT S =")
    url = reverse("sessions:director_team_round_undo", args=[event.pk, 3])

    assert "Undo round 3?" in logged_in.get(url).content.decode()
    response = logged_in.post(url, follow=True)

    assert "round 3 cannot be undone" in _follow_messages(response)[0]
    assert event.matches.count() == 6
    assert "Undo round 3" in logged_in.get(reverse("sessions:director_team_event", args=[event.pk])).content.decode()


def test_the_event_page_links_every_correction(logged_in, club):
    event = make_team_event(club, teams=4, form="round_robin", boards_per_match=2)
    match = round_robin_schedule(event=event)[0]
    adjustment = adjustment_add(event=event, team=event.teams.first(), kind="fine", vp=Decimal(1))

    page = logged_in.get(reverse("sessions:director_team_event", args=[event.pk])).content.decode()

    for url in (reverse("sessions:director_team_edit", args=[event.teams.first().pk]),
                reverse("sessions:director_team_match_edit", args=[match.pk]),
                reverse("sessions:director_team_adjustment_edit", args=[adjustment.pk]),
                reverse("sessions:director_team_round_undo", args=[event.pk, 3]),
                reverse("sessions:transfer_team_export", args=[event.pk, "usebio"])):
        assert url in page, url


@pytest.mark.parametrize("teams", [6, 24])
def test_the_event_page_with_its_edit_links_takes_the_same_queries_at_6_and_24_teams(
    logged_in, club, teams, django_assert_num_queries,
):
    from tests.teams.views.test_public_teams import _played_round_robin

    event, _ = _played_round_robin(club, teams=teams)
    adjustment_add(event=event, team=event.teams.first(), kind="fine", vp=Decimal(1))
    url = reverse("sessions:director_team_event", args=[event.pk])
    # 1-2. the login session and its user  3. the event (club-scoped)
    # 4-7. team_event_score: teams, matches, lines, adjustments
    # 8-13. the forms' choices, each select reading its own queryset: the teams (match
    # form's home and away, the adjustment form's team) and the club's players (the team
    # form's players and captain); none grows with the event
    # 14. the event's results mails  15. the open calls to the director
    with django_assert_num_queries(QUERIES_ON_THE_EVENT_PAGE):
        response = logged_in.get(url)
    assert response.status_code == 200
