"""Create a session with the suggested movement, for scripts and quick set-ups.

    python manage.py new_session --club SLUG --event NAME --movement mitchell|howell --tables N
                                 [--rounds R] [--boards-per-round K] [--name NAME] [--date YYYY-MM-DD]
                                 [--sections S [--pairs P]]

The movement is the first the movement library suggests of that kind for N full tables
(2N pairs: a Mitchell's N NS and N EW pairs, a Howell's pairs 1 to 2N), rebuilt with R
rounds and K boards a round when given. The event is the club's event of that name,
created if the club has none. With --sections S each of S sections (A, B...) plays the
movement on the same boards; --pairs P (S x 2N by default) may leave some sections one
pair short (27 pairs, 2 sections of 7 tables: 14 + 13), the last ones, each playing with
a phantom whose opponents sit out. Prints what was made, then the new session's id alone on
the last line. Arguments the club or the movement cannot take are refused (non-zero
exit, the reason) and nothing is stored.
"""

from __future__ import annotations

import datetime

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone

from sessions.models import Club, Event, Session
from sessions.movements import Movement, MovementError, howell, mitchell, suggest_movements
from sessions.movements.suggest import MAX_HOWELL_TABLES, MIN_BOARDS_PER_ROUND
from sessions.pairs.services.events import event_create
from sessions.pairs.services.sessions import session_create

MOVEMENTS = ("mitchell", "howell")
SECTION_LETTERS = "ABCD"
#: Boards a pair plays in a session when --boards-per-round is not given (as suggested).
SESSION_BOARDS = 28
NAME_LENGTH = Session._meta.get_field("name").max_length


