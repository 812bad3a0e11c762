"""The API's routes: each finds what the viewer may see, reads one selector, answers.

Visibility is the players' pages' own (sessions.pairs.selectors.public: ``visible_*`` is
``published_*`` widened to a key's own club); anything else is a 404, as on the pages.
An event that shows its ranking only once the session is final keeps it hidden here
too (ranking_hidden), except from the club's own key.
"""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from ninja import Field, Router, Schema
from ninja.decorators import decorate_view
from ninja.pagination import PageNumberPagination, paginate

from sessions.models import Club, Event, Session
from sessions.pairs.selectors.events import event_ranking, events_with_club
from sessions.clubs.selectors.players import player_history, published_player, published_players
from sessions.pairs.selectors.public import (
    board_deals,
    chosen_deal,
    club_events,
    clubs_with_results,
    ranking_hidden,
    results_sheet,
    scorecard_sheet,
    traveller_sheet,
    visible_boards,
    visible_pairs,
    visible_club_sessions,
    visible_sessions,
)
from sessions.core.selectors.revisions import (
    Stamp,
    club_session_stamp,
    club_stamp,
    club_team_event_stamp,
    event_club_stamp,
    player_club_stamp,
    published_session_stamp,
    published_team_event_stamp,
)
from sessions.teams.selectors.teams import standing_rows, team_event_score, visible_club_team_events, visible_team_events

from sessions.api import schemas
from sessions.api.access import Viewer, by_revision, viewer_of

router = Router()

#: Rows a page of a list holds unless ``page_size`` asks for another (at most MAX_PAGE_SIZE).
PAGE_SIZE = 50
MAX_PAGE_SIZE = 500


class Pages(PageNumberPagination):
    """``?page=`` and ``?page_size=``, bounded: a page past any real list answers an empty
    page, never an offset the database cannot hold."""

    class Input(Schema):
        page: int = Field(1, ge=1, le=1_000_000)
        page_size: int | None = Field(None, ge=1, le=MAX_PAGE_SIZE)


def paged(view):
    return paginate(Pages, page_size=PAGE_SIZE, max_page_size=MAX_PAGE_SIZE)(view)


# --- what a request stands on (sessions.core.selectors.revisions) -------------------------------


def _session_stamp(viewer: Viewer, session_id: int, **_: object) -> Stamp | None:
    stamp = published_session_stamp(session_id=session_id)
    if stamp is None and viewer.club_id is not None:
        stamp = club_session_stamp(session_id=session_id, club_id=viewer.club_id)
    return stamp


def _team_event_stamp(viewer: Viewer, event_id: int, **_: object) -> Stamp | None:
    stamp = published_team_event_stamp(event_id=event_id)
    if stamp is None and viewer.club_id is not None:
        stamp = club_team_event_stamp(event_id=event_id, club_id=viewer.club_id)
    return stamp


def _club_stamp(viewer: Viewer, club_slug: str, **_: object) -> Stamp | None:
    return club_stamp(club_slug=club_slug)


def _event_stamp(viewer: Viewer, event_id: int, **_: object) -> Stamp | None:
    return event_club_stamp(event_id=event_id)


def _player_stamp(viewer: Viewer, player_id: int, **_: object) -> Stamp | None:
    return player_club_stamp(player_id=player_id)


# --- what the viewer may see ---------------------------------------------------------------


def _session(request: HttpRequest, session_id: int) -> Session:
    return get_object_or_404(visible_sessions(club_id=viewer_of(request).club_id), pk=session_id)


def _own(request: HttpRequest, club_id: int) -> bool:
    return viewer_of(request).club_id == club_id


def _ranking_hidden(request: HttpRequest, session: Session) -> bool:
    return ranking_hidden(session) and not _own(request, session.event.club_id)


# --- clubs ---------------------------------------------------------------------------------


@router.get("/clubs/", response=list[schemas.ClubOut], tags=["clubs"])
@decorate_view(by_revision(None))
@paged
def clubs(request: HttpRequest) -> QuerySet[Club]:
    """The clubs that have published results."""
    return clubs_with_results()


@router.get("/clubs/{slug:club_slug}/", response=schemas.ClubOut, tags=["clubs"])
@decorate_view(by_revision(_club_stamp))
def club(request: HttpRequest, club_slug: str) -> Club:
    return get_object_or_404(Club, slug=club_slug)


@router.get("/clubs/{slug:club_slug}/sessions/", response=list[schemas.SessionOut], tags=["clubs"])
@decorate_view(by_revision(_club_stamp))
@paged
def club_sessions(request: HttpRequest, club_slug: str) -> QuerySet[Session]:
    """The club's sessions, newest first: published ones (and all, for the club's own key)."""
    club = get_object_or_404(Club, slug=club_slug)
    return visible_club_sessions(club=club, club_id=viewer_of(request).club_id)


@router.get("/clubs/{slug:club_slug}/events/", response=list[schemas.EventOut], tags=["clubs"])
@decorate_view(by_revision(_club_stamp))
@paged
def club_event_list(request: HttpRequest, club_slug: str) -> QuerySet[Event]:
    """The club's events with a published session, most recently played first."""
    return club_events(club=get_object_or_404(Club, slug=club_slug))


@router.get("/clubs/{slug:club_slug}/players/", response=list[schemas.PlayerOut], tags=["players"])
@decorate_view(by_revision(_club_stamp))
@paged
def club_players(request: HttpRequest, club_slug: str):
    """The club's players who sat in a published session, by name."""
    return published_players(club=get_object_or_404(Club, slug=club_slug))


