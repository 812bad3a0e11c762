"""A table's phone: no login, the table's link (an unguessable token) is the key.

Every view resolves the token to its live TableLink first; a token that opens nothing
is a 404, and an address that keeps guessing is told to wait (429). Nothing here
reaches beyond the link's table: the boards it plays, its pairs, and the results the
movement has already shown it.

The pages work as plain forms (POST, then redirect back); table.js sends the same
forms from an outbox kept on the phone, so nothing typed is lost while the network is
away, and swaps in the page's main part from the answer.

Once the session is final the page still reads, and every write is answered 409 with
the page saying so (``refused_when_final``): table.js keeps what its outbox holds and
says the results are closed, rather than trying again.
"""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from sessions.clubs.selectors.players import player_names, players_of_club
from sessions.clubs.services.mail import table_player_email
from sessions.core.forms.errors import add_service_error
from sessions.core.selectors.scoring import scores_from_cache
from sessions.core.views.caching import cached_scores
from sessions.models import Board, TableLink
from sessions.pairs.selectors.lineups import seated_players
from sessions.phones.forms.table import DealForm, SeatsForm, SendForm, TableEmailForm
from sessions.phones.selectors.tables import (
    TablePage, session_read_again, table_link_by_token, table_page, table_setup, with_figures,
)
from sessions.phones.services.tables import (
    HAND_SEATS,
    SendOutcome,
    table_deal_enter,
    table_entry_confirm,
    table_entry_refuse,
    table_entry_send,
    table_seat_players,
)
from sessions.phones.views.phone import Phone, director_parts, link_required, refused_when_final, typed

table_link_required = link_required(table_link_by_token)


def _page(request: HttpRequest, link: TableLink, *, form: SendForm | None = None,
          outcome: SendOutcome | None = None, deal_form: DealForm | None = None, status: int = 200,
          parts: bool = False, lines_changed: bool = True) -> HttpResponse:
    """The table's page; to the phone's script its main part, or with ``parts`` (a Send, a
    Confirm or a Refuse) only the parts that post may change when the table is still in
    the round the phone shows (``shows_round``): without the traveller and the standings
    when it recorded no line (``lines_changed`` false: a send waiting for EW, refused)."""
    if request.method == "POST":
        # The link's session was read before the write bumped it: read its revision again
        # (one query), so that the page scores at the new one.
        session_read_again(link.session)
    # Through the kept figures, as the page's GET: after a phone's line only that board is
    # scored again (sessions.core.selectors.scoring), not the whole session for every post.
    with scores_from_cache():
        page = table_page(link=link, figures=False)
        posted = bool(request.htmx and parts and shows_round(request, page))
        if lines_changed or not posted:
            page = with_figures(page)
    context = {
        "page": page, "link": link, "form": form, "outcome": outcome, "action_urls": _urls(link),
        "needs_players": _needs_players(page), "lines_changed": lines_changed, **typed(page, form),
        **director_parts(link),
    }
    if not request.htmx:
        template = "phones/table/page.html"
    elif posted:
        template = "phones/table/_posted.html"
    else:
        template = "phones/table/_main.html"
    if template != "phones/table/_posted.html":  # the hands' form stays as it is on the phone
        context.update(_deal_parts(page, deal_form))
    return render(request, template, context, status=status)


def shows_round(request: HttpRequest, page: TablePage) -> bool:
    """The phone's script says which round its page shows (``X-Table-Round``, from the board
    in play's data-round): the table is still in it and open, so only the parts of the page a
    post changes need to go (phones/table/_posted.html); anything else, the whole main part."""
    shown = request.headers.get("X-Table-Round", "")
    return page.seating is not None and not page.closed and shown == str(page.seating.round)


def _deal_parts(page: TablePage, form: DealForm | None) -> dict[str, object]:
    """The round's boards without hands, which the table may type (a club that deals at
    the table), and what was typed when the hands were refused."""
    boards = [row.board for row in page.boards if not row.board.deal]
    typed = form.data if form is not None else {}
    return {
        "boards_without_hands": boards, "deal_form": form,
        "hand_fields": [(seat, seat.title(), typed.get(seat, "")) for seat in HAND_SEATS],
        "deal_key": typed.get("client_key") or uuid.uuid4().hex,
    }


def _urls(link: TableLink) -> dict[str, str]:
    return PHONE.action_urls(link, "players", "email", "deal")


