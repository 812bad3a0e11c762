"""Export a session's results.

    python manage.py export_results SESSION_ID --format usebio|pbn|xlsx|csv|csv-rankings|csv-travellers [--output FILE]
    python manage.py export_results EVENT_ID --teams --format usebio|pbn|xlsx|csv [--output FILE]

Without --output the file goes to standard output (the raw bytes; a binary format,
xlsx or the csv zip, is refused when standard output cannot take bytes).
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from sessions.formats import FormatError
from sessions.models import Session, TeamEvent
from sessions.transfer import EXPORTERS, ExportRefused
from sessions.transfer.teams_export import TEAMS_EXPORTERS

TEXT_FORMATS = {"usebio": "utf-8", "pbn": None, "csv-rankings": "utf-8-sig", "csv-travellers": "utf-8-sig"}


class Command(BaseCommand):
    help = "Export a session as USEBIO, PBN, an Excel workbook or CSV."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("session_id", type=int)
        parser.add_argument("--format", required=True, choices=sorted(EXPORTERS), dest="fmt")
        parser.add_argument("--output", type=Path, help="the file to write (default: standard output)")
        parser.add_argument("--teams", action="store_true", help="the id is a teams event's (usebio, pbn, xlsx, csv)")

    def handle(self, *args, session_id: int, fmt: str, output: Path | None, teams: bool = False, **options) -> None:
        if teams:
            content = self.teams_content(session_id, fmt)
        else:
            session = Session.objects.select_related("event__club").filter(pk=session_id).first()
            if session is None:
                raise CommandError(f"no session {session_id}")
            try:
                filename, _, content = EXPORTERS[fmt].render(session)
            except ExportRefused as error:
                raise CommandError(str(error)) from None
        if output is not None:
            output.write_bytes(content)
            self.stderr.write(f"wrote {output} ({len(content)} bytes)")
            return
        self.write_stdout(fmt, content)

    def teams_content(self, event_id: int, fmt: str) -> bytes:
        event = TeamEvent.objects.select_related("club").filter(pk=event_id).first()
        if event is None:
            raise CommandError(f"no teams event {event_id}")
        if fmt not in TEAMS_EXPORTERS:
            raise CommandError(f"a teams event exports as {', '.join(sorted(TEAMS_EXPORTERS))}, not {fmt}")
        try:
            return TEAMS_EXPORTERS[fmt].render(event)[2]
        except FormatError as error:
            raise CommandError(str(error)) from None

    def write_stdout(self, fmt: str, content: bytes) -> None:
        buffer = getattr(self.stdout._out, "buffer", None)
        if buffer is not None:
            self.stdout.flush()
            buffer.write(content)
            buffer.flush()
            return
        if fmt not in TEXT_FORMATS:
            raise CommandError(f"{fmt} is a binary format: write it to a file with --output FILE")
        self.stdout.write(_decoded(fmt, content), ending="")


def _decoded(fmt: str, content: bytes) -> str:
    encoding = TEXT_FORMATS[fmt]
    if encoding is None:  # PBN declares its charset in the file
        encoding = "utf-8" if b"charset=UTF-8" in content[:200] else "iso-8859-1"
    return content.decode(encoding)
