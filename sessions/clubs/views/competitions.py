"""A director sets up a club competition over an event's sessions. Thin views: the
competition (or its event) comes through the club-scoped helper; the services save."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from sessions.clubs.forms.competitions import CompetitionForm
from sessions.core.forms.errors import add_service_error
from sessions.models import Competition, Event
from sessions.core.permissions import get_club_object_or_404
from sessions.clubs.services.competitions import competition_create, competition_update


@login_required
@require_http_methods(["GET", "POST"])
def competition_new(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_club_object_or_404(request.user, Event, pk=event_id)
    form = CompetitionForm(request.POST or None, instance=Competition(event=event))
    if request.method == "POST" and form.is_valid():
        try:
            competition = competition_create(event=event, **form.cleaned_data)
        except ValidationError as error:
            add_service_error(form, error)
        else:
            messages.success(request, f"Competition {competition.name} created.")
            return redirect("sessions:director_competition", competition_id=competition.pk)
    return render(request, "clubs/director/competition_form.html", {"club": event.club, "event": event, "form": form,
                                                               "competition": None})


@login_required
@require_http_methods(["GET", "POST"])
def competition_edit(request: HttpRequest, competition_id: int) -> HttpResponse:
    competition = get_club_object_or_404(request.user, Competition, pk=competition_id)
    event = competition.event
    form = CompetitionForm(request.POST or None, instance=competition)
    if request.method == "POST" and form.is_valid():
        try:
            competition_update(competition=competition, **form.cleaned_data)
        except ValidationError as error:
            add_service_error(form, error)
        else:
            messages.success(request, f"Saved: {competition.name} ranks this way now.")
            return redirect("sessions:director_competition", competition_id=competition.pk)
    return render(request, "clubs/director/competition_form.html", {"club": event.club, "event": event, "form": form,
                                                               "competition": competition})
