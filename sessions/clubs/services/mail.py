"""Results by e-mail (issue 24): consent, the mails after "final" and after a correction, sending.

Nothing here sends in a request. After the commit of every write that touched a
published, final session (services.amendments, the one rule), ``mail_queue_session``
writes one ResultMail row per mail, keyed so that the same mail is never written twice,
and ``mail_start`` starts the "result-mail" BackgroundWorker (services.background: the work
queue, a thread, or at once in tests). A pass claims each due row with a conditional
update (queued -> sending), so two passes never send one mail; it renders the mail from
the pages' own selectors and sends it through Django's mail framework:

- the server accepts it: "sent";
- the server refuses the recipient for good (5xx to RCPT, SMTPRecipientsRefused): "bounced";
- anything else (a 4xx, no server listening, a timeout): queued again after a backoff
  (RETRY_AFTER), "failed" after MAX_ATTEMPTS. In the background a pass stays until the
  retries it waits for are done; ``manage.py send_results`` sends whatever is due.

Consent and the mails' rows change nothing a cached page shows (the players' pages never
show an address), so these services bump no revision.

A worker that dies between the server's "250" and the row's update leaves the row
"sending": after STALE it is queued again (the one case that can send a mail twice,
rather than lose it).
"""

from __future__ import annotations

import datetime
import logging
import smtplib
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from django.conf import settings
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import F, Min
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from sessions.models import MailKind, MailStatus, Player, ResultMail, Seating, Session, TableLink, TeamEvent
from sessions.pairs.selectors.lineups import seated_players
from sessions.clubs.selectors.mail import absolute_url, corrections_since, player_results, team_players_results
from sessions.teams.selectors.teams import team_event_score
from sessions.core.services.background import BackgroundWorker

from sessions.phones.services.tables import while_open
from sessions.core.services.unit_of_work import unit, unit_of_work, write

logger = logging.getLogger(__name__)

UNSUBSCRIBE_SALT = "clubscore.mail.unsubscribe"
MAX_ATTEMPTS = 5
#: The wait before attempt n + 1 after n failed ones: 30 s, 2 min, 8 min, 32 min.
RETRY_AFTER = tuple(datetime.timedelta(seconds=30 * 4**n) for n in range(MAX_ATTEMPTS - 1))
STALE = datetime.timedelta(minutes=15)
#: A background pass checks for due retries this often while it waits for them.
POLL_SECONDS = 15.0


# --- consent ------------------------------------------------------------------------------------


def unsubscribe_token(player: Player) -> str:
    """The signed token of a player's unsubscribe link: their id and the address it was sent to."""
    return signing.dumps({"p": player.pk, "e": player.email}, salt=UNSUBSCRIBE_SALT, compress=True)


def unsubscribe_url(player: Player) -> str:
    return absolute_url(reverse("sessions:mail_unsubscribe", args=[unsubscribe_token(player)]))


