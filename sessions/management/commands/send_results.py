"""Send a final session's results mails now, for scripts and cron.

    python manage.py send_results 12

Queues the mails the session owes (a results mail to each opted-in player not yet sent
one, an amended mail to each whose figures changed since) and sends every one of the
session's mails that is due, in the foreground. It prints one line, the number of mails
sent (0 when everything had gone already: a mail is never sent twice), for scripts to
read; what failed or waits for a retry goes to stderr. Exits 1 for an unknown session
or one not published and final.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from sessions.models import Session
from sessions.services.mail import mail_queue_session, mail_send_due


class Command(BaseCommand):
    help = "Send a published, final session's results mails now; prints the number of mails sent."

    def add_arguments(self, parser) -> None:
        parser.add_argument("session_id", type=int, metavar="SESSION_ID")

    def handle(self, *args, session_id: int, **options) -> None:
        session = Session.objects.filter(pk=session_id).first()
        if session is None:
            raise CommandError(f"there is no session {session_id}")
        if not (session.published and session.final):
            raise CommandError(f"session {session_id} is not published and final: its results are not mailed yet")
        mail_queue_session(session=session)
        report = mail_send_due(session=session)
        for error in report.errors:
            self.stderr.write(error)
        if report.retrying:
            self.stderr.write(f"{report.retrying} to retry later (the background worker or this command)")
        self.stdout.write(str(report.sent))
