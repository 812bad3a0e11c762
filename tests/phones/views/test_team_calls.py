"""Calling the director from a teams room's phone (issue 24), through the pairs tables'
service, form and partial; the teams director page shows the call until it is taken.

A 3-team round robin, 2 boards a match; the rooms of round 1's match.
"""

from __future__ import annotations

import uuid
from decimal import Decimal

import pytest
from django.urls import reverse

from sessions.models import DirectorCall, Match, Room, TeamEvent
from sessions.phones.services.calls import director_call
from sessions.phones.services.team_tables import match_table_links_ensure
from sessions.teams.services.teams import match_set_totals, round_robin_schedule, team_event_mark_final, team_event_publish
from tests.factories import make_team_event

SCRIPT = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def rr_event(club):
    event = make_team_event(club, teams=3, form="round_robin", boards_per_match=2, vp_scale="20")
    round_robin_schedule(event=event)
    return event


@pytest.fixture
def rooms(rr_event):
    return {link.room: link for link in match_table_links_ensure(event=rr_event, round=1)}


def press(client, link, key: str | None = None, **fields):
    return client.post(reverse("sessions:team_table_call", args=[link.token]),
                       {"client_key": key or uuid.uuid4().hex, "round": "1", **fields}, **SCRIPT)


def test_the_rooms_phone_offers_the_call(client, rooms):
    html = client.get(reverse("sessions:team_table_page", args=[rooms[Room.OPEN].token])).content.decode()
    assert 'data-kind="call"' in html and "Call the director" in html and 'value="revoke"' in html


def test_a_press_calls_the_director_once_per_room_and_the_phone_says_so(client, rooms):
    key = uuid.uuid4().hex
    response = press(client, rooms[Room.OPEN], key=key, reason="revoke")
    press(client, rooms[Room.OPEN], key=key)  # the same press again (a retry)
    press(client, rooms[Room.OPEN])  # another press while the call is open

    call = DirectorCall.objects.get()
    link = rooms[Room.OPEN]
    assert (call.match_id, call.room, call.team_event_id, call.round, call.reason) == (
        link.match_id, Room.OPEN, link.match.event_id, 1, "revoke")
    assert call.session_id is None and call.table is None
    assert "The director is called" in response.content.decode()
    press(client, rooms[Room.CLOSED])  # the other room's call is its own
    assert DirectorCall.objects.count() == 2


def test_the_director_sees_the_call_on_the_event_page_and_takes_it(client, director, rr_event, rooms):
    client.force_login(director)
    call = director_call(link=rooms[Room.CLOSED], client_key=uuid.uuid4().hex, round=1, reason="claim")
    page = client.get(reverse("sessions:director_team_event", args=[rr_event.pk])).content.decode()
    match = rooms[Room.CLOSED].match
    assert "Calls to the director" in page and f"{match.home.name} v {match.away.name}, Closed room" in page

    response = client.post(reverse("sessions:director_team_call_take", args=[rr_event.pk, call.pk]))

    assert response.status_code == 302 and not DirectorCall.objects.get(pk=call.pk).is_open
    client.logout()
    phone = client.get(reverse("sessions:team_table_page", args=[rooms[Room.CLOSED].token])).content.decode()
    assert "The director is coming." in phone


def test_a_teams_call_is_taken_only_through_its_own_event(client, director, club, rr_event, rooms):
    other = make_team_event(club, teams=3, form="round_robin", boards_per_match=2, vp_scale="20")
    call = director_call(link=rooms[Room.OPEN], client_key=uuid.uuid4().hex)
    client.force_login(director)
    assert client.post(reverse("sessions:director_team_call_take", args=[other.pk, call.pk])).status_code == 404
    assert DirectorCall.objects.get(pk=call.pk).is_open


def test_once_the_event_is_final_the_room_calls_nobody(client, rr_event, rooms):
    for match in Match.objects.filter(event=rr_event, away__isnull=False).select_related("event"):
        match_set_totals(match=match, home_imps=Decimal(3), away_imps=Decimal(1))
    team_event_publish(event=TeamEvent.objects.get(pk=rr_event.pk))
    team_event_mark_final(event=TeamEvent.objects.get(pk=rr_event.pk))

    press(client, rooms[Room.OPEN])

    assert not DirectorCall.objects.exists()
