"""Upload a results file; download a session in any export format. Thin views.

The upload page is for the club's directors (others get 404 through the club-scoped
helper). A published session's exports are public; an unpublished one's only for its
club's directors: anyone else gets 404, as if it did not exist.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from sessions.models import Club, Session
from sessions.permissions import get_club_object_or_404
from sessions.transfer import EXPORTERS, ExportRefused, ImportRefused, results_import
from sessions.transfer.forms import ImportForm


@login_required
@require_http_methods(["GET", "POST"])
def import_results(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = get_club_object_or_404(request.user, Club, slug=club_slug)
    form = ImportForm(request.POST or None, request.FILES or None, club=club)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            imported = results_import(
                club=club, data=upload.read(), filename=upload.name, user=request.user,
                event=form.cleaned_data["event"],
            )
        except ImportRefused as error:
            form.add_error("file", str(error))
        else:
            messages.success(request, f"Imported {upload.name}: " + "; ".join(imported.summary()))
            return redirect("sessions:director_session", session_id=imported.session.pk)
    return render(request, "transfer/import.html", {"club": club, "form": form})


def _exportable_session(request: HttpRequest, session_id: int) -> Session:
    """A published session, or an unpublished one of a club the user directs; else 404."""
    visible = Q(published=True)
    if request.user.is_authenticated:
        visible |= Q(event__club__directors=request.user)
    return get_object_or_404(Session.objects.filter(visible).select_related("event__club").distinct(), pk=session_id)


@require_GET
def export_session(request: HttpRequest, session_id: int, fmt: str) -> HttpResponse:
    exporter = EXPORTERS.get(fmt)
    if exporter is None:
        raise Http404("no such export format")
    session = _exportable_session(request, session_id)
    try:
        filename, content_type, content = exporter.render(session)
    except ExportRefused as error:
        return HttpResponse(str(error), status=409, content_type="text/plain; charset=utf-8")
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
