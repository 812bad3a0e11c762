"""The views every phone has, a pairs table's (/t/) and a teams room's (/tt/), made once.

A phone is a link's token (no login) and the same flow whatever it plays: its page, NS's
Send, EW's Confirm or Refuse, "Call the director", the score of what is typed before
sending, and the service worker that keeps the page for a reload without network. A
``Phone`` names only what differs (how a token finds its link, the page, the services,
which boards the phone plays); ``Phone.urls`` makes the views and their routes from it, with the same
token check and throttle (``link_required``), the same refusal once the session or teams
event is final (``refused_when_final``) and the same forms.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, get_script_prefix, get_urlconf, path, reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from clubscore.client_address import client_address
from sessions.core import throttle
from sessions.core.services.errors import EntryClosed
from sessions.core.values import is_token, parse_number
from sessions.models import CallReason, EntryStatus, MatchTableLink, TableLink
from sessions.phones.forms.table import CallForm, EntryKeyForm, SendForm
from sessions.phones.selectors.calls import table_call
from sessions.phones.selectors.clock import round_clock
from sessions.phones.services.calls import director_call
from sessions.phones.services.tables import SendOutcome
from sessions.scoring.errors import ScoringError
from sessions.scoring.notation import ns_score, parse_result
from sessions.templatetags.table_phone import preview_reading

Link = TableLink | MatchTableLink

#: Every phone's routes, by their last word (``Phone.views``).
PHONE_ROUTES = ("page", "send", "confirm", "refuse", "call", "preview", "sw")


def link_required(lookup: Callable[[str], Any]):
    """A decorator: resolve ``token`` through ``lookup`` to its live link (passed as
    ``link``); a token that opens nothing is a 404, and an address that keeps trying such
    tokens waits (429; sessions/core/throttle.py). A valid link always opens, whatever its
    address tried before. The same throttle counts the pairs tables' and the rooms' misses."""

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


def refused_when_final(page: Callable[..., HttpResponse]):
    """A decorator for a phone's writing view (after ``link_required``): a write the service
    refused because the session or teams event is final (EntryClosed) is answered 409 with
    ``page`` (the phone's page, which says so), never as a mistake in what was typed."""

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


@dataclass(frozen=True)
class Phone:
    """What a kind of phone is made of (see the module docstring)."""

    #: The routes' names begin so: "table" (table_page, table_send ...) or "team_table".
    routes: str
    #: The live link a token opens, or None.
    lookup: Callable[[str], Any]
    #: The phone's page: ``page(request, link, *, form=None, outcome=None, status=200,
    #: parts=False, lines_changed=True)``; with ``parts`` (after a Send, a Confirm or a
    #: Refuse) it may answer the script with only the parts a post changes, and without the
    #: figures only a recorded line changes when ``lines_changed`` is false.
    page: Callable[..., HttpResponse]
    #: NS's Send: ``send(link, number, *, text, lead, client_key, accept_warnings)``.
    send: Callable[..., SendOutcome]
    #: EW's answers to a send: services called with ``link`` and ``client_key``.
    confirm: Callable[..., Any]
    refuse: Callable[..., Any]
    #: The number of a board the phone plays (ValidationError if not), for the preview.
    board: Callable[[Any, int], int]
    #: The laws a preview scores under: the event's deal era.
    era: Callable[[Any], str] = lambda link: "current"
    #: Put around the page's GET (the pairs table's scores, kept once a revision).
    home_cache: Callable[[Callable], Callable] = lambda view: view

    def url(self, name: str, link) -> str:
        return phone_address(f"sessions:{self.routes}_{name}", link.token)

    def action_urls(self, link, *own: str) -> dict[str, str]:
        """The addresses a page of this phone posts and links to, by their routes' last
        word: every phone's (PHONE_ROUTES) and ``own``, this kind's own routes."""
        return {name: self.url(name, link) for name in (*PHONE_ROUTES, *own)}

    def back(self, request: HttpRequest, link, *, parts: bool = False, lines_changed: bool = True) -> HttpResponse:
        """After a POST: the page to the script, else back to it (a reload repeats nothing)."""
        if request.htmx:
            return self.page(request, link, parts=parts, lines_changed=lines_changed)
        return redirect(self.url("page", link))

    def views(self) -> dict[str, Callable[..., HttpResponse]]:
        """The phone's views by their routes' last word: page, send, confirm, refuse, call,
        preview and sw (the service worker)."""
        needs_link, page = link_required(self.lookup), self.page

        def writes(view):
            return require_POST(needs_link(refused_when_final(page)(view)))

        def reads(view):
            return require_GET(needs_link(view))

        def home(request: HttpRequest, link) -> HttpResponse:
            return page(request, link)

        def send(request: HttpRequest, link) -> HttpResponse:
            return self.send_form(request, link)

        def confirm(request: HttpRequest, link) -> HttpResponse:
            return self.entry_button(request, link, self.confirm)

        def refuse(request: HttpRequest, link) -> HttpResponse:
            return self.entry_button(request, link, self.refuse, records=False)

        def call(request: HttpRequest, link) -> HttpResponse:
            """The phone's "Call the director": one call per press key, one open call per table."""
            call_director(request, link)
            return self.back(request, link)

        def preview_view(request: HttpRequest, link) -> HttpResponse:
            return preview(request, board=lambda number: self.board(link, number), era=self.era(link))

        def worker(request: HttpRequest, link) -> HttpResponse:
            return service_worker(self.url("page", link))

        views = {
            "page": require_GET(self.home_cache(needs_link(home))),
            "send": writes(send), "confirm": writes(confirm), "refuse": writes(refuse), "call": writes(call),
            "preview": reads(preview_view), "sw": reads(worker),
        }
        for name, view in views.items():
            # Named for its route (table_send, team_table_send ...), as a traceback says it.
            view.__name__ = view.__qualname__ = f"{self.routes}_{name}"
        return views

    def urls(self, at: str, **own: Callable[..., HttpResponse]) -> list[URLPattern]:
        """The phone's routes under ``at`` ("t": /t/<token>/send/ ...), named ``routes``_...;
        ``own`` adds the views only this kind of phone has, by their routes' last word."""
        views = {**self.views(), **own}
        return [
            path(f"{at}/<str:token>/" + ("" if name == "page" else "sw.js" if name == "sw" else f"{name}/"), view,
                 name=f"{self.routes}_{name}")
            for name, view in views.items()
        ]

    def send_form(self, request: HttpRequest, link) -> HttpResponse:
        """NS's Send: the form, then the service, then the parts that changed; a refusal, or
        warnings to look at again, come back on the page with the form as typed."""
        form = SendForm(request.POST)
        if not form.is_valid():
            return self.page(request, link, form=form, parts=True, lines_changed=False)
        data = form.cleaned_data
        try:
            outcome = self.send(link, data["board"], text=data["text"], lead=data["lead"],
                                client_key=data["client_key"], accept_warnings=data["accept_warnings"])
        except ValidationError as error:
            about_the_boxes = hasattr(error, "error_dict") and set(error.error_dict) <= {"text", "lead"}
            form.add_error(None, error if about_the_boxes else error.messages)  # shown under the box it is about
            return self.page(request, link, form=form, parts=True, lines_changed=False)
        if outcome.needs_check:  # nothing stored: a second look at the warnings first
            return self.page(request, link, form=form, outcome=outcome, parts=True, lines_changed=False)
        if outcome.stored is not None and outcome.entry is None:
            messages.info(request, f"Board {data['board']} is already recorded: {outcome.stored.text}.")
        # A send waiting for EW records no line; one recorded at once (an event without
        # confirmation), or a line found stored, does.
        waiting = outcome.entry is not None and outcome.entry.status == EntryStatus.PENDING
        return self.back(request, link, parts=True, lines_changed=not waiting)

    def entry_button(self, request: HttpRequest, link, action: Callable[..., Any], *,
                     records: bool = True) -> HttpResponse:
        """EW's Confirm or Refuse: ``action`` (the service) with the send's client key;
        ``records``: it may record a line (a Confirm)."""
        form = EntryKeyForm(request.POST)
        if not form.is_valid():
            messages.error(request, "That button belongs to an old page: here is the table as it is now.")
            return self.back(request, link, parts=True)
        try:
            action(link=link, client_key=form.cleaned_data["client_key"])
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        return self.back(request, link, parts=True, lines_changed=records)


#: Stands in for a link's token in a phone's address reversed once (phone_address).
_TOKEN = "0tokenplace0"
_ADDRESSES: dict[tuple[str, str, str | None], str] = {}


def phone_address(route: str, token: str) -> str:
    """``reverse(route, args=[token])`` for a phone's route, its address reversed once a
    route (and script prefix, and URLconf) with a stand-in for the token: a page of the
    phone names ten addresses, a post's answer too. A token is letters, digits, "-" and
    "_" (``is_token``), which an address carries as they are; anything else is reversed
    as usual."""
    if not is_token(token):
        return reverse(route, args=[token])
    key = (route, get_script_prefix(), get_urlconf())
    address = _ADDRESSES.get(key)
    if address is None:
        address = _ADDRESSES[key] = reverse(route, args=[_TOKEN])
    return address.replace(_TOKEN, token)


def call_director(request: HttpRequest, link: Link) -> None:
    """A press of "Call the director" on a table's or a teams room's phone (the caller answers)."""
    form = CallForm(request.POST)
    if not form.is_valid():
        messages.error(request, "That button belongs to an old page: press Call the director again.")
        return
    data = form.cleaned_data
    director_call(link=link, client_key=data["client_key"], round=data["round"], reason=data["reason"])


def preview(request: HttpRequest, *, board: Callable[[int], int], era: str = "current") -> HttpResponse:
    """The score of what is typed, before sending (the engine's parser, nothing stored):
    ``board`` checks that the board asked about (``?board=``) is one the phone plays
    (ValidationError if not)."""
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


def refresh_ms() -> int:
    """How often a phone asks for what changes without it (``TABLE_REFRESH_SECONDS``)."""
    return int(getattr(settings, "TABLE_REFRESH_SECONDS", 15) * 1000)


def director_parts(link: Link) -> dict[str, object]:
    """What a table's (or teams room's) phone shows of the director: its call, the round clock."""
    now = timezone.now()
    timed = {"team_event": link.match.event} if isinstance(link, MatchTableLink) else {"session": link.session}
    call, clock = table_call(link=link, now=now), round_clock(**timed, now=now)
    return {
        "call": call, "now": now, "call_reasons": CallReason.choices[1:], "call_key": uuid.uuid4().hex,
        "clock": clock, "refresh_ms": refresh_ms(),
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


SERVICE_WORKER = Path(settings.BASE_DIR) / "static" / "js" / "table-sw.js"


def service_worker(scope: str) -> HttpResponse:
    """The phone's service worker (static/js/table-sw.js), served under the phone's link so
    that it may keep that page for a reload without network, and nothing else."""
    response = HttpResponse(SERVICE_WORKER.read_bytes(), content_type="text/javascript")
    response["Cache-Control"] = "no-cache"  # a new version reaches the phones at once
    response["Service-Worker-Allowed"] = scope
    return response
