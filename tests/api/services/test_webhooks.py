"""Webhooks: deliveries to a real receiver on 127.0.0.1, signed, retried, never doubled, never to private addresses."""

import hashlib
import hmac
import json

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from sessions.models import DeliveryStatus, Match, WebhookDelivery
from sessions.pairs.services.results import result_correct, result_record
from sessions.pairs.services.sessions import session_publish
from sessions.pairs.services.sessions import session_mark_final
from sessions.teams.services.teams import match_set_totals, swiss_draw_next_round, team_event_mark_final, team_event_publish
from sessions.api.services.webhooks import webhook_create, webhook_send_test, webhooks_notify, webhooks_run
from tests.factories import make_team_event
from tests.webhook_receiver import Receiver


@pytest.fixture
def local_receivers(settings):
    """Webhooks may go to 127.0.0.1 over http (tests only), retried after a hundredth of a second."""
    settings.WEBHOOK_ALLOW_LOCAL = True
    settings.WEBHOOK_BACKOFF = 0.01
    settings.WEBHOOK_ATTEMPTS = 3
    settings.SITE_URL = "https://scores.example.org"
    started = []

    def start(*codes):
        started.append(Receiver(list(codes) or [200]).start())
        return started[-1]

    yield start
    for receiver in started:
        receiver.stop()


@pytest.fixture
def entered(session):
    board, section = session.boards.get(number=1), session.sections.get()
    line = result_record(board=board, section=section, ns_pair="1NS", ew_pair="1EW", text="4S N =").result
    return session, line


