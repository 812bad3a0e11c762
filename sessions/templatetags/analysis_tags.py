"""Hands, double-dummy analysis and charts on the players' pages, with no view change.

``{% board_analysis_panel %}`` on a board page and ``{% scorecard_analysis %}`` on a
score card read the objects the page already has (``board`` and the traveller
``sheet``, or the board's ``analysis`` when the view read it for the traveller's
columns; ``pair`` and the score ``card``) and add at most one query each (the
analyses). They show nothing for an unpublished session: the players' pages are for
published sessions only.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import mark_safe

from sessions.analysis.selectors.analysis import board_analysis, pair_par_summary
from sessions.handrecords import percentages_svg
from sessions.handrecords.deals import SUIT_NAMES, SUIT_SYMBOLS
from sessions.scoring.rounding import round_to_places

register = template.Library()

_NAMES_BY_SYMBOL = {symbol: SUIT_NAMES[letter] for letter, symbol in SUIT_SYMBOLS.items()}


def _results_of(rows: Any) -> list | None:
    """The Result objects behind a page's rows (TravellerRow.result, ScorecardRow.line.result)."""
    if rows is None:
        return None
    return [getattr(getattr(row, "line", row), "result", row) for row in rows]


@register.inclusion_tag("analysis/_board_analysis.html", takes_context=True)
def board_analysis_panel(context: template.Context) -> dict[str, Any]:
    board = context["board"]
    if not board.session.published:
        return {"view": None}
    view = context.get("analysis")
    if view is None:
        sheet = context.get("sheet")
        view = board_analysis(board=board, results=_results_of(getattr(sheet, "rows", None)))
    return {"view": view}


@register.inclusion_tag("analysis/_scorecard_analysis.html", takes_context=True)
def scorecard_analysis(context: template.Context) -> dict[str, Any]:
    pair = context["pair"]
    if not pair.section.session.published:
        return {"summary": None}
    card = context.get("card")
    rows = getattr(card, "rows", None)
    chart = None
    if rows and getattr(card, "is_matchpoints", False):
        # charts.py escapes every text it writes, the caller's title included.
        chart = mark_safe(percentages_svg([(row.board, row.percent) for row in rows],  # noqa: S308
                                          title=f"Pair {pair.label}: percentage on each board"))
    return {"summary": pair_par_summary(pair=pair, results=_results_of(rows)), "chart": chart}


@register.filter
def suit_name(symbol: str) -> str:
    """"♠" -> "spades", for screen readers."""
    return _NAMES_BY_SYMBOL.get(symbol, symbol)


@register.filter
def tricks_diff(value: Any) -> str:
    """A difference in tricks, signed, 2 decimals for an average: "+1", "-0.33", "0"."""
    if value is None or value == "":
        return ""
    if value == 0:
        return "0"
    if getattr(value, "denominator", 1) == 1:
        return f"{int(value):+d}"
    text = str(round_to_places(value, 2))
    return text if text.startswith("-") else f"+{text}"
