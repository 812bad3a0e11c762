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

import functools
import uuid
from collections.abc import Callable
from functools import wraps
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from clubscore.client_address import client_address
from sessions.core import throttle
from sessions.models import Board, CallReason, MatchTableLink, Session, TableLink
from sessions.scoring.errors import ScoringError
from sessions.scoring.notation import ns_score, parse_result
from sessions.pairs.selectors.lineups import seated_players
from sessions.clubs.selectors.players import player_names, players_of_club
from sessions.phones.selectors.tables import TablePage, table_link_by_token, table_page, table_setup
from sessions.phones.selectors.calls import table_call
from sessions.phones.selectors.clock import round_clock
from sessions.phones.services.calls import director_call
from sessions.clubs.services.mail import table_player_email
from sessions.core.forms.errors import add_service_error
from sessions.core.services.errors import EntryClosed
from sessions.templatetags.table_phone import preview_reading
from sessions.phones.services.tables import (
    HAND_SEATS,
    SendOutcome,
    table_deal_enter,
    table_entry_confirm,
    table_entry_refuse,
    table_entry_send,
    table_seat_players,
)
from sessions.phones.forms.table import CallForm, DealForm, EntryKeyForm, SeatsForm, SendForm, TableEmailForm
from sessions.core.values import is_token, parse_number
from sessions.core.selectors.scoring import scores_from_cache
from sessions.core.views.caching import cached_scores

def link_required(lookup: Callable[[str], object | None]):
    """A decorator: resolve ``token`` through ``lookup`` to its live link (passed as
    ``link``); a token that opens nothing is a 404, and an address that keeps trying such
    tokens waits (429; sessions/core/throttle.py). A valid link always opens, whatever its
    address tried before. Shared by the pairs tables' and the teams rooms' phones (the
    same throttle counts both)."""

    def decorator(view):
        @wraps(view)
        def wrapper(request: HttpRequest, token: str, *args, **kwargs) -> HttpResponse:
            # A token the app could not have made (a NUL, which PostgreSQL refuses in any
            # text, a "%") is a guess like any unknown one, and never reaches the database.
            link = lookup(token) if is_token(token) else None
            if link is not None:
                return view(request, link, *args, **kwargs)
            if throttle.miss(client_address(request)):
                return HttpResponse(
                    "Too many unknown table links from this address: wait ten minutes, or ask the director "
                    "for your table's card.", status=429, content_type="text/plain",
                )
            raise Http404("this table link is not valid: it may have been renewed; ask the director")

        return wrapper

    return decorator


table_link_required = link_required(table_link_by_token)


def refused_when_final(page: Callable[..., HttpResponse]):
    """A decorator for a phone's writing view (after ``link_required``): a write the service
    refused because the session or teams event is final (EntryClosed) is answered 409 with
    ``page`` (the phone's page, which says so), never as a mistake in what was typed.
    Shared by the pairs tables' and the teams rooms' phones."""

    def decorator(view):
        @wraps(view)
        def wrapper(request: HttpRequest, link, *args, **kwargs) -> HttpResponse:
            try:
                return view(request, link, *args, **kwargs)
            except EntryClosed as closed:
                messages.error(request, str(closed))
                return page(request, link, status=409)

        return wrapper

    return decorator


#: The session's own columns, read again after a post (not its event, read with the link).
SESSION_COLUMNS = [field.attname for field in Session._meta.concrete_fields if field.name != "event"]


def _page(request: HttpRequest, link: TableLink, *, form: SendForm | None = None,
          outcome: SendOutcome | None = None, deal_form: DealForm | None = None, status: int = 200,
          parts: bool = False) -> HttpResponse:
    """The table's page; to the phone's script its main part, or with ``parts`` (a Send, a
    Confirm or a Refuse) only the parts that post may change when the table is still in
    the round the phone shows (``shows_round``)."""
    if request.method == "POST":
        # The link's session was read before the write bumped it: read its revision again
        # (one query), so that the page scores at the new one.
        link.session.refresh_from_db(fields=SESSION_COLUMNS)
    # Through the kept figures, as the page's GET: after a phone's line only that board is
    # scored again (sessions.core.selectors.scoring), not the whole session for every post.
    with scores_from_cache():
        page = table_page(link=link)
    context = {
        "page": page, "link": link, "form": form, "outcome": outcome, "action_urls": _urls(link),
        "needs_players": _needs_players(page), **typed(page, form), **director_parts(link),
    }
    if not request.htmx:
        template = "phones/table/page.html"
    elif parts and shows_round(request, page):
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


