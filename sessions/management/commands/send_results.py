"""Send a final session's (or a teams event's) results mails now, for scripts and cron.

    python manage.py send_results 12
    python manage.py send_results --teams 4
    python manage.py send_results --teams 4 --round 2

Queues the mails the session owes (a results mail to each opted-in player not yet sent
one, an amended mail to each whose figures changed since) and sends every one of the
session's mails that is due, in the foreground. It prints one line, the number of mails
sent (0 when everything had gone already: a mail is never sent twice), for scripts to
read; what failed or waits for a retry goes to stderr. Exits 1 for an unknown session
or one not published and final.

``--teams ID`` does the same for a teams event: published and final, the final standings
(and amended mails); with ``--round N`` the standings after round N of a published
event whose round N is finished, as the director's "send the standings" button.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from sessions.models import Session, TeamEvent
from sessions.clubs.services.mail import MailReport, mail_queue_session, mail_queue_team_event, mail_send_due


class Command(BaseCommand):
    help = "Send a published, final session's (or teams event's) results mails now; prints the number of mails sent."

    def add_arguments(self, parser) -> None:
        parser.add_argument("session_id", type=int, metavar="SESSION_ID", nargs="?")
        parser.add_argument("--teams", type=int, metavar="TEAMS_EVENT_ID", help="a teams event's mails instead")
        parser.add_argument("--round", type=int, metavar="N",
                            help="with --teams: the standings after round N (else the final standings)")

    def handle(self, *args, session_id: int | None, teams: int | None = None, round: int | None = None,
               **options) -> None:
        if (session_id is None) == (teams is None):
            raise CommandError("give a session's id, or --teams and a teams event's id (not both)")
        if round is not None and teams is None:
            raise CommandError("--round goes with --teams")
        report = self.teams(teams, round) if teams is not None else self.session(session_id)
        for error in report.errors:
            self.stderr.write(error)
        if report.retrying:
            self.stderr.write(f"{report.retrying} to retry later (the background worker or this command)")
        self.stdout.write(str(report.sent))

    def session(self, session_id: int) -> MailReport:
        session = Session.objects.filter(pk=session_id).first()
        if session is None:
            raise CommandError(f"there is no session {session_id}")
        if not (session.published and session.final):
            raise CommandError(f"session {session_id} is not published and final: its results are not mailed yet")
        mail_queue_session(session=session)
        return mail_send_due(session=session)

    def teams(self, event_id: int, round: int | None) -> MailReport:
        event = TeamEvent.objects.filter(pk=event_id).first()
        if event is None:
            raise CommandError(f"there is no teams event {event_id}")
        if round is None and not (event.published and event.final):
            raise CommandError(
                f"teams event {event_id} is not published and final: give --round N for the standings after a round"
            )
        try:
            mail_queue_team_event(event=event, round=round)
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None
        return mail_send_due(team_event=event)
