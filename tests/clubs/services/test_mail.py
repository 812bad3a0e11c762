"""Results by e-mail (issue 24), through a real SMTP server started by each test.

The session: a 3-table Mitchell, every board played. Ann (1NS, with Bob) and Cat (2NS)
agreed to receive their results; Bob gave an address but no consent; nobody else gave one.
"""

from __future__ import annotations

import datetime

import pytest
from django.core import mail as django_mail
from django.core import signing
from django.core.exceptions import ValidationError
from django.test import Client
from django.utils import timezone

from sessions.models import MailKind, MailStatus, Pair, Player, Result, ResultMail, Session
from sessions.pairs.selectors.public import scorecard_sheet
from sessions.core.selectors.scoring import session_score
from sessions.pairs.services.results import result_correct, result_record
from sessions.clubs.services.mail import (
    MAX_ATTEMPTS, mail_send_due, player_from_token, player_set_email, unsubscribe_token,
)
from sessions.pairs.services.sessions import session_mark_final, session_publish
from sessions.scoring.rounding import round_to_places
from tests.factories import make_session
from tests.smtp_server import SmtpServer, free_port

PLAYERS = {
    "1NS": ["Ann Archer", "Bob Baker"], "2NS": ["Cat Cole", "Dan Dean"], "3NS": ["Eve East", "Fay Fox"],
    "1EW": ["Gil Gray", "Hal Hart"], "2EW": ["Ivy Irons", "Jon Jones"], "3EW": ["Kim King", "Lou Lamb"],
}
TEXTS = ("3NT N =", "3NT N +1", "3NT N -1", "4S S =", "2H E -2")


def player(name: str) -> Player:
    return Player.objects.get(name=name)


@pytest.fixture
def played(event):
    """A session with every board played (different results, so the pairs' figures differ)."""
    session = make_session(event, pair_players=PLAYERS)
    section = session.sections.get()
    for seating in section.seatings.select_related("ns_pair", "ew_pair"):
        for board in seating.boards:
            result_record(board=session.boards.get(number=board), section=section, ns_pair=seating.ns_pair.label,
                          ew_pair=seating.ew_pair.label, text=TEXTS[(board + seating.ns_pair.number) % len(TEXTS)])
    player_set_email(player=player("Ann Archer"), email="ann@example.org", consent=True, how="by the director")
    player_set_email(player=player("Cat Cole"), email="cat@example.org", consent=True, how="by the director")
    player_set_email(player=player("Bob Baker"), email="bob@example.org", consent=False, how="by the director")
    session_publish(session=session)
    return session


@pytest.fixture
def smtp(settings):
    """A real SMTP server, and Django's SMTP backend pointed at it."""
    server = SmtpServer()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", server.port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    with server as recorder:
        yield recorder


