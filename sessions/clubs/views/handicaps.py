"""The director's handicaps of a session's pairs (RULES 14): typed, or computed from the
event's source. The form lives on the pairs page; a refused post shows that page again."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from sessions.pairs.forms.sessions import PairPlayersForm
from sessions.core.forms.errors import add_service_error
from sessions.clubs.forms.handicaps import HandicapsForm
from sessions.core.permissions import directed_session
from sessions.pairs.selectors.sessions import session_pairs
from sessions.clubs.services.handicaps import session_compute_handicaps, session_set_handicaps

from sessions.pairs.views.director import handicaps_computed, pairs_page


@login_required
@require_POST
def session_handicaps(request: HttpRequest, session_id: int) -> HttpResponse:
    session = directed_session(request, session_id)
    pairs = list(session_pairs(session=session))
    form = HandicapsForm(request.POST, pairs=pairs)
    if form.is_valid():
        try:
            if form.cleaned_data["action"] == "compute":
                changes = session_compute_handicaps(session=session, by=request.user)
            else:
                changes = session_set_handicaps(session=session, handicaps=form.handicaps(), by=request.user)
        except ValidationError as error:
            add_service_error(form, error)
        else:
            handicaps_computed(request, changes)
            if not changes:
                messages.info(request, "No handicap changed.")
            return redirect("sessions:director_pairs", session_id=session.pk)
    pairs = list(session_pairs(session=session))  # as stored: the refused figures stay in the form only
    return pairs_page(request, session, pairs, PairPlayersForm(pairs=pairs, rounds=session.rounds), form, status=400)
