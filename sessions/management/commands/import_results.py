"""Import a USEBIO or PBN results file as a new session (a USEBIO teams file: a new teams event).

    python manage.py import_results FILE [--club SLUG] [--event NAME] [--sections together|apart]
        [--not-played zero|removed] [--cut-figures yes|no] [--short-totals ties|lines]
        [--phantom-table yes|no] [--handicap none|50|100] [--publish | --final]
    python manage.py import_results --jobs

Without --club: the only club, or a club "Imported" (slug "imported", created if
needed) when there is none; with several clubs, name one. --event imports into an
existing event of the club, scored with its settings (e.g. to re-import an export).
--sections says how a new event scores the file's sections: together (across the field)
or apart; without it, as the file's own figures show, else apart (NZ Scorer and Ruter
always score them together).
--not-played, --cut-figures, --short-totals, --phantom-table and --handicap state NZ
Scorer's conventions (the event options of RULES 5 and 8: a not-played line compared as
a 0 or left out; figures cut to tenths as NZ Scorer prints them; a board short of
results counted as ties in the totals or as its lines; the phantom's table counted; the
share of the handicap, none, 50 or 100 %) for a new event, each instead of the one the
importer would choose from the file or its figures; with --event, the event must have
them already. A bad value is refused before anything is imported.
--publish publishes the new session (or teams event), --final publishes it and marks it
final: the club's webhooks are told "published" (and "final") once, after the import's
commit, and "final" sends the players' results mails. Without either it stays
unpublished, for the director to look at first.
Prints the summary (program, scoring, boards, pairs, lines, where our figures differ
from the file's), then the new session's id alone on the last line. A file that
cannot be imported is refused (non-zero exit, the reason) and nothing is stored.
The file is imported here and now, whatever its size.

--jobs runs the web app's waiting import jobs instead (large uploads, imported in the
background: sessions.transfer.services.jobs), and those a restart interrupted, as the web app's
worker does: for a cron job, or after a restart. One line per job it ends.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from sessions.models import Club, Event
from sessions.transfer.services.importing import ImportRefused, results_import
from sessions.transfer.services.importing import CONVENTION_CHOICES, SECTIONS_CHOICES
from sessions.transfer.services.jobs import import_jobs_run
from sessions.transfer.services.teams_import import is_teams_file, teams_import

IMPORTED_CLUB = {"slug": "imported", "name": "Imported"}
#: The conventions' options (--not-played ...), in the order of the event form.
CONVENTION_HELP = {
    "not_played": "a line not played (NP) compared as a score of 0 (zero) or left out (removed)",
    "cut_figures": "figures cut as NZ Scorer prints them: lines to tenths, places on whole matchpoints",
    "short_totals": "a pair's total on a board short of results: each missing result a tie (ties) or the "
                    "line's own factoring (lines)",
    "phantom_table": "lines factored to the phantom's table too",
    "handicap": "the share of each pair's handicap added to its percentage, in %",
}


class Command(BaseCommand):
    help = "Import a USEBIO or PBN results file as a new session; prints the session id last."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, nargs="?")
        parser.add_argument("--club", help="the club's slug (default: the only club)")
        parser.add_argument("--event", help="an existing event of the club to import into")
        parser.add_argument("--sections", choices=SECTIONS_CHOICES,
                            help="score the sections together (across the field) or apart "
                                 "(default: as the file's figures show, else apart)")
        for name, help_text in CONVENTION_HELP.items():
            parser.add_argument(f"--{name.replace('_', '-')}", dest=name, choices=list(CONVENTION_CHOICES[name]),
                                help=f"{help_text} (default: as the file shows)")
        publish = parser.add_mutually_exclusive_group()
        publish.add_argument("--publish", action="store_const", const="published", dest="publish", default="",
                             help="publish what is imported (the club's webhooks are told)")
        publish.add_argument("--final", action="store_const", const="final", dest="publish",
                             help="publish it and mark it final (the players' results mails go)")
        parser.add_argument("--jobs", action="store_true",
                            help="run the web app's waiting and interrupted import jobs instead of a file")

    def handle(self, *args, file: Path | None, club: str | None, event: str | None, jobs: bool = False,
               sections: str | None = None, publish: str = "", **options) -> None:
        conventions = {name: options[name] for name in CONVENTION_CHOICES if options.get(name) is not None}
        if jobs:
            if file is not None or club or event or sections or conventions or publish:
                raise CommandError("--jobs runs the waiting jobs: give no file, --club, --event, --sections, "
                                   "conventions, --publish or --final with it")
            self.run_jobs()
            return
        if file is None:
            raise CommandError("give the results file to import (or --jobs)")
        try:
            data = file.read_bytes()
        except OSError as error:
            raise CommandError(f"cannot read {file}: {error.strerror}") from None
        if is_teams_file(data):
            if sections:
                raise CommandError("--sections is for a pairs file: a teams file has no sections")
            if conventions:
                options_given = ", ".join(f"--{name.replace('_', '-')}" for name in conventions)
                raise CommandError(f"{options_given} are for a pairs file: a teams file has no such conventions")
            self.import_teams(data, file.name, club, event, publish)
            return
        try:
            # One transaction with the club it may create: a refused file leaves nothing behind.
            with transaction.atomic():
                target = self.club(club)
                imported = results_import(
                    club=target, data=data, filename=file.name, user=None, event=self.event(target, event),
                    sections=sections, conventions=conventions, publish=publish,
                )
        except ImportRefused as error:
            raise CommandError(str(error)) from None
        for line in imported.summary():
            self.stdout.write(line)
        self.stdout.write(str(imported.session.pk))

    def import_teams(self, data: bytes, filename: str, club: str | None, event: str | None, publish: str) -> None:
        """A teams file becomes a new teams event; its id is the last line."""
        if event:
            raise CommandError("--event names a pairs event: a teams file is imported as a new teams event")
        try:
            with transaction.atomic():
                imported = teams_import(club=self.club(club), data=data, filename=filename, publish=publish)
        except ImportRefused as error:
            raise CommandError(str(error)) from None
        for line in imported.summary():
            self.stdout.write(line)
        self.stdout.write(str(imported.event.pk))

    def run_jobs(self) -> None:
        ended = import_jobs_run()
        for job in ended:
            outcome = f"session {job.session_id}" if job.session_id else job.message
            self.stdout.write(f"job {job.pk} {job.filename}: {job.get_status_display().lower()}, {outcome}")
        self.stdout.write(f"{len(ended)} import job{'s' if len(ended) != 1 else ''} ended.")

    def event(self, club: Club, name: str | None) -> Event | None:
        if not name:
            return None
        event = club.events.filter(name=name).first()
        if event is None:
            raise CommandError(f"{club.name} has no event {name!r}")
        return event

    def club(self, slug: str | None) -> Club:
        if slug:
            found = Club.objects.filter(slug=slug).first()
            if found is None:
                raise CommandError(f"no club with slug {slug!r}")
            return found
        clubs = list(Club.objects.order_by("slug")[:2])
        if len(clubs) == 1:
            return clubs[0]
        if not clubs:
            club, _ = Club.objects.get_or_create(slug=IMPORTED_CLUB["slug"], defaults={"name": IMPORTED_CLUB["name"]})
            return club
        slugs = ", ".join(Club.objects.order_by("slug").values_list("slug", flat=True))
        raise CommandError(f"there are several clubs: name one with --club ({slugs})")
