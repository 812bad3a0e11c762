"""Large results files imported in the background: an ImportJob row and a worker thread.

A file at the formats' limits (some 20,000 traveller lines) takes longer to import than
a web worker may take to answer, so the upload page imports a file of more than
IMPORT_BACKGROUND_BYTES as a job: ``import_job_create`` keeps the file on a queued
ImportJob and, after the commit, ``import_jobs_start`` runs it, the way the double-dummy
analysis runs (sessions.analysis.services.analysis): on the work queue when there is one
(WORK_QUEUE=rq), else in one background thread with its own database connection (closed
when it ends), or at once when the IMPORT_BACKGROUND setting is False (unset, it follows
ANALYSIS_BACKGROUND, so tests run both inline). Any app server shows a job's progress:
it is on the row. ``import_jobs_run`` is that work, the same for the queue, the thread and
``manage.py import_results --jobs`` (cron, or after a restart). Smaller files are
imported in the request, as before.

A job is claimed (queued -> running, one more attempt), its file read (results_read:
what the file holds is recorded at once, for the page to show), then stored by
results_store in one transaction that also marks the job done with its session. A
refused file fails the job with the message the upload page would show, and nothing of
the session is stored. A job still running after STALE_AFTER was cut short (the server
restarted: the transaction was rolled back) and is taken again; a worker ends only the
attempt it began, so no file is imported twice, and after MAX_ATTEMPTS a job fails.
"""

from __future__ import annotations

import datetime
import logging
import threading

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from sessions.models import Club, Event, ImportJob, ImportStatus
from sessions.core.services.background import BackgroundWorker
from sessions.core.services.unit_of_work import unit_of_work, write

from sessions.transfer.services.importing import ImportRefused, conventions_checked, results_read, results_store
from sessions.transfer.services.teams_import import is_teams_file, teams_read, teams_store

logger = logging.getLogger(__name__)

#: Files larger than this (bytes) are imported in the background (setting IMPORT_BACKGROUND_BYTES).
#: The largest real file in tests/data is 278 KB; 512 KB of the terse PBN ScoreTable
#: that gives the most lines a byte is about 3,000 traveller lines, imported in a few seconds.
DEFAULT_BACKGROUND_BYTES = 512 * 1024
#: A job running longer than this was interrupted: an import at the formats' limits takes under a minute.
STALE_AFTER = datetime.timedelta(minutes=10)
#: Interrupted this many times, a job fails rather than stop the server again.
MAX_ATTEMPTS = 3

TEAMS_INTO_EVENT = "a teams file is imported as a new teams event: leave the event empty"
UNEXPECTED = "the import stopped on an unexpected error (it is logged for the administrator); nothing was imported"


def in_background(size: int) -> bool:
    """Whether a file of ``size`` bytes is imported by a job rather than in the request."""
    return size > getattr(settings, "IMPORT_BACKGROUND_BYTES", DEFAULT_BACKGROUND_BYTES)


def _background() -> bool:
    return getattr(settings, "IMPORT_BACKGROUND", getattr(settings, "ANALYSIS_BACKGROUND", True))


@write
def import_job_create(
    *, club: Club, data: bytes, filename: str, user: AbstractBaseUser | None = None, event: Event | None = None,
    sections: str | None = None, conventions: dict[str, str] | None = None, publish: str = "",
) -> ImportJob:
    """Queue the import of ``data`` into ``club`` (into ``event`` if given); it starts after the commit.
    ``sections`` and ``conventions``: as results_import's (a bad convention is refused here)."""
    if event is not None and event.club_id != club.pk:
        raise ValidationError(f"event {event.name!r} is not an event of {club.name}")
    conventions_checked(conventions)
    job = ImportJob(
        club=club, event=event, sections=sections or "", conventions=_conventions_text(conventions),
        publish=publish, filename=filename[:255], size=len(data), data=data,
        created_by=user if user is not None and user.is_authenticated else None,
    )
    job.full_clean()
    job.save()
    transaction.on_commit(import_jobs_start)
    return job


def _conventions_text(conventions: dict[str, str] | None) -> str:
    return ";".join(f"{name}={word}" for name, word in (conventions or {}).items())


def _conventions_of(text: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in text.split(";") if "=" in part)


# --- running jobs ----------------------------------------------------------------------------


def _waiting(now: datetime.datetime) -> QuerySet[ImportJob]:
    """Jobs to run: queued ones, and running ones whose worker has not been heard of for too long."""
    return ImportJob.objects.filter(
        Q(status=ImportStatus.QUEUED) | Q(status=ImportStatus.RUNNING, started_at__lt=now - STALE_AFTER)
    )


def import_jobs_run() -> list[ImportJob]:
    """Run every waiting job, oldest first, and every interrupted one; returns the jobs it ended."""
    ended = []
    while (job := _claim_next()) is not None:
        ended.append(import_job_run(job))
    return ended


