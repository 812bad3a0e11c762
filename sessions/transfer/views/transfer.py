"""Upload a results file; follow a large one's import; download a session in any export format. Thin views.

The upload page is for the club's directors (others get 404 through the club-scoped
helper). A file up to IMPORT_BACKGROUND_BYTES is imported in the request; a larger one
becomes an import job (sessions.transfer.services.jobs) and the director lands on the job's
page, which polls itself with htmx every second (without JavaScript it reloads) until
the job is done (a link to the session) or failed (the reason). A job is its club's
directors' only. A published session's exports are public once the director marks it
final (before that they would carry the hands and rankings the public pages still hide:
409 with the reason); an unpublished one's only for its club's directors: anyone else
gets 404, as if it did not exist. The club's directors download at any time. An event's
export (its combined ranking and each session's) holds its published sessions, and
every session for the club's directors. A teams event's exports follow the session's
rule: public once published and marked final, its club's directors at any time.

National uploads (the club's directors only): the list of final sessions with their
status, each session's file for the club's federation (sessions.transfer.national), and
"Mark as sent", which records the file as of the revision the page showed.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from sessions.formats import FormatError
from sessions.models import Club, ImportJob, Session, TeamEvent
from sessions.clubs.selectors.clubs import directs_club
from sessions.pairs.selectors.events import event_ranking, events_with_club
from sessions.transfer.selectors.transfer import exportable_sessions, exportable_team_events, recent_import_jobs
from sessions.clubs.selectors.uploads import club_upload_rows, latest_upload
from sessions.clubs.services.uploads import national_upload_record
from sessions.core.permissions import directed_session, get_club_object_or_404, htmx_login_required
from sessions.transfer.forms.transfer import ImportForm, UploadSentForm
from sessions.transfer.to_parsed import ExportRefused
from sessions.transfer.services.importing import ImportRefused, results_import
from sessions.transfer.exporters import EVENT, EXPORTS, SESSION, TEAMS, Exporter, Subject
from sessions.transfer.national import UPLOAD_FORMATS, UploadRefused, upload_file
from sessions.transfer.services.jobs import TEAMS_INTO_EVENT, import_job_create, in_background
from sessions.transfer.services.teams_import import is_teams_file, teams_import

#: The answer to a job page's poll once the director's login has expired (htmx stops polling on 286).
POLL_LOGGED_OUT = (
    '<div id="import-job" class="import-job"><p class="message warning" role="status">'
    "Your login has expired: reload the page and log in again to follow the import.</p></div>"
)
TEAMS_NO_CONVENTIONS = "A teams file has no pairs conventions to choose: leave them as the file shows."


@login_required
@require_http_methods(["GET", "POST"])
def import_results(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = get_club_object_or_404(request.user, Club, slug=club_slug)
    form = ImportForm(request.POST or None, request.FILES or None, club=club)
    if request.method == "POST" and form.is_valid():
        upload, event = form.cleaned_data["file"], form.cleaned_data["event"]
        sections, publish = form.cleaned_data["sections"] or None, form.cleaned_data["publish"]
        conventions = form.conventions()
        data = upload.read()
        if is_teams_file(data):
            return _import_teams(request, club, form, upload.name, data)
        if in_background(len(data)):
            try:
                job = import_job_create(
                    club=club, data=data, filename=upload.name, user=request.user, event=event, sections=sections,
                    conventions=conventions, publish=publish,
                )
            except ValidationError as error:
                form.add_error(None, "; ".join(error.messages))
                return render(request, "transfer/import.html", {"club": club, "form": form, "jobs": recent_import_jobs(club=club)})
            return redirect("sessions:transfer_import_job", job_id=job.pk)
        try:
            imported = results_import(
                club=club, data=data, filename=upload.name, user=request.user, event=event, sections=sections,
                conventions=conventions, publish=publish,
            )
        except ImportRefused as error:
            form.add_error("file", str(error))
        else:
            messages.success(request, f"Imported {upload.name}: " + "; ".join(imported.summary()))
            return redirect("sessions:director_session", session_id=imported.session.pk)
    jobs = recent_import_jobs(club=club)
    return render(request, "transfer/import.html", {"club": club, "form": form, "jobs": jobs})


def _import_teams(request: HttpRequest, club: Club, form, filename: str, data: bytes) -> HttpResponse:
    """A teams file becomes a new teams event (never a session of a pairs event); a large
    one is imported by a job, as a large pairs file is."""
    if form.cleaned_data["event"] is not None:
        form.add_error("event", TEAMS_INTO_EVENT)
    elif form.conventions():
        form.add_error(None, TEAMS_NO_CONVENTIONS)
    elif in_background(len(data)):
        job = import_job_create(club=club, data=data, filename=filename, user=request.user,
                                publish=form.cleaned_data["publish"])
        return redirect("sessions:transfer_import_job", job_id=job.pk)
    else:
        try:
            imported = teams_import(club=club, data=data, filename=filename, user=request.user,
                                    publish=form.cleaned_data["publish"])
        except ImportRefused as error:
            form.add_error("file", str(error))
        else:
            messages.success(request, f"Imported {filename}: " + "; ".join(imported.summary()))
            return redirect("sessions:director_team_event", event_id=imported.event.pk)
    jobs = recent_import_jobs(club=club)
    return render(request, "transfer/import.html", {"club": club, "form": form, "jobs": jobs})


@htmx_login_required(lambda: HttpResponse(POLL_LOGGED_OUT, status=286))
@require_GET
def import_job(request: HttpRequest, job_id: int) -> HttpResponse:
    """A background import's page; an htmx poll gets its status block alone."""
    job = get_club_object_or_404(request.user, ImportJob, pk=job_id)
    context = {"club": job.club, "job": job}
    if request.htmx:
        return render(request, "transfer/_job_status.html", context)
    return render(request, "transfer/import_job.html", context)


