"""The director's phones page for a teams round: each room's link and QR code, renew and
revoke, and where each table is (the board it is on, a send waiting for the opponents).

As views/director_tables.py for pairs: login required, every object through
get_club_object_or_404, each change a POST answered with a redirect and a message;
reading the page changes nothing (links are made by its "Make links" button).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from sessions.models import MatchTableLink, TeamEvent
from sessions.core.permissions import get_club_object_or_404, htmx_login_required
from sessions.phones.selectors.team_tables import round_has_matches, round_tables
from sessions.phones.services.phone_links import phone_link_renew, phone_link_revoke
from sessions.phones.services.team_tables import match_table_links_ensure

from sessions.pairs.views.live import POLL_LOGGED_OUT, STOP_POLLING


def _event(request: HttpRequest, event_id: int) -> TeamEvent:
    return get_club_object_or_404(request.user, TeamEvent, pk=event_id)


def _back(event: TeamEvent, round: int) -> HttpResponse:
    return redirect("sessions:director_team_round_tables", event_id=event.pk, round=round)


@login_required
@require_GET
def team_round_tables(request: HttpRequest, event_id: int, round: int) -> HttpResponse:
    """Both rooms of each match of the round: link, QR code, and the board each is on."""
    event = _event(request, event_id)
    rows = round_tables(event=event, round=round)
    if not rows and not round_has_matches(event=event, round=round):
        raise Http404("no such round")
    return render(request, "phones/director/round_tables.html", {
        "club": event.club, "event": event, "round": round, "rows": rows,
        "without_link": sum(1 for row in rows if row.link is None),
    })


#: A poll after the director's login expired: stop polling, with a note.
_poll_login_required = htmx_login_required(lambda: HttpResponse(POLL_LOGGED_OUT, status=STOP_POLLING))


@_poll_login_required
@require_GET
def team_round_progress(request: HttpRequest, event_id: int, round: int) -> HttpResponse:
    """The page's "tables now" part alone (the page polls it while the tables play)."""
    event = _event(request, event_id)
    return render(request, "phones/director/_round_progress.html", {
        "event": event, "round": round, "rows": round_tables(event=event, round=round),
    })


@login_required
@require_POST
def team_round_links_make(request: HttpRequest, event_id: int, round: int) -> HttpResponse:
    event = _event(request, event_id)
    try:
        links = match_table_links_ensure(event=event, round=round)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    except IntegrityError:  # made from another page at the same moment
        messages.info(request, "The links were made meanwhile: the page shows them.")
    else:
        messages.success(request, f"Every table of round {round} has a live link ({len(links)} tables).")
    return _back(event, round)


def _change(request: HttpRequest, event_id: int, link_id: int, renew: bool) -> HttpResponse:
    event = _event(request, event_id)
    link = get_club_object_or_404(request.user, MatchTableLink, pk=link_id, match__event=event)
    name = f"{link.match.home} v {link.match.away}, {link.get_room_display().split(' (')[0].lower()}"
    if not link.live:
        messages.info(request, f"{name}: that link was already renewed or revoked; nothing changed.")
    elif renew:
        try:
            phone_link_renew(link=link)
        except IntegrityError:
            messages.error(request, f"{name}: the link changed meanwhile; the page shows the table's link now.")
        else:
            messages.success(request, f"{name}: new link made. The old link no longer opens the table.")
    else:
        phone_link_revoke(link=link)
        messages.success(request, f"{name}: link revoked. Make the links again to give the table a new one.")
    return _back(event, link.match.round)


@login_required
@require_POST
def team_table_link_renew_view(request: HttpRequest, event_id: int, link_id: int) -> HttpResponse:
    return _change(request, event_id, link_id, renew=True)


@login_required
@require_POST
def team_table_link_revoke_view(request: HttpRequest, event_id: int, link_id: int) -> HttpResponse:
    return _change(request, event_id, link_id, renew=False)
