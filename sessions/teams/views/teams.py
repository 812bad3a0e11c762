"""The director's teams pages: the event, its teams and draws, match entry, adjustments.

Thin views: every object comes through get_club_object_or_404 (another club's event
is a 404), every write is one service, and every page is a plain form (no JavaScript).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import pluralize
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from sessions.teams.forms.teams import (
    AdjustmentForm,
    MatchForm,
    MatchLinesForm,
    NotPlayedForm,
    TeamEventForm,
    TeamForm,
    TotalsForm,
    line_field_name,
    line_id_field_name,
    version_field_name,
)
from sessions.models import Club, DirectorCall, Match, MatchStatus, Room, TeamEvent
from sessions.models import TeamEventForm as Form
from sessions.core.permissions import get_club_object_or_404
from sessions.teams.selectors.teams import (
    knockout_verdicts,
    match_changes,
    players_free_for,
    standing_rows,
    team_event_score,
    teams_of_event,
)
from sessions.phones.selectors.calls import open_calls
from sessions.phones.selectors.clock import round_clock
from sessions.phones.services.calls import director_call_take
from sessions.clubs.selectors.mail import team_event_mails
from sessions.pairs.tables import TeamStandingsTable
from sessions.teams.services import teams as services
from sessions.core.services.errors import ResultConflict
from sessions.core.forms.errors import add_service_error

from sessions.pairs.views.live import clock_press


@login_required
@require_http_methods(["GET", "POST"])
def team_event_new(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = get_club_object_or_404(request.user, Club, slug=club_slug)
    form = TeamEventForm(request.POST or None, instance=TeamEvent(club=club, date=timezone.localdate()))
    if request.method == "POST" and form.is_valid():
        try:
            event = services.team_event_create(club=club, **form.cleaned_data)
        except ValidationError as error:
            add_service_error(form, error)
        else:
            messages.success(request, f"Teams event {event.name} created: now add its teams.")
            return redirect("sessions:director_team_event", event_id=event.pk)
    return render(request, "teams/director/event_new.html", {"club": club, "form": form})


def _event_forms(event: TeamEvent, data=None, which: str = "") -> dict:
    teams = teams_of_event(event=event)
    players = players_free_for(event=event)
    return {
        "team_form": TeamForm(data if which == "team" else None, club_players=players),
        "match_form": MatchForm(data if which == "match" else None, teams=teams,
                                initial={"boards": event.boards_per_match}),
        "adjustment_form": AdjustmentForm(data if which == "adjustment" else None, teams=teams),
    }


def _event_page(request: HttpRequest, event: TeamEvent, forms: dict, status: int = 200) -> HttpResponse:
    now = timezone.now()
    score = team_event_score(event)
    verdicts = knockout_verdicts(score) if event.form == Form.KNOCKOUT else {}
    standings = TeamStandingsTable(standing_rows(score), event=event, rounds=score.rounds, link=False)
    return render(request, "teams/director/event.html", {
        "club": event.club, "event": event, "score": score, "Form": Form, "verdicts": verdicts,
        "standings": standings, "mails": team_event_mails(event=event),
        "clock": round_clock(team_event=event, now=now), "calls": open_calls(team_event=event), "now": now, **forms,
    }, status=status)


@login_required
@require_POST
def team_call_take(request: HttpRequest, event_id: int, call_id: int) -> HttpResponse:
    """The director's "Taken" on a room's call: the room's phone says the director is coming."""
    event = get_club_object_or_404(request.user, TeamEvent, pk=event_id)
    director_call_take(call=get_object_or_404(DirectorCall, pk=call_id, team_event=event), by=request.user)
    return redirect("sessions:director_team_event", event_id=event.pk)


@login_required
@require_POST
def team_clock_view(request: HttpRequest, event_id: int) -> HttpResponse:
    """The round clock's buttons on the event's page (as a pairs session's grid: views.live)."""
    event = get_club_object_or_404(request.user, TeamEvent, pk=event_id)
    clock_press(request, team_event=event)
    return redirect("sessions:director_team_event", event_id=event.pk)


