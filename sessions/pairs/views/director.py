"""The director's pages: thin views over the services and selectors.

Every object comes through get_club_object_or_404, so another club's session is a 404.
Entry pages work as plain forms (POST, then redirect to the next row) and, for
static/js/entry.js (htmx's request header), answer a posted row with that row alone (the
script has already moved the cursor on) and a GET with the page's groups alone.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from sessions.core.text import counted
from sessions.pairs.forms.sessions import (
    BoardGroupsForm,
    EventForm,
    LineForm,
    PairPlayersForm,
    PlayerForm,
    SessionCreateForm,
    SessionShapeForm,
)
from sessions.clubs.forms.handicaps import HandicapsForm
from sessions.models import Board, Club, Event, Handicap, HandicapSource, Pair, Result, Section, Session
from sessions.clubs.selectors.handicaps import handicap_source
from sessions.clubs.services.handicaps import HandicapChange, session_compute_handicaps
from sessions.movements import Movement, MovementError
from sessions.core.permissions import club_scoped, directed_session, get_club_object_or_404, htmx_login_required
from sessions.clubs.selectors.masterpoints import national_number_warnings
from sessions.clubs.selectors.competitions import event_competitions
from sessions.pairs.selectors.entry import board_lines_with_pairs, line_exists, section_deals_by_number
from sessions.pairs.selectors.events import EventSessionView, club_event, event_ranking, event_sessions_newest_first
from sessions.pairs.selectors.sessions import section_count
from sessions.clubs.selectors.mail import session_mails
from sessions.pairs.selectors.penalties import session_penalties
from sessions.pairs.selectors.lineups import pairs_changes_of_player
from sessions.clubs.selectors.players import players_of_club
from sessions.pairs.selectors.repair import players_entered_twice
from sessions.pairs.selectors.entry import EntryRow, EntrySheet, board_travellers, table_round_sheets
from sessions.pairs.selectors.sessions import director_clubs, latest_event, session_change_log, session_pairs
from sessions.pairs.selectors.movements import movement_options
from sessions.core.selectors.scoring import session_score
from sessions.pairs.selectors.cards import session_cards
from sessions.core.views.caching import cached_scores
from sessions.pairs.views.live import grid_context
from sessions.pairs.views.penalties import penalty_form
from sessions.pairs.views.public import combined_table
from sessions.pairs.selectors.public import board_deals, chosen_deal
from sessions.core.forms.errors import add_service_error
from sessions.core.values import chosen_by_place, parse_number
from sessions.core.services.errors import ResultConflict
from sessions.pairs.services.results import board_set_groups, result_correct, result_delete, result_record
from sessions.pairs.services.events import event_create, event_update
from sessions.clubs.services.players import player_add, session_name_players
from sessions.pairs.services.sessions import session_create


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    return render(request, "pairs/director/dashboard.html", {"clubs": director_clubs(user=request.user)})


# --- sessions ---------------------------------------------------------------------



@login_required
def session_detail(request: HttpRequest, session_id: int) -> HttpResponse:
    session = directed_session(request, session_id)
    return render(request, "pairs/director/session_detail.html", {
        **grid_context(session), "mails": session_mails(session=session),
        "penalties": session_penalties(session=session), "penalty_form": penalty_form(session),
        "number_warnings": [] if session.final else national_number_warnings(session=session),
    })


@login_required
@require_http_methods(["GET", "POST"])
def session_new(request: HttpRequest, club_slug: str) -> HttpResponse:
    """Three steps, each a plain form: the number of pairs, the movement, then the details."""
    club = get_club_object_or_404(request.user, Club, slug=club_slug)
    data = request.POST if request.method == "POST" else request.GET
    shape = SessionShapeForm(data if "pairs" in data else None)
    # Opened from an event's page (?event=ID): that event is preselected through every step.
    context = {"club": club, "shape": shape, "preselected": _preselected_event(club, data.get("event", ""))}
    if not shape.is_valid():
        return render(request, "pairs/director/session_new.html", context)
    try:
        movements = movement_options(
            pairs=shape.pairs_a_section(), boards_per_round=shape.cleaned_data["boards_per_round"],
            rounds=shape.cleaned_data["rounds"], arrow_switch_rounds=shape.cleaned_data["arrow_switch"],
        )
    except MovementError as error:
        shape.add_error(None, str(error))
        return render(request, "pairs/director/session_new.html", context)
    context["movements"] = list(enumerate(movements))
    chosen = chosen_by_place(data.get("movement", ""), movements)
    if chosen is None:
        return render(request, "pairs/director/session_new.html", context)
    letters = shape.section_letters()
    form = SessionCreateForm(
        request.POST if request.method == "POST" else None,
        club=club, movements=movements, pair_labels=_pair_labels(chosen, letters, shape.short_sections()),
        letters=letters,
        initial={**shape.cleaned_data, "movement": movements.index(chosen),
                 "event": context["preselected"] or latest_event(club=club)},
    )
    context.update(chosen=chosen, form=form, players=players_of_club(club=club), letters=letters,
                   short_sections=shape.short_sections(), short_pair=chosen.short_pair())
    if request.method == "POST" and form.is_valid():
        try:
            session = _create_session(club, form, chosen, letters, request.user)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            sections = f" in sections {', '.join(letters)}" if len(letters) > 1 else ""
            if form.short_sections():
                sections += (f"; {'sections' if len(form.short_sections()) > 1 else 'section'} {', '.join(form.short_sections())} one pair short "
                             f"(pair {chosen.short_pair()} is a phantom: its opponents sit out)")
            if form.own_boards():
                several = len(form.own_boards()) > 1
                sections += (f"; {'sections' if several else 'section'} {', '.join(form.own_boards())} "
                             f"{'play' if several else 'plays'} different boards")
            messages.success(request, f"Session created: {chosen.description}{sections}.")
            for twice in players_entered_twice(session=session):
                messages.warning(request, f"{twice}: one person cannot play in two pairs.")
            return redirect("sessions:director_session", session_id=session.pk)
    return render(request, "pairs/director/session_new.html", context)


def _preselected_event(club: Club, event_id: str) -> Event | None:
    """The club's event named by ``?event=``; anything else (another club's, not an id) is ignored."""
    pk = parse_number(event_id)
    return None if pk is None else club_event(club=club, event_id=pk)


def _pair_labels(movement: Movement, letters: str, short: str = "") -> list[str]:
    """The movement's pairs, or with several sections each section's ("A:1NS", as session_create
    names them); a section one pair short has no ``movement.short_pair()``."""
    if len(letters) == 1:
        return list(movement.pairs)
    missing = movement.short_pair()
    return [
        f"{letter}:{label}" for letter in letters for label in movement.pairs
        if not (letter in short and label == missing)
    ]


@transaction.atomic
def _create_session(
    club: Club, form: SessionCreateForm, movement: Movement, letters: str, user: AbstractBaseUser
) -> Session:
    """The session in the chosen event, or in a new event created with it (one transaction)."""
    data = form.cleaned_data
    event = data["event"]
    if event is None:
        try:
            event = event_create(club=club, name=data["new_event"])
        except ValidationError as error:
            raise ValidationError([f"new event: {message}" for message in error.messages]) from None
    return session_create(
        event=event, name=data["name"], date=data["date"], movement=movement, section_letters=tuple(letters),
        own_boards=form.own_boards(), short_sections=tuple(form.short_sections()),
        pair_players=form.pair_players(_pair_labels(movement, letters, form.short_sections())), by=user,
    )


@login_required
def session_cards_view(request: HttpRequest, session_id: int) -> HttpResponse:
    """Printable table guide cards and pair cards (``?only=tables`` or ``pairs`` prints one kind)."""
    session = directed_session(request, session_id)
    only = request.GET.get("only", "")
    return render(request, "pairs/director/cards.html", {
        "session": session, "cards": session_cards(session=session),
        "show_tables": only != "pairs", "show_pairs": only != "tables",
    })


@login_required
@require_http_methods(["GET", "POST"])
def session_pairs_view(request: HttpRequest, session_id: int) -> HttpResponse:
    """The players of every pair: from the club's list or new, with an optional national number."""
    session = directed_session(request, session_id)
    pairs = list(session_pairs(session=session))
    form = PairPlayersForm(request.POST or None, pairs=pairs, rounds=session.rounds)
    if request.method == "POST" and form.is_valid():
        try:
            changes = session_name_players(pairs=pairs, players=form.typed_players(),
                                           from_round=form.cleaned_data["from_round"], by=request.user)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            from_round = form.cleaned_data["from_round"]
            for change in changes:
                messages.success(
                    request, f"{change.pair.label}: {change.before or 'no names'} -> {change.after or 'no names'}"
                    + (f" (a change of player from round {from_round})" if from_round > 1 else ""),
                )
            if not changes:
                messages.info(request, "Nothing changed.")
            for twice in players_entered_twice(session=session):
                messages.warning(request, f"{twice}: one person cannot play in two pairs.")
            if changes and computes_handicaps(session):
                handicaps_computed(request, session_compute_handicaps(session=session, by=request.user))
            return redirect("sessions:director_pairs", session_id=session.pk)
    return pairs_page(request, session, pairs, form, HandicapsForm(pairs=pairs))


