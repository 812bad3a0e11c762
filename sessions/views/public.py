"""The players' pages: no login, published sessions only.

Thin views: fetch the published object (anything unpublished or unknown is a 404, for
directors too: they have their own provisional pages), read one sheet from
sessions.selectors.public, wrap its rows in a table, render. Tables sort in Python on
?sort=, so sorting costs no query.

Until the director marks a session final its pages say "provisional", the results page
reloads itself, and the hands and their analysis stay hidden (the boards may not all
have been played); an event that shows the ranking only at the end hides it meanwhile.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django_tables2 import RequestConfig, Table

from sessions.selectors.analysis import board_analysis
from sessions.models import Club, Session
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
from sessions.selectors.teams import published_team_events
from sessions.tables import RankingTable, ScorecardTable, SessionListTable, TravellerTable

CLUB_SESSIONS_PER_PAGE = 25
#: Seconds between reloads of a provisional session's results page.
LIVE_REFRESH_SECONDS = 60


def _ranking_hidden(session: Session) -> bool:
    """The event shows the ranking only once the session is final, and it is not yet."""
    return not session.final and session.event.ranks_at_the_end


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
        "team_events": published_team_events().filter(club=club).order_by("-date", "name"),
    })


def session_results(request: HttpRequest, session_id: int) -> HttpResponse:
    session = get_object_or_404(published_sessions(), pk=session_id)
    sheet = results_sheet(session=session)
    hidden = _ranking_hidden(session)
    rankings = [] if hidden else [
        (ranking, _configured(request, RankingTable(
            ranking.rows, session_id=session.pk, is_matchpoints=sheet.is_matchpoints,
        )))
        for ranking in sheet.rankings
    ]
    return render(request, "public/session.html", {
        "session": session, "club": session.event.club, "sheet": sheet, "rankings": rankings,
        "ranking_hidden": hidden, "refresh": None if session.final else LIVE_REFRESH_SECONDS,
    })


def board(request: HttpRequest, session_id: int, number: int) -> HttpResponse:
    board = get_object_or_404(published_boards(), session_id=session_id, number=number)
    sheet = traveller_sheet(board=board)
    # One analysis for the panel (hands, DD table, par, chart) and the traveller's columns;
    # none before the session is final, when the board may still be in play elsewhere.
    analysis = board_analysis(board=board, results=[row.result for row in sheet.rows]) if board.session.final else None
    table = TravellerTable(sheet.rows, session_id=session_id, method=sheet.method, analysis=analysis)
    return render(request, "public/board.html", {
        "session": board.session, "club": board.session.event.club, "board": board, "sheet": sheet,
        "analysis": analysis, "table": _configured(request, table),
    })


def scorecard(request: HttpRequest, session_id: int, pair_id: int) -> HttpResponse:
    pair = get_object_or_404(published_pairs(), section__session_id=session_id, pk=pair_id)
    card = scorecard_sheet(pair=pair)
    session = pair.section.session
    hidden = _ranking_hidden(session)  # the pair's place and percentage are the ranking
    standing = None if hidden else card.standing
    table = ScorecardTable(
        card.rows, session_id=session_id, is_matchpoints=card.is_matchpoints,
        points_total=card.points_total, percentage=standing.percentage if standing else None,
    )
    return render(request, "public/scorecard.html", {
        "session": session, "club": session.event.club, "pair": pair, "card": card,
        "standing": standing, "ranking_hidden": hidden, "table": _configured(request, table),
    })