def mark_final(session: Session, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        session_mark_final(session=Session.objects.get(pk=session.pk))


def parts(message) -> tuple[str, str]:
    return message.get_body(("plain",)).get_content(), message.get_body(("html",)).get_content()


def later(minutes: int) -> datetime.datetime:
    return timezone.now() + datetime.timedelta(minutes=minutes)


def card_of(name: str, session: Session):
    pair = Pair.objects.get(section__session=session, player_1__name=name)
    return scorecard_sheet(pair=Pair.objects.select_related("section__session__event").get(pk=pair.pk))


# --- the results mail ---------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_marking_final_mails_each_consenting_player_once_and_nobody_else(played, smtp, django_capture_on_commit_callbacks):
    mark_final(played, django_capture_on_commit_callbacks)

    assert sorted(message["To"] for message in smtp.messages) == ["ann@example.org", "cat@example.org"]
    assert set(ResultMail.objects.values_list("status", flat=True)) == {MailStatus.SENT}
    mark_final(played, django_capture_on_commit_callbacks)  # marked again: nothing new
    assert len(smtp.messages) == 2


@pytest.mark.django_db(transaction=True)
def test_the_results_mail_gives_place_percentage_partner_card_and_links(played, smtp, django_capture_on_commit_callbacks):
    mark_final(played, django_capture_on_commit_callbacks)

    (message,) = smtp.to("ann@example.org")
    text, html = parts(message)
    card = card_of("Ann Archer", played)  # the figures of the pair's score card page
    percent = str(round_to_places(card.standing.percentage, 2))
    assert f"Place: {card.standing.place} of {card.field_size}" in text
    assert f"Percentage: {percent}%" in text and f"{percent}%" in html
    assert "Partner: Bob Baker" in text and "Bob Baker" in html
    for row in card.rows:  # board by board: contract and score
        assert f"Board {row.board}: {row.line.contract}" in text
        assert f"score {row.score}" in text
    assert f"https://scores.example.org/sessions/{played.pk}/pairs/{card.pair.pk}/" in text
    assert f'href="https://scores.example.org/sessions/{played.pk}/"' in html
    assert "The boards that cost most against the field" in text
    worst = min(card.rows, key=lambda row: (row.percent, row.board))
    assert f"Board {worst.board}: {round_to_places(worst.percent, 0)}%" in text
    assert 'name="viewport"' in html


@pytest.mark.django_db(transaction=True)
def test_every_mail_has_a_one_click_unsubscribe_that_works_without_login(played, smtp, django_capture_on_commit_callbacks):
    mark_final(played, django_capture_on_commit_callbacks)
    (message,) = smtp.to("ann@example.org")
    header = message["List-Unsubscribe"]
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    url = str(header).strip().strip("<>")
    assert url.startswith("https://scores.example.org/mail/unsubscribe/")
    assert url in parts(message)[0] and url in parts(message)[1]
    path = url.removeprefix("https://scores.example.org")
    client = Client(enforce_csrf_checks=True)  # a mail program's POST carries no CSRF token

    page = client.get(path)
    assert page.status_code == 200 and b"Unsubscribe" in page.content
    assert player("Ann Archer").email_consent  # following the link alone changes nothing

    assert client.post(path, {"List-Unsubscribe": "One-Click"}).status_code == 200
    ann = player("Ann Archer")
    assert not ann.email_consent and ann.email_consent_how == "unsubscribe link"
    assert client.post(path).status_code == 200  # twice: still unsubscribed, no error
    assert not player("Ann Archer").mail_allowed


def test_an_unsubscribe_token_cannot_be_forged(played, client):
    ann, cat = player("Ann Archer"), player("Cat Cole")
    forged = signing.dumps({"p": cat.pk, "e": cat.email}, key="not-the-secret-key", salt="clubscore.mail.unsubscribe")
    # Cat's payload under Ann's timestamp and signature: a token edited to name someone else.
    cat_payload = unsubscribe_token(cat).split(":", 1)[0]
    ann_payload, ann_signed = unsubscribe_token(ann).split(":", 1)
    edited = f"{cat_payload}:{ann_signed}"
    assert cat_payload != ann_payload

    for token in (forged, edited, "nonsense"):
        assert player_from_token(token) is None
        assert client.post(f"/mail/unsubscribe/{token}/").status_code == 404
    assert player("Cat Cole").mail_allowed and player("Ann Archer").mail_allowed
    assert player_from_token(unsubscribe_token(cat)) == cat


def test_consent_is_recorded_with_its_time_and_how_and_needs_an_address(played):
    dan = player("Dan Dean")
    with pytest.raises(ValidationError):
        player_set_email(player=dan, email="", consent=True, how="by the director")

    player_set_email(player=dan, email="dan@example.org", consent=True, how="at the table")

    dan = player("Dan Dean")
    assert dan.mail_allowed and dan.email_consent_how == "at the table" and dan.email_consent_at is not None


# --- a server that fails ------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_server_answering_451_is_retried_and_the_mail_sent_once(played, smtp, django_capture_on_commit_callbacks):
    smtp.data_reply = "451 4.3.0 Try again later"
    mark_final(played, django_capture_on_commit_callbacks)
    ann_mail = ResultMail.objects.get(to_address="ann@example.org")
    assert (ann_mail.status, ann_mail.attempts) == (MailStatus.QUEUED, 1) and "451" in ann_mail.last_error
    assert ann_mail.next_attempt_at > timezone.now()

    smtp.data_reply = ""
    assert mail_send_due().sent == 0  # not due yet
    assert mail_send_due(now=later(5)).sent == 2
    assert mail_send_due(now=later(60)).sent == 0  # never twice

    assert len(smtp.to("ann@example.org")) == 1 and len(smtp.messages) == 2
    assert ResultMail.objects.get(pk=ann_mail.pk).attempts == 2


@pytest.mark.django_db(transaction=True)
def test_no_server_listening_retries_until_one_answers(played, settings, django_capture_on_commit_callbacks):
    server = SmtpServer()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", free_port(), 5
    mark_final(played, django_capture_on_commit_callbacks)
    assert mail_send_due(now=later(1)).retrying == 2
    assert set(ResultMail.objects.values_list("status", "attempts")) == {(MailStatus.QUEUED, 2)}

    settings.EMAIL_PORT = server.port
    with server as recorder:
        mail_send_due(now=later(10))
        mail_send_due(now=later(100))

    assert sorted(message["To"] for message in recorder.messages) == ["ann@example.org", "cat@example.org"]


@pytest.mark.django_db(transaction=True)
def test_a_server_that_never_answers_fails_the_mail_after_the_last_attempt(played, smtp, django_capture_on_commit_callbacks):
    smtp.data_reply = "451 4.3.0 Try again later"
    mark_final(played, django_capture_on_commit_callbacks)
    for hours in range(1, MAX_ATTEMPTS + 2):
        mail_send_due(now=later(60 * hours))

    assert set(ResultMail.objects.values_list("status", "attempts")) == {(MailStatus.FAILED, MAX_ATTEMPTS)}


@pytest.mark.django_db(transaction=True)
def test_a_refused_recipient_bounces_and_is_not_retried(played, smtp, django_capture_on_commit_callbacks):
    smtp.refuse["cat@example.org"] = "550 5.1.1 No such user"
    mark_final(played, django_capture_on_commit_callbacks)

    cat_mail = ResultMail.objects.get(to_address="cat@example.org")
    assert cat_mail.status == MailStatus.BOUNCED and "550" in cat_mail.last_error
    assert mail_send_due(now=later(600)).sent == 0
    assert [message["To"] for message in smtp.messages] == ["ann@example.org"]


# --- a correction after final -------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_correction_after_final_sends_an_amended_mail_with_before_and_after(
    played, smtp, django_capture_on_commit_callbacks
):
    mark_final(played, django_capture_on_commit_callbacks)
    before = card_of("Ann Archer", played).standing
    line = Result.objects.filter(ns_pair__player_1__name="Ann Archer").exclude(text="7NT N =").first()

    with django_capture_on_commit_callbacks(execute=True):
        result_correct(result=line, text="7NT N =", version=line.version)

    after = card_of("Ann Archer", played).standing
    assert after.percentage != before.percentage
    (amended,) = [message for message in smtp.to("ann@example.org") if message["Subject"].startswith("Amended")]
    text, html = parts(amended)
    old, new = str(round_to_places(before.percentage, 2)), str(round_to_places(after.percentage, 2))
    assert f"Percentage: {old} before, {new} now" in text
    assert new in html and amended["List-Unsubscribe"]
    assert ResultMail.objects.filter(kind=MailKind.AMENDED, player__name="Ann Archer").count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_line_entered_before_final_sends_no_amended_mail(played, smtp, django_capture_on_commit_callbacks):
    line = Result.objects.filter(ns_pair__player_1__name="Ann Archer").first()
    with django_capture_on_commit_callbacks(execute=True):
        result_correct(result=line, text="7NT N =", version=line.version)

    assert smtp.messages == [] and not ResultMail.objects.exists()