def pairs_page(request: HttpRequest, session: Session, pairs: list[Pair], form: PairPlayersForm,
               handicaps: HandicapsForm, status: int = 200) -> HttpResponse:
    """The pairs page: the players' form and, for a handicap event, the handicaps' (RULES 14)."""
    return render(request, "pairs/director/pairs.html", {
        "session": session, "form": form, "players": players_of_club(club=session.event.club),
        "twice": players_entered_twice(session=session) if request.method == "GET" else [],
        "several_sections": len({pair.section_id for pair in pairs}) > 1,
        "changes": pairs_changes_of_player(pairs=pairs, rounds=session.rounds),
        "handicaps": handicaps, "handicap_applied": session.event.handicap != Handicap.NONE,
        "handicap_source": HandicapSource(handicap_source(session)),
    }, status=status)


def computes_handicaps(session: Session) -> bool:
    """New players give new handicaps: a handicap event whose source is not typed, not final."""
    return (session.event.handicap != Handicap.NONE and handicap_source(session) != HandicapSource.TYPED
            and not session.final)


def handicaps_computed(request: HttpRequest, changes: list[HandicapChange]) -> None:
    for change in changes:
        messages.success(request, f"{change.pair.label}: handicap {change.before if change.before is not None else 'none'}"
                                  f" -> {change.after if change.after is not None else 'none'}")


