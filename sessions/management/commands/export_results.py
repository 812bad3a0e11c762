"""Export a session's results, an event's sessions ranked together, or a teams event.

    python manage.py export_results SESSION_ID --format usebio|pbn|xlsx|csv|csv-rankings|csv-travellers [--output FILE]
    python manage.py export_results --event EVENT_ID --format xlsx|csv [--output FILE]
    python manage.py export_results EVENT_ID --teams --format usebio|pbn|xlsx|csv [--output FILE]

An event's export holds every session of the event, published or not (unpublished
ones are marked): the combined ranking, then (xlsx) each session's rankings.

Every format is the downloads' own, from one registry (sessions.transfer.exporters.EXPORTS).
Without --output the file goes to standard output (the raw bytes; a binary format,
xlsx or the csv zip, is refused when standard output cannot take bytes).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import QuerySet

from sessions.formats import FormatError
from sessions.models import Event, Session, TeamEvent
from sessions.pairs.selectors.events import CombinedRanking, event_ranking
from sessions.transfer.exporters import EXPORTS
from sessions.transfer.to_parsed import ExportRefused
from sessions.transfer.exporters import EVENT, SESSION, TEAMS, Exporter, Subject, exporters_of


class Command(BaseCommand):
    help = "Export a session as USEBIO, PBN, an Excel workbook or CSV; an event's sessions ranked together; a teams event."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("session_id", type=int, nargs="?", help="a session's id (a teams event's with --teams)")
        parser.add_argument("--event", type=int, dest="event_id", help="export this event's combined ranking (xlsx, csv)")
        parser.add_argument("--teams", action="store_true", help="the id is a teams event's (usebio, pbn, xlsx, csv)")
        parser.add_argument("--format", required=True, choices=sorted({fmt for _, fmt in EXPORTS}), dest="fmt")
        parser.add_argument("--output", type=Path, help="the file to write (default: standard output)")

    def handle(
        self, *args, session_id: int | None, event_id: int | None, fmt: str, output: Path | None,
        teams: bool = False, **options,
    ) -> None:
        if (session_id is None) == (event_id is None) or (teams and event_id is not None):
            raise CommandError("give either a SESSION_ID, a teams EVENT_ID with --teams, or --event EVENT_ID")
        subject = TEAMS if teams else EVENT if event_id is not None else SESSION
        exporter = EXPORTS.get((subject.kind, fmt))
        if exporter is None:
            raise CommandError(f"{subject.noun} exports as {_formats(subject)}, not {fmt}")
        exported = LOADERS[subject.kind](session_id if event_id is None else event_id)
        try:
            content = exporter.render(exported)[2]
        except (ExportRefused, FormatError) as error:
            raise CommandError(str(error)) from None
        if output is not None:
            output.write_bytes(content)
            self.stderr.write(f"wrote {output} ({len(content)} bytes)")
            return
        self.write_stdout(exporter, content)

    def write_stdout(self, exporter: Exporter, content: bytes) -> None:
        buffer = getattr(self.stdout._out, "buffer", None)
        if buffer is not None:
            self.stdout.flush()
            buffer.write(content)
            buffer.flush()
            return
        if exporter.renderer.encoding is None:
            raise CommandError(f"{exporter.identifier} is a binary format: write it to a file with --output FILE")
        self.stdout.write(exporter.renderer.decoded(content), ending="")


def _found(objects: QuerySet, pk: int, missing: str):
    found = objects.filter(pk=pk).first()
    if found is None:
        raise CommandError(f"{missing} {pk}")
    return found


def _event_ranking(event_id: int) -> CombinedRanking:
    """Every session of the event, published or not (unpublished ones are marked)."""
    event = _found(Event.objects.select_related("club"), event_id, "no event")
    ranking = event_ranking(event=event, published_only=False)
    if not ranking.sessions:
        raise CommandError(f"event {event_id} has no session")
    return ranking


#: Each subject's object by the id given.
LOADERS: dict[str, Callable[[int], object]] = {
    SESSION.kind: lambda pk: _found(Session.objects.select_related("event__club"), pk, "no session"),
    EVENT.kind: _event_ranking,
    TEAMS.kind: lambda pk: _found(TeamEvent.objects.select_related("club"), pk, "no teams event"),
}


def _formats(subject: Subject) -> str:
    names = sorted(exporters_of(subject.kind))
    return " or ".join(names) if len(names) == 2 else ", ".join(names)