@write
def _claim_next() -> ImportJob | None:
    """The oldest waiting job, now running for this worker (None when none is left).

    The claim is one conditional UPDATE on the attempt number: of two workers that see
    the same job, one claims it.
    """
    now = timezone.now()
    waiting = _waiting(now).order_by("created_at", "pk").values_list("pk", "attempts")
    for pk, attempts in waiting[:50]:
        this_attempt = ImportJob.objects.filter(
            Q(status=ImportStatus.QUEUED) | Q(status=ImportStatus.RUNNING, started_at__lt=now - STALE_AFTER),
            pk=pk, attempts=attempts,
        )
        if attempts >= MAX_ATTEMPTS:
            this_attempt.update(
                status=ImportStatus.FAILED, data=b"", finished_at=now,
                message=f"the import was interrupted {attempts} times (the server stopped while it ran); "
                        "nothing was imported: upload the file again, or import it with manage.py import_results",
            )
            continue
        if this_attempt.update(
            status=ImportStatus.RUNNING, attempts=F("attempts") + 1, started_at=now, boards=None, pairs=None, lines=None,
        ):
            return ImportJob.objects.select_related("club", "event", "created_by").get(pk=pk)
    return None


class _Superseded(Exception):
    """Another worker took the job over (this one was thought interrupted): roll back."""


def import_job_run(job: ImportJob) -> ImportJob:
    """Import a claimed job's file; the job ends done or failed (see the module docstring)."""
    mine = ImportJob.objects.filter(pk=job.pk, attempts=job.attempts, status=ImportStatus.RUNNING)
    try:
        content, job.data = bytes(job.data), b""  # the one copy of the file, dropped once the job ends
        (_run_teams if is_teams_file(content) else _run_pairs)(job, mine, content)
    except ImportRefused as error:
        _fail(mine, str(error))
    except _Superseded:
        logger.warning("import job %s was taken over by another worker; this attempt is rolled back", job.pk)
    except Exception:  # logged; the director reads a plain message, never a traceback
        logger.exception("import job %s (%s) stopped", job.pk, job.filename)
        _fail(mine, f"{job.filename}: {UNEXPECTED}")
    return ImportJob.objects.get(pk=job.pk)


def _run_pairs(job: ImportJob, mine: QuerySet[ImportJob], content: bytes) -> None:
    parsed = results_read(data=content, filename=job.filename)
    with unit_of_work():
        mine.update(
            boards=len({board.number for board in parsed.boards}), pairs=len(parsed.pairs),
            lines=sum(len(board.lines) for board in parsed.boards),
        )
    with unit_of_work():
        report = results_store(
            club=job.club, parsed=parsed, filename=job.filename, user=job.created_by, event=job.event,
            sections=job.sections or None, conventions=_conventions_of(job.conventions), publish=job.publish,
        )
        _done(mine, session=report.session, summary=report.summary())


def _run_teams(job: ImportJob, mine: QuerySet[ImportJob], content: bytes) -> None:
    """A teams file: a new teams event (a pairs event chosen on the form cannot take it)."""
    if job.event_id is not None:
        raise ImportRefused(TEAMS_INTO_EVENT)
    read = teams_read(data=content)
    parsed = read.parsed
    with unit_of_work():
        mine.update(
            boards=len({board.number for match in parsed.matches for board in match.boards}), pairs=len(parsed.teams),
            lines=read.lines, teams=True,
        )
    with unit_of_work():
        report = teams_store(club=job.club, read=read, filename=job.filename, user=job.created_by, publish=job.publish)
        _done(mine, team_event=report.event, summary=report.summary())


def _done(mine: QuerySet[ImportJob], summary: list[str], **result) -> None:
    """Mark the job done in the import's own transaction (or roll it back if another worker took it)."""
    if not mine.update(
        status=ImportStatus.DONE, message="\n".join(summary), data=b"", finished_at=timezone.now(), **result,
    ):
        raise _Superseded


@write
def _fail(mine: QuerySet[ImportJob], message: str) -> None:
    mine.update(status=ImportStatus.FAILED, message=message, data=b"", finished_at=timezone.now())


# --- in the background ---------------------------------------------------------------------------

def import_jobs_start() -> threading.Thread | None:
    """Run the waiting jobs: queued, in the background thread or now (see services.background)."""
    return WORKER.start(background=_background(), pending=lambda: _waiting(timezone.now()).exists())


WORKER = BackgroundWorker(
    name="results-import", path=f"{__name__}.WORKER", run=import_jobs_run,
    # Passes run side by side (each claims its own jobs). One that died left its job running:
    # it is retried once that job counts as interrupted.
    retry_after=STALE_AFTER + datetime.timedelta(minutes=1),
    summary=lambda ended: "import jobs ended: " + (", ".join(f"{job.pk} {job.status}" for job in ended) or "none"),
    stopped="background import of the waiting jobs stopped",
)