@login_required
@cached_scores  # scored once per revision, shared with the players' pages; rendered afresh
def session_standings(request: HttpRequest, session_id: int) -> HttpResponse:
    session = directed_session(request, session_id)
    scored = session_score(session=session)
    return render(request, "pairs/director/standings.html", {
        "session": session, "rankings": scored.rankings(), "note": scored.note,
    })


@login_required
def session_log(request: HttpRequest, session_id: int) -> HttpResponse:
    session = directed_session(request, session_id)
    return render(request, "pairs/director/change_log.html", {
        "session": session, "changes": session_change_log(session=session),
    })


# --- entering results ---------------------------------------------------------------

#: The answer to a row posted (with htmx) by a director no longer logged in.
LOGIN_EXPIRED = "Your login has expired: log in again, then press Enter again."


#: Entry rows saved after the login expired: the row says so and keeps what was typed.
entry_login_required = htmx_login_required(
    lambda: HttpResponse(LOGIN_EXPIRED, status=401, content_type="text/plain; charset=utf-8")
)


@dataclass
class RowView:
    """A row as the page shows it: the stored line, or what was typed and why it was refused."""

    row: EntryRow
    text: str = ""
    lead: str = ""
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    saved: bool = False
    autofocus: bool = False

    @property
    def version(self) -> int | str:
        return self.row.result.version if self.row.result else ""


