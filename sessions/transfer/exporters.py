"""Exports of a session, one small class per format (pretix style), registered in EXPORTERS.

Each exporter has an identifier (the URL's and the command's --format), a verbose
name and ``render(session) -> (filename, content type, bytes)``. Every figure comes
from session_score (our engine); nothing is copied from an imported file.

- usebio, pbn: the session as a results file (sessions.formats writers), our figures
  in the published fields.
- xlsx: Rankings, Travellers, Score cards and Settings sheets (openpyxl, write-only):
  bold frozen header rows, autofilter, header rows repeated on every printed page,
  fit to the page width, two-decimal number formats.
- csv-rankings, csv-travellers: one table each, UTF-8 with a BOM (so spreadsheet
  programs read the names right); csv: a zip of both.

Spreadsheet safety: a text cell starting with = + - @ tab or CR is never a formula.
In xlsx it is a string cell with Excel's quotePrefix (shown and kept as typed); in
CSV, where no cell type exists, it gets a leading apostrophe (the OWASP advice).
"""

from __future__ import annotations

import csv
import io
import zipfile
from decimal import Decimal

from django.utils.text import slugify
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.properties import PageSetupProperties

from sessions.formats import pbn_scoring_tag, write_pbn, write_usebio
from sessions.models import CrossImps, Event, MatchpointScale, Session
from sessions.selectors.events import CombinedRanking
from sessions.selectors.scoring import ScoredSession, session_score

from . import report
from .to_parsed import ExportRefused, session_to_parsed

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
Rendered = tuple[str, str, bytes]


def is_formula_like(value: object) -> bool:
    return isinstance(value, str) and value.startswith(FORMULA_STARTS)


class BaseExporter:
    identifier = ""
    verbose_name = ""
    extension = ""
    content_type = "application/octet-stream"

    def render(self, session: Session) -> Rendered:
        content = self.render_scored(session_score(session=session))
        return self.filename(session), self.content_type, content

    def render_scored(self, scored: ScoredSession) -> bytes:
        raise NotImplementedError

    def filename(self, session: Session) -> str:
        name = slugify(session.name) or "session"
        return f"{name}-{session.date.isoformat()}.{self.extension}"


class UsebioExporter(BaseExporter):
    identifier = "usebio"
    verbose_name = "USEBIO XML"
    extension = "xml"
    content_type = "application/xml; charset=utf-8"

    def render_scored(self, scored: ScoredSession) -> bytes:
        return write_usebio(session_to_parsed(scored))


class PbnExporter(BaseExporter):
    identifier = "pbn"
    verbose_name = "PBN"
    extension = "pbn"
    content_type = "application/x-pbn"  # ISO-8859-1 or UTF-8, declared in the file

    def render_scored(self, scored: ScoredSession) -> bytes:
        event = scored.session.event
        tag = pbn_scoring_tag(
            event.method, cross_imps_averaged=event.cross_imps == CrossImps.AVERAGE, half_matchpoints=event.mp_scale == MatchpointScale.ACBL
        )
        return write_pbn(session_to_parsed(scored), scoring_tag=tag)


def workbook_bytes(tables: list[report.Table]) -> bytes:
    """The tables as an xlsx workbook, one sheet each (write-only)."""
    workbook = Workbook(write_only=True)
    for table in tables:
        XlsxExporter.write_sheet(workbook, table)
    output = io.BytesIO()
    workbook.save(output)
    return output.getvalue()


class XlsxExporter(BaseExporter):
    identifier = "xlsx"
    verbose_name = "Excel workbook"
    extension = "xlsx"
    content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

    def render_scored(self, scored: ScoredSession) -> bytes:
        return workbook_bytes(report.all_tables(scored))

    @classmethod
    def write_sheet(cls, workbook: Workbook, table: report.Table) -> None:
        sheet = workbook.create_sheet(table.name)
        # Write-only sheets take their layout before the first row.
        last_column = get_column_letter(len(table.columns))
        for number, column in enumerate(table.columns, start=1):
            sheet.column_dimensions[get_column_letter(number)].width = column.width
        sheet.freeze_panes = "A2"
        sheet.auto_filter.ref = f"A1:{last_column}{len(table.rows) + 1}"
        sheet.print_title_rows = "1:1"
        sheet.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
        sheet.page_setup.fitToWidth = 1
        sheet.page_setup.fitToHeight = 0
        sheet.page_setup.orientation = "landscape" if len(table.columns) > 8 else "portrait"
        bold = Font(bold=True)
        sheet.append([cls.cell(sheet, column.title, font=bold) for column in table.columns])
        for row in table.rows:
            sheet.append([cls.cell(sheet, value, column.number_format) for value, column in zip(row, table.columns)])

    @staticmethod
    def cell(sheet, value: report.Value, number_format: str | None = None, font: Font | None = None) -> WriteOnlyCell:
        if isinstance(value, Decimal):
            value = float(value)  # already rounded for display; the format shows 2 decimals
        cell = WriteOnlyCell(sheet, value=value)
        if isinstance(value, str):
            cell.data_type = "s"  # never a formula, whatever the text starts with
            if is_formula_like(value):
                cell.quotePrefix = True
        elif number_format and isinstance(value, float):
            cell.number_format = number_format
        if font is not None:
            cell.font = font
        return cell