# --- send_results ------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_send_results_prints_the_number_of_mails_sent(played, smtp, django_capture_on_commit_callbacks):
    from io import StringIO

    from django.core.management import CommandError, call_command

    with pytest.raises(CommandError, match="not published and final"):
        call_command("send_results", str(played.pk))
    smtp.data_reply = "451 4.3.0 Try again later"
    mark_final(played, django_capture_on_commit_callbacks)  # both mails wait for a retry
    smtp.data_reply = ""
    ResultMail.objects.update(next_attempt_at=timezone.now())

    runs = []
    for _ in range(2):
        out = StringIO()
        call_command("send_results", str(played.pk), stdout=out, stderr=StringIO())
        runs.append(out.getvalue())

    assert runs == ["2\n", "0\n"]
    assert len(smtp.messages) == 2


def test_without_a_server_configured_the_tests_send_nothing_outside(played, django_capture_on_commit_callbacks):
    """The test settings' locmem backend: a mail made in a test never leaves the process."""
    mark_final(played, django_capture_on_commit_callbacks)
    assert sorted(message.to[0] for message in django_mail.outbox) == ["ann@example.org", "cat@example.org"]
    assert Session.objects.get(pk=played.pk).final and session_score(session=played).rankings


@pytest.mark.django_db(transaction=True)
def test_in_the_background_a_thread_sends_the_mails_after_the_request(played, smtp, settings):
    from sessions.clubs.services.mail import mail_queue_session, mail_start

    settings.MAIL_BACKGROUND = True
    Session.objects.filter(pk=played.pk).update(final_at=timezone.now())
    assert mail_queue_session(session=played) == 2
    assert smtp.messages == []  # queueing sends nothing

    thread = mail_start()
    assert thread is not None
    thread.join(timeout=60)

    assert not thread.is_alive()
    assert sorted(message["To"] for message in smtp.messages) == ["ann@example.org", "cat@example.org"]


@pytest.mark.django_db(transaction=True)
def test_once_analysed_the_mail_names_the_boards_furthest_below_par(played, smtp, django_capture_on_commit_callbacks):
    from sessions.analysis.selectors.analysis import pair_par_summary
    from sessions.analysis.services.analysis import deals_generate

    with django_capture_on_commit_callbacks(execute=True):
        deals_generate(session=played, seed=24)  # analysed after the commit (inline in tests)
    mark_final(played, django_capture_on_commit_callbacks)

    text, html = parts(smtp.to("ann@example.org")[0])
    par = pair_par_summary(pair=card_of("Ann Archer", played).pair)
    assert par.boards and par.pending == 0
    worst = min(par.below_par, key=lambda board: (board.against_par, board.board))
    assert "The boards that cost most against par" in text and "against par" in html
    assert f"Board {worst.board}: {worst.contract}, {worst.against_par} against par" in text
