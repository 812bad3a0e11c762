"""The players' pages: no login, published sessions only.

Thin views: fetch the published object (anything unpublished or unknown is a 404, for
directors too: they have their own provisional pages), read one sheet from
sessions.pairs.selectors.public, wrap its rows in a table, render. Tables sort in Python on
?sort=, so sorting costs no query.

Until the director marks a session final its pages say "provisional", the results page
reloads itself, and the hands and their analysis stay hidden (the boards may not all
have been played); an event that shows the ranking only at the end hides it meanwhile.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django_tables2 import RequestConfig, Table

from sessions.models import Club, Handicap, Session
from sessions.analysis.selectors.analysis import board_analysis
from sessions.clubs.selectors.competitions import competition_standings, competitions_with_club, event_competitions
from sessions.pairs.selectors.events import CombinedRanking, EventSessionView, event_ranking, events_with_club
from sessions.clubs.selectors.players import SEARCH_LIMIT, player_history, player_search, published_player
from sessions.core.selectors.revisions import (
    club_stamp,
    competition_club_stamp,
    event_club_stamp,
    player_club_stamp,
    published_session_stamp,
)
from sessions.pairs.selectors.public import (
    board_deals,
    chosen_deal,
    club_events,
    club_sessions,
    clubs_with_results,
    latest_sessions,
    published_boards,
    published_pairs,
    published_sessions,
    ranking_hidden,
    results_sheet,
    scorecard_sheet,
    traveller_sheet,
)
from sessions.teams.selectors.teams import visible_club_team_events
from sessions.core.views.caching import cached_page
from sessions.pairs.views.unpublished import not_published_yet
from sessions.pairs.tables import (
    CombinedTable, PlayerHistoryTable, RankingTable, ScorecardTable, SessionListTable, TravellerTable,
)
from sessions.core.tables_speed import ReadWhenShown

CLUB_SESSIONS_PER_PAGE = 25
#: Seconds between reloads of a provisional session's results page.
LIVE_REFRESH_SECONDS = 60
#: Rankings and travellers longer than this show a page at a time: a national simultaneous
#: pairs ranks 3,000 pairs a field and plays each board 3,000 times. A club's session
#: (at most 60 pairs a section) stays on one page, its links as they were.
LONG_TABLE_ROWS = 60


def _configured(request: HttpRequest, table: Table, paginate: bool | dict = False) -> Table:
    RequestConfig(request, paginate=paginate).configure(table)
    return table


def _long_configured(request: HttpRequest, table: Table, prefix: str = "") -> Table:
    """The table configured, a page at a time when it is long; ``prefix`` keeps the page
    and order of one long table apart from another's on the same page."""
    if len(table.data) <= LONG_TABLE_ROWS:
        return _configured(request, table)
    table.prefix = prefix
    return _configured(request, table, {"per_page": LONG_TABLE_ROWS})


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "pairs/public/home.html", {
        "clubs": clubs_with_results(), "sessions": latest_sessions(),
    })


