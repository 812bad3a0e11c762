"""The players' pages: no login, published sessions only.

Thin views: fetch the published object (anything unpublished or unknown is a 404, for
directors too: they have their own provisional pages), read one sheet from
sessions.selectors.public, wrap its rows in a table, render. Tables sort in Python on
?sort=, so sorting costs no query.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django_tables2 import RequestConfig, Table

from sessions.analysis.selectors import board_analysis
from sessions.models import Club
from sessions.selectors.public import (
    club_sessions,
    clubs_with_results,
    latest_sessions,
    published_boards,
    published_pairs,
    published_sessions,
    results_sheet,
    scorecard_sheet,
    traveller_sheet,
)
from sessions.tables import RankingTable, ScorecardTable, SessionListTable, TravellerTable

CLUB_SESSIONS_PER_PAGE = 25


def _configured(request: HttpRequest, table: Table, paginate: bool | dict = False) -> Table:
    RequestConfig(request, paginate=paginate).configure(table)
    return table


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "public/home.html", {
        "clubs": clubs_with_results(), "sessions": latest_sessions(),
    })


def club(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=club_slug)
    table = SessionListTable(club_sessions(club=club))
    return render(request, "public/club.html", {
        "club": club, "table": _configured(request, table, {"per_page": CLUB_SESSIONS_PER_PAGE}),
    })


def session_results(request: HttpRequest, session_id: int) -> HttpResponse:
    session = get_object_or_404(published_sessions(), pk=session_id)
    sheet = results_sheet(session=session)
    rankings = [
        (ranking, _configured(request, RankingTable(
            ranking.rows, session_id=session.pk, is_matchpoints=sheet.is_matchpoints,
        )))
        for ranking in sheet.rankings
    ]
    return render(request, "public/session.html", {
        "session": session, "club": session.event.club, "sheet": sheet, "rankings": rankings,
    })


def board(request: HttpRequest, session_id: int, number: int) -> HttpResponse:
    board = get_object_or_404(published_boards(), session_id=session_id, number=number)
    sheet = traveller_sheet(board=board)
    # One analysis for the panel (hands, DD table, par, chart) and the traveller's columns.
    analysis = board_analysis(board=board, results=[row.result for row in sheet.rows])
    table = TravellerTable(sheet.rows, session_id=session_id, method=sheet.method, analysis=analysis)
    return render(request, "public/board.html", {
        "session": board.session, "club": board.session.event.club, "board": board, "sheet": sheet,
        "analysis": analysis, "table": _configured(request, table),
    })


def scorecard(request: HttpRequest, session_id: int, pair_id: int) -> HttpResponse:
    pair = get_object_or_404(published_pairs(), section__session_id=session_id, pk=pair_id)
    card = scorecard_sheet(pair=pair)
    standing = card.standing
    table = ScorecardTable(
        card.rows, session_id=session_id, is_matchpoints=card.is_matchpoints,
        points_total=card.points_total, percentage=standing.percentage if standing else None,
    )
    session = pair.section.session
    return render(request, "public/scorecard.html", {
        "session": session, "club": session.event.club, "pair": pair, "card": card,
        "table": _configured(request, table),
    })
