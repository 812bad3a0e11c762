"""The director's session while it is played: the progress grid that follows the tables,
publishing (asking first when lines are missing), and marking the session final.

Club-scoped like every director page (another club's session is a 404, an anonymous
user is sent to log in). The grid is a partial the session page polls with htmx every
few seconds; without JavaScript a reload of the session page shows the same grid.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from django.utils import timezone

from sessions.models import DirectorCall, Session
from sessions.core.permissions import directed_session, get_club_object_or_404, htmx_login_required
from sessions.phones.selectors.calls import open_calls
from sessions.phones.selectors.clock import round_clock, tables_over_time
from sessions.pairs.selectors.sessions import session_progress
from sessions.phones.services.calls import director_call_take
from sessions.phones.services.clock import (
    clock_add_minute, clock_next_round, clock_pause, clock_set_minutes, clock_start,
)
from sessions.core.values import parse_number
from sessions.pairs.services.sessions import session_mark_final, session_publish, session_reopen, session_unpublish

#: htmx stops polling on this status (and still swaps the answer in).
STOP_POLLING = 286

#: The grid's answer to a poll once the director's login has expired.
POLL_LOGGED_OUT = (
    '<div id="progress" class="progress-grid"><p class="message warning" role="status">'
    "Your login has expired: reload the page and log in again to follow the tables.</p></div>"
)



#: A poll after the director's login expired: stop polling, with a note.
_poll_login_required = htmx_login_required(lambda: HttpResponse(POLL_LOGGED_OUT, status=STOP_POLLING))


@_poll_login_required
@require_GET
def session_progress_grid(request: HttpRequest, session_id: int) -> HttpResponse:
    """The session page's progress grid alone (the page polls it while the tables play)."""
    session = directed_session(request, session_id)
    return render(request, "pairs/director/partials/progress_grid.html", grid_context(session))


def grid_context(session: Session) -> dict[str, object]:
    """What the grid shows, on the session page and in each poll: the tables' progress and
    the open calls to the director (with ``now``, for the time since each call)."""
    now = timezone.now()
    progress = session_progress(session=session)
    clock = round_clock(session=session, now=now)
    return {
        "session": session, "progress": progress, "calls": open_calls(session=session), "now": now,
        "clock": clock, "over_time": tables_over_time(clock=clock, progress=progress),
    }


def _grid_or_session(request: HttpRequest, session: Session) -> HttpResponse:
    """After a press on the grid: the grid again for htmx, else back to the session page."""
    if request.htmx:
        return render(request, "pairs/director/partials/progress_grid.html", grid_context(session))
    return redirect("sessions:director_session", session_id=session.pk)


#: The clock's buttons, each given the session or the teams event (``session=`` or ``team_event=``).
CLOCK_ACTIONS = {
    "start": lambda timed, minutes: clock_start(**timed),
    "pause": lambda timed, minutes: clock_pause(**timed),
    "next": lambda timed, minutes: clock_next_round(**timed),
    "minute": lambda timed, minutes: clock_add_minute(**timed),
    "minutes": lambda timed, minutes: clock_set_minutes(**timed, minutes=minutes or 0),
}


def clock_press(request: HttpRequest, **timed: object) -> None:
    """One press of the clock's buttons (a pairs session's or a teams event's): a stale
    button or a refusal is a message, nothing changed."""
    action = CLOCK_ACTIONS.get(request.POST.get("action", ""))
    if action is None:
        messages.error(request, "That clock button belongs to an old page: here is the page as it is now.")
        return
    try:
        action(timed, parse_number(request.POST.get("minutes", "")))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))


@login_required
@require_POST
def session_clock_view(request: HttpRequest, session_id: int) -> HttpResponse:
    """The round clock's buttons on the grid: ``action`` is start, pause, next, minute, or
    minutes (with ``minutes``: the minutes a round)."""
    session = directed_session(request, session_id)
    clock_press(request, session=session)
    return _grid_or_session(request, session)


@login_required
@require_POST
def director_call_take_view(request: HttpRequest, session_id: int, call_id: int) -> HttpResponse:
    """The director's "Taken" on a call: the grid drops it, the table's phone says the
    director is coming. Another club's call is a 404, like every director object."""
    call = get_club_object_or_404(request.user, DirectorCall, pk=call_id, session=session_id)
    director_call_take(call=call, by=request.user)
    return _grid_or_session(request, call.session)


@login_required
@require_POST
def session_publish_view(request: HttpRequest, session_id: int) -> HttpResponse:
    """Publish; with lines missing, first ask (``confirm=1`` publishes anyway)."""
    session = directed_session(request, session_id)
    if not session.published and request.POST.get("confirm") != "1":
        progress = session_progress(session=session)
        if progress.entered and progress.missing:
            return render(request, "pairs/director/publish_confirm.html", {"session": session, "progress": progress})
    try:
        session_publish(session=session, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        state = "they are final" if session.final else 'they say "provisional" until you mark the session final'
        messages.success(request, f"Published: players can see the results; {state}.")
    return redirect("sessions:director_session", session_id=session.pk)


@login_required
@require_POST
def session_unpublish_view(request: HttpRequest, session_id: int) -> HttpResponse:
    session = directed_session(request, session_id)
    session_unpublish(session=session, by=request.user)
    messages.success(request, "Unpublished: the results are hidden from players.")
    return redirect("sessions:director_session", session_id=session.pk)


@login_required
@require_POST
def session_mark_final_view(request: HttpRequest, session_id: int) -> HttpResponse:
    session = directed_session(request, session_id)
    session_mark_final(session=session)
    if session.published:
        messages.success(request, "Marked final: players see the results as final, with the hands and their analysis.")
    else:
        messages.success(request, "Marked final: publish the session for players to see it.")
    return redirect("sessions:director_session", session_id=session.pk)


@login_required
@require_POST
def session_reopen_view(request: HttpRequest, session_id: int) -> HttpResponse:
    session = directed_session(request, session_id)
    session_reopen(session=session)
    messages.success(request, "Reopened: the results are provisional again and the hands hidden from players.")
    return redirect("sessions:director_session", session_id=session.pk)
