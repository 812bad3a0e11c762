"""Correcting a teams event: edit or delete a team, a match, an adjustment; undo a round.

Thin views, as sessions.teams.views.teams: the object comes through get_club_object_or_404
(another club's is a 404), one service decides. An edit form carries the state the
director saw (edit_token), so a form left open while someone else changed the object is
refused on the form rather than overwriting. A deletion or an undo asks first (a GET
page that says what goes) and a refusal comes back as a message on the event page.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.forms import Form
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from sessions.core.forms.errors import add_service_error
from sessions.teams.forms.teams import AdjustmentEditForm, MatchEditForm, TeamEditForm
from sessions.models import Match, Team, TeamAdjustment, TeamEvent
from sessions.core.permissions import get_club_object_or_404
from sessions.teams.selectors.teams import players_free_for, players_of_team, teams_of_event
from sessions.teams.services import teams as services
from sessions.teams.views.teams import event_switch


def _event_url(event: TeamEvent) -> str:
    return reverse("sessions:director_team_event", args=[event.pk])


def _edit(request: HttpRequest, event: TeamEvent, *, title: str, form: Form, service: Callable[..., object],
          done: str, delete_url: str = "") -> HttpResponse:
    """GET: the form with the stored values; POST: the service, its refusal shown on the form."""
    if request.method == "POST" and form.is_valid():
        try:
            service(**form.cleaned_data)
        except ValidationError as error:
            add_service_error(form, error)
        else:
            messages.success(request, done)
            return redirect(_event_url(event))
    status = 400 if request.method == "POST" else 200
    return render(request, "teams/director/edit.html", {
        "club": event.club, "event": event, "title": title, "form": form, "delete_url": delete_url,
    }, status=status)


def _confirm(request: HttpRequest, event: TeamEvent, *, question: str, consequence: str, button: str,
             action: Callable[[], object], done: str) -> HttpResponse:
    """GET: the question; POST: the action, its refusal a message on the event page."""
    if request.method == "POST":
        try:
            action()
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, done)
        return redirect(_event_url(event))
    return render(request, "teams/director/confirm.html", {
        "club": event.club, "event": event, "question": question, "consequence": consequence, "button": button,
    })


# --- a team -------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def team_edit(request: HttpRequest, team_id: int) -> HttpResponse:
    team = get_club_object_or_404(request.user, Team, pk=team_id)
    event = team.event
    initial = {"name": team.name, "players": list(players_of_team(team=team)), "captain": team.captain,
               "seen": services.edit_token(team)}
    form = TeamEditForm(request.POST or None, initial=initial, club_players=players_free_for(event=event, team=team))
    return _edit(request, event, title=f"Team {team.number}: {team.name}", form=form,
                 service=lambda **data: services.team_edit(team=team, **data), done=f"Team {team.number} saved.",
                 delete_url=reverse("sessions:director_team_delete", args=[team.pk]))


@login_required
@require_http_methods(["GET", "POST"])
def team_delete(request: HttpRequest, team_id: int) -> HttpResponse:
    team = get_club_object_or_404(request.user, Team, pk=team_id)
    return _confirm(request, team.event, question=f"Delete team {team.number} {team.name}?",
                    consequence="Only a team with no match can be deleted.", button="Delete the team",
                    action=lambda: services.team_delete(team=team), done=f"Team {team.name} deleted.")


# --- a match ------------------------------------------------------------------------------


def _match_name(match: Match) -> str:
    return f"round {match.round}: {match.home} v {match.away or 'bye'}"


@login_required
@require_http_methods(["GET", "POST"])
def match_edit(request: HttpRequest, match_id: int) -> HttpResponse:
    match = get_club_object_or_404(request.user, Match, pk=match_id)
    event = match.event
    initial = {"round": match.round, "home": match.home, "away": match.away, "boards": match.boards,
               "first_board": match.first_board, "carry_over": match.carry_over, "seen": services.edit_token(match)}
    form = MatchEditForm(request.POST or None, initial=initial, teams=teams_of_event(event=event))

    def save(*, carry_over, **data):
        return services.match_edit(match=match, carry_over=carry_over or 0, **data)

    return _edit(request, event, title=f"Match, {_match_name(match)}", form=form, service=save,
                 done="Match saved.", delete_url=reverse("sessions:director_team_match_delete", args=[match.pk]))


@login_required
@require_http_methods(["GET", "POST"])
def match_delete(request: HttpRequest, match_id: int) -> HttpResponse:
    match = get_club_object_or_404(request.user, Match, pk=match_id)
    return _confirm(request, match.event, question=f"Delete the match, {_match_name(match)}?",
                    consequence="Only a match with nothing entered (no line, no totals, not marked "
                                "not played) can be deleted.",
                    button="Delete the match", action=lambda: services.match_delete(match=match),
                    done="Match deleted.")


@login_required
@require_POST
def match_played(request: HttpRequest, match_id: int) -> HttpResponse:
    """An average or forfeit withdrawn: back to the match page to enter its boards."""
    match = get_club_object_or_404(request.user, Match, pk=match_id)
    try:
        services.match_set_played(match=match)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, "The match is scored from its boards again.")
    return redirect("sessions:director_team_match", match_id=match.pk)


# --- an adjustment ------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def adjustment_edit(request: HttpRequest, adjustment_id: int) -> HttpResponse:
    adjustment = get_club_object_or_404(request.user, TeamAdjustment, pk=adjustment_id)
    event = adjustment.event
    initial = {"team": adjustment.team, "kind": adjustment.kind, "vp": abs(adjustment.vp)
               if adjustment.kind in ("penalty", "fine") else adjustment.vp, "round": adjustment.round,
               "reason": adjustment.reason, "seen": services.edit_token(adjustment)}
    form = AdjustmentEditForm(request.POST or None, initial=initial, teams=teams_of_event(event=event))
    return _edit(request, event, title=f"Adjustment: {adjustment}", form=form,
                 service=lambda **data: services.adjustment_edit(adjustment=adjustment, **data),
                 done="Adjustment saved.",
                 delete_url=reverse("sessions:director_team_adjustment_delete", args=[adjustment.pk]))


@login_required
@require_http_methods(["GET", "POST"])
def adjustment_delete(request: HttpRequest, adjustment_id: int) -> HttpResponse:
    adjustment = get_club_object_or_404(request.user, TeamAdjustment, pk=adjustment_id)
    return _confirm(request, adjustment.event, question=f"Delete the adjustment {adjustment}?",
                    consequence="The team's total changes at once.", button="Delete the adjustment",
                    action=lambda: services.adjustment_delete(adjustment=adjustment), done="Adjustment deleted.")


# --- a drawn round and the event ----------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def round_undo(request: HttpRequest, event_id: int, round: int) -> HttpResponse:
    event = get_club_object_or_404(request.user, TeamEvent, pk=event_id)
    return _confirm(request, event, question=f"Undo round {round}?",
                    consequence=f"Every match of round {round} (and its bye) is removed, so it can be drawn again. "
                                "Only the last round, and only while nothing is entered in it.",
                    button=f"Undo round {round}",
                    action=lambda: services.round_undo(event=event, round=round), done=f"Round {round} undone.")


@login_required
@require_POST
def team_event_final(request: HttpRequest, event_id: int) -> HttpResponse:
    """Mark the event final (the players may download it), or reopen it (final=0)."""
    return event_switch(
        request, event_id, "final",
        on=(services.team_event_mark_final, "The event is final: the players may download the results."),
        off=(services.team_event_reopen, "The event is provisional again: the players' downloads wait."),
    )
