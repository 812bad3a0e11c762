"""A teams event's results mails (issue 24), through a real SMTP server started by each test.

Four teams, a Swiss event of two rounds by totals. One player of team 1 and one of team 2
agreed to receive their results; nobody else did.
"""

from __future__ import annotations

from decimal import Decimal
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.urls import reverse

from sessions.models import MailKind, MailStatus, Match, ResultMail, TeamEvent
from sessions.teams.selectors.teams import team_event_score
from sessions.clubs.services.mail import mail_queue_team_event, player_set_email
from sessions.teams.services.teams import (
    adjustment_add, match_set_totals, swiss_draw_next_round, team_event_mark_final, team_event_publish,
)
from tests.factories import make_team_event
from tests.clubs.services.test_mail import parts
from tests.smtp_server import SmtpServer

SCORES = {0: (Decimal(20), Decimal(5)), 1: (Decimal(8), Decimal(9))}  # each round's first and second match


@pytest.fixture
def smtp(settings):
    server = SmtpServer()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", server.port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    with server as recorder:
        yield recorder


def play_round(event: TeamEvent) -> None:
    matches = swiss_draw_next_round(event=TeamEvent.objects.get(pk=event.pk))
    for index, match in enumerate(sorted(matches, key=lambda m: m.pk)):
        match_set_totals(match=Match.objects.select_related("event").get(pk=match.pk),
                         home_imps=SCORES[index][0], away_imps=SCORES[index][1])


@pytest.fixture
def teams(club):
    event = make_team_event(club, teams=4, form="swiss", boards_per_match=8, vp_scale="20")
    one, two = event.teams.order_by("number")[:2]
    player_set_email(player=one.players.order_by("pk").first(), email="one@example.org", consent=True, how="test")
    player_set_email(player=two.players.order_by("pk").first(), email="two@example.org", consent=True, how="test")
    play_round(event)
    team_event_publish(event=TeamEvent.objects.get(pk=event.pk))
    return TeamEvent.objects.get(pk=event.pk)


def place_and_vp(event: TeamEvent, number: int, upto: int | None = None) -> tuple[str, str]:
    score = team_event_score(event)
    lines = score.by_round[upto] if upto else score.standings
    team = event.teams.get(number=number)
    (line,) = [line for line in lines if line.team == team.pk]
    return line.place, f"{float(line.vp):.2f}"


def test_the_standings_after_a_round_go_to_each_opted_in_player_once(
    teams, smtp, django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks(execute=True):
        assert mail_queue_team_event(event=teams, round=1) == 2
    with django_capture_on_commit_callbacks(execute=True):
        assert mail_queue_team_event(event=teams, round=1) == 0  # sent again: nobody gets it twice

    assert sorted(message["To"] for message in smtp.messages) == ["one@example.org", "two@example.org"]
    (mail,) = smtp.to("one@example.org")
    text, html = parts(mail)
    place, vp = place_and_vp(teams, 1, upto=1)
    assert "after round 1" in mail["Subject"] and mail["List-Unsubscribe"]
    assert f"Team 1: place {place}, {vp} VPs" in text and "Round 1 v Team " in text and "The standings" in text
    assert "Team 1" in html and vp in html
    assert set(ResultMail.objects.values_list("status", "round")) == {(MailStatus.SENT, 1)}


def test_a_round_not_finished_is_refused_with_the_reason(teams):
    swiss_draw_next_round(event=teams)
    with pytest.raises(ValidationError, match="round 2 is not finished"):
        mail_queue_team_event(event=teams, round=2)
    with pytest.raises(ValidationError, match="has no round 3"):
        mail_queue_team_event(event=teams, round=3)
    assert not ResultMail.objects.exists()


def test_final_sends_the_final_standings_and_a_later_penalty_an_amended_mail_to_that_team_only(
    teams, smtp, django_capture_on_commit_callbacks,
):
    play_round(teams)
    with django_capture_on_commit_callbacks(execute=True):
        team_event_mark_final(event=TeamEvent.objects.get(pk=teams.pk))
    assert sorted(message["To"] for message in smtp.messages) == ["one@example.org", "two@example.org"]
    assert "final standings" in smtp.messages[0]["Subject"]
    before, before_2 = place_and_vp(teams, 1), place_and_vp(teams, 2)

    with django_capture_on_commit_callbacks(execute=True):
        adjustment_add(event=TeamEvent.objects.get(pk=teams.pk), team=teams.teams.get(number=1), kind="penalty",
                       vp=Decimal(3), reason="slow play")

    after = place_and_vp(teams, 1)
    (amended,) = [m for m in smtp.to("one@example.org") if m["Subject"].startswith("Amended")]
    assert f"VPs: {before[1]} before, {after[1]} now" in parts(amended)[0]
    amended_2 = [m for m in smtp.to("two@example.org") if m["Subject"].startswith("Amended")]
    assert len(amended_2) == (place_and_vp(teams, 2) != before_2)  # team 2 hears only if its own figures moved
    assert ResultMail.objects.filter(kind=MailKind.AMENDED, player__email="one@example.org").count() == 1


def test_send_results_takes_a_teams_event_and_prints_the_number_sent(teams, smtp):
    def run(*args):
        out = StringIO()
        call_command("send_results", *args, stdout=out, stderr=StringIO())
        return out.getvalue()

    with pytest.raises(CommandError, match="not published and final"):
        run("--teams", str(teams.pk))
    with pytest.raises(CommandError, match="not both"):
        run("1", "--teams", str(teams.pk))
    assert [run("--teams", str(teams.pk), "--round", "1"), run("--teams", str(teams.pk), "--round", "1")] == ["2\n", "0\n"]
    assert len(smtp.messages) == 2


def test_the_director_sends_a_round_and_resends_a_mail_from_the_teams_page(
    client, director, teams, smtp, django_capture_on_commit_callbacks,
):
    client.force_login(director)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("sessions:director_team_mail_round", args=[teams.pk]), {"round": "1"})
    assert response.status_code == 302 and len(smtp.messages) == 2

    page = client.get(reverse("sessions:director_team_event", args=[teams.pk])).content.decode()
    assert "Results by e-mail" in page and "after round 1" in page
    mail = ResultMail.objects.get(to_address="one@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("sessions:director_team_mail_resend", args=[teams.pk, mail.pk]))
    assert len(smtp.to("one@example.org")) == 2

    response = client.post(reverse("sessions:director_team_mail_round", args=[teams.pk]), {"round": "x"})
    assert response.status_code == 302 and ResultMail.objects.count() == 2  # a bad round: nothing
