"""A teams room's phone: as a pairs table's, for one room of one match (its views: views.phone).

The same token check and throttle, the same forms, the same page part for the board in
play and the same script (static/js/table.js, with its outbox); only what the page says
around it (the match, the room, the teams and their players, the IMPs) is the room's.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from sessions.models import MatchTableLink
from sessions.phones.forms.table import SendForm
from sessions.phones.selectors.team_tables import match_table_link_by_token, room_page
from sessions.phones.services.tables import SendOutcome
from sessions.phones.services.team_tables import match_table_confirm, match_table_refuse, match_table_send
from sessions.phones.views.phone import Phone, director_parts, typed


def _page(request: HttpRequest, link: MatchTableLink, *, form: SendForm | None = None,
          outcome: SendOutcome | None = None, status: int = 200, parts: bool = False,
          lines_changed: bool = True) -> HttpResponse:
    """The room's page; to the phone's script its main part, whole after any post (``parts``
    and ``lines_changed`` are the pairs table's)."""
    page = room_page(link=link)
    context = {**director_parts(link), "page": page, "link": link, "form": form, "outcome": outcome,
               "action_urls": PHONE.action_urls(link), **typed(page, form)}
    template = "phones/table/_team_main.html" if request.htmx else "phones/table/team_page.html"
    return render(request, template, context, status=status)


def _send(link: MatchTableLink, number: int, **typed) -> SendOutcome:
    return match_table_send(link=link, board=number, **typed)


def _board(link: MatchTableLink, number: int) -> int:
    if number not in link.match.board_numbers:
        raise ValidationError(f"board {number} is not a board of this match")
    return number


#: A teams room's phone; its views as every phone's (views.phone).
PHONE = Phone(routes="team_table", lookup=match_table_link_by_token, page=_page, send=_send,
              confirm=match_table_confirm, refuse=match_table_refuse, board=_board)