def _stored(row: EntryRow, **kwargs) -> RowView:
    """The row showing its stored line (or nothing), as a page load shows it."""
    result = row.result
    return RowView(row, result.text if result else "", result.lead if result else "", **kwargs)


def _row_views(sheet: EntrySheet, focus: str | None, typed: RowView | None = None) -> list[RowView]:
    views = []
    for row in sheet.rows:
        if typed is not None and row.key == typed.row.key:
            view = RowView(row, typed.text, typed.lead, typed.errors, typed.warnings, typed.saved)
        else:
            view = _stored(row)
        view.autofocus = row.key == focus
        views.append(view)
    if focus is None or not any(view.autofocus for view in views):
        first_open = next((view for view in views if view.row.result is None), views[0] if views else None)
        if first_open is not None:
            first_open.autofocus = True
    return views


#: Tables (or boards) after the one asked for that an entry page holds, hidden: a completed
#: table moves on in place, so keys typed ahead never cross a page load. The page fetches
#: more as the director moves on (a GET with htmx's header answers the groups alone).
ENTRY_AHEAD = 3


@dataclass
class EntryGroup:
    """One table-round or one board of an entry page: its rows, heading and pager."""

    id: str  # in the HTML ids of the group and its count
    url: str  # its own page, where its rows are posted
    label: str  # "Table 3, round 1" or "Board 2": the page's messages name it
    title: str  # the page title while it is the one shown
    sheet: EntrySheet
    context: dict  # what its heading, pager and hint show
    next_url: str | None = None
    next_label: str = ""


def _sheet_context(request: HttpRequest, context: dict) -> dict:
    return {**context, "text_length": LineForm.TEXT_LENGTH, "lead_length": LineForm.LEAD_LENGTH}


def _render_group(request: HttpRequest, group: EntryGroup, first: bool, focus: str | None = None,
                  typed: RowView | None = None) -> str:
    rows = _row_views(group.sheet, focus, typed)
    if not first:
        for view in rows:
            view.autofocus = False  # hidden until the director gets there
    return render_to_string("pairs/director/partials/entry_group.html", {
        **_sheet_context(request, group.context), "group": group, "sheet": group.sheet, "rows": rows,
        "action": group.url, "first": first,
    }, request=request)


def _entry_page(
    request: HttpRequest, template: str, groups: list[EntryGroup], context: dict, typed: RowView | None = None,
    focus: str | None = None,
) -> HttpResponse:
    """The page: the group asked for, shown, then the next ones, hidden. With htmx's header
    (the page fetching the groups ahead), the groups alone."""
    focus = focus or request.GET.get("focus")
    html = [_render_group(request, group, index == 0, focus, typed) for index, group in enumerate(groups)]
    if request.htmx:
        return HttpResponse("".join(html))
    return render(request, template, {
        **context, "groups": groups, "groups_html": html, "login_url": reverse("login") + "?" + urlencode(
            {"next": request.path}),
    })


def _entry_answer(request: HttpRequest, group: EntryGroup, typed: RowView) -> HttpResponse:
    """The answer to a row posted by the page's script: that row alone, and the cells it changed.

    The script takes from the row what was stored (the standard text, the score, the stored
    version in its hidden fields) with any warnings, or the reason it was refused; it never
    replaces a box the director may be typing in. The other rows' running scores and the
    count of lines entered come as text cells named by id, never an input.
    """
    sheet = group.sheet
    if typed.errors:
        answer = typed
    else:
        row = sheet.row(typed.row.key) or typed.row
        answer = _stored(row, warnings=typed.warnings, saved=row.result is not None)
    return render(request, "pairs/director/partials/entry_sheet.html", {
        **_sheet_context(request, group.context), "group": group, "sheet": sheet, "answer": answer,
        "action": group.url,
    })


