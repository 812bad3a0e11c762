"""The webhooks on the club's settings page: added, tested, removed, their log shown, to the owner only."""

import pytest
from django.urls import reverse

from sessions.models import DeliveryStatus, Webhook, WebhookDelivery
from sessions.pairs.services.sessions import session_publish
from sessions.pairs.services.results import result_record
from sessions.api.services.webhooks import webhook_create, webhook_send_test
from tests.webhook_receiver import Receiver


@pytest.fixture
def receiver(settings):
    settings.WEBHOOK_ALLOW_LOCAL = True
    settings.WEBHOOK_BACKOFF = 0.01
    settings.WEBHOOK_ATTEMPTS = 2
    started = Receiver([200]).start()
    yield started
    started.stop()


def settings_url(club) -> str:
    return reverse("sessions:director_club_settings", args=[club.slug])


def test_the_owner_adds_a_webhook_and_its_secret_shows(client, director, club, receiver):
    client.force_login(director)
    response = client.post(reverse("sessions:director_webhook_new", args=[club.slug]), {"hook-url": receiver.url})
    assert response.status_code == 302
    webhook = Webhook.objects.get(club=club)
    page = client.get(settings_url(club)).content.decode()
    assert webhook.url in page and webhook.secret in page


def test_a_private_address_is_refused_on_the_page(client, director, club):
    client.force_login(director)
    response = client.post(reverse("sessions:director_webhook_new", args=[club.slug]),
                           {"hook-url": "https://192.168.1.1/hook"})
    assert response.status_code == 400
    assert "private, local or reserved" in response.content.decode()
    assert not Webhook.objects.exists()


def test_the_test_button_sends_and_the_log_shows_it(client, director, club, receiver, django_capture_on_commit_callbacks):
    client.force_login(director)
    webhook = webhook_create(club=club, url=receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("sessions:director_webhook_test", args=[club.slug, webhook.pk]))
    assert response.status_code == 302
    assert len(receiver.requests) == 1
    delivery = WebhookDelivery.objects.get()
    assert delivery.status == DeliveryStatus.SENT
    page = client.get(settings_url(club)).content.decode()
    assert 'class="webhook-log"' in page and '<tr class="delivery-sent"><td>test</td>' in page


def test_the_log_shows_a_failed_delivery_with_its_error(client, director, session, settings, receiver,
                                                         django_capture_on_commit_callbacks):
    club = session.event.club
    receiver.codes[:] = [500]
    webhook_create(club=club, url=receiver.url)
    result_record(board=session.boards.get(number=1), section=session.sections.get(), ns_pair="1NS", ew_pair="1EW",
                  text="4S N =")
    with django_capture_on_commit_callbacks(execute=True):
        session_publish(session=session)
    client.force_login(director)
    page = client.get(settings_url(club)).content.decode()
    assert '<tr class="delivery-failed"><td>published</td>' in page
    assert "the receiver answered 500" in page


def test_the_owner_removes_a_webhook(client, director, club, receiver):
    client.force_login(director)
    webhook = webhook_create(club=club, url=receiver.url)
    response = client.post(reverse("sessions:director_webhook_delete", args=[club.slug, webhook.pk]))
    assert response.status_code == 302 and not Webhook.objects.exists()


def test_another_clubs_director_neither_sees_nor_changes_a_webhook(client, club, outsider, receiver):
    webhook = webhook_create(club=club, url=receiver.url)
    client.force_login(outsider)
    away = outsider.directed_clubs.get()
    assert client.get(settings_url(club)).status_code == 404
    for name in ("director_webhook_test", "director_webhook_delete"):
        assert client.post(reverse(f"sessions:{name}", args=[club.slug, webhook.pk])).status_code == 404
    for name in ("director_webhook_test", "director_webhook_delete"):  # through the outsider's own club: not found
        assert client.post(reverse(f"sessions:{name}", args=[away.slug, webhook.pk])).status_code == 404
    assert webhook.secret not in client.get(settings_url(away)).content.decode()
    assert Webhook.objects.filter(pk=webhook.pk).exists() and not WebhookDelivery.objects.exists()
    assert receiver.requests == []


def test_the_admin_shows_a_webhook_with_its_log(admin_client, club, receiver, django_capture_on_commit_callbacks):
    webhook = webhook_create(club=club, url=receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        webhook_send_test(webhook=webhook)
    assert admin_client.get(reverse("admin:clubsessions_webhook_changelist")).status_code == 200
    page = admin_client.get(reverse("admin:clubsessions_webhook_change", args=[webhook.pk])).content.decode()
    assert receiver.url in page and "delivered" in page