def refresh_ms() -> int:
    """How often a phone asks for what changes without it (``TABLE_REFRESH_SECONDS``)."""
    return int(getattr(settings, "TABLE_REFRESH_SECONDS", 15) * 1000)


def director_parts(link: TableLink | MatchTableLink) -> dict[str, object]:
    """What a table's (or teams room's) phone shows of the director: its call, the round clock."""
    now = timezone.now()
    timed = {"team_event": link.match.event} if isinstance(link, MatchTableLink) else {"session": link.session}
    call, clock = table_call(link=link, now=now), round_clock(**timed, now=now)
    return {
        "call": call, "now": now, "call_reasons": CallReason.choices[1:], "call_key": uuid.uuid4().hex,
        "clock": clock, "refresh_ms": refresh_ms(),
    }


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


def typed(page, form: SendForm | None) -> dict[str, str]:
    """What the send form shows: what was just typed (refused or to check), else the
    result the opponents refused, to correct; and the key of this send."""
    if form is not None:
        data = form.data
        return {"typed_text": data.get("text", ""), "typed_lead": data.get("lead", ""),
                "client_key": data.get("client_key") or uuid.uuid4().hex}
    refused = page.in_play.refused if page.in_play else None
    return {"typed_text": refused.text if refused else "", "typed_lead": refused.lead if refused else "",
            "client_key": uuid.uuid4().hex}


def _urls(link: TableLink) -> dict[str, str]:
    return {
        name: reverse(f"sessions:table_{name}", args=[link.token])
        for name in ("page", "send", "confirm", "refuse", "preview", "players", "sw", "call", "email", "deal")
    }


def _needs_players(page: TablePage) -> bool:
    """At the start of the table's first round, before any board: ask who is playing."""
    seating = page.seating
    if seating is None or page.last_board is not None:
        return False
    return not all((seating.ns_pair.player_1, seating.ns_pair.player_2,
                    seating.ew_pair.player_1, seating.ew_pair.player_2))


def _back(request: HttpRequest, link: TableLink, *, parts: bool = False) -> HttpResponse:
    """After a plain form's POST: back to the page (a reload then repeats nothing)."""
    if request.htmx:
        return _page(request, link, parts=parts)
    return redirect("sessions:table_page", token=link.token)


def _answer(request: HttpRequest, link: TableLink) -> HttpResponse:
    """After a Send, a Confirm or a Refuse: back to the page, the script told only what changed."""
    return _back(request, link, parts=True)


@require_GET
@cached_scores  # the live ranking a table sees: scored once per revision, with the players' pages
@table_link_required
def table_home(request: HttpRequest, link: TableLink) -> HttpResponse:
    return _page(request, link)


def _board(link: TableLink, number: int) -> Board:
    """The deal the table's section plays as board ``number`` (from the table's setup, kept
    under the session's setup token as the page reads it: the service checks it again)."""
    board = table_setup(link).boards.get(number)
    if board is None:
        raise ValidationError(f"board {number} is not a board of this session")
    return board


@require_POST
@table_link_required
@refused_when_final(_page)
def table_send(request: HttpRequest, link: TableLink) -> HttpResponse:
    def send(number: int, **typed) -> SendOutcome:
        return table_entry_send(link=link, board=_board(link, number), **typed)

    return send_action(request, link, send, page=functools.partial(_page, parts=True), answer=_answer)