def _save_line(request: HttpRequest, sheet: EntrySheet) -> tuple[RowView, str | None]:
    """Apply one posted row: the row as typed (errors or warnings), and the row to focus next."""
    row = sheet.row(request.POST.get("row", ""))
    if row is None:
        raise Http404("not a line of this page")
    form = LineForm(request.POST)
    typed = RowView(row, request.POST.get("text", "")[:LineForm.TEXT_LENGTH],
                    request.POST.get("lead", "")[:LineForm.LEAD_LENGTH])
    if not form.is_valid():
        typed.errors = form.row_errors()
        return typed, row.key
    data = form.cleaned_data
    typed.text, typed.lead = data["text"], data["lead"]
    if data["seen"] and data["seen"] != row.seen:
        # The seating was repaired since the page was loaded: this row is no longer the
        # table, round or pairs the director typed the line for.
        typed.errors = [
            f"Not saved: this line was typed for {data['seen']}, and the row now reads {row.seen} "
            "(the seating changed). Reload the page and check the line."
        ]
        return typed, row.key
    try:
        if data["result"]:
            line = _line_of_row(row, data["result"], data["version"])
            if data["action"] == "delete":
                result_delete(result=line, version=data["version"], by=request.user)
                typed.text = typed.lead = ""
                return typed, row.key
            outcome = result_correct(
                result=line, text=data["text"], lead=data["lead"], version=data["version"], by=request.user
            )
        elif not data["text"]:
            return typed, _next_key(sheet, row)  # nothing typed: just move on
        else:
            outcome = result_record(
                board=row.board, section=row.section, ns_pair=row.ns_pair.label, ew_pair=row.ew_pair.label,
                text=data["text"], lead=data["lead"], round=row.round, by=request.user,
            )
    except ValidationError as error:
        typed.errors = list(error.messages)
        return typed, row.key
    except ResultConflict as conflict:
        now = conflict.current.text if conflict.current else "nothing (deleted)"
        typed.errors = [f"Not saved: {conflict}. The line now reads {now}; type yours again to replace it."]
        return typed, row.key
    typed.saved, typed.warnings = True, list(outcome.warnings)
    # Stay on a line with warnings so the director sees them; else move to the next line.
    return typed, (row.key if outcome.warnings else _next_key(sheet, row))


def _line_of_row(row: EntryRow, result_id: int, version: int) -> Result:
    """The stored line a posted row names, which must be the row's own line.

    The page may be stale: a line deleted (or deleted and entered again) since it was
    loaded is a conflict, with the line as it is now; an id of another row's line is
    refused outright, so a tampered or mixed-up post never changes a line it does not show.
    """
    if row.result is not None and row.result.pk == result_id:
        return row.result
    if line_exists(result_id=result_id):
        raise ValidationError(
            f"that line is not board {row.board.number}, {row.ns_pair} v {row.ew_pair}: nothing was saved; "
            "reload the page"
        )
    raise ResultConflict(row.result, version)


def _next_key(sheet: EntrySheet, row: EntryRow) -> str | None:
    following = sheet.row_after(row.key)
    return following.key if following else None


def _entry(
    request: HttpRequest, groups: list[EntryGroup], load_group, template: str, context: dict
) -> HttpResponse:
    """GET shows the groups; POST saves one row of the first group, then redirects (plain)
    or answers with the row (the page's script).

    ``groups`` are the page as loaded; ``load_group`` reads the first group again after a change.
    """
    if request.method != "POST":
        return _entry_page(request, template, groups, context)
    group = groups[0]
    typed, focus = _save_line(request, group.sheet)
    if request.htmx:
        # Re-read after a change, so the running scores include it.
        return _entry_answer(request, group if typed.errors else load_group(), typed)
    if typed.errors:  # nothing was saved: show the row as typed, with the reason
        return _entry_page(request, template, groups, context, typed, focus)
    for warning in typed.warnings:
        messages.warning(request, warning)
    query = f"?{urlencode({'focus': focus})}#row-{focus}" if focus else ""
    return redirect(request.path + query)


def _board_deals(request: HttpRequest, session_id: int, number: int) -> tuple[Board, list[Board]]:
    """The board page's deal and all the deals of that number: sections playing different
    deals have one each. ``?section=B`` picks B's (its fouled-board groups); else the
    shared deal, else the first section's. The traveller lists every section's lines."""
    deals = board_deals(boards=club_scoped(request.user, Board), session_id=session_id, number=number)
    board = chosen_deal(deals, request.GET.get("section", ""))
    if board is None:
        raise Http404("no such board")
    return board, deals


