"""The club owner's pages: the club's settings and its directors.

Only an owner reaches them (get_owned_club_or_404): anyone who does not direct the club
gets a 404, a director who is not an owner a 403. Plain forms, each post redirecting.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from sessions.forms.clubs import ClubSettingsForm, DirectorAddForm, OwnerForm
from sessions.models import ClubDirector
from sessions.permissions import get_owned_club_or_404
from sessions.selectors.clubs import club_memberships
from sessions.selectors.logins import club_login_failures
from sessions.forms.errors import add_service_error
from sessions.services import (
    club_director_add, club_director_remove, club_director_set_owner, club_director_unlock, club_update,
)


@login_required
@require_http_methods(["GET", "POST"])
def club_settings(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = get_owned_club_or_404(request.user, slug=club_slug)
    initial = {"name": club.name, "description": club.description, "website": club.website,
               "masterpoint_federation": club.masterpoint_federation, "masterpoint_scale": club.masterpoint_scale}
    form = ClubSettingsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            club_update(club=club, **form.cleaned_data)
        except ValidationError as error:
            club.refresh_from_db()  # the page shows the club as stored, not as refused
            add_service_error(form, error)
        else:
            messages.success(request, "Saved: the club's public page shows these settings now.")
            return redirect("sessions:director_club_settings", club_slug=club.slug)
    return render(request, "director/club_settings.html", {"club": club, "form": form})


@login_required
@require_http_methods(["GET", "POST"])
def club_directors(request: HttpRequest, club_slug: str) -> HttpResponse:
    """Who directs the club, with their recent failed logins; an owner adds a director here
    (by username or e-mail)."""
    club = get_owned_club_or_404(request.user, slug=club_slug)
    form = DirectorAddForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            added = club_director_add(club=club, **form.cleaned_data)
        except ValidationError as error:
            form.add_error("identifier", error)
        else:
            role = "owns" if added.is_owner else "directs"
            messages.success(request, f"{added.user.get_username()} now {role} {club.name}.")
            return redirect("sessions:director_club_directors", club_slug=club.slug)
    failures = club_login_failures(club=club)
    rows = [(membership, failures.get(membership.user.get_username())) for membership in club_memberships(club=club)]
    return render(request, "director/club_directors.html", {"club": club, "form": form, "rows": rows})


def _membership(request: HttpRequest, club_slug: str, membership_id: int) -> ClubDirector:
    club = get_owned_club_or_404(request.user, slug=club_slug)
    return get_object_or_404(ClubDirector.objects.select_related("user", "club"), pk=membership_id, club=club)


@login_required
@require_POST
def club_director_remove_view(request: HttpRequest, club_slug: str, membership_id: int) -> HttpResponse:
    membership = _membership(request, club_slug, membership_id)
    name = membership.user.get_username()
    try:
        club_director_remove(membership=membership)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("sessions:director_club_directors", club_slug=club_slug)
    messages.success(request, f"{name} no longer directs {membership.club.name}.")
    if membership.user_id == request.user.pk:  # an owner who left: the club's pages are closed now
        return redirect("sessions:director_dashboard")
    return redirect("sessions:director_club_directors", club_slug=club_slug)


@login_required
@require_POST
def club_director_owner_view(request: HttpRequest, club_slug: str, membership_id: int) -> HttpResponse:
    membership = _membership(request, club_slug, membership_id)
    form = OwnerForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose owner or director.")
        return redirect("sessions:director_club_directors", club_slug=club_slug)
    try:
        club_director_set_owner(membership=membership, is_owner=form.cleaned_data["is_owner"])
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("sessions:director_club_directors", club_slug=club_slug)
    role = "an owner" if membership.is_owner else "a director, not an owner"
    messages.success(request, f"{membership.user.get_username()} is now {role} of {membership.club.name}.")
    if membership.user_id == request.user.pk and not membership.is_owner:
        return redirect("sessions:director_dashboard")
    return redirect("sessions:director_club_directors", club_slug=club_slug)


@login_required
@require_POST
def club_director_unlock_view(request: HttpRequest, club_slug: str, membership_id: int) -> HttpResponse:
    """Clear a director's failed logins: locked out at the club's own connection (their own
    typing, or someone else's there), they log in again at once."""
    membership = _membership(request, club_slug, membership_id)
    club_director_unlock(membership=membership)
    messages.success(request, f"{membership.user.get_username()}'s failed logins are cleared: they can log in again.")
    return redirect("sessions:director_club_directors", club_slug=club_slug)
