"""A teams room's phone: as a pairs table's (views.table), for one room of one match.

The same token check and throttle, the same forms, the same page part for the board in
play and the same script (static/js/table.js, with its outbox); only what the page says
around it (the match, the room, the teams and their players, the IMPs) is the room's.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from sessions.phones.forms.table import SendForm
from sessions.models import MatchTableLink
from sessions.phones.selectors.team_tables import match_table_link_by_token, room_page
from sessions.phones.services.tables import SendOutcome
from sessions.phones.services.team_tables import match_table_confirm, match_table_refuse, match_table_send

from sessions.phones.views.table import (
    call_director, director_parts, entry_action, link_required, preview, refused_when_final, send_action,
    service_worker, typed,
)

room_link_required = link_required(match_table_link_by_token)


def _urls(link: MatchTableLink) -> dict[str, str]:
    return {
        name: reverse(f"sessions:team_table_{name}", args=[link.token])
        for name in ("page", "send", "confirm", "refuse", "preview", "sw", "call")
    }


def _page(request: HttpRequest, link: MatchTableLink, *, form: SendForm | None = None,
          outcome: SendOutcome | None = None, status: int = 200) -> HttpResponse:
    page = room_page(link=link)
    context = {**director_parts(link), "page": page, "link": link, "form": form, "outcome": outcome,
               "action_urls": _urls(link), **typed(page, form)}
    template = "phones/table/_team_main.html" if request.htmx else "phones/table/team_page.html"
    return render(request, template, context, status=status)


def _back(request: HttpRequest, link: MatchTableLink) -> HttpResponse:
    if request.htmx:
        return _page(request, link)
    return redirect("sessions:team_table_page", token=link.token)


@require_POST
@room_link_required
@refused_when_final(_page)
def team_table_call(request: HttpRequest, link: MatchTableLink) -> HttpResponse:
    """The room's "Call the director", as a pairs table's (views.table.call_director)."""
    call_director(request, link)
    return _back(request, link)


@require_GET
@room_link_required
def team_table_home(request: HttpRequest, link: MatchTableLink) -> HttpResponse:
    return _page(request, link)


@require_POST
@room_link_required
@refused_when_final(_page)
def team_table_send(request: HttpRequest, link: MatchTableLink) -> HttpResponse:
    def send(number: int, **typed) -> SendOutcome:
        return match_table_send(link=link, board=number, **typed)

    return send_action(request, link, send, page=_page, answer=_back)


@require_POST
@room_link_required
@refused_when_final(_page)
def team_table_confirm(request: HttpRequest, link: MatchTableLink) -> HttpResponse:
    return entry_action(request, link, match_table_confirm, _back)


@require_POST
@room_link_required
@refused_when_final(_page)
def team_table_refuse(request: HttpRequest, link: MatchTableLink) -> HttpResponse:
    return entry_action(request, link, match_table_refuse, _back)


@require_GET
@room_link_required
def team_table_preview(request: HttpRequest, link: MatchTableLink) -> HttpResponse:
    def board(number: int) -> int:
        if number not in link.match.board_numbers:
            raise ValidationError(f"board {number} is not a board of this match")
        return number

    return preview(request, board=board)


@require_GET
@room_link_required
def team_table_service_worker(request: HttpRequest, link: MatchTableLink) -> HttpResponse:
    return service_worker(reverse("sessions:team_table_page", args=[link.token]))