def _board_group(session: Session, board: Board, sheet: EntrySheet, deals: list[Board]) -> EntryGroup:
    number = board.number
    following = number + 1 if number < session.board_count else None
    chosen = f"?section={board.section.letter}" if board.section else ""
    return EntryGroup(
        id=f"board-{number}", url=reverse("sessions:director_board", args=[session.pk, number]),
        label=f"Board {number}", title=f"Board {number}", sheet=sheet,
        next_url=reverse("sessions:director_board", args=[session.pk, following]) if following else None,
        next_label=f"Board {following}" if following else "",
        context={
            "session": session, "board": board, "page": "board",
            "previous": number - 1 if number > 1 else None, "next": following,
            "groups_url": reverse("sessions:director_board_groups", args=[session.pk, number]) + chosen,
            "deals": deals if len(deals) > 1 else [],
        },
    )


@entry_login_required
@require_http_methods(["GET", "POST"])
def board_entry(request: HttpRequest, session_id: int, number: int) -> HttpResponse:
    board, deals = _board_deals(request, session_id, number)
    session = board.session

    def load_group() -> EntryGroup:
        return _board_group(session, board, board_travellers(session=session, numbers=[number])[0], deals)

    if request.method == "POST":
        groups = [load_group()]
    else:
        # The board asked for, then the next ones (on the shared deal, or the section's own).
        numbers = list(range(number, min(number + ENTRY_AHEAD, session.board_count) + 1))
        sheets = board_travellers(session=session, numbers=numbers)
        following = section_deals_by_number(session=session, section=board.section, numbers=numbers[1:])
        groups = [_board_group(session, board, sheets[0], deals)] + [
            _board_group(session, following[sheet_number], sheet, [])
            for sheet_number, sheet in zip(numbers[1:], sheets[1:], strict=False) if sheet_number in following
        ]
    return _entry(request, groups, load_group, "pairs/director/board_entry.html", {"session": session, "board": board})


@login_required
@require_POST
def board_groups(request: HttpRequest, session_id: int, number: int) -> HttpResponse:
    """Mark a board fouled (a group for every line) or not fouled, from the traveller page."""
    board, _ = _board_deals(request, session_id, number)
    chosen = f"?section={board.section.letter}" if board.section else ""
    results = board_lines_with_pairs(board=board)
    form = BoardGroupsForm(request.POST, results=results)
    if not form.is_valid():
        messages.error(request, "Groups are numbers from 1 to 9: " + " ".join(
            message for errors in form.errors.values() for message in errors))
    else:
        try:
            changed = board_set_groups(board=board, groups=form.groups(), by=request.user)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            fouled = any(group is not None for group in form.groups().values())
            state = "fouled: each group is scored on its own" if fouled else "not fouled"
            messages.success(request, f"Board {number} is {state} ({counted(changed, 'line')} changed).")
    return redirect(reverse("sessions:director_board", args=[session_id, number]) + chosen + "#fouled")


def _table_positions(session: Session, round: int, table: int, count: int) -> list[tuple[int, int]]:
    """(round, table) from this one on, in the order the slips come in: the next table of
    the round, else the first table of the next round."""
    positions = []
    while round <= session.rounds and len(positions) < count:
        positions.append((round, table))
        round, table = (round, table + 1) if table < session.tables else (round + 1, 1)
    return positions


