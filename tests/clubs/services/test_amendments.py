"""Every correction after final tells the players and the club's webhooks, once (issue 24).

The one rule (services.amendments) after the unit of work's commit: the mails go through
a real SMTP server, the webhooks to a real receiver. The session is test_mail's: Ann
(1NS, with Bob) and Cat (2NS) agreed to mails; every board played.
"""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from sessions.models import Match, Pair, Result, ResultMail, Session, TeamEvent, WebhookDelivery
from sessions.pairs.services.events import event_update
from sessions.clubs.services.players import pair_set_players
from sessions.pairs.services.results import result_correct, result_record
from sessions.clubs.services.mail import player_set_email
from sessions.clubs.services.players import player_add
from sessions.pairs.services.repair import result_turn_round, session_update
from sessions.pairs.services.sessions import session_mark_final, session_publish
from sessions.teams.services.teams import (
    adjustment_add, match_set_totals, swiss_draw_next_round, team_event_mark_final, team_event_publish,
)
from sessions.api.services.webhooks import webhook_create
from tests.factories import make_session, make_team_event
from tests.clubs.services.test_mail import PLAYERS, TEXTS, parts, player
from tests.smtp_server import SmtpServer
from tests.webhook_receiver import Receiver


@pytest.fixture
def smtp(settings):
    server = SmtpServer()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", server.port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    with server as recorder:
        yield recorder


@pytest.fixture
def receiver(settings):
    settings.WEBHOOK_ALLOW_LOCAL = True
    settings.WEBHOOK_BACKOFF = 0.01
    started = Receiver([200]).start()
    yield started
    started.stop()