@cached_page(club_stamp)
def club(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The club's own results page: its sessions newest first, its events, a player search."""
    club = get_object_or_404(Club, slug=club_slug)
    table = SessionListTable(club_sessions(club=club))
    return render(request, "pairs/public/club.html", {
        "club": club, "table": _configured(request, table, {"per_page": CLUB_SESSIONS_PER_PAGE}),
        "events": club_events(club=club),
        "team_events": visible_club_team_events(club=club),
    })


@cached_page(club_stamp)
def club_players(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The club's players whose name holds what was typed (a plain GET form: no script)."""
    club = get_object_or_404(Club, slug=club_slug)
    query = request.GET.get("q", "").strip()[:120]
    players = player_search(club=club, query=query) if query else []
    return render(request, "pairs/public/player_search.html", {
        "club": club, "query": query, "players": players, "limit": SEARCH_LIMIT,
    })


@cached_page(player_club_stamp)
def player(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player's published sessions: partner, score, place, and a chart of percentages."""
    player = published_player(player_id=player_id)
    if player is None:  # unknown, or seen only in sessions not published
        raise Http404("no such player")
    history = player_history(player=player)
    return render(request, "pairs/public/player.html", {
        "club": player.club, "player": player, "history": history,
        "table": _configured(request, PlayerHistoryTable(history.sessions)),
    })


@not_published_yet(Session, "session", "session_id")
@cached_page(published_session_stamp)
def session_results(request: HttpRequest, session_id: int) -> HttpResponse:
    session = get_object_or_404(published_sessions(), pk=session_id)
    sheet = results_sheet(session=session)
    hidden = ranking_hidden(session)
    rankings = [] if hidden else [
        (ranking, _long_configured(request, RankingTable(
            ranking.rows, session_id=session.pk, is_matchpoints=sheet.is_matchpoints, awards=sheet.awards,
            handicapped=session.event.handicap != Handicap.NONE, strata=sheet.strata,
        ), prefix=f"{ranking.field.replace(' ', '-').lower() or 'all'}-"))
        for ranking in sheet.rankings
    ]
    return render(request, "pairs/public/session.html", {
        "session": session, "club": session.event.club, "sheet": sheet, "rankings": rankings,
        "ranking_hidden": hidden, "refresh": None if session.final else LIVE_REFRESH_SECONDS,
    })


@not_published_yet(Session, "session", "session_id")
@cached_page(published_session_stamp)
def board(request: HttpRequest, session_id: int, number: int) -> HttpResponse:
    # Sections playing different deals have a traveller each: ``?section=B`` picks B's.
    deals = board_deals(boards=published_boards(), session_id=session_id, number=number)
    board = chosen_deal(deals, request.GET.get("section", ""))
    if board is None:
        raise Http404("no such board")
    sheet = traveller_sheet(board=board)
    # One analysis for the panel (hands, DD table, par, chart) and the traveller's columns;
    # none before the session is final, when the board may still be in play elsewhere.
    analysis = board_analysis(board=board, results=[row.result for row in sheet.rows]) if board.session.final else None
    table = TravellerTable(ReadWhenShown(sheet.rows), session_id=session_id, method=sheet.method, analysis=analysis)
    return render(request, "pairs/public/board.html", {
        "session": board.session, "club": board.session.event.club, "board": board, "sheet": sheet,
        "deals": deals if len(deals) > 1 else [],
        "analysis": analysis, "table": _long_configured(request, table),
    })


@not_published_yet(Session, "session", "session_id")
@cached_page(published_session_stamp)
def scorecard(request: HttpRequest, session_id: int, pair_id: int) -> HttpResponse:
    pair = get_object_or_404(published_pairs(), section__session_id=session_id, pk=pair_id)
    card = scorecard_sheet(pair=pair)
    session = pair.section.session
    hidden = ranking_hidden(session)  # the pair's place and percentage are the ranking
    standing = None if hidden else card.standing
    table = ScorecardTable(
        card.rows, session_id=session_id, is_matchpoints=card.is_matchpoints,
        points_total=card.points_total, percentage=standing.percentage if standing else None,
    )
    return render(request, "pairs/public/scorecard.html", {
        "session": session, "club": session.event.club, "pair": pair, "card": card,
        "standing": standing, "ranking_hidden": hidden, "table": _configured(request, table),
    })


def _public_session_link(view: EventSessionView) -> str:
    return reverse("sessions:session_results", args=[view.session.pk])


def combined_table(request: HttpRequest, ranking: CombinedRanking, session_link, card_links: bool = True) -> Table:
    """The event's combined ranking as a table (the players' page and the director's)."""
    table = CombinedTable(ranking.rows, ranking=ranking, session_link=session_link, card_links=card_links)
    return _configured(request, table)


@cached_page(competition_club_stamp)
def competition(request: HttpRequest, competition_id: int) -> HttpResponse:
    """A club competition over its event's published sessions, each competitor's sessions shown."""
    chosen = get_object_or_404(competitions_with_club(), pk=competition_id)
    table = competition_standings(competition=chosen)
    if not table.ranking.sessions:
        raise Http404("no published session in this competition")
    return render(request, "pairs/public/competition.html", {
        "competition": chosen, "event": chosen.event, "club": chosen.event.club, "table": table,
    })


@cached_page(event_club_stamp)
def event_results(request: HttpRequest, event_id: int) -> HttpResponse:
    """An event's sessions ranked together: published sessions only; none published is a 404."""
    event = get_object_or_404(events_with_club(), pk=event_id)
    ranking = event_ranking(event=event)
    if not ranking.sessions:
        raise Http404("no published session in this event")
    return render(request, "pairs/public/event.html", {
        "event": event, "club": event.club, "ranking": ranking,
        "table": combined_table(request, ranking, _public_session_link),
        "competitions": event_competitions(event=event),
    })