def player_from_token(token: str) -> Player | None:
    """The player a genuine token names; None for a forged, damaged or stale one."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    return Player.objects.filter(pk=data.get("p")).first()


@write
def player_set_email(*, player: Player, email: str, consent: bool, how: str) -> Player:
    """Record a player's address and whether they agreed to results by e-mail, and how.

    The consent's time changes only when the consent (or the address it was given for) does.
    """
    email = email.strip()
    if consent and not email:
        raise ValidationError({"email": "an e-mail address is needed to send results"})
    consent_changed = consent != player.email_consent or (consent and email != player.email)
    player.email, player.email_consent = email, consent
    if consent_changed:
        player.email_consent_at, player.email_consent_how = timezone.now(), how[:120]
    player.full_clean()
    player.save(update_fields=["email", "email_consent", "email_consent_at", "email_consent_how"])
    return player


@while_open
def table_player_email(*, link: TableLink, seating: Seating, player_id: int, email: str, consent: bool) -> Player:
    """A player seated at the table (this round, the phone's ``seating``) gives their
    address on the table's phone: stored only with their consent, ticked there (a player
    who does not agree gives nothing; the unsubscribe link in every mail withdraws it)."""
    if seating.section_id != link.section_id or seating.table != link.table:
        raise ValidationError("that round is another table's: reload the page")
    if player_id not in seated_players(seating=seating).values():
        raise ValidationError("choose one of the players at this table")
    if not consent:
        raise ValidationError({"consent": "tick the box to agree to receive your results by e-mail"})
    if not email.strip():
        raise ValidationError({"email": "give the address to send your results to"})
    player = unit().lock_rows(Player.objects.filter(pk=player_id)).get()
    return player_set_email(player=player, email=email, consent=True,
                            how=f"at the table (table {link.table}, round {seating.round})")


@write
def player_unsubscribe(*, player: Player, how: str = "unsubscribe link") -> Player:
    """No more results by e-mail; unsubscribing twice changes nothing the second time."""
    player = unit().lock_rows(Player.objects.filter(pk=player.pk)).get()
    if not player.email_consent:
        return player
    player.email_consent, player.email_consent_at, player.email_consent_how = False, timezone.now(), how
    player.save(update_fields=["email_consent", "email_consent_at", "email_consent_how"])
    ResultMail.objects.filter(player=player, status=MailStatus.QUEUED).update(
        status=MailStatus.CANCELLED, last_error="the player unsubscribed"
    )
    return player


# --- what is to be sent -------------------------------------------------------------------------


def _opted_in_players(session: Session) -> list[Player]:
    pair_players = session.sections.values_list("pairs__player_1", "pairs__player_2")
    ids = {player_id for pair in pair_players for player_id in pair if player_id}
    return list(Player.objects.filter(pk__in=ids, email_consent=True).exclude(email=""))


def _mailable(session: Session) -> bool:
    return session.final and session.published


#: Figures a mail sent before they were compared does not hold: their absence is no change.
_LATER_FIGURES = ("partner",)


def _figure_changes(before: dict[str, str], after: dict[str, str]) -> dict[str, list[str]]:
    """Each figure that differs, as [before, now] ("percent" gone and "imps" come when the
    event is scored in IMPs instead)."""
    names = [*after, *(name for name in before if name not in after)]
    return {
        name: [before.get(name, ""), after.get(name, "")] for name in names
        if before.get(name) != after.get(name) and not (name in _LATER_FIGURES and name not in before)
    }


def _amended_since(mail: ResultMail) -> datetime.datetime | None:
    """When the mail an amended mail follows was sent (its key names it: ``...:after-<id>``)."""
    previous = mail.key.rpartition(":after-")[2]
    return ResultMail.objects.filter(pk=int(previous)).values_list("sent_at", flat=True).first() if previous.isdigit() else None


def _queue_amended(
    player: Player, now: datetime.datetime, figures_of: Callable[[], dict[str, str]], *, subject: dict, key: str,
) -> None:
    """An amended mail when the player's figures differ from those of the last mail they were
    sent (the results mail, or an amended one; a teams event's round mails do not count)."""
    previous = (
        ResultMail.objects.filter(player=player, status=MailStatus.SENT, round__isnull=True, **subject)
        .order_by("-sent_at", "-pk").first()
    )
    if previous is None or not previous.figures:
        return  # their first mail is still to go, and will say the figures as they are then
    figures = figures_of()
    key = f"{key}:after-{previous.pk}"
    changes = _figure_changes(previous.figures, figures)
    if not changes or not figures:
        # Changed back before the amended mail went: it has nothing left to say.
        ResultMail.objects.filter(key=key, status=MailStatus.QUEUED).delete()
        return
    mail, created = ResultMail.objects.get_or_create(key=key, defaults={
        "player": player, **subject, "kind": MailKind.AMENDED, "to_address": player.email,
        "figures": figures, "changes": changes, "next_attempt_at": now,
    })
    if not created:  # a later correction before it went: it says the newest figures
        ResultMail.objects.filter(pk=mail.pk, status=MailStatus.QUEUED).update(figures=figures, changes=changes)


def _player_figures(session: Session, player: Player) -> Callable[[], dict[str, str]]:
    def figures() -> dict[str, str]:
        results = player_results(session=session, player=player)
        return results.figures if results else {}
    return figures


@write
def mail_queue_session(*, session: Session) -> int:
    """Queue the mails a final session owes its opted-in players: the results mail of each
    player not yet written one, an amended mail to each whose figures changed since their
    last mail. Returns the mails queued (a second call queues none)."""
    session = Session.objects.select_related("event").get(pk=session.pk)
    if not _mailable(session):
        return 0
    now = timezone.now()
    before = ResultMail.objects.filter(session=session, status=MailStatus.QUEUED).count()
    for player in _opted_in_players(session):
        _, created = ResultMail.objects.get_or_create(key=f"results:{session.pk}:{player.pk}", defaults={
            "player": player, "session": session, "kind": MailKind.RESULTS, "to_address": player.email,
            "next_attempt_at": now,
        })
        if not created:
            _queue_amended(player, now, _player_figures(session, player), subject={"session": session},
                           key=f"amended:{session.pk}:{player.pk}")
    return ResultMail.objects.filter(session=session, status=MailStatus.QUEUED).count() - before


def _round_refused(event: TeamEvent, round: int) -> str | None:
    """Why the standings after ``round`` cannot go yet (None: they can)."""
    matches = [scored for scored in team_event_score(event).matches if scored.match.round == round]
    if not matches:
        return f"{event.name} has no round {round}"
    unfinished = [scored.match for scored in matches if not scored.complete]
    if unfinished:
        names = ", ".join(f"{m.home.name} v {m.away.name if m.away else 'a bye'}" for m in unfinished[:3])
        return f"round {round} is not finished: {names}{' ...' if len(unfinished) > 3 else ''} still to come"
    return None


@write
def mail_queue_team_event(*, event: TeamEvent, round: int | None = None) -> int:
    """Queue a teams event's mails to the opted-in players of its teams; returns how many.

    ``round``: the standings after that round (the director's "send the standings" once
    the round is in), each player once a round: refused unless the event is published
    and the round finished. None: at the end, once the event is published and final, the
    final standings to each player not yet sent them, and an amended mail to each whose
    team's place or VPs changed since (nothing before final: no error)."""
    event = TeamEvent.objects.select_related("club").get(pk=event.pk)
    if round is not None:
        if not event.published:
            raise ValidationError("publish the event before sending its standings")
        refused = _round_refused(event, round)
        if refused:
            raise ValidationError(refused)
    elif not (event.published and event.final):
        return 0
    now = timezone.now()
    before = ResultMail.objects.filter(team_event=event, status=MailStatus.QUEUED).count()
    players = Player.objects.filter(teams__event=event, email_consent=True).exclude(email="").distinct()
    stage = f"round-{round}" if round is not None else "final"
    for player in players:
        _, created = ResultMail.objects.get_or_create(key=f"teams:{event.pk}:{stage}:{player.pk}", defaults={
            "player": player, "team_event": event, "round": round, "kind": MailKind.RESULTS,
            "to_address": player.email, "next_attempt_at": now,
        })
        if not created and round is None:
            _queue_amended(player, now, _team_figures(event, player), subject={"team_event": event},
                           key=f"teams-amended:{event.pk}:{player.pk}")
    queued = ResultMail.objects.filter(team_event=event, status=MailStatus.QUEUED).count() - before
    if queued:
        transaction.on_commit(mail_start)  # sent in the background, after the commit
    return queued


def _team_figures(event: TeamEvent, player: Player) -> Callable[[], dict[str, str]]:
    def figures() -> dict[str, str]:
        results = team_players_results(event=event).get(player.pk)
        return results.figures if results else {}
    return figures


@write
def mail_resend(*, mail: ResultMail) -> ResultMail:
    """Send a mail again (the director's button): queued now, its attempts counted afresh."""
    if mail.status in (MailStatus.QUEUED, MailStatus.SENDING):
        raise ValidationError("this mail is on its way already")
    if not mail.player.mail_allowed:
        raise ValidationError(f"{mail.player.name} has not agreed to results by e-mail")
    ResultMail.objects.filter(pk=mail.pk).update(
        status=MailStatus.QUEUED, attempts=0, last_error="", next_attempt_at=timezone.now(),
        to_address=mail.player.email,
    )
    transaction.on_commit(mail_start)
    mail.refresh_from_db()
    return mail


# --- sending ------------------------------------------------------------------------------------


@dataclass
class MailReport:
    sent: int = 0
    retrying: int = 0
    failed: int = 0
    bounced: int = 0
    cancelled: int = 0
    errors: list[str] = field(default_factory=list)

    def add(self, other: MailReport) -> None:
        for name in ("sent", "retrying", "failed", "bounced", "cancelled"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.errors.extend(other.errors)


def _message(mail: ResultMail) -> tuple[EmailMultiAlternatives, dict[str, str]] | None:
    """The mail as it goes (a plain-text and an HTML part, the unsubscribe headers), and the
    figures it gives; None when the player no longer plays in the session or teams event."""
    if mail.team_event_id is not None:
        return _team_message(mail)
    player, session = mail.player, mail.session
    results = player_results(session=session, player=player)
    if results is None:
        return None
    unsubscribe = unsubscribe_url(player)
    context = {"results": results, "mail": mail, "unsubscribe_url": unsubscribe, "session": session}
    if mail.kind == MailKind.AMENDED:  # what the director changed since the mail this one amends
        context["corrections"] = corrections_since(session=session, since=_amended_since(mail))
    name = "results" if mail.kind == MailKind.RESULTS else "amended"
    subject = f"{session.event.club.name}: {session.name} {session.date:%d %b %Y}"
    figures = mail.figures if mail.kind == MailKind.AMENDED else results.figures
    return _made(mail, subject, name, context), figures


def _made(mail: ResultMail, subject: str, template: str, context: dict) -> EmailMultiAlternatives:
    unsubscribe = context["unsubscribe_url"]
    if mail.kind == MailKind.AMENDED:
        subject = f"Amended - {subject}"
    message = EmailMultiAlternatives(
        subject=subject,
        body=render_to_string(f"clubs/mail/{template}.txt", context),
        to=[mail.to_address],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",  # RFC 8058
            "Auto-Submitted": "auto-generated",
        },
    )
    message.attach_alternative(render_to_string(f"clubs/mail/{template}.html", context), "text/html")
    return message


def _team_message(mail: ResultMail) -> tuple[EmailMultiAlternatives, dict[str, str]] | None:
    """A teams event's mail: the standings after a round, at the end, or amended."""
    event = mail.team_event
    results = team_players_results(event=event, round=mail.round).get(mail.player_id)
    if results is None:
        return None
    context = {"results": results, "mail": mail, "unsubscribe_url": unsubscribe_url(mail.player), "event": event}
    when = f"standings after round {mail.round}" if mail.round is not None else "final standings"
    subject = f"{event.club.name}: {event.name} {event.date:%d %b %Y}, {when}"
    name = "teams_amended" if mail.kind == MailKind.AMENDED else "teams"
    figures = mail.figures if mail.kind == MailKind.AMENDED else results.figures
    return _made(mail, subject, name, context), figures


def _permanent_refusal(error: smtplib.SMTPRecipientsRefused) -> bool:
    return all(code >= 500 for code, _ in error.recipients.values())


@write
def _claim(mail_id: int, now: datetime.datetime) -> bool:
    return bool(ResultMail.objects.filter(pk=mail_id, status=MailStatus.QUEUED).update(
        status=MailStatus.SENDING, attempts=F("attempts") + 1, updated_at=now,
    ))


@write
def _finish(mail: ResultMail, report: MailReport, status: str, error: str = "", **fields: object) -> None:
    mail.status, mail.last_error = status, error[:500]
    for name, value in fields.items():
        setattr(mail, name, value)
    mail.save(update_fields=["status", "last_error", "updated_at", *fields])
    counter = "retrying" if status == MailStatus.QUEUED else str(status)  # MailReport's fields
    setattr(report, counter, getattr(report, counter) + 1)
    if error:
        report.errors.append(f"{mail.to_address}: {error}")


def _send_one(mail: ResultMail, report: MailReport, now: datetime.datetime) -> None:
    if not mail.player.mail_allowed or mail.player.email != mail.to_address:
        _finish(mail, report, MailStatus.CANCELLED, "the player no longer agrees to mails at this address")
        return
    try:
        made = _message(mail)
    except Exception as error:  # a mail that cannot be made fails alone; the others still go
        logger.exception("results mail %s could not be made", mail.pk)
        _finish(mail, report, MailStatus.FAILED, f"the mail could not be made: {error}")
        return
    if made is None:
        _finish(mail, report, MailStatus.CANCELLED, "the player no longer plays in this session or teams event")
        return
    message, figures = made
    try:
        message.send()
    except smtplib.SMTPRecipientsRefused as error:
        if _permanent_refusal(error):
            _finish(mail, report, MailStatus.BOUNCED, f"refused: {error.recipients}")
        else:
            _retry_or_fail(mail, report, now, f"refused for now: {error.recipients}")
    except (smtplib.SMTPException, OSError) as error:
        _retry_or_fail(mail, report, now, f"{type(error).__name__}: {error}")
    else:
        _finish(mail, report, MailStatus.SENT, sent_at=timezone.now(), figures=figures)


def _retry_or_fail(mail: ResultMail, report: MailReport, now: datetime.datetime, error: str) -> None:
    if mail.attempts >= MAX_ATTEMPTS:
        _finish(mail, report, MailStatus.FAILED, error)
    else:
        _finish(mail, report, MailStatus.QUEUED, error, next_attempt_at=now + RETRY_AFTER[mail.attempts - 1])


def mail_send_due(
    *, session: Session | None = None, team_event: TeamEvent | None = None, now: datetime.datetime | None = None,
) -> MailReport:
    """Send every queued mail that is due (of ``session`` or ``team_event``, else every one)."""
    now = now or timezone.now()
    mails = ResultMail.objects.all()
    if session is not None:
        mails = mails.filter(session=session)
    if team_event is not None:
        mails = mails.filter(team_event=team_event)
    with unit_of_work():
        mails.filter(status=MailStatus.SENDING, updated_at__lt=now - STALE).update(status=MailStatus.QUEUED)
    report = MailReport()
    for mail_id in mails.filter(status=MailStatus.QUEUED, next_attempt_at__lte=now).values_list("pk", flat=True):
        if not _claim(mail_id, now):
            continue  # another pass has it
        mail = ResultMail.objects.select_related("player", "session__event__club", "team_event__club").get(pk=mail_id)
        _send_one(mail, report, now)
    return report


def _next_retry() -> datetime.datetime | None:
    return ResultMail.objects.filter(status=MailStatus.QUEUED).aggregate(at=Min("next_attempt_at"))["at"]


def mail_run() -> MailReport:
    """The worker's pass: the due mails, then (in the background) the retries as they fall due."""
    report = mail_send_due()
    while getattr(settings, "MAIL_BACKGROUND", True) and (due := _next_retry()) is not None:
        time.sleep(max(0.0, min(POLL_SECONDS, (due - timezone.now()).total_seconds())))
        report.add(mail_send_due())
    return report


def mail_start() -> object:
    """Send the due mails: queued, in the background thread or now (see services.background)."""
    return WORKER.start(
        background=getattr(settings, "MAIL_BACKGROUND", True),
        pending=lambda: ResultMail.objects.filter(status=MailStatus.QUEUED).exists(),
    )


WORKER = BackgroundWorker(
    name="result-mail", path=f"{__name__}.WORKER", run=mail_run,
    # Not exclusive: each mail is claimed on its own, so passes may run side by side.
    summary=lambda report: (
        f"{report.sent} mails sent, {report.retrying} to retry, {report.failed} failed, {report.bounced} bounced"
    ),
    stopped="sending the results mails stopped",
    retry_after=datetime.timedelta(seconds=30),
)