class Command(BaseCommand):
    help = "Create a session with the suggested Mitchell or Howell; prints the session id last."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--club", required=True, help="the club's slug")
        parser.add_argument("--event", required=True, help="the club's event (created if it has none of that name)")
        parser.add_argument("--movement", required=True, help="mitchell or howell")
        parser.add_argument("--tables", required=True, type=int, help="the number of full tables")
        parser.add_argument("--rounds", type=int, help="rounds to play (default: the suggested movement's)")
        parser.add_argument(
            "--boards-per-round", type=int,
            help=f"boards a round (default: as many as fit in {SESSION_BOARDS} boards, at least "
                 f"{MIN_BOARDS_PER_ROUND})",
        )
        parser.add_argument("--sections", type=int, default=1, help="the number of sections (default 1)")
        parser.add_argument(
            "--pairs", type=int,
            help="the pairs of all sections (default: every table full); up to one pair short a section",
        )
        parser.add_argument("--name", help='the session\'s name (default: "<event> <date>")')
        parser.add_argument("--date", help="the session's date, YYYY-MM-DD (default: today)")

    def handle(
        self, *args, club: str, event: str, movement: str, tables: int, rounds: int | None,
        boards_per_round: int | None, name: str | None, date: str | None, sections: int = 1,
        pairs: int | None = None, **options,
    ) -> None:
        target = self.club(club)
        day = self.date(date)
        chosen = self.movement(movement.strip().lower(), tables, rounds, boards_per_round)
        letters, short = self.sections(sections, pairs, len(chosen.pairs))
        try:
            with transaction.atomic():  # the event it may create goes with a refused session
                the_event = self.event(target, event)
                session = session_create(
                    event=the_event, name=self.name(name, the_event, day), date=day, movement=chosen,
                    section_letters=tuple(letters), short_sections=tuple(short),
                )
        except ValidationError as error:
            raise CommandError("; ".join(error.messages)) from None
        self.stdout.write(f"Created {session.name!r} on {session.date.isoformat()} in {the_event.name}, {target.name}")
        self.stdout.write(chosen.description)
        if len(letters) > 1:
            self.stdout.write(f"Sections {', '.join(letters)}")
        if short:
            self.stdout.write(f"One pair short in section(s) {', '.join(short)}: pair {chosen.short_pair()} "
                              "is a phantom, its opponents sit out")
        total = len(chosen.pairs) * len(letters) - len(short)
        self.stdout.write(f"{total} pairs, boards 1-{max(chosen.boards())}")
        self.stdout.write(str(session.pk))

    def sections(self, sections: int, pairs: int | None, full: int) -> tuple[str, str]:
        """The section letters, and the last ones that are one pair short of ``full``."""
        if not 1 <= sections <= len(SECTION_LETTERS):
            raise CommandError(f"--sections must be 1 to {len(SECTION_LETTERS)}, not {sections}")
        letters = SECTION_LETTERS[:sections]
        if pairs is None:
            return letters, ""
        fewest, most = sections * (full - 1), sections * full
        if not fewest <= pairs <= most:
            raise CommandError(
                f"--pairs {pairs} do not fit {sections} section(s) of this movement's {full} pairs: "
                f"give {fewest} to {most} (a section may be one pair short), or change --tables"
            )
        short = most - pairs
        return letters, letters[sections - short:] if short else ""

    def club(self, slug: str) -> Club:
        found = Club.objects.filter(slug=slug).first()
        if found is None:
            raise CommandError(f"no club with slug {slug!r}")
        return found

    def date(self, text: str | None) -> datetime.date:
        if not text:
            return timezone.localdate()
        try:
            return datetime.date.fromisoformat(text)
        except ValueError:
            raise CommandError(f"--date {text!r} is not a date: give it as YYYY-MM-DD") from None

    def name(self, name: str | None, event: Event, day: datetime.date) -> str:
        if name is not None:
            if not name.strip():
                raise CommandError("--name is empty: give the session a name, or leave --name out")
            return name.strip()
        suffix = f" {day.isoformat()}"
        return event.name[: NAME_LENGTH - len(suffix)] + suffix

    def event(self, club: Club, name: str) -> Event:
        if not name.strip():
            raise CommandError("--event is empty: name the event")
        found = club.events.filter(name=name.strip()).order_by("pk").first()
        if found is not None:
            return found
        try:
            return event_create(club=club, name=name.strip())
        except ValidationError as error:
            raise CommandError(f"cannot create event {name!r}: {'; '.join(error.messages)}") from None

    def movement(self, kind: str, tables: int, rounds: int | None, boards_per_round: int | None) -> Movement:
        """The library's first suggestion of this kind, rebuilt with the rounds and boards asked for."""
        if kind not in MOVEMENTS:
            raise CommandError(f"unknown movement {kind!r}: choose mitchell or howell")
        if kind == "mitchell" and tables < 3:
            raise CommandError(f"a Mitchell needs at least 3 tables, not {tables}")
        if kind == "howell" and not 2 <= tables <= MAX_HOWELL_TABLES:
            raise CommandError(
                f"a Howell is offered for 2 to {MAX_HOWELL_TABLES} tables, not {tables}"
                + (": use a Mitchell" if tables > MAX_HOWELL_TABLES else "")
            )
        if rounds is not None and rounds < 1:
            raise CommandError(f"--rounds must be at least 1, not {rounds}")
        if boards_per_round is not None and boards_per_round < 1:
            raise CommandError(f"--boards-per-round must be at least 1, not {boards_per_round}")
        try:
            suggested = next(m for m in suggest_movements(2 * tables) if m.kind == kind)
        except (MovementError, StopIteration):
            raise CommandError(f"no {kind} is suggested for {tables} tables") from None
        if rounds is None and boards_per_round is None:
            return suggested
        rounds = rounds or suggested.rounds
        if boards_per_round is None:
            boards_per_round = max(MIN_BOARDS_PER_ROUND, SESSION_BOARDS // rounds)
        try:
            if kind == "howell":
                return howell(2 * tables, boards_per_round, rounds=rounds)
            if rounds > tables:  # the library's message would name a skip Mitchell's limit
                raise MovementError(f"a {tables}-table Mitchell plays 1 to {tables} rounds, not {rounds}")
            # An even Mitchell is a relay for all its rounds and a skip for fewer, as suggested.
            return mitchell(tables, boards_per_round, rounds=rounds, arrow_switch_rounds=suggested.arrow_switch_rounds)
        except MovementError as error:
            raise CommandError(str(error)) from None
