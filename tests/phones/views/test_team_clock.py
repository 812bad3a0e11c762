"""The round clock of a teams event (issue 24): the director runs it on the event's page
with the pairs grid's buttons and services (sessions.phones.services.clock takes ``team_event=``),
and the rooms' phones show it. Started at a chosen moment in the past: no sleeping.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from sessions.models import Session, TeamEvent
from sessions.phones.services.clock import clock_set_minutes, clock_start
from sessions.phones.services.team_tables import match_table_links_ensure
from sessions.teams.services.teams import round_robin_schedule
from tests.factories import make_team_event


@pytest.fixture
def rr_event(club):
    event = make_team_event(club, teams=3, form="round_robin", boards_per_match=2, vp_scale="20")
    round_robin_schedule(event=event)
    return event


def clock_of(html: str) -> str:
    return re.search(r'<p id="round-clock"[^>]*>.*?</p>', html, re.S).group(0)


def event_page(client, event) -> str:
    response = client.get(reverse("sessions:director_team_event", args=[event.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_director_sets_and_starts_the_clock_on_the_event_page(client, director, rr_event):
    client.force_login(director)
    url = reverse("sessions:director_team_clock", args=[rr_event.pk])
    assert 'id="round-clock" hidden' in event_page(client, rr_event)

    assert client.post(url, {"action": "minutes", "minutes": "7"}).status_code == 302
    assert client.post(url, {"action": "start"}).status_code == 302

    stored = TeamEvent.objects.get(pk=rr_event.pk)
    assert (stored.round_minutes, stored.clock_round) == (7, 1) and stored.clock_started_at is not None
    shown = clock_of(event_page(client, rr_event))
    assert "Round 1:" in shown and "left" in shown and "data-ends-at-ms" in shown


@pytest.mark.parametrize(("data", "message"), [
    ({"action": "minutes", "minutes": "0"}, "a round lasts 1 to 180 minutes"),
    ({"action": "start"}, "set the minutes a round first"),
    ({"action": "explode"}, "That clock button belongs to an old page"),
])
def test_a_bad_press_says_why_and_changes_nothing(client, director, rr_event, data, message):
    client.force_login(director)
    response = client.post(reverse("sessions:director_team_clock", args=[rr_event.pk]), data, follow=True)
    assert message in response.content.decode()
    stored = TeamEvent.objects.get(pk=rr_event.pk)
    assert (stored.round_minutes, stored.clock_round, stored.clock_started_at) == (0, None, None)


def test_the_rooms_phones_show_the_time_left_and_time_up(client, rr_event):
    clock_set_minutes(team_event=rr_event, minutes=10)
    clock_start(team_event=rr_event, now=timezone.now() - timedelta(minutes=4))
    link = match_table_links_ensure(event=rr_event, round=1)[0]

    shown = clock_of(client.get(reverse("sessions:team_table_page", args=[link.token])).content.decode())
    assert re.search(r"Round 1: <span class=\"clock-left\">(6:00|5:5\d) left", shown)

    clock_start(team_event=rr_event)  # running already: nothing changes
    TeamEvent.objects.filter(pk=rr_event.pk).update(clock_started_at=timezone.now() - timedelta(minutes=11))
    shown = clock_of(client.get(reverse("sessions:team_table_page", args=[link.token])).content.decode())
    assert "time is up" in shown


def test_a_clock_service_takes_one_of_a_session_and_a_teams_event(rr_event, session):
    with pytest.raises(TypeError):
        clock_start()
    with pytest.raises(TypeError):
        clock_start(session=session, team_event=rr_event)
    clock_set_minutes(team_event=rr_event, minutes=5)
    assert Session.objects.get(pk=session.pk).round_minutes == 0  # the session's clock is its own