@pytest.fixture
def final(event, smtp, receiver, django_capture_on_commit_callbacks):
    """The session published and marked final: its results mails sent, "published" and "final" told."""
    session = make_session(event, pair_players=PLAYERS)
    section = session.sections.get()
    for seating in section.seatings.select_related("ns_pair", "ew_pair"):
        for board in seating.boards:
            result_record(board=session.boards.get(number=board), section=section, ns_pair=seating.ns_pair.label,
                          ew_pair=seating.ew_pair.label, text=TEXTS[(board + seating.ns_pair.number) % len(TEXTS)])
    player_set_email(player=player("Ann Archer"), email="ann@example.org", consent=True, how="by the director")
    player_set_email(player=player("Cat Cole"), email="cat@example.org", consent=True, how="by the director")
    webhook_create(club=event.club, url=receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        session_publish(session=session)
    with django_capture_on_commit_callbacks(execute=True):
        session_mark_final(session=Session.objects.get(pk=session.pk))
    assert sorted(message["To"] for message in smtp.messages) == ["ann@example.org", "cat@example.org"]
    assert told(receiver) == ["published", "final"]
    return Session.objects.get(pk=session.pk)


def told(receiver: Receiver) -> list[str]:
    return [json.loads(received.body)["event"] for received in receiver.requests]


def amended_to(smtp, address: str) -> list:
    return [message for message in smtp.to(address) if message["Subject"].startswith("Amended")]


def ann_pair(session: Session) -> Pair:
    return Pair.objects.select_related("section__session").get(section__session=session, player_1__name="Ann Archer")


def test_a_new_partner_after_final_mails_the_player_the_partner_change_and_the_newcomer_their_results(
    final, smtp, receiver, django_capture_on_commit_callbacks,
):
    zed = player_add(club=final.event.club, name="Zed Zane")
    player_set_email(player=zed, email="zed@example.org", consent=True, how="by the director")
    pair = ann_pair(final)

    with django_capture_on_commit_callbacks(execute=True):
        pair_set_players(pair=pair, player_1=player("Ann Archer"), player_2=zed)

    (amended,) = amended_to(smtp, "ann@example.org")
    text, html = parts(amended)
    assert "Partner: Bob Baker before, Zed Zane now" in text and "Zed Zane" in html
    (welcome,) = smtp.to("zed@example.org")
    assert not welcome["Subject"].startswith("Amended") and "Ann Archer" in parts(welcome)[0]
    assert amended_to(smtp, "cat@example.org") == []  # nothing of Cat's changed
    assert told(receiver) == ["published", "final", "amended"]


def test_a_settings_change_after_final_amends_those_whose_figures_moved_and_names_it(
    final, smtp, receiver, django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks(execute=True):
        event_update(event=final.event, method="cross_imps")

    for address in ("ann@example.org", "cat@example.org"):
        (amended,) = amended_to(smtp, address)
        text, _ = parts(amended)
        assert "Percentage: " in text and "IMPs: " in text  # scored in IMPs now: the percentage goes
        assert "What was corrected:" in text and "Settings: event settings: method: matchpoints -> method: cross_imps" in text
    assert told(receiver) == ["published", "final", "amended"]


def test_a_repair_after_final_amends_the_players_it_moves(final, smtp, receiver, django_capture_on_commit_callbacks):
    line = Result.objects.filter(ns_pair__player_1__name="Ann Archer").exclude(text="3NT N =").first()

    with django_capture_on_commit_callbacks(execute=True):
        result_turn_round(result=line, version=line.version)

    (amended,) = amended_to(smtp, "ann@example.org")
    assert f"board {line.board.number}" in parts(amended)[0]  # the line turned round, by its board
    assert told(receiver) == ["published", "final", "amended"]


def test_a_change_of_no_figure_mails_nobody_and_tells_no_webhook(final, smtp, receiver, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        session_update(session=final, name="Tuesday evening", date=final.date)

    assert len(smtp.messages) == 2 and not ResultMail.objects.filter(kind="amended").exists()
    assert told(receiver) == ["published", "final"]


def test_a_correction_is_told_once_and_a_second_look_adds_nothing(final, smtp, receiver, django_capture_on_commit_callbacks):
    line = Result.objects.filter(ns_pair__player_1__name="Ann Archer").exclude(text="7NT N =").first()
    with django_capture_on_commit_callbacks(execute=True):
        result_correct(result=line, text="7NT N =", version=line.version)
    with django_capture_on_commit_callbacks(execute=True):  # a later write that changes no figure
        session_update(session=Session.objects.get(pk=final.pk), name="Renamed", date=final.date)

    assert len(amended_to(smtp, "ann@example.org")) == 1
    assert ResultMail.objects.filter(kind="amended", player__name="Ann Archer").count() == 1
    assert told(receiver) == ["published", "final", "amended"]
    assert WebhookDelivery.objects.filter(event="amended").count() == 1


def test_a_correction_before_final_tells_nobody(event, smtp, receiver, django_capture_on_commit_callbacks):
    session = make_session(event, pair_players=PLAYERS)
    section = session.sections.get()
    result_record(board=session.boards.get(number=1), section=section, ns_pair="1NS", ew_pair="1EW", text="4S N =")
    player_set_email(player=player("Ann Archer"), email="ann@example.org", consent=True, how="by the director")
    webhook_create(club=event.club, url=receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        session_publish(session=session)
    with django_capture_on_commit_callbacks(execute=True):
        pair_set_players(pair=ann_pair(session), player_1=player("Ann Archer"), player_2=player("Cat Cole"))

    assert smtp.messages == [] and told(receiver) == ["published"]


def test_a_teams_adjustment_after_final_is_told_amended_once(club, receiver, django_capture_on_commit_callbacks):
    event = make_team_event(club, teams=4, form="swiss", boards_per_match=2, vp_scale="20")
    swiss_draw_next_round(event=event)
    webhook_create(club=club, url=receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        team_event_publish(event=event)
    for match in Match.objects.filter(event=event).select_related("event"):
        match_set_totals(match=match, home_imps=Decimal(10), away_imps=Decimal(3))
    with django_capture_on_commit_callbacks(execute=True):
        team_event_mark_final(event=TeamEvent.objects.get(pk=event.pk))
    team = event.teams.first()
    with django_capture_on_commit_callbacks(execute=True):
        adjustment_add(event=TeamEvent.objects.get(pk=event.pk), team=team, kind="penalty", vp=Decimal(1), reason="slow play")
    with django_capture_on_commit_callbacks(execute=True):
        team_event_publish(event=TeamEvent.objects.get(pk=event.pk))  # a second tap: no figure moves

    assert told(receiver) == ["published", "final", "amended"]
