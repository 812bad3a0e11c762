"""The one seam where ClubScore speeds up django-tables2 (2.7), and nothing else does.

django-tables2 works out, on every cell, what is the same for every cell of a column:
the signature of the column's render function (``inspect.signature``, some 50 µs, 40%
of a ranking page of 2 x 60 rows) and the cell's ``<td>`` attributes. A national
simultaneous pairs shows 2 x 60 ranked pairs a page and a board's traveller hundreds of
lines, so PublicTable (sessions.pairs.tables) calls ``speed_up`` to work them out once a table:

- ``render`` carries its ``__signature__``, which ``inspect`` answers at once;
- ``td_attrs``: the column's ``<td>`` attributes as HTML, read by ``core/public/table.html``
  (which writes the row as django-tables2's own template does, with them).

Both lean on django-tables2 internals (it inspects ``column.render`` for the arguments
to pass; no column of ours computes its cell attributes from the row), so they are here,
behind one switch: ``SPEED_UP = False`` gives django-tables2's own per-cell work, the
same page. ``tests/test_tables_speed.py`` renders every kind of public table both ways
and asserts the same HTML (an upgrade that breaks an assumption fails there);
``bench/tables2_seam.py`` prints what the seam saves. Nothing here is ours to upstream
as is: django-tables2 would need to cache a column's render signature itself (its
``call_with_appropriate`` inspects per call).

``ReadWhenShown`` is the other speed-up: table data that reads only the rows a page
shows (selectors.public.BoardRows), through django-tables2's public TableListData.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

from django_tables2.data import TableListData

#: Off: every cell as django-tables2 works it out (the seam's test and benchmark turn it off).
SPEED_UP = True


def speed_up(table) -> None:
    """Work out once a table what django-tables2 works out once a cell (see the module)."""
    for column in table.columns.iterall():
        if SPEED_UP:
            column.render = _inspected_once(column.render)
            column.td_attrs = column.attrs["td"].as_html()
        else:
            column.td_attrs = _PerCell(column)


def _inspected_once(render: Callable) -> Callable:
    """``render`` carrying its signature, so django-tables2's inspection answers at once."""

    def call(**kwargs):  # (tables2 passes the arguments by name)
        return render(**kwargs)

    call.__signature__ = inspect.signature(render)  # type: ignore[attr-defined]
    return call


class _PerCell:
    """A column's ``<td>`` attributes worked out each time a cell is written, as
    django-tables2's own template does (``column.attrs.td.as_html``)."""

    def __init__(self, column) -> None:
        self.column = column

    def __str__(self) -> str:
        return self.column.attrs["td"].as_html()


class ReadWhenShown(TableListData):
    """Table data that reads only the rows a page shows (selectors.public.BoardRows):
    sorting by a column reads them all first."""

    def order_by(self, aliases) -> None:
        self.data = list(self.data)
        super().order_by(aliases)
