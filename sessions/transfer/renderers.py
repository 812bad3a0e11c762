"""The export formats, one renderer class each: what a file of the format holds and how its bytes are made.

A renderer knows its file (extension, content type, how it reads as text), the button's
label, and turns the exported subject's figures into bytes through a function it is
given: the rows (``report.Table``) or the parsed model a writer of sessions.formats takes.
What is exported, and its rows, is the subject's (exporters.py); the registry there pairs
them.

- Usebio, Pbn: a results file, written by the pure writers of sessions.formats.
- Workbook: one sheet per table (openpyxl, write-only): bold frozen header rows,
  autofilter, header rows repeated on every printed page, fit to the page width,
  two-decimal number formats.
- CsvTable: one table, UTF-8 with a BOM (so spreadsheet programs read the names right);
  CsvZip: a zip of tables, one ``<name>.csv`` each.

Spreadsheet safety: a text cell starting with = + - @ tab or CR is never a formula.
In xlsx it is a string cell with Excel's quotePrefix (shown and kept as typed); in
CSV, where no cell type exists, it gets a leading apostrophe (the OWASP advice).
"""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Callable, Iterable
from decimal import Decimal
from typing import Any

from openpyxl import Workbook as OpenpyxlWorkbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.properties import PageSetupProperties

from sessions.transfer import report

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: A PBN file's encoding is declared in the file (ISO-8859-1 or UTF-8).
DECLARED = "declared"


def is_formula_like(value: object) -> bool:
    return isinstance(value, str) and value.startswith(FORMULA_STARTS)


class Renderer:
    """A format: ``render(figures) -> bytes`` through ``rows``, the subject's function
    that gives this format its input (bytes already written, a table or tables)."""

    label = ""  # the download button's text
    extension = ""
    content_type = "application/octet-stream"
    encoding: str | None = None  # how the file reads as text (standard output); None: binary

    def __init__(self, rows: Callable[[Any], Any]) -> None:
        self.rows = rows

    def render(self, figures: Any) -> bytes:
        return self.rows(figures)

    def decoded(self, content: bytes) -> str:
        """The file as text, for a format with an encoding."""
        encoding = self.encoding
        if encoding == DECLARED:
            encoding = "utf-8" if b"charset=UTF-8" in content[:200] else "iso-8859-1"
        assert encoding is not None, "a binary format has no text"
        return content.decode(encoding)


class Usebio(Renderer):
    label, extension, content_type, encoding = "USEBIO XML", "xml", "application/xml; charset=utf-8", "utf-8"


class Pbn(Renderer):
    label, extension, content_type, encoding = "PBN", "pbn", "application/x-pbn", DECLARED


class Workbook(Renderer):
    label, extension = "Excel workbook", "xlsx"
    content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

    def render(self, figures: Any) -> bytes:
        return workbook_bytes(self.rows(figures))


class CsvTable(Renderer):
    label, extension, content_type, encoding = "CSV", "csv", "text/csv; charset=utf-8", "utf-8-sig"

    def render(self, figures: Any) -> bytes:
        return csv_bytes(self.rows(figures))


class CsvZip(Renderer):
    label, extension, content_type = "CSV (zip)", "zip", "application/zip"

    def render(self, figures: Any) -> bytes:
        output = io.BytesIO()
        with zipfile.ZipFile(output, "w", zipfile.ZIP_DEFLATED) as archive:
            for table in self.rows(figures):
                archive.writestr(f"{table.name.lower()}.csv", csv_bytes(table))
        return output.getvalue()


# --- spreadsheets ---------------------------------------------------------------------------


def workbook_bytes(tables: Iterable[report.Table]) -> bytes:
    """The tables as an xlsx workbook, one sheet each (write-only)."""
    workbook = OpenpyxlWorkbook(write_only=True)
    for table in tables:
        _write_sheet(workbook, table)
    output = io.BytesIO()
    workbook.save(output)
    return output.getvalue()


def _write_sheet(workbook: OpenpyxlWorkbook, table: report.Table) -> None:
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
    sheet.append([_cell(sheet, column.title, font=bold) for column in table.columns])
    for row in table.rows:
        sheet.append([_cell(sheet, value, column.number_format) for value, column in zip(row, table.columns)])


def _cell(sheet, value: report.Value, number_format: str | None = None, font: Font | None = None) -> WriteOnlyCell:
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
