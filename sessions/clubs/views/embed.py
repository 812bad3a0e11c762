"""Embeds: a club's latest results and a session's ranking, for a frame on its own site.

Small pages with no header, no navigation and a narrow-column style (static/css/embed.css);
every link opens the full page in a new tab. Served like the players' pages, published
results only and from the cache by revision; the stamps they stand on carry the club's
``frame_origins``, which sessions.core.views.caching turns into the page's
``Content-Security-Policy: frame-ancestors`` (no X-Frame-Options). A club that lists no
site keeps frame-ancestors 'none': nobody may frame them yet.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from sessions.models import Club
from sessions.pairs.selectors.public import club_sessions, published_sessions, ranking_hidden, results_sheet
from sessions.core.selectors.revisions import club_embed_stamp, published_session_stamp
from sessions.core.views.caching import cached_page

#: The earlier sessions the latest-results embed links to, below the latest's ranking.
EARLIER_SESSIONS = 5


def _ranking_context(session) -> dict:
    hidden = ranking_hidden(session)
    return {"session": session, "ranking_hidden": hidden, "sheet": None if hidden else results_sheet(session=session)}


@cached_page(club_embed_stamp)
def latest(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The club's latest published session's ranking, and links to the few before it."""
    club = get_object_or_404(Club, slug=club_slug)
    sessions = list(club_sessions(club=club)[:EARLIER_SESSIONS + 1])
    context = _ranking_context(sessions[0]) if sessions else {"session": None}
    return render(request, "clubs/embed/latest.html", {"club": club, "earlier": sessions[1:], **context})


@cached_page(published_session_stamp)
def session_ranking(request: HttpRequest, session_id: int) -> HttpResponse:
    """One published session's ranking (each field's), compact."""
    session = get_object_or_404(published_sessions(), pk=session_id)
    return render(request, "clubs/embed/session.html", {"club": session.event.club, **_ranking_context(session)})