def send_action(request: HttpRequest, link, send: Callable[..., SendOutcome], *, page, answer) -> HttpResponse:
    """NS's Send on a pairs table's or a teams room's phone: the form, then ``send`` (the
    service, given the board's number and what was typed), then ``answer``; a refusal, or
    warnings to look at again, come back on ``page`` with the form as typed."""
    form = SendForm(request.POST)
    if not form.is_valid():
        return page(request, link, form=form)
    data = form.cleaned_data
    try:
        outcome = send(data["board"], text=data["text"], lead=data["lead"], client_key=data["client_key"],
                       accept_warnings=data["accept_warnings"])
    except ValidationError as error:
        about_the_boxes = hasattr(error, "error_dict") and set(error.error_dict) <= {"text", "lead"}
        form.add_error(None, error if about_the_boxes else error.messages)  # shown under the box it is about
        return page(request, link, form=form)
    if outcome.needs_check:  # nothing stored: a second look at the warnings first
        return page(request, link, form=form, outcome=outcome)
    if outcome.stored is not None and outcome.entry is None:
        messages.info(request, f"Board {data['board']} is already recorded: {outcome.stored.text}.")
    return answer(request, link)


def entry_action(request: HttpRequest, link, action, back=None) -> HttpResponse:
    """EW's confirm or refuse button on a pairs table's or a teams room's phone: ``action``
    (the service) with the send's client key, then ``back`` to the phone's page."""
    back = back or _back
    form = EntryKeyForm(request.POST)
    if not form.is_valid():
        messages.error(request, "That button belongs to an old page: here is the table as it is now.")
        return back(request, link)
    try:
        action(link=link, client_key=form.cleaned_data["client_key"])
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return back(request, link)


@require_POST
@table_link_required
@refused_when_final(_page)
def table_confirm(request: HttpRequest, link: TableLink) -> HttpResponse:
    return entry_action(request, link, table_entry_confirm, _answer)


@require_POST
@table_link_required
@refused_when_final(_page)
def table_refuse(request: HttpRequest, link: TableLink) -> HttpResponse:
    return entry_action(request, link, table_entry_refuse, _answer)


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


@require_POST
@table_link_required
@refused_when_final(_page)
def table_call_director(request: HttpRequest, link: TableLink) -> HttpResponse:
    """The table's "Call the director": one call per press key, one open call per table."""
    call_director(request, link)
    return _back(request, link)


def call_director(request: HttpRequest, link: TableLink | MatchTableLink) -> None:
    """A press of "Call the director" on a table's or a teams room's phone (the caller answers)."""
    form = CallForm(request.POST)
    if not form.is_valid():
        messages.error(request, "That button belongs to an old page: press Call the director again.")
        return
    data = form.cleaned_data
    director_call(link=link, client_key=data["client_key"], round=data["round"], reason=data["reason"])


@require_GET
@table_link_required
def table_preview(request: HttpRequest, link: TableLink) -> HttpResponse:
    # Scored under the event's laws, as the pages will show it (its era: usually today's).
    return preview(request, board=lambda number: _board(link, number).number, era=link.session.event.deal_era)


def preview(request: HttpRequest, *, board: Callable[[int], int], era: str = "current") -> HttpResponse:
    """The score of what is typed, before sending (the engine's parser, nothing stored), on
    a pairs table's or a teams room's phone: ``board`` checks that the board asked about
    (``?board=``) is one the phone plays (ValidationError if not)."""
    text = request.GET.get("text", "")[:SendForm.base_fields["text"].max_length]
    try:
        number = parse_number(request.GET.get("board", ""))
        if number is None:
            raise ValidationError("choose the board")
        number = board(number)
        result = parse_result(text, number)
        score = ns_score(result, number, era)
    except (ValueError, ValidationError, ScoringError) as error:
        message = error.messages[0] if isinstance(error, ValidationError) else str(error)
        return render(request, "phones/table/_preview.html", {"error": message if text.strip() else ""})
    return render(request, "phones/table/_preview.html", preview_reading(text, result, score))


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


SERVICE_WORKER = Path(settings.BASE_DIR) / "static" / "js" / "table-sw.js"


def service_worker(scope: str) -> HttpResponse:
    """The phone's service worker (static/js/table-sw.js), served under the table's link so
    that it may keep that table's page for a reload without network, and nothing else."""
    response = HttpResponse(SERVICE_WORKER.read_bytes(), content_type="text/javascript")
    response["Cache-Control"] = "no-cache"  # a new version reaches the phones at once
    response["Service-Worker-Allowed"] = scope
    return response


@require_GET
@table_link_required
def table_service_worker(request: HttpRequest, link: TableLink) -> HttpResponse:
    return service_worker(reverse("sessions:table_page", args=[link.token]))