def verify(secret: str, received) -> dict:
    """What a receiver does (the README's recipe): check the signature, then read the body."""
    fields = dict(part.split("=", 1) for part in received.headers["X-ClubScore-Signature"].split(","))
    expected = hmac.new(secret.encode(), f"{fields['t']}.".encode() + received.body, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(expected, fields["v1"])
    return json.loads(received.body)


def test_publish_final_and_amend_are_delivered_signed(entered, local_receivers, django_capture_on_commit_callbacks):
    session, line = entered
    receiver = local_receivers(200)
    webhook = webhook_create(club=session.event.club, url=receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        session_publish(session=session)
    with django_capture_on_commit_callbacks(execute=True):
        session_mark_final(session=session)
    with django_capture_on_commit_callbacks(execute=True):
        result_correct(result=line, text="4S N +1", version=line.version)

    bodies = [verify(webhook.secret, received) for received in receiver.requests]
    assert [body["event"] for body in bodies] == ["published", "final", "amended"]
    assert [received.headers["X-ClubScore-Event"] for received in receiver.requests] == ["published", "final", "amended"]
    assert {body["id"] for body in bodies} == {session.pk}
    revisions = [body["revision"] for body in bodies]
    assert revisions == sorted(revisions) and len(set(revisions)) == 3
    session.refresh_from_db()
    assert revisions[-1] == session.revision
    assert bodies[0]["club"]["slug"] == session.event.club.slug
    assert bodies[0]["session"]["api_url"] == f"https://scores.example.org/api/v1/sessions/{session.pk}/"
    assert bodies[0]["session"]["url"] == f"https://scores.example.org/sessions/{session.pk}/"
    assert set(WebhookDelivery.objects.values_list("status", flat=True)) == {DeliveryStatus.SENT}


def test_a_wrong_secret_does_not_verify(entered, local_receivers, django_capture_on_commit_callbacks):
    session, _ = entered
    receiver = local_receivers(200)
    webhook_create(club=session.event.club, url=receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        session_publish(session=session)
    with pytest.raises(AssertionError):
        verify("not the secret", receiver.requests[0])


def test_a_correction_before_final_tells_nobody(entered, local_receivers, django_capture_on_commit_callbacks):
    session, line = entered
    receiver = local_receivers(200)
    webhook_create(club=session.event.club, url=receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        session_publish(session=session)
        result_correct(result=line, text="4S N +1", version=line.version)
    assert [verify_event(received) for received in receiver.requests] == ["published"]


def verify_event(received) -> str:
    return json.loads(received.body)["event"]


def test_a_failing_receiver_is_tried_again_until_it_answers(entered, local_receivers, django_capture_on_commit_callbacks):
    session, _ = entered
    receiver = local_receivers(500, 200)
    webhook = webhook_create(club=session.event.club, url=receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        session_publish(session=session)

    assert len(receiver.requests) == 2
    assert receiver.requests[0].body == receiver.requests[1].body  # the same event, sent again
    delivery = WebhookDelivery.objects.get(webhook=webhook)
    assert (delivery.status, delivery.attempts, delivery.response_code) == (DeliveryStatus.SENT, 2, 200)
    assert delivery.delivered_at is not None and delivery.delivered_at >= delivery.created_at


def test_the_wait_between_tries_doubles(entered, local_receivers, settings, django_capture_on_commit_callbacks):
    settings.WEBHOOK_BACKOFF = 0.05
    session, _ = entered
    receiver = local_receivers(500, 500, 200)
    webhook_create(club=session.event.club, url=receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        session_publish(session=session)
    times = [received.time for received in receiver.requests]
    assert len(times) == 3
    assert times[1] - times[0] >= 0.05 and times[2] - times[1] >= 0.1


def test_a_receiver_that_keeps_failing_is_given_up_after_the_last_try(
    entered, local_receivers, django_capture_on_commit_callbacks,
):
    session, _ = entered
    receiver = local_receivers(503)
    webhook = webhook_create(club=session.event.club, url=receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        session_publish(session=session)
    assert len(receiver.requests) == 3  # WEBHOOK_ATTEMPTS
    delivery = WebhookDelivery.objects.get(webhook=webhook)
    assert (delivery.status, delivery.attempts, delivery.response_code) == (DeliveryStatus.FAILED, 3, 503)
    assert "503" in delivery.last_error
    assert webhooks_run() == 0  # nothing pending: no more tries


def test_an_event_is_delivered_once_per_revision(entered, local_receivers, django_capture_on_commit_callbacks):
    session, _ = entered
    receiver = local_receivers(200)
    webhook_create(club=session.event.club, url=receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        session_publish(session=session)
        session_publish(session=session)  # a second tap
    with django_capture_on_commit_callbacks(execute=True):
        webhooks_notify(event="published", subject="session", subject_id=session.pk)  # the same event told again
    assert len(receiver.requests) == 1
    assert WebhookDelivery.objects.count() == 1


def test_teams_events_are_told_of_publish_final_and_amend(local_receivers, club, django_capture_on_commit_callbacks):
    event = make_team_event(club, teams=4, form="swiss", boards_per_match=2, vp_scale="20")
    swiss_draw_next_round(event=event)
    receiver = local_receivers(200)
    webhook = webhook_create(club=club, url=receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        team_event_publish(event=event)
    matches = list(Match.objects.filter(event=event).select_related("event"))
    with django_capture_on_commit_callbacks(execute=True):  # before final: no "amended"
        for match in matches:
            match_set_totals(match=match, home_imps=Decimal(10), away_imps=Decimal(3))
    with django_capture_on_commit_callbacks(execute=True):
        team_event_mark_final(event=event)
    with django_capture_on_commit_callbacks(execute=True):
        match_set_totals(match=matches[0], home_imps=Decimal(12), away_imps=Decimal(3))

    bodies = [verify(webhook.secret, received) for received in receiver.requests]
    assert [body["event"] for body in bodies] == ["published", "final", "amended"]
    assert {(body["subject"], body["id"]) for body in bodies} == {("teams", event.pk)}
    assert bodies[0]["teams_event"]["api_url"] == f"https://scores.example.org/api/v1/teams/{event.pk}/"


def test_the_test_button_sends_a_test_event(club, local_receivers, django_capture_on_commit_callbacks):
    receiver = local_receivers(200)
    webhook = webhook_create(club=club, url=receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        webhook_send_test(webhook=webhook)
        webhook_send_test(webhook=webhook)  # tests are never deduplicated
    assert [verify(webhook.secret, received)["event"] for received in receiver.requests] == ["test", "test"]


@pytest.mark.parametrize("url", [
    "https://127.0.0.1/hook", "https://localhost/hook", "https://10.1.2.3/hook", "https://192.168.0.10/",
    "https://169.254.169.254/latest/meta-data/", "https://[::1]/hook", "https://0.0.0.0/", "http://93.184.215.14/hook",
    "ftp://93.184.215.14/", "https://user:pw@93.184.215.14/",
])
def test_private_and_plain_http_addresses_are_refused_at_registration(club, url):
    with pytest.raises(ValidationError):
        webhook_create(club=club, url=url)
    assert not club.webhooks.exists()


def test_a_public_https_address_is_accepted(club):
    webhook = webhook_create(club=club, url="https://93.184.215.14/hook")  # a literal public address: no DNS needed
    assert webhook.secret and len(webhook.secret) == 64


def test_a_private_address_is_refused_again_at_delivery(
    entered, local_receivers, settings, django_capture_on_commit_callbacks,
):
    session, _ = entered
    receiver = local_receivers(200)
    webhook = webhook_create(club=session.event.club, url=receiver.url)  # allowed then (tests)
    settings.WEBHOOK_ALLOW_LOCAL = False  # as in production: 127.0.0.1 is the server's own machine
    with django_capture_on_commit_callbacks(execute=True):
        session_publish(session=session)
    assert receiver.requests == []
    delivery = WebhookDelivery.objects.get(webhook=webhook)
    assert delivery.status == DeliveryStatus.FAILED and delivery.response_code is None
    assert delivery.last_error.startswith("refused:")