@login_required
def team_event_detail(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_club_object_or_404(request.user, TeamEvent, pk=event_id)
    return _event_page(request, event, _event_forms(event))


def _event_form_post(request: HttpRequest, event_id: int, name: str, service, done) -> HttpResponse:
    """One of the event page's forms posted: ``service`` stores it (a refusal shows on the
    form, the page answered again with 400), ``done(result)`` says what was stored."""
    event = get_club_object_or_404(request.user, TeamEvent, pk=event_id)
    forms = _event_forms(event, request.POST, name)
    form = forms[f"{name}_form"]
    if form.is_valid():
        try:
            stored = service(event=event, **form.cleaned_data)
        except ValidationError as error:
            add_service_error(form, error)
        else:
            messages.success(request, done(stored))
            return redirect("sessions:director_team_event", event_id=event.pk)
    return _event_page(request, event, forms, status=400)


@login_required
@require_POST
def team_add_view(request: HttpRequest, event_id: int) -> HttpResponse:
    return _event_form_post(request, event_id, "team", services.team_add,
                            lambda team: f"Team {team.number} {team.name} added.")


@login_required
@require_POST
def team_event_draw(request: HttpRequest, event_id: int) -> HttpResponse:
    """Schedule the round robin, or draw the next Swiss round."""
    event = get_club_object_or_404(request.user, TeamEvent, pk=event_id)
    draw = services.round_robin_schedule if event.form == Form.ROUND_ROBIN else services.swiss_draw_next_round
    try:
        matches = draw(event=event)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        played = sum(1 for match in matches if match.away_id is not None)
        messages.success(request, f"{played} match{pluralize(played, 'es')} drawn, each room with its phone link.")
    return redirect("sessions:director_team_event", event_id=event.pk)


@login_required
@require_POST
def team_match_new(request: HttpRequest, event_id: int) -> HttpResponse:
    def create(*, carry_over, **data):
        return services.match_create(carry_over=carry_over or 0, **data)

    return _event_form_post(request, event_id, "match", create, lambda match: "Match added.")


@login_required
@require_POST
def team_adjustment_new(request: HttpRequest, event_id: int) -> HttpResponse:
    return _event_form_post(request, event_id, "adjustment", services.adjustment_add,
                            lambda adjustment: "Adjustment recorded.")


def event_switch(request: HttpRequest, event_id: int, field: str, *, on: tuple, off: tuple) -> HttpResponse:
    """A two-way switch of the event page (published or hidden, final or provisional):
    ``field=0`` posted turns it off. ``on`` and ``off`` are (service, what it says)."""
    event = get_club_object_or_404(request.user, TeamEvent, pk=event_id)
    service, said = off if request.POST.get(field) == "0" else on
    try:
        service(event=event)
        messages.success(request, said)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect("sessions:director_team_event", event_id=event.pk)


@login_required
@require_POST
def team_event_publish_view(request: HttpRequest, event_id: int) -> HttpResponse:
    return event_switch(request, event_id, "publish",
                        on=(services.team_event_publish, "The event is published."),
                        off=(services.team_event_unpublish, "The event is hidden from the players."))


# --- a match -----------------------------------------------------------------------------


def _stored_lines(scored) -> dict[tuple[int, str], str]:
    return {key: line.text for key, line in scored.lines.items()}


def _stored_versions(scored) -> dict[tuple[int, str], int]:
    return {key: line.version for key, line in scored.lines.items()}


def _stored_ids(scored) -> dict[tuple[int, str], int]:
    return {key: line.pk for key, line in scored.lines.items()}


def _match_page(request, match, *, lines_form=None, totals_form=None, not_played_form=None, warnings=(), status=200):
    score = team_event_score(match.event)
    scored = next(m for m in score.matches if m.match.pk == match.pk)
    boards = match.board_numbers
    lines_form = lines_form or MatchLinesForm(
        boards=boards, initial_lines=_stored_lines(scored), initial_versions=_stored_versions(scored),
        initial_ids=_stored_ids(scored))
    outcomes = {board.number: board for board in (scored.outcome.boards if scored.outcome else ())}
    rows = [
        {"number": number, "open": lines_form[line_field_name(number, Room.OPEN)],
         "closed": lines_form[line_field_name(number, Room.CLOSED)],
         "open_line": scored.lines.get((number, Room.OPEN)), "closed_line": scored.lines.get((number, Room.CLOSED)),
        "open_seen": (lines_form[version_field_name(number, Room.OPEN)],
                      lines_form[line_id_field_name(number, Room.OPEN)]),
        "closed_seen": (lines_form[version_field_name(number, Room.CLOSED)],
                        lines_form[line_id_field_name(number, Room.CLOSED)]),
         "outcome": outcomes.get(number)}
        for number in boards
    ]
    return render(request, "teams/director/match.html", {
        "club": match.event.club, "event": match.event, "match": scored.match, "scored": scored, "rows": rows,
        "lines_form": lines_form, "totals_form": totals_form or TotalsForm(),
        "not_played_form": not_played_form or NotPlayedForm(), "warnings": warnings, "bye": match.status == MatchStatus.BYE,
        "changes": match_changes(match),
    }, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def team_match_entry(request: HttpRequest, match_id: int) -> HttpResponse:
    """Both rooms of every board in one form; a refused line keeps every line unchanged."""
    match = get_club_object_or_404(request.user, Match, pk=match_id)
    if request.method != "POST":
        return _match_page(request, match)
    form = MatchLinesForm(request.POST, boards=match.board_numbers, initial_lines={})
    if not form.is_valid():
        return _match_page(request, match, lines_form=form, status=400)
    warnings: list[str] = []
    try:
        with transaction.atomic():
            _save_lines(match, form, request.user, warnings)
    except ValidationError:
        return _match_page(request, match, lines_form=form, status=400)
    for warning in warnings:
        messages.warning(request, warning)
    messages.success(request, "Match saved.")
    return redirect("sessions:director_team_match", match_id=match.pk)


def _save_lines(match, form, user, warnings: list[str]) -> None:
    """Record every room the director changed, naming the line and version the page showed; the
    first refusal (or a line changed meanwhile) goes on its field and undoes them all."""
    failed = False
    for number in match.board_numbers:
        for room in Room.values:
            if not form.touched(number, room):
                continue  # as the page showed it: a phone's line stored meanwhile stays
            name = line_field_name(number, room)
            text = form.cleaned_data[name].strip()
            seen = {"version": form.seen_version(number, room), "line_id": form.seen_line(number, room)}
            try:
                if not text:
                    services.match_delete_line(match=match, board=number, room=room, by=user, **seen)
                else:
                    outcome = services.match_record_line(
                        match=match, board=number, room=room, text=text, by=user, **seen,
                    )
                    warnings.extend(f"Board {number}: {warning}" for warning in outcome.warnings)
            except ResultConflict as conflict:
                form.add_error(name, f"{conflict}; reload the page to see it")
                failed = True
            except ValidationError as error:
                form.add_error(name, error.message_dict.get("text", error.messages) if hasattr(error, "error_dict")
                               else error.messages)
                failed = True
    if failed:
        raise ValidationError("some lines were refused")


def _match_form_post(request: HttpRequest, match_id: int, form_class, service, done: str, form_name: str) -> HttpResponse:
    """A match form's POST: the service's refusal shown on the form, else back to the match."""
    match = get_club_object_or_404(request.user, Match, pk=match_id)
    form = form_class(request.POST)
    if form.is_valid():
        try:
            service(match=match, **form.cleaned_data)
        except ValidationError as error:
            add_service_error(form, error)
        else:
            messages.success(request, done)
            return redirect("sessions:director_team_match", match_id=match.pk)
    return _match_page(request, match, status=400, **{form_name: form})


@login_required
@require_POST
def team_match_totals(request: HttpRequest, match_id: int) -> HttpResponse:
    return _match_form_post(request, match_id, TotalsForm, services.match_set_totals, "Match totals saved.",
                            "totals_form")


@login_required
@require_POST
def team_match_not_played(request: HttpRequest, match_id: int) -> HttpResponse:
    return _match_form_post(request, match_id, NotPlayedForm, services.match_set_not_played,
                            "Match marked not played.", "not_played_form")
