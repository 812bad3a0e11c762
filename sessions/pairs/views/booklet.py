"""The printable booklet of a session, and the paper forms of clubs that still score on paper.

The public booklet is a published session's (the hands and analysis once it is final, as
on the board pages); the director's is the same document for any session of the club,
with the hands whenever they are stored. The paper forms (blank travellers, pickup slips)
are the director's.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.contrib.auth.decorators import login_required
from django_tables2 import RequestConfig

from sessions.models import Handicap, Session
from sessions.core.permissions import directed_session
from sessions.pairs.selectors.booklet import Booklet, session_booklet, session_paper_forms
from sessions.pairs.selectors.public import published_sessions, ranking_hidden
from sessions.core.selectors.revisions import published_session_stamp
from sessions.pairs.tables import RankingTable, TravellerTable
from sessions.core.views.caching import cached_page
from sessions.pairs.views.unpublished import not_published_yet


def _unsorted(request: HttpRequest, table):
    table.orderable = False  # a printed page has no sorting links to follow
    RequestConfig(request, paginate=False).configure(table)
    return table


def _booklet_page(request: HttpRequest, session: Session, *, director: bool) -> HttpResponse:
    booklet: Booklet = session_booklet(session=session, with_analysis=director or session.final)
    hidden = not director and ranking_hidden(session)
    handicapped = session.event.handicap != Handicap.NONE
    rankings = [] if hidden else [
        (ranking, _unsorted(request, RankingTable(
            ranking.rows, session_id=session.pk, is_matchpoints=booklet.is_matchpoints, handicapped=handicapped,
        )))
        for ranking in booklet.rankings
    ]
    boards = [
        (entry, _unsorted(request, TravellerTable(
            entry.rows, session_id=session.pk, method=session.event.method, analysis=entry.analysis,
        )))
        for entry in booklet.boards
    ]
    return render(request, "pairs/public/booklet.html", {
        "session": session, "club": session.event.club, "booklet": booklet, "rankings": rankings,
        "ranking_hidden": hidden, "boards": boards, "director": director,
    })


@not_published_yet(Session, "session", "session_id")
@cached_page(published_session_stamp)
def booklet(request: HttpRequest, session_id: int) -> HttpResponse:
    session = get_object_or_404(published_sessions(), pk=session_id)
    return _booklet_page(request, session, director=False)



@login_required
def director_booklet(request: HttpRequest, session_id: int) -> HttpResponse:
    return _booklet_page(request, directed_session(request, session_id), director=True)


@login_required
def paper_forms(request: HttpRequest, session_id: int) -> HttpResponse:
    """Blank travellers (one per board, a row per table that plays it) and pickup slips
    (one per table per round), from the session's movement."""
    session = directed_session(request, session_id)
    return render(request, "pairs/director/paper_forms.html", {
        "session": session, "club": session.event.club, "forms": session_paper_forms(session=session),
    })