NOT_FINAL_YET = "The downloads are available once the director marks the session final."


def _directs(request: HttpRequest, club: Club) -> bool:
    return request.user.is_authenticated and directs_club(club=club, user=request.user)


def _exporter(subject: Subject, fmt: str) -> Exporter:
    exporter = EXPORTS.get((subject.kind, fmt))
    if exporter is None:
        raise Http404("no such export format")
    return exporter


def _download(rendered: tuple[str, str, bytes]) -> HttpResponse:
    filename, content_type, content = rendered
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _refused(reason: str) -> HttpResponse:
    return HttpResponse(reason, status=409, content_type="text/plain; charset=utf-8")


def _served(exporter: Exporter, exported: object) -> HttpResponse:
    try:
        return _download(exporter.render(exported))
    except (ExportRefused, FormatError) as error:  # what the format cannot carry, said
        return _refused(str(error))


def _when_final(request: HttpRequest, exporter: Exporter, exported: Session | TeamEvent, club: Club,
                not_final: str) -> HttpResponse:
    """The public's download once final; the club's directors' at any time."""
    if not (exported.final or _directs(request, club)):
        return _refused(not_final)
    return _served(exporter, exported)


@require_GET
def export_session(request: HttpRequest, session_id: int, fmt: str) -> HttpResponse:
    exporter = _exporter(SESSION, fmt)
    session = get_object_or_404(exportable_sessions(user=request.user), pk=session_id)
    return _when_final(request, exporter, session, session.event.club, NOT_FINAL_YET)


@require_GET
def export_event(request: HttpRequest, event_id: int, fmt: str) -> HttpResponse:
    """An event's combined ranking with each session's: its published sessions, or every
    session for the club's directors (unpublished ones marked); none at all is a 404."""
    exporter = _exporter(EVENT, fmt)
    event = get_object_or_404(events_with_club(), pk=event_id)
    ranking = event_ranking(event=event, published_only=not _directs(request, event.club))
    if not ranking.sessions:
        raise Http404("no published session in this event")
    return _served(exporter, ranking)


TEAMS_NOT_FINAL_YET = "The downloads are available once the director marks the teams event final."


@require_GET
def export_team_event(request: HttpRequest, event_id: int, fmt: str) -> HttpResponse:
    """A teams event in one format: as export_session, public once published and final."""
    exporter = _exporter(TEAMS, fmt)
    event = get_object_or_404(exportable_team_events(user=request.user), pk=event_id)
    return _when_final(request, exporter, event, event.club, TEAMS_NOT_FINAL_YET)


# --- national uploads --------------------------------------------------------------------


@login_required
@require_GET
def national_uploads(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The club's final sessions: not sent, sent, or amended since sending, each with its file."""
    club = get_club_object_or_404(request.user, Club, slug=club_slug)
    context = {"club": club, "upload": UPLOAD_FORMATS.get(club.masterpoint_federation),
               "rows": club_upload_rows(club=club)}
    return render(request, "transfer/uploads.html", context)


@login_required
@require_GET
def national_upload_file(request: HttpRequest, session_id: int) -> HttpResponse:
    """The federation's file for a final session; downloading it does not mark it sent."""
    session = directed_session(request, session_id)
    try:
        return _download(upload_file(session))
    except (UploadRefused, ExportRefused) as error:
        return _refused(str(error))


@login_required
@require_POST
def national_upload_sent(request: HttpRequest, session_id: int) -> HttpResponse:
    """The director sent the file downloaded at the revision posted: record it."""
    session = directed_session(request, session_id)
    form = UploadSentForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Download the file and mark it sent from this page.")
        return redirect("sessions:director_uploads", club_slug=session.event.club.slug)
    previous = latest_upload(session=session)
    try:
        record = national_upload_record(session=session, revision=form.cleaned_data["revision"], by=request.user)
    except (UploadRefused, ExportRefused) as error:
        messages.error(request, f"{session.name}: {error}")
    else:
        unchanged = previous is not None and previous.sha256 == record.sha256
        messages.success(request, f"{session.name}: marked as sent" + (
            f" (the file is the one already sent on {previous.sent_at:%d %b %Y}: the body has it)" if unchanged else "."))
    return redirect("sessions:director_uploads", club_slug=session.event.club.slug)
