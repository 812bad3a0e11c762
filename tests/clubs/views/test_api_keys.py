"""A club's API keys on its settings page: made (shown once), listed, revoked.

Personas: the club's owner (makes and revokes), another club's director (404: the
access walk of test_director_access covers the rest). The key works in the API at once
and stops working once revoked.
"""

from __future__ import annotations

import re

from django.urls import reverse

from sessions.models import ApiKey
from sessions.api.services.api_keys import api_key_create


def test_the_owner_makes_a_key_shown_once_that_opens_the_unpublished_session(client, director, club,
                                                                                unpublished_session):
    client.force_login(director)
    settings_url = reverse("sessions:director_club_settings", args=[club.slug])

    response = client.post(reverse("sessions:director_api_key_new", args=[club.slug]), {"key-name": "Website"})

    assert response.status_code == 200
    key = re.search(r'id="new-key" type="text" readonly value="([^"]+)"', response.content.decode()).group(1)
    assert key not in client.get(settings_url).content.decode()  # never shown again
    assert "Website" in client.get(settings_url).content.decode()
    api = f"/api/v1/sessions/{unpublished_session.pk}/"
    assert client.get(api, HTTP_AUTHORIZATION=f"Bearer {key}").status_code == 200


def test_a_revoked_key_opens_nothing(client, director, club, unpublished_session):
    api_key, key = api_key_create(club=club, name="Old site")
    client.force_login(director)

    response = client.post(reverse("sessions:director_api_key_revoke", args=[club.slug, api_key.pk]))

    assert response.status_code == 302
    api_key.refresh_from_db()
    assert api_key.revoked
    assert client.get(f"/api/v1/sessions/{unpublished_session.pk}/", HTTP_AUTHORIZATION=f"Bearer {key}").status_code == 401


def test_a_key_needs_a_name(client, director, club):
    client.force_login(director)

    response = client.post(reverse("sessions:director_api_key_new", args=[club.slug]), {"key-name": "  "})

    assert response.status_code == 400
    assert not ApiKey.objects.exists()


def test_another_clubs_director_cannot_revoke_the_key(client, outsider, club):
    api_key, _ = api_key_create(club=club, name="Website")
    client.force_login(outsider)
    away = outsider.directed_clubs.get()

    response = client.post(reverse("sessions:director_api_key_revoke", args=[away.slug, api_key.pk]))

    assert response.status_code == 404
    api_key.refresh_from_db()
    assert not api_key.revoked
