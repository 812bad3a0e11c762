"""The director's repair pages: edit or delete a session, fix its seating, late and
missing pairs, a line under the wrong pairs, and the club's player records.

Thin views: each checks the director's club through get_club_object_or_404, calls one
repair service and redirects with a message; a refusal is shown on the page, with
nothing changed. Every page works as plain forms, without JavaScript.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from sessions.core.text import counted
from sessions.pairs.forms.sessions import MovementShapeForm, PlayerForm
from sessions.pairs.forms.repair import FromRoundForm, LatePairForm, LinePairsForm, PlayerMergeForm, RoundSeatingForm, SessionEditForm
from sessions.core.values import chosen_by_place
from sessions.models import Club, Pair, Player, Result, Section
from sessions.movements import MovementError
from sessions.core.permissions import directed_session, get_club_object_or_404
from sessions.pairs.selectors.movements import movement_options
from sessions.pairs.selectors.sessions import section_count, session_has_lines, session_line_count, session_sections
from sessions.clubs.selectors.players import players_of_club
from sessions.pairs.selectors.repair import pairs_a_movement_drops, players_entered_twice, round_tables, section_pairs
from sessions.core.services.errors import ResultConflict
from sessions.clubs.services.player_records import player_merge, player_update
from sessions.pairs.services.repair import (
    pair_add_late,
    pair_withdraw,
    result_reassign_pairs,
    result_turn_round,
    round_set_seatings,
    seating_turn_round,
    session_change_movement,
    session_delete,
    session_update,
)



def _section(request: HttpRequest, session_id: int, letter: str) -> Section:
    return get_club_object_or_404(request.user, Section, session_id=session_id, letter=letter)


def _refused(request: HttpRequest, error: ValidationError) -> None:
    messages.error(request, "Nothing changed: " + " ".join(error.messages))


# --- the session's name, date and movement; deletion -------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def session_edit(request: HttpRequest, session_id: int) -> HttpResponse:
    session = directed_session(request, session_id)
    form = SessionEditForm(request.POST or None, initial={"name": session.name, "date": session.date})
    if request.method == "POST" and form.is_valid():
        try:
            session_update(session=session, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, "Saved.")
            return redirect("sessions:director_session", session_id=session.pk)
    return render(request, "pairs/director/session_edit.html", {
        "session": session, "form": form, "has_lines": session_has_lines(session=session),
    })


@login_required
@require_http_methods(["GET", "POST"])
def session_movement(request: HttpRequest, session_id: int) -> HttpResponse:
    """A new movement, chosen as for a new session; refused once lines are entered."""
    session = directed_session(request, session_id)
    data = request.POST if request.method == "POST" else request.GET
    shape = MovementShapeForm(data if "pairs" in data else None)
    context: dict = {"session": session, "shape": shape, "several_sections": section_count(session=session) > 1}
    if shape.is_valid():
        try:
            movements = movement_options(
                pairs=shape.cleaned_data["pairs"], boards_per_round=shape.cleaned_data["boards_per_round"]
            )
        except MovementError as error:
            shape.add_error(None, str(error))
            movements = []
        context["movements"] = list(enumerate(movements))
        if request.method == "POST":
            chosen = chosen_by_place(data.get("movement", ""), movements)
            if chosen is None:
                messages.error(request, "Choose one of the movements.")
            else:
                try:
                    session_change_movement(session=session, movement=chosen, by=request.user,
                                            drop_players=data.get("drop_players") == "1")
                except ValidationError as error:
                    _refused(request, error)
                    dropped = pairs_a_movement_drops(session=session, labels=set(chosen.pairs))
                    context.update(dropped=dropped, chosen_index=data.get("movement", ""))
                else:
                    messages.success(request, f"The session now plays {chosen.description}.")
                    return redirect("sessions:director_session", session_id=session.pk)
    return render(request, "pairs/director/session_movement.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def session_delete_view(request: HttpRequest, session_id: int) -> HttpResponse:
    """GET asks for confirmation; POST deletes (an unpublished session only)."""
    session = directed_session(request, session_id)
    if request.method == "POST":
        try:
            session_delete(session=session)
        except ValidationError as error:
            _refused(request, error)
            return redirect("sessions:director_session", session_id=session.pk)
        messages.success(request, f"Session {session.name} of {session.date} deleted.")
        return redirect("sessions:director_dashboard")
    return render(request, "pairs/director/session_delete.html", {
        "session": session, "lines": session_line_count(session=session),
    })


# --- seating -----------------------------------------------------------------------------


@login_required
def session_repair(request: HttpRequest, session_id: int) -> HttpResponse:
    """The repair overview: the rounds to fix, late and leaving pairs, players entered twice."""
    session = directed_session(request, session_id)
    sections = [
        (section, list(section_pairs(section=section))) for section in session_sections(session=session)
    ]
    return render(request, "pairs/director/repair.html", {
        "session": session, "sections": sections, "rounds": range(1, session.rounds + 1),
        "twice": players_entered_twice(session=session), "from_round": FromRoundForm(),
        "players": players_of_club(club=session.event.club),
    })


@login_required
@require_http_methods(["GET", "POST"])
def round_seating(request: HttpRequest, session_id: int, letter: str, round: int) -> HttpResponse:
    section = _section(request, session_id, letter)
    session = section.session
    if not 1 <= round <= session.rounds:
        raise Http404("no such round")
    tables = round_tables(section=section, round=round)
    form = RoundSeatingForm(
        request.POST or None, tables=session.tables, pairs=list(section_pairs(section=section)),
        seatings={t.table: t.seating for t in tables if t.seating},
    )
    if request.method == "POST" and form.is_valid():
        try:
            repair = round_set_seatings(section=section, round=round, seatings=form.seatings(), by=request.user)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            _report(request, round, repair)
            return redirect("sessions:director_round_seating", session_id=session.pk, letter=letter, round=round)
    return render(request, "pairs/director/round_seating.html", {
        "session": session, "section": section, "round": round, "form": form,
        "lines": {t.table: t.lines for t in tables},
        "previous": round - 1 if round > 1 else None, "next": round + 1 if round < session.rounds else None,
    })


def _report(request: HttpRequest, round: int, repair) -> None:
    if not repair.tables:
        messages.info(request, f"Round {round}: nothing changed.")
        return
    tables = ", ".join(map(str, repair.tables))
    messages.success(
        request, f"Round {round}, table {tables} changed; {counted(repair.lines_moved, 'line')} moved. The session is re-scored."
    )
    for warning in repair.warnings:
        messages.warning(request, warning)


@login_required
@require_POST
def table_turn(request: HttpRequest, session_id: int, letter: str, round: int, table: int) -> HttpResponse:
    """The pairs of a table sat the wrong way round in a round: swap them and their lines."""
    section = _section(request, session_id, letter)
    try:
        repair = seating_turn_round(section=section, round=round, table=table, by=request.user)
    except ValidationError as error:
        _refused(request, error)
    else:
        _report(request, round, repair)
    return redirect("sessions:director_round_seating", session_id=session_id, letter=letter, round=round)


# --- late and leaving pairs ----------------------------------------------------------------


@login_required
@require_POST
def pair_late(request: HttpRequest, session_id: int, letter: str) -> HttpResponse:
    section = _section(request, session_id, letter)
    form = LatePairForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Nothing changed: give the round the late pair starts in.")
    else:
        try:
            late = pair_add_late(section=section, from_round=form.cleaned_data["from_round"],
                                 players=form.players(), by=request.user)
        except ValidationError as error:
            _refused(request, error)
        else:
            if late.rounds:
                messages.success(
                    request, f"Pair {late.pair} plays from round {form.cleaned_data['from_round']}: "
                    + (f"{late.pair.names}; print its card." if late.pair.names
                       else "name its players under Pairs and players, and print its card."),
                )
            if not late.rounds and not late.unseated:
                messages.success(request, f"Pair {late.pair} is added; the movement has no place for it from then on.")
            if late.unseated:
                messages.warning(
                    request, f"Pair {late.pair} is added, but the seating changed by hand leaves no place for it in "
                    f"round(s) {', '.join(map(str, late.unseated))}: seat it there round by round below.",
                )
    return redirect("sessions:director_repair", session_id=session_id)


@login_required
@require_POST
def pair_withdraw_view(request: HttpRequest, session_id: int, pair_id: int) -> HttpResponse:
    pair = get_club_object_or_404(request.user, Pair, pk=pair_id, section__session_id=session_id)
    form = FromRoundForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Nothing changed: give the first round the pair did not play.")
    else:
        try:
            outcome = pair_withdraw(pair=pair, from_round=form.cleaned_data["from_round"], by=request.user)
        except ValidationError as error:
            _refused(request, error)
        else:
            if outcome.removed:
                messages.success(request, f"Pair {pair} is out of the movement: its opponents sit out.")
            else:
                messages.success(request, f"Pair {pair} withdrawn: {outcome.not_played} board(s) not played.")
    return redirect("sessions:director_repair", session_id=session_id)


# --- one line ----------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def line_pairs(request: HttpRequest, session_id: int, result_id: int) -> HttpResponse:
    """A line under the wrong pair numbers: give it the right ones, or turn it round."""
    line = get_club_object_or_404(request.user, Result, pk=result_id, board__session_id=session_id)
    pairs = list(section_pairs(section=line.section))
    form = LinePairsForm(
        request.POST or None, pairs=pairs,
        initial={"ns_pair": line.ns_pair.label, "ew_pair": line.ew_pair.label, "version": line.version},
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            if data["action"] == "turn":
                changed = result_turn_round(result=line, version=data["version"], by=request.user)
            else:
                changed = result_reassign_pairs(
                    result=line, ns_pair=data["ns_pair"], ew_pair=data["ew_pair"], version=data["version"],
                    by=request.user,
                )
        except ValidationError as error:
            form.add_error(None, error)
        except ResultConflict as conflict:
            form.add_error(None, f"Not saved: {conflict}. Reload the page.")
        else:
            messages.success(request, f"Board {line.board.number}: now {changed.ns_pair} v {changed.ew_pair}.")
            return redirect("sessions:director_board", session_id=session_id, number=line.board.number)
    return render(request, "pairs/director/line_pairs.html", {"session": line.board.session, "line": line, "form": form})


# --- the club's player records --------------------------------------------------------------


def _player(request: HttpRequest, club_slug: str, player_id: int) -> tuple[Club, Player]:
    player = get_club_object_or_404(request.user, Player, pk=player_id, club__slug=club_slug)
    return player.club, player


@login_required
@require_http_methods(["GET", "POST"])
def player_edit(request: HttpRequest, club_slug: str, player_id: int) -> HttpResponse:
    club, player = _player(request, club_slug, player_id)
    name = player.name
    form = PlayerForm(request.POST or None, initial={
        "name": player.name, "national_number": player.national_number, "grade": player.grade,
        "masterpoints_held": player.masterpoints_held,
    })
    if request.method == "POST" and form.is_valid():
        try:
            player_update(player=player, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, f"{name} saved as {player.name}.")
            return redirect("sessions:director_players", club_slug=club.slug)
    return render(request, "pairs/director/player_edit.html", {
        "club": club, "player": player, "name": name, "form": form, "merge": PlayerMergeForm(player=player),
    })


@login_required
@require_POST
def player_merge_view(request: HttpRequest, club_slug: str, player_id: int) -> HttpResponse:
    """Merge another record of the same person into this one (every pair moves here)."""
    club, player = _player(request, club_slug, player_id)
    form = PlayerMergeForm(request.POST, player=player)
    if not form.is_valid():
        messages.error(request, "Nothing changed: choose the other record.")
        return redirect("sessions:director_player", club_slug=club.slug, player_id=player.pk)
    other = form.cleaned_data["merge"]
    try:
        moved = player_merge(keep=player, merge=other)
    except ValidationError as error:
        _refused(request, error)
        return redirect("sessions:director_player", club_slug=club.slug, player_id=player.pk)
    messages.success(request, f"{other.name} merged into {player.name}: {counted(moved, 'pair')} moved.")
    return redirect("sessions:director_players", club_slug=club.slug)