def _needs_players(page: TablePage) -> bool:
    """At the start of the table's first round, before any board: ask who is playing."""
    seating = page.seating
    if seating is None or page.last_board is not None:
        return False
    return not all((seating.ns_pair.player_1, seating.ns_pair.player_2,
                    seating.ew_pair.player_1, seating.ew_pair.player_2))


def _back(request: HttpRequest, link: TableLink) -> HttpResponse:
    """After a plain form's POST: back to the page (a reload then repeats nothing)."""
    return PHONE.back(request, link)


def _board(link: TableLink, number: int) -> Board:
    """The deal the table's section plays as board ``number`` (from the table's setup, kept
    under the session's setup token as the page reads it: the service checks it again)."""
    board = table_setup(link).boards.get(number)
    if board is None:
        raise ValidationError(f"board {number} is not a board of this session")
    return board


def _board_number(link: TableLink, number: int) -> int:
    """``number``, once it is a board the table's section plays (a preview's check)."""
    return _board(link, number).number


@require_POST
@table_link_required
@refused_when_final(_page)
def table_deal(request: HttpRequest, link: TableLink) -> HttpResponse:
    """A board's hands typed at the table; refused hands come back as typed, to correct."""
    form = DealForm(request.POST)
    if not form.is_valid():
        return _page(request, link, deal_form=form)
    data = form.cleaned_data
    try:
        board = table_deal_enter(link=link, board=_board(link, data["board"]),
                                 hands={seat: data[seat] for seat in HAND_SEATS})
    except ValidationError as error:
        form.add_error(None, error)
        return _page(request, link, deal_form=form)
    messages.success(request, f"Board {board.number}: the hands are recorded.")
    return _back(request, link)


@require_http_methods(["GET", "POST"])
@table_link_required
@refused_when_final(_page)
def table_players(request: HttpRequest, link: TableLink) -> HttpResponse:
    """The players say who they are, at the start or at any round (a late change)."""
    page = table_page(link=link)
    seating = page.seating
    if seating is None:
        messages.info(request, "The table has played every round.")
        return redirect("sessions:table_page", token=link.token)
    if page.closed and request.method == "GET":  # a POST is the service's to refuse
        messages.info(request, "The session is final: the players can no longer be changed from this phone.")
        return redirect("sessions:table_page", token=link.token)
    current = seated_players(seating=seating)  # this round's players: a change holds from it
    form = SeatsForm(request.POST or None, players=players_of_club(club=link.session.event.club), current=current)
    if request.method == "POST" and form.is_valid():
        try:
            outcome = table_seat_players(link=link, seating=seating, seats=form.seats())
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, "Players: " + ("; ".join(outcome.changed) or "no change") + ".")
            return redirect("sessions:table_page", token=link.token)
    return render(request, "phones/table/players.html", {
        "page": page, "link": link, "form": form, "action_urls": _urls(link),
    })


@require_http_methods(["GET", "POST"])
@table_link_required
@refused_when_final(_page)
def table_email(request: HttpRequest, link: TableLink) -> HttpResponse:
    """A player at the table gives their e-mail address for their results, with their consent."""
    page = table_page(link=link)
    seating = page.seating
    if seating is None or (page.closed and request.method == "GET"):  # a POST is the service's to refuse
        messages.info(request, "Give your address to the director: this table has no round in play.")
        return redirect("sessions:table_page", token=link.token)
    seated = [player_id for player_id in seated_players(seating=seating).values() if player_id]
    names = player_names(player_ids=seated)
    form = TableEmailForm(request.POST or None, players=[(pk, names[pk]) for pk in seated if pk in names])
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            player = table_player_email(link=link, seating=seating, player_id=data["player"], email=data["email"],
                                        consent=data["consent"])
        except ValidationError as error:
            add_service_error(form, error)
        else:
            messages.success(request, f"{player.name}: your results will come by e-mail to {player.email}.")
            return redirect("sessions:table_page", token=link.token)
    return render(request, "phones/table/email.html", {"page": page, "link": link, "form": form, "action_urls": _urls(link)},
                  status=400 if form.errors else 200)


def _send(link: TableLink, number: int, **typed) -> SendOutcome:
    return table_entry_send(link=link, board=_board(link, number), **typed)


#: The pairs table's phone; its views as every phone's (views.phone).
PHONE = Phone(
    routes="table", lookup=table_link_by_token, page=_page, send=_send, confirm=table_entry_confirm,
    refuse=table_entry_refuse, board=_board_number, era=lambda link: link.session.event.deal_era,
    home_cache=cached_scores,  # the live ranking a table sees: scored once per revision, with the players' pages
)
