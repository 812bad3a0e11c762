"""Hand records for the director: load or deal the hands, download them, print them.

Club-scoped like every director page (another club's session is a 404, an anonymous
user is sent to log in). The hands are secret until the session is played, so the
downloads and printable sheets are the director's only; players see a board's hands
and analysis on its public page once the session is published and marked final (until
then a board may still be in play at another table).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.views.decorators.http import require_POST

from sessions.analysis.forms.analysis import GenerateDealsForm, HandRecordUploadForm
from sessions.analysis.selectors.analysis import hand_records_file, session_analyses
from sessions.pairs.selectors.sessions import section_by_letter
from sessions.analysis.services.analysis import DealsStored, deals_generate, hand_records_load
from sessions.models import Section, Session
from sessions.core.permissions import directed_session



def _deal_sections(session: Session) -> dict:
    """The form arguments where sections play different boards: the sections with deals of
    their own, and whether some section still plays the shared boards."""
    boards = session_analyses(session=session)
    own = tuple(sorted({view.board.section.letter for view in boards if view.board.section}))
    return {"own_sections": own, "shared": any(view.board.section_id is None for view in boards)}


def _chosen_section(session: Session, form) -> Section | None:
    letter = form.cleaned_data.get("section") or ""
    return section_by_letter(session=session, letter=letter) if letter else None


def _page(request: HttpRequest, session: Session, upload=None, generate=None, status: int = 200) -> HttpResponse:
    boards = session_analyses(session=session)
    return render(request, "analysis/hand_records.html", {
        "session": session,
        "boards": boards,
        "several_deals": any(view.board.section_id for view in boards),
        "upload_form": upload or HandRecordUploadForm(**_deal_sections(session)),
        "generate_form": generate or GenerateDealsForm(**_deal_sections(session)),
    }, status=status)


@login_required
def hand_records(request: HttpRequest, session_id: int) -> HttpResponse:
    return _page(request, directed_session(request, session_id))


def _stored(request: HttpRequest, session: Session, stored: DealsStored, verb: str) -> HttpResponse:
    messages.success(request, f"{verb} {len(stored.boards)} deals; the analysis runs in the background.")
    for note in stored.notes:
        messages.warning(request, note)
    return redirect("sessions:analysis_hand_records", session_id=session.pk)


@login_required
@require_POST
def hand_records_upload(request: HttpRequest, session_id: int) -> HttpResponse:
    session = directed_session(request, session_id)
    form = HandRecordUploadForm(request.POST, request.FILES, **_deal_sections(session))
    if form.is_valid():
        try:
            stored = hand_records_load(
                session=session, data=form.cleaned_data["file"].read(), section=_chosen_section(session, form),
            )
        except ValidationError as error:
            form.add_error("file", error)
        else:
            return _stored(request, session, stored, "Loaded")
    return _page(request, session, upload=form, status=400)


@login_required
@require_POST
def deals_generate_view(request: HttpRequest, session_id: int) -> HttpResponse:
    session = directed_session(request, session_id)
    form = GenerateDealsForm(request.POST, **_deal_sections(session))
    if form.is_valid():
        try:
            stored = deals_generate(
                session=session, replace=form.cleaned_data["replace"], section=_chosen_section(session, form),
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            return _stored(request, session, stored, "Dealt")
    return _page(request, session, generate=form, status=400)


@login_required
def hand_records_pbn(request: HttpRequest, session_id: int) -> HttpResponse:
    session = directed_session(request, session_id)
    letter = request.GET.get("section", "")[:2]
    response = HttpResponse(hand_records_file(session=session, section_letter=letter), content_type="application/x-pbn")
    name = slugify(f"{session.event.name} {session.name} {session.date} {letter}") or "hand-records"
    response["Content-Disposition"] = f'attachment; filename="{name}.pbn"'
    return response


@login_required
def hand_records_print(request: HttpRequest, session_id: int) -> HttpResponse:
    """Printable hand-record sheets: four boards a page, with diagram, DD table and par."""
    session = directed_session(request, session_id)
    boards = [view for view in session_analyses(session=session) if view.deal]
    pages = [boards[start:start + 4] for start in range(0, len(boards), 4)]
    return render(request, "analysis/print_sheets.html", {"session": session, "pages": pages})
