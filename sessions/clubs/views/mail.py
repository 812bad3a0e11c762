"""Results by e-mail: the player's unsubscribe link, the director's address form and resend button.

The unsubscribe link works without a login: the signed token in it is the authority
(sessions.clubs.services.mail.unsubscribe_token). GET only shows a button, so a mail scanner
that follows links unsubscribes nobody; POST unsubscribes, and is exempt from the CSRF
check because a mail program's one-click POST (RFC 8058, List-Unsubscribe-Post) carries
no token: it can do nothing but unsubscribe the player the token names.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from sessions.models import Player, ResultMail, TeamEvent
from sessions.core.permissions import get_club_object_or_404
from sessions.clubs.selectors.mail import team_event_mails
from sessions.clubs.services.mail import (
    mail_queue_team_event, mail_resend, player_from_token, player_set_email, player_unsubscribe,
)


class PlayerEmailForm(forms.Form):
    email = forms.EmailField(required=False, label="E-mail address")
    email_consent = forms.BooleanField(
        required=False, label="The player agreed to receive their results by e-mail"
    )


@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    player = player_from_token(token)
    if player is None:
        return render(request, "clubs/public/unsubscribe.html", {"invalid": True}, status=404)
    if request.method == "POST":
        player_unsubscribe(player=player)
        return render(request, "clubs/public/unsubscribe.html", {"player": player, "done": True})
    return render(request, "clubs/public/unsubscribe.html", {"player": player, "token": token})


@login_required
@require_POST
def player_email(request: HttpRequest, club_slug: str, player_id: int) -> HttpResponse:
    """The director records a player's address and their consent, given in person."""
    player = get_club_object_or_404(request.user, Player, pk=player_id, club__slug=club_slug)
    form = PlayerEmailForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Nothing changed: " + " ".join(e for errors in form.errors.values() for e in errors))
    else:
        try:
            player_set_email(
                player=player, email=form.cleaned_data["email"], consent=form.cleaned_data["email_consent"],
                how=f"by the director ({request.user.get_username()})",
            )
        except ValidationError as error:
            messages.error(request, "Nothing changed: " + " ".join(error.messages))
        else:
            messages.success(request, f"{player.name}: e-mail {'on' if player.mail_allowed else 'off'}.")
    return redirect("sessions:director_player", club_slug=club_slug, player_id=player.pk)


@login_required
@require_POST
def session_mail_resend(request: HttpRequest, session_id: int, mail_id: int) -> HttpResponse:
    mail = get_club_object_or_404(request.user, ResultMail, pk=mail_id, session_id=session_id)
    try:
        mail_resend(mail=mail)
    except ValidationError as error:
        messages.error(request, "Not sent again: " + " ".join(error.messages))
    else:
        messages.success(request, f"The mail to {mail.player.name} is on its way again.")
    return redirect("sessions:director_session", session_id=session_id)


@login_required
@require_POST
def team_mail_round(request: HttpRequest, event_id: int) -> HttpResponse:
    """The director sends the standings after a round to the teams' opted-in players."""
    event = get_club_object_or_404(request.user, TeamEvent, pk=event_id)
    round_text = request.POST.get("round", "")
    if not round_text.isdigit() or not 1 <= int(round_text) <= 999:
        messages.error(request, "Nothing sent: choose a round.")
        return redirect("sessions:director_team_event", event_id=event.pk)
    try:
        queued = mail_queue_team_event(event=event, round=int(round_text))
    except ValidationError as error:
        messages.error(request, "Nothing sent: " + " ".join(error.messages))
    else:
        messages.success(request, f"The standings after round {round_text}: {queued} mail{'s' if queued != 1 else ''} on their way.")
    return redirect("sessions:director_team_event", event_id=event.pk)


@login_required
@require_POST
def team_mail_resend(request: HttpRequest, event_id: int, mail_id: int) -> HttpResponse:
    event = get_club_object_or_404(request.user, TeamEvent, pk=event_id)
    mail = get_object_or_404(team_event_mails(event=event), pk=mail_id)
    try:
        mail_resend(mail=mail)
    except ValidationError as error:
        messages.error(request, "Not sent again: " + " ".join(error.messages))
    else:
        messages.success(request, f"The mail to {mail.player.name} is on its way again.")
    return redirect("sessions:director_team_event", event_id=event.pk)