def _table_group(session: Session, section: Section, round: int, table: int, sheet: EntrySheet,
                 several_sections: bool) -> EntryGroup:
    following = _table_positions(session, round, table, 2)[1:]
    next_url = next_label = None
    if following:
        next_round, next_table = following[0]
        next_url = reverse("sessions:director_table", args=[session.pk, section.letter, next_round, next_table])
        next_label = f"Table {next_table}" if next_round == round else f"Round {next_round}, table {next_table}"
    place = f"Section {section.letter}, table {table}" if several_sections else f"Table {table}"
    return EntryGroup(
        id=f"{section.letter}-{round}-{table}",
        url=reverse("sessions:director_table", args=[session.pk, section.letter, round, table]),
        label=f"{place}, round {round}", title=f"{place}, round {round}",
        sheet=sheet, next_url=next_url, next_label=next_label or "",
        context={
            "session": session, "section": section, "round": round, "table": table, "page": "table",
            "heading": f"{place}, round {round}",
            "previous_table": table - 1 if table > 1 else None,
            "next_table": table + 1 if table < session.tables else None,
            "previous_round": round - 1 if round > 1 else None,
            "next_round": round + 1 if round < session.rounds else None,
        },
    )


@entry_login_required
@require_http_methods(["GET", "POST"])
def table_entry(request: HttpRequest, session_id: int, letter: str, round: int, table: int) -> HttpResponse:
    section = get_club_object_or_404(request.user, Section, session_id=session_id, letter=letter)
    session = section.session
    several = section_count(session=session) > 1
    # The table asked for, then the tables it moves on to once complete (none on a POST).
    positions = _table_positions(session, round, table, 1 if request.method == "POST" else 1 + ENTRY_AHEAD)
    sheets = table_round_sheets(section=section, positions=positions or [(round, table)])
    if not positions or sheets[0] is None:
        raise Http404("no such table in that round")
    groups = [
        _table_group(session, section, at_round, at_table, sheet, several)
        for (at_round, at_table), sheet in zip(positions, sheets, strict=True) if sheet is not None
    ]

    def load_group() -> EntryGroup:
        sheet = table_round_sheets(section=section, positions=[(round, table)])[0]
        assert sheet is not None  # it was there a moment ago, and seatings are never deleted by a save
        return _table_group(session, section, round, table, sheet, several)

    return _entry(request, groups, load_group, "pairs/director/table_entry.html", {"session": session, "section": section})


# --- players ----------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def club_players(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = get_club_object_or_404(request.user, Club, slug=club_slug)
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            player = player_add(club=club, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, f"{player.name} added.")
            return redirect("sessions:director_players", club_slug=club.slug)
    return render(request, "pairs/director/players.html", {"club": club, "form": form, "players": players_of_club(club=club)})



# --- events -----------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def event_new(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = get_club_object_or_404(request.user, Club, slug=club_slug)
    form = EventForm(request.POST or None, instance=Event(club=club))
    if request.method == "POST" and form.is_valid():
        try:
            event = event_create(club=club, **form.cleaned_data)
        except ValidationError as error:
            add_service_error(form, error)
        else:
            messages.success(request, f"Event {event.name} created.")
            return redirect("sessions:director_event", event_id=event.pk)
    return render(request, "pairs/director/event_form.html", {"club": club, "form": form, "event": None})


@login_required
@require_http_methods(["GET", "POST"])
def event_edit(request: HttpRequest, event_id: int) -> HttpResponse:
    """The event's scoring settings; its sessions re-score on the next read (nothing is stored)."""
    event = get_club_object_or_404(request.user, Event, pk=event_id)
    sessions = event_sessions_newest_first(event=event)
    name = event.name  # the form writes what was typed onto the instance, valid or not
    saved = copy.copy(event)  # the combined ranking shows the saved settings, not what was typed
    form = EventForm(request.POST or None, instance=event)
    if request.method == "POST" and form.is_valid():
        try:
            event_update(event=event, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            add_service_error(form, error)
        else:
            messages.success(request, f"Saved: {counted(len(sessions), 'session')} of {event.name} now score this way.")
            return redirect("sessions:director_event", event_id=event.pk)
    ranking = event_ranking(event=saved, published_only=False)
    return render(request, "pairs/director/event_form.html", {
        "club": event.club, "form": form, "event": event, "event_name": name, "event_sessions": sessions,
        "ranking": ranking, "combined": combined_table(request, ranking, _director_session_link),
        "competitions": event_competitions(event=event),
    })


def _director_session_link(view: EventSessionView) -> str:
    return reverse("sessions:director_standings", args=[view.session.pk])
