"""The director's side of results by e-mail: the address and consent, the session's mails and Resend."""

import pytest
from django.urls import reverse

from sessions.models import MailKind, MailStatus, Player, ResultMail
from sessions.clubs.services.players import player_add


@pytest.fixture
def failed_mail(session):
    reader = player_add(club=session.event.club, name="Mail Reader")
    Player.objects.filter(pk=reader.pk).update(email="reader@example.org", email_consent=True)
    return ResultMail.objects.create(
        player=reader, session=session, kind=MailKind.RESULTS, key="results:view", to_address="reader@example.org",
        status=MailStatus.FAILED, attempts=5, last_error="SMTPServerDisconnected: gone", next_attempt_at=session.created_at,
    )


def test_the_session_page_lists_its_mails_with_a_resend_button(client, director, failed_mail):
    client.force_login(director)

    page = client.get(reverse("sessions:director_session", args=[failed_mail.session_id])).content.decode()

    assert "Mail Reader" in page and "SMTPServerDisconnected: gone" in page
    assert reverse("sessions:director_mail_resend", args=[failed_mail.session_id, failed_mail.pk]) in page


def test_another_clubs_director_neither_sees_nor_resends_the_mails(client, outsider, failed_mail):
    client.force_login(outsider)

    assert client.get(reverse("sessions:director_session", args=[failed_mail.session_id])).status_code == 404
    resend = reverse("sessions:director_mail_resend", args=[failed_mail.session_id, failed_mail.pk])
    assert client.post(resend).status_code == 404
    assert ResultMail.objects.get().status == MailStatus.FAILED


def test_the_director_records_an_address_and_consent_given_in_person(client, director, club):
    ann = player_add(club=club, name="Ann Archer")
    client.force_login(director)
    url = reverse("sessions:director_player_email", args=[club.slug, ann.pk])

    client.post(url, {"email": "ann@example.org", "email_consent": "on"})
    ann.refresh_from_db()
    assert ann.mail_allowed and ann.email_consent_how == "by the director (director)"
    assert "ann@example.org" in client.get(reverse("sessions:director_player", args=[club.slug, ann.pk])).content.decode()
    assert "results by e-mail</small>" in client.get(reverse("sessions:director_players", args=[club.slug])).content.decode()

    client.post(url, {"email": "ann@example.org"})  # the box unticked: no more mails
    ann.refresh_from_db()
    assert not ann.mail_allowed and ann.email == "ann@example.org"
