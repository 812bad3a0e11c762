"""The master point settings: the club's federation and scale, an event's override."""

import pytest
from django.urls import reverse

from sessions.models import Club, Event
from tests.pairs.views.test_director_events import settings_data


@pytest.fixture
def owner(client, director):
    client.force_login(director)
    return client


def club_post(club: Club, **changes) -> dict:
    return {"name": club.name, "description": "", "website": "", **changes}


def test_the_owner_chooses_the_clubs_federation_and_scale(owner, club):
    url = reverse("sessions:director_club_settings", args=[club.slug])
    assert "English Bridge Union (black points)" in owner.get(url).content.decode()

    response = owner.post(url, club_post(club, masterpoint_federation="ebu", masterpoint_scale="County"))

    assert response.status_code == 302
    club.refresh_from_db()
    assert (club.masterpoint_federation, club.masterpoint_scale) == ("ebu", "county")


def test_a_scale_the_federation_lacks_is_explained_and_not_saved(owner, club):
    url = reverse("sessions:director_club_settings", args=[club.slug])
    response = owner.post(url, club_post(club, masterpoint_federation="nzb", masterpoint_scale="county"))

    assert response.status_code == 200
    assert "NZB scales: club" in response.content.decode()
    club.refresh_from_db()
    assert club.masterpoint_federation == ""


def test_an_event_overrides_the_scale_for_its_sessions(owner, club, event):
    Club.objects.filter(pk=club.pk).update(masterpoint_federation="abf")
    url = reverse("sessions:director_event", args=[event.pk])
    assert "Master point scale" in owner.get(url).content.decode()

    response = owner.post(url, settings_data(event, masterpoint_scale="championship"))
    assert response.status_code == 302
    assert Event.objects.get(pk=event.pk).masterpoint_scale == "championship"

    refused = owner.post(url, settings_data(event, masterpoint_scale="county"))
    assert refused.status_code == 200 and "ABF scales" in refused.content.decode()
    assert Event.objects.get(pk=event.pk).masterpoint_scale == "championship"
