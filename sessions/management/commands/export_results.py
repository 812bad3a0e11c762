"""Export a session's results, an event's sessions ranked together, or a teams event.

    python manage.py export_results SESSION_ID --format usebio|pbn|xlsx|csv|csv-rankings|csv-travellers [--output FILE]
    python manage.py export_results --event EVENT_ID --format xlsx|csv [--output FILE]
    python manage.py export_results EVENT_ID --teams --format usebio|pbn|xlsx|csv [--output FILE]

An event's export holds every session of the event, published or not (unpublished
ones are marked): the combined ranking, then (xlsx) each session's rankings.

Without --output the file goes to standard output (the raw bytes; a binary format,
xlsx or the csv zip, is refused when standard output cannot take bytes).
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from sessions.formats import FormatError
from sessions.models import Event, Session, TeamEvent
from sessions.selectors.events import event_ranking
from sessions.transfer import EVENT_EXPORTERS, EXPORTERS, ExportRefused
from sessions.transfer.teams_export import TEAMS_EXPORTERS

TEXT_FORMATS = {"usebio": "utf-8", "pbn": None, "csv-rankings": "utf-8-sig", "csv-travellers": "utf-8-sig"}
#: An event's text formats (its csv is one table, not a zip).
EVENT_TEXT_FORMATS = {"csv": "utf-8-sig"}


class Command(BaseCommand):
    help = "Export a session as USEBIO, PBN, an Excel workbook or CSV; an event's sessions ranked together; a teams event."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("session_id", type=int, nargs="?", help="a session's id (a teams event's with --teams)")
        parser.add_argument("--event", type=int, dest="event_id", help="export this event's combined ranking (xlsx, csv)")
        parser.add_argument("--teams", action="store_true", help="the id is a teams event's (usebio, pbn, xlsx, csv)")
        parser.add_argument("--format", required=True, choices=sorted(EXPORTERS), dest="fmt")
        parser.add_argument("--output", type=Path, help="the file to write (default: standard output)")

    def handle(
        self, *args, session_id: int | None, event_id: int | None, fmt: str, output: Path | None,
        teams: bool = False, **options,
    ) -> None:
        if (session_id is None) == (event_id is None) or (teams and event_id is not None):
            raise CommandError("give either a SESSION_ID, a teams EVENT_ID with --teams, or --event EVENT_ID")
        try:
            if teams:
                content, text_formats = self.teams_export(session_id, fmt), TEXT_FORMATS
            elif event_id is not None:
                content, text_formats = self.event_export(event_id, fmt), EVENT_TEXT_FORMATS
            else:
                content, text_formats = self.session_export(session_id, fmt), TEXT_FORMATS
        except (ExportRefused, FormatError) as error:
            raise CommandError(str(error)) from None
        if output is not None:
            output.write_bytes(content)
            self.stderr.write(f"wrote {output} ({len(content)} bytes)")
            return
        self.write_stdout(fmt, content, text_formats)

    def session_export(self, session_id: int | None, fmt: str) -> bytes:
        session = Session.objects.select_related("event__club").filter(pk=session_id).first()
        if session is None:
            raise CommandError(f"no session {session_id}")
        return EXPORTERS[fmt].render(session)[2]

    def event_export(self, event_id: int, fmt: str) -> bytes:
        if fmt not in EVENT_EXPORTERS:
            raise CommandError(f"an event exports as {' or '.join(sorted(EVENT_EXPORTERS))}, not {fmt}")
        event = Event.objects.select_related("club").filter(pk=event_id).first()
        if event is None:
            raise CommandError(f"no event {event_id}")
        ranking = event_ranking(event=event, published_only=False)
        if not ranking.sessions:
            raise CommandError(f"event {event_id} has no session")
        return EVENT_EXPORTERS[fmt].render(ranking)[2]

    def teams_export(self, event_id: int | None, fmt: str) -> bytes:
        event = TeamEvent.objects.select_related("club").filter(pk=event_id).first()
        if event is None:
            raise CommandError(f"no teams event {event_id}")
        if fmt not in TEAMS_EXPORTERS:
            raise CommandError(f"a teams event exports as {', '.join(sorted(TEAMS_EXPORTERS))}, not {fmt}")
        return TEAMS_EXPORTERS[fmt].render(event)[2]

    def write_stdout(self, fmt: str, content: bytes, text_formats: dict[str, str | None]) -> None:
        buffer = getattr(self.stdout._out, "buffer", None)
        if buffer is not None:
            self.stdout.flush()
            buffer.write(content)
            buffer.flush()
            return
        if fmt not in text_formats:
            raise CommandError(f"{fmt} is a binary format: write it to a file with --output FILE")
        self.stdout.write(_decoded(text_formats[fmt], content), ending="")


def _decoded(encoding: str | None, content: bytes) -> str:
    if encoding is None:  # PBN declares its charset in the file
        encoding = "utf-8" if b"charset=UTF-8" in content[:200] else "iso-8859-1"
    return content.decode(encoding)