def csv_safe(value: report.Value) -> str:
    if value is None:
        return ""
    text = str(value)
    return "'" + text if is_formula_like(value) else text


def csv_bytes(table: report.Table) -> bytes:
    output = io.StringIO()
    writer = csv.writer(output, lineterminator="\r\n")
    writer.writerow([csv_safe(column.title) for column in table.columns])
    writer.writerows([csv_safe(value) for value in row] for row in table.rows)
    return ("\ufeff" + output.getvalue()).encode("utf-8")


class CsvRankingsExporter(BaseExporter):
    identifier = "csv-rankings"
    verbose_name = "Rankings (CSV)"
    extension = "csv"
    content_type = "text/csv; charset=utf-8"

    def render_scored(self, scored: ScoredSession) -> bytes:
        return csv_bytes(report.rankings(scored))

    def filename(self, session: Session) -> str:
        return super().filename(session).replace(".csv", "-rankings.csv")


class CsvTravellersExporter(CsvRankingsExporter):
    identifier = "csv-travellers"
    verbose_name = "Traveller lines (CSV)"

    def render_scored(self, scored: ScoredSession) -> bytes:
        return csv_bytes(report.travellers(scored))

    def filename(self, session: Session) -> str:
        return BaseExporter.filename(self, session).replace(".csv", "-travellers.csv")


class CsvZipExporter(BaseExporter):
    identifier = "csv"
    verbose_name = "Rankings and traveller lines (CSV, zipped)"
    extension = "zip"
    content_type = "application/zip"

    def render_scored(self, scored: ScoredSession) -> bytes:
        output = io.BytesIO()
        with zipfile.ZipFile(output, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("rankings.csv", csv_bytes(report.rankings(scored)))
            archive.writestr("travellers.csv", csv_bytes(report.travellers(scored)))
        return output.getvalue()


EXPORTERS: dict[str, BaseExporter] = {
    exporter.identifier: exporter
    for exporter in (
        UsebioExporter(), PbnExporter(), XlsxExporter(), CsvZipExporter(), CsvRankingsExporter(),
        CsvTravellersExporter(),
    )
}


# --- an event's sessions ranked together ---------------------------------------------


class EventExporter:
    """An event's combined ranking (sessions.selectors.events): ``render(ranking)``."""

    identifier = ""
    verbose_name = ""
    extension = ""
    content_type = "application/octet-stream"

    def render(self, ranking: CombinedRanking) -> Rendered:
        if ranking.error:
            raise ExportRefused(f"the sessions cannot be ranked together: {ranking.error}")
        return self.filename(ranking.event), self.content_type, self.render_ranking(ranking)

    def render_ranking(self, ranking: CombinedRanking) -> bytes:
        raise NotImplementedError

    def filename(self, event: Event) -> str:
        return f"{slugify(event.name) or 'event'}-all-sessions.{self.extension}"


class EventXlsxExporter(EventExporter):
    identifier = "xlsx"
    verbose_name = "Excel workbook: the combined ranking, then each session's"
    extension = "xlsx"
    content_type = XlsxExporter.content_type

    def render_ranking(self, ranking: CombinedRanking) -> bytes:
        return workbook_bytes(report.event_tables(ranking))


class EventCsvExporter(EventExporter):
    identifier = "csv"
    verbose_name = "The combined ranking (CSV)"
    extension = "csv"
    content_type = "text/csv; charset=utf-8"

    def render_ranking(self, ranking: CombinedRanking) -> bytes:
        return csv_bytes(report.combined(ranking))


EVENT_EXPORTERS: dict[str, EventExporter] = {
    exporter.identifier: exporter for exporter in (EventXlsxExporter(), EventCsvExporter())
}