@router.get("/clubs/{slug:club_slug}/teams/", response=list[schemas.TeamEventListOut], tags=["teams"])
@decorate_view(by_revision(_club_stamp))
@paged
def club_team_events(request: HttpRequest, club_slug: str):
    club = get_object_or_404(Club, slug=club_slug)
    return visible_club_team_events(club=club, club_id=viewer_of(request).club_id)


# --- players and events --------------------------------------------------------------------


@router.get("/players/{int64:player_id}/", response=schemas.PlayerHistoryOut, tags=["players"])
@decorate_view(by_revision(_player_stamp))
def player(request: HttpRequest, player_id: int) -> dict:
    """A player's published sessions, newest first: partner, place and percentage."""
    found = published_player(player_id=player_id)
    if found is None:
        raise Http404("no such player")
    history = player_history(player=found)
    return {"player": found, "club": found.club.slug, "sessions": history.sessions}


@router.get("/events/{int64:event_id}/", response=schemas.EventRankingOut, tags=["events"])
@decorate_view(by_revision(_event_stamp))
def event(request: HttpRequest, event_id: int) -> dict:
    """An event's sessions ranked together (the club's own key counts its unpublished ones)."""
    found = get_object_or_404(events_with_club(), pk=event_id)
    ranking = event_ranking(event=found, published_only=not _own(request, found.club_id))
    if not ranking.sessions:
        raise Http404("no published session in this event")
    labels = {view.key: view.label for view in ranking.sessions}
    return {
        "id": found.pk, "name": found.name, "club": found.club.slug, "error": ranking.error,
        "sessions": [{"id": view.session.pk, "label": view.label, "name": view.session.name,
                      "date": view.session.date, "counted": view.counted} for view in ranking.sessions],
        "lines": [{"place": row.place, "name": row.name, "total": row.total, "played": row.standing.played,
                   "ranked": row.standing.ranked,
                   "sessions": {labels[key]: cell.score.score for key, cell in row.cells.items()}}
                  for row in ranking.rows],
    }


# --- a session -----------------------------------------------------------------------------


@router.get("/sessions/{int64:session_id}/", response=schemas.SessionDetailOut, tags=["sessions"])
@decorate_view(by_revision(_session_stamp))
def session(request: HttpRequest, session_id: int) -> dict:
    """A session: its fields (each ranked on its own), its boards and how it is scored."""
    found = _session(request, session_id)
    sheet = results_sheet(session=found)
    hidden = _ranking_hidden(request, found)
    return {
        "session": found, "method": found.event.method, "is_matchpoints": sheet.is_matchpoints,
        "ranking_hidden": hidden, "boards": sheet.boards, "note": sheet.note,
        "fields": [{"field": ranking.field, "title": ranking.title} for ranking in sheet.rankings],
        "penalties": [] if hidden else sheet.penalties,
    }


@router.get("/sessions/{int64:session_id}/ranking/", response=list[schemas.RankingLineOut], tags=["sessions"])
@decorate_view(by_revision(_session_stamp))
@paged
def session_ranking(request: HttpRequest, session_id: int, field: str | None = None) -> list:
    """Every field's ranking in turn, best first (``?field=NS`` for one field); empty while
    the event hides the ranking until the session is final."""
    found = _session(request, session_id)
    if _ranking_hidden(request, found):
        return []
    sheet = results_sheet(session=found)
    return [line for ranking in sheet.rankings if field in (None, ranking.field) for line in ranking.rows]


@router.get("/sessions/{int64:session_id}/boards/{int64:number}/", response=list[schemas.TravellerLineOut],
            tags=["sessions"])
@decorate_view(by_revision(_session_stamp))
@paged
def traveller(request: HttpRequest, session_id: int, number: int, section: str = ""):
    """A board's traveller, a page of lines at a time (``?section=B``: section B's deal
    when the sections played their own)."""
    deals = board_deals(boards=visible_boards(club_id=viewer_of(request).club_id), session_id=session_id, number=number)
    board = chosen_deal(deals, section)
    if board is None:
        raise Http404("no such board")
    return traveller_sheet(board=board).rows


@router.get("/sessions/{int64:session_id}/pairs/{int64:pair_id}/", response=schemas.ScorecardOut, tags=["sessions"])
@decorate_view(by_revision(_session_stamp))
def scorecard(request: HttpRequest, session_id: int, pair_id: int) -> dict:
    """A pair's score card: each board from its side, and its standing in its field."""
    pair = get_object_or_404(visible_pairs(club_id=viewer_of(request).club_id),
                             section__session_id=session_id, pk=pair_id)
    card = scorecard_sheet(pair=pair)
    hidden = _ranking_hidden(request, pair.section.session)
    return {
        "session_id": session_id, "pair": pair, "field_title": card.field_title, "field_size": card.field_size,
        "is_matchpoints": card.is_matchpoints, "standing": None if hidden else card.standing,
        "points_total": card.points_total, "boards": card.rows, "penalties": [] if hidden else card.penalties,
    }


# --- teams ---------------------------------------------------------------------------------


@router.get("/teams/{int64:event_id}/", response=schemas.TeamEventOut, tags=["teams"])
@decorate_view(by_revision(_team_event_stamp))
def team_event(request: HttpRequest, event_id: int) -> dict:
    """A teams event's standings, with each team's running VPs after every round."""
    found = get_object_or_404(visible_team_events(club_id=viewer_of(request).club_id), pk=event_id)
    score = team_event_score(found)
    return {
        "id": found.pk, "name": found.name, "date": found.date, "club": found.club.slug, "form": found.form,
        "final": found.final, "published": found.published, "rounds": score.rounds,
        "standings": [{"place": row.place, "team_id": row.team.pk, "team": row.team.name, "vp": row.total,
                       "imps_for": row.imps_for, "imps_against": row.imps_against,
                       "after_round": list(row.after_round)} for row in standing_rows(score)],
    }
