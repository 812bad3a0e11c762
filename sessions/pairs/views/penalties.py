"""The director gives a pair a procedural penalty (Law 90), or takes one back, from the
session page; the public sees the effect (the ranking, the score card), never this form."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from sessions.pairs.forms.penalties import PenaltyForm
from sessions.models import ProceduralPenalty, Session
from sessions.core.permissions import directed_session, get_club_object_or_404
from sessions.pairs.selectors.penalties import penalty_pairs
from sessions.pairs.services.penalties import penalty_give, penalty_remove


def penalty_form(session: Session, data=None) -> PenaltyForm:
    return PenaltyForm(data, pairs=penalty_pairs(session=session), method=session.event.method)


@login_required
@require_POST
def penalty_give_view(request: HttpRequest, session_id: int) -> HttpResponse:
    session = directed_session(request, session_id)
    form = penalty_form(session, request.POST)
    if not form.is_valid():
        problems = "; ".join(f"{form.fields[name].label if name in form.fields else ''}: {' '.join(errors)}".lstrip(": ")
                             for name, errors in form.errors.items())
        messages.error(request, f"Nothing changed: {problems}")
    else:
        data = form.cleaned_data
        try:
            penalty = penalty_give(pair=form.chosen_pair(), amount=data["amount"], penalty_unit=data["penalty_unit"],
                                   reason=data["reason"], board=data["board"], by=request.user)
        except ValidationError as error:
            messages.error(request, "Nothing changed: " + " ".join(error.messages))
        else:
            messages.success(request, f"Pair {penalty.pair.label}: {penalty.text}. Its total is lowered; "
                                      "its opponents' scores are unchanged.")
    return redirect("sessions:director_session", session_id=session_id)


@login_required
@require_POST
def penalty_remove_view(request: HttpRequest, session_id: int, penalty_id: int) -> HttpResponse:
    penalty = get_club_object_or_404(
        request.user, ProceduralPenalty, pk=penalty_id, pair__section__session_id=session_id,
    )
    try:
        penalty_remove(penalty=penalty, by=request.user)
    except ValidationError as error:
        messages.error(request, "Nothing changed: " + " ".join(error.messages))
    else:
        messages.success(request, f"Pair {penalty.pair.label}: the penalty ({penalty.text}) is taken back.")
    return redirect("sessions:director_session", session_id=session_id)
