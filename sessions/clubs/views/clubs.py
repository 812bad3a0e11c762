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
from django.urls import reverse
from django.utils.html import format_html
from django.views.decorators.http import require_http_methods, require_POST

from sessions.clubs.forms.clubs import ApiKeyForm, ClubSettingsForm, DirectorAddForm, OwnerForm, WebhookForm
from sessions.models import Club, ClubDirector, Webhook
from sessions.core.permissions import get_owned_club_or_404
from sessions.api.selectors.api_keys import club_api_keys
from sessions.clubs.selectors.clubs import club_memberships, memberships_of
from sessions.pairs.selectors.public import club_sessions
from sessions.api.selectors.webhooks import club_webhooks, webhooks_of
from sessions.api.services.api_keys import api_key_create, api_key_revoke
from sessions.api.services.webhooks import SIGNATURE_HEADER, webhook_create, webhook_delete, webhook_send_test
from sessions.clubs.selectors.logins import club_login_failures
from sessions.core.forms.errors import add_service_error
from sessions.clubs.services.clubs import (
    CLUB_SETTINGS, club_director_add, club_director_remove, club_director_set_owner, club_director_unlock, club_update,
)


#: The published sessions whose ranking's embed the settings page offers.
SNIPPET_SESSIONS = 5


def _iframe(request: HttpRequest, url: str, title: str) -> str:
    """The HTML a club pastes into its own site to show an embed (a narrow column); the
    settings page escapes it (force_escape) to show it as text in a box to copy."""
    return format_html(
        '<iframe src="{}" title="{}" loading="lazy" style="width:100%;max-width:420px;height:640px;border:0"></iframe>',
        request.build_absolute_uri(url), title,
    )


def _embed_snippets(request: HttpRequest, club: Club) -> list[tuple[str, str]]:
    """(what, iframe HTML) for the latest results and the last few sessions' rankings."""
    snippets = [("Latest results", _iframe(request, reverse("sessions:embed_latest", args=[club.slug]),
                                           f"{club.name}: latest results"))]
    for session in club_sessions(club=club)[:SNIPPET_SESSIONS]:
        title = f"{session.event.name}, {session.name}"
        snippets.append((f"Ranking of {title} ({session.date:%d %b %Y})",
                         _iframe(request, reverse("sessions:embed_session", args=[session.pk]), title)))
    return snippets


def _settings_page(request: HttpRequest, club: Club, form: ClubSettingsForm, *, key_form: ApiKeyForm | None = None,
                   new_key: str = "", hook_form: WebhookForm | None = None, status: int = 200) -> HttpResponse:
    return render(request, "clubs/director/club_settings.html", {
        "club": club, "form": form, "key_form": key_form or ApiKeyForm(), "new_key": new_key,
        "api_keys": club_api_keys(club=club), "snippets": _embed_snippets(request, club),
        "hook_form": hook_form or WebhookForm(), "webhooks": club_webhooks(club=club),
        "signature_header": SIGNATURE_HEADER,
    }, status=status)


def _settings_form(club: Club) -> ClubSettingsForm:
    return ClubSettingsForm(initial={name: getattr(club, name) for name in CLUB_SETTINGS})


@login_required
@require_http_methods(["GET", "POST"])
def club_settings(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = get_owned_club_or_404(request.user, slug=club_slug)
    initial = {name: getattr(club, name) for name in CLUB_SETTINGS}
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
    return _settings_page(request, club, form)


@login_required
@require_POST
def api_key_new(request: HttpRequest, club_slug: str) -> HttpResponse:
    """Make a key and show it, this once, on the settings page (not through a redirect:
    the key is never stored anywhere but in its digest)."""
    club = get_owned_club_or_404(request.user, slug=club_slug)
    key_form = ApiKeyForm(request.POST)
    if not key_form.is_valid():
        return _settings_page(request, club, _settings_form(club), key_form=key_form, status=400)
    try:
        _, key = api_key_create(club=club, name=key_form.cleaned_data["name"])
    except ValidationError as error:
        add_service_error(key_form, error)
        return _settings_page(request, club, _settings_form(club), key_form=key_form, status=400)
    return _settings_page(request, club, _settings_form(club), new_key=key)


@login_required
@require_POST
def api_key_revoke_view(request: HttpRequest, club_slug: str, key_id: int) -> HttpResponse:
    club = get_owned_club_or_404(request.user, slug=club_slug)
    api_key = get_object_or_404(club_api_keys(club=club), pk=key_id)
    api_key_revoke(api_key=api_key)
    messages.success(request, f"The key {api_key.name} is revoked: it opens nothing from now on.")
    return redirect("sessions:director_club_settings", club_slug=club.slug)


@login_required
@require_POST
def webhook_new(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = get_owned_club_or_404(request.user, slug=club_slug)
    hook_form = WebhookForm(request.POST)
    if hook_form.is_valid():
        try:
            webhook = webhook_create(club=club, url=hook_form.cleaned_data["url"])
        except ValidationError as error:
            add_service_error(hook_form, error)
        else:
            messages.success(request, f"{webhook.url} is told of the club's results from now on: "
                                      "its secret is below, for checking the signatures.")
            return redirect("sessions:director_club_settings", club_slug=club.slug)
    return _settings_page(request, club, _settings_form(club), hook_form=hook_form, status=400)


def _webhook(request: HttpRequest, club_slug: str, webhook_id: int) -> Webhook:
    club = get_owned_club_or_404(request.user, slug=club_slug)
    return get_object_or_404(webhooks_of(club=club), pk=webhook_id)


@login_required
@require_POST
def webhook_delete_view(request: HttpRequest, club_slug: str, webhook_id: int) -> HttpResponse:
    webhook = _webhook(request, club_slug, webhook_id)
    webhook_delete(webhook=webhook)
    messages.success(request, f"{webhook.url} is told nothing more.")
    return redirect("sessions:director_club_settings", club_slug=club_slug)


@login_required
@require_POST
def webhook_test_view(request: HttpRequest, club_slug: str, webhook_id: int) -> HttpResponse:
    """A test delivery, sent in the background: the log below shows how it went."""
    webhook = _webhook(request, club_slug, webhook_id)
    webhook_send_test(webhook=webhook)
    messages.success(request, f"A test is on its way to {webhook.url}: its delivery shows in the log.")
    return redirect("sessions:director_club_settings", club_slug=club_slug)


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
    return render(request, "clubs/director/club_directors.html", {"club": club, "form": form, "rows": rows})


def _membership(request: HttpRequest, club_slug: str, membership_id: int) -> ClubDirector:
    club = get_owned_club_or_404(request.user, slug=club_slug)
    return get_object_or_404(memberships_of(club=club), pk=membership_id)


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
