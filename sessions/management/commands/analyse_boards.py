"""Analyse the boards whose deals have no current double-dummy analysis.

The web app analyses after deals arrive, in a background thread or in a worker of the work
queue (manage.py work_queue); this command does the same work in the foreground, for a
cron job or after a restart cut a pass short.

    python manage.py analyse_boards                # every pending board
    python manage.py analyse_boards --session 12   # only that session's
    python manage.py analyse_boards --all          # every board with a deal, again
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from sessions.analysis.services.analysis import analysis_run
from sessions.models import Session


class Command(BaseCommand):
    help = "Analyse (double dummy, par) the boards whose deals are not analysed yet."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--session", type=int, metavar="ID", help="only the boards of this session")
        parser.add_argument("--all", action="store_true",
                            help="analyse every board with a deal again, failed and done ones too")

    def handle(self, *args, session: int | None = None, all: bool = False, **options) -> None:
        chosen = None
        if session is not None:
            chosen = Session.objects.filter(pk=session).first()
            if chosen is None:
                raise CommandError(f"there is no session {session}")
        report = analysis_run(session=chosen, redo=all)
        for board, reason in report.failed:
            self.stderr.write(f"session {board.session_id} board {board.number}: {reason}")
        self.stdout.write(f"{len(report.done)} board{'s' if len(report.done) != 1 else ''} analysed, "
                          f"{len(report.failed)} failed.")
