"""Import jobs (sessions.transfer.services.jobs): a large file imported after the commit, inline
(IMPORT_BACKGROUND off, as in tests) or in a background thread; refused, broken and
interrupted jobs; and the command that runs the waiting ones."""

from __future__ import annotations

import threading
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connections
from django.utils import timezone

from sessions.formats import parse_results_file
from sessions.models import ImportJob, ImportStatus, Session
from sessions.core.services import background
from sessions.transfer.services.importing import ImportRefused, results_import
from sessions.transfer.services import jobs
from tests.factories import make_club, make_event
from tests.transfer.helpers import BAD_FILES, GOOD_USEBIO, data, model_counts, run_import

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def inline_jobs(settings):
    settings.IMPORT_BACKGROUND = False


@pytest.fixture
def club():
    return make_club(name="Home Club")


def queued(club, content: bytes = b"", filename: str = "big.xml", event=None) -> ImportJob:
    """A job for ``content`` (the good USEBIO file by default), queued and not yet run."""
    return ImportJob.objects.create(club=club, event=event, filename=filename, size=len(content), data=content)


def test_a_job_runs_after_its_commit_and_ends_with_its_session(club, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        job = jobs.import_job_create(club=club, data=data(GOOD_USEBIO), filename="big.xml")
    assert ImportJob.objects.get().status == ImportStatus.QUEUED and not Session.objects.exists()
    assert callbacks == [jobs.import_jobs_start]

    callbacks[0]()  # the commit: run inline, the setting being off

    job = ImportJob.objects.get(pk=job.pk)
    session = Session.objects.get(event__club=club)
    assert (job.status, job.session, job.attempts) == (ImportStatus.DONE, session, 1)
    parsed = parse_results_file(data(GOOD_USEBIO))
    assert (job.boards, job.pairs, job.lines) == (
        len({board.number for board in parsed.boards}), len(parsed.pairs), sum(len(b.lines) for b in parsed.boards)
    )
    assert job.started_at <= job.finished_at
    assert bytes(job.data) == b""  # the file is not kept once imported
    # The summary an import in the request shows.
    assert job.summary_lines == results_import(club=make_club(), data=data(GOOD_USEBIO), filename="big.xml").summary()


@pytest.mark.parametrize("case", BAD_FILES)
def test_a_refused_file_fails_its_job_with_the_upload_pages_message_and_stores_nothing(club, case):
    build, reason = BAD_FILES[case]
    with pytest.raises(ImportRefused) as refused:
        results_import(club=club, data=build(), filename="big.xml")
    before = model_counts()
    job = queued(club, build())

    (ended,) = jobs.import_jobs_run()

    assert ended.pk == job.pk
    assert (ended.status, ended.message, ended.session) == (ImportStatus.FAILED, str(refused.value), None)
    assert reason in ended.message
    assert model_counts() == before


def test_a_file_refused_while_stored_leaves_nothing_of_its_session(club):
    # Read in full, refused while stored: the event is another club's method.
    event = make_event(club, name="Butler night", method="butler")
    job = queued(club, data(GOOD_USEBIO), event=event)
    before = model_counts()

    (ended,) = jobs.import_jobs_run()

    assert ended.status == ImportStatus.FAILED and "nothing was imported" in ended.message
    assert ended.lines is not None  # it was read: the page showed what it holds
    assert model_counts() == before
    assert job.pk == ended.pk


def test_an_unexpected_error_fails_the_job_with_a_plain_message_and_is_logged(club, monkeypatch, caplog):
    def broken(**kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(jobs, "results_store", broken)
    queued(club, data(GOOD_USEBIO))
    before = model_counts()

    (ended,) = jobs.import_jobs_run()

    assert ended.status == ImportStatus.FAILED
    assert ended.message == f"big.xml: {jobs.UNEXPECTED}" and "disk on fire" not in ended.message
    assert "import job" in caplog.text and "disk on fire" in caplog.text
    assert model_counts() == before


def test_only_one_worker_claims_a_job(club):
    queued(club, data(GOOD_USEBIO))
    first = jobs._claim_next()
    assert first is not None and first.status == ImportStatus.RUNNING
    assert jobs._claim_next() is None


def test_a_job_cut_short_by_a_restart_is_taken_again(club):
    job = queued(club, data(GOOD_USEBIO))
    ImportJob.objects.filter(pk=job.pk).update(
        status=ImportStatus.RUNNING, attempts=1, started_at=timezone.now() - jobs.STALE_AFTER * 2
    )
    (ended,) = jobs.import_jobs_run()
    assert (ended.status, ended.attempts) == (ImportStatus.DONE, 2)
    assert Session.objects.filter(event__club=club).count() == 1


def test_a_job_running_now_is_left_to_its_worker(club):
    job = queued(club, data(GOOD_USEBIO))
    ImportJob.objects.filter(pk=job.pk).update(status=ImportStatus.RUNNING, attempts=1, started_at=timezone.now())
    assert jobs.import_jobs_run() == []
    assert ImportJob.objects.get(pk=job.pk).status == ImportStatus.RUNNING


def test_a_job_interrupted_again_and_again_fails(club):
    job = queued(club, data(GOOD_USEBIO))
    ImportJob.objects.filter(pk=job.pk).update(
        status=ImportStatus.RUNNING, attempts=jobs.MAX_ATTEMPTS, started_at=timezone.now() - jobs.STALE_AFTER * 2
    )
    assert jobs.import_jobs_run() == []
    job = ImportJob.objects.get(pk=job.pk)
    assert job.status == ImportStatus.FAILED and f"interrupted {jobs.MAX_ATTEMPTS} times" in job.message
    assert not Session.objects.exists()


def test_a_worker_whose_job_was_taken_over_rolls_its_import_back(club):
    queued(club, data(GOOD_USEBIO))
    slow = jobs._claim_next()
    # Thought interrupted, the job is claimed again by another worker (attempt 2).
    ImportJob.objects.filter(pk=slow.pk).update(attempts=2)

    ended = jobs.import_job_run(slow)

    assert (ended.status, ended.attempts) == (ImportStatus.RUNNING, 2)  # the other worker's to end
    assert not Session.objects.exists()


def test_a_job_goes_into_an_event_of_its_club_only(club):
    other = make_event(make_club(), name="Elsewhere")
    with pytest.raises(ValidationError, match="not an event of Home Club"):
        jobs.import_job_create(club=club, data=data(GOOD_USEBIO), filename="big.xml", event=other)
    assert not ImportJob.objects.exists()


def test_the_size_above_which_files_go_to_a_job_is_a_setting(settings):
    assert not jobs.in_background(jobs.DEFAULT_BACKGROUND_BYTES)
    assert jobs.in_background(jobs.DEFAULT_BACKGROUND_BYTES + 1)
    settings.IMPORT_BACKGROUND_BYTES = 10
    assert jobs.in_background(11) and not jobs.in_background(10)


def test_the_background_setting_follows_the_analysis_one_when_unset(settings):
    del settings.IMPORT_BACKGROUND
    settings.ANALYSIS_BACKGROUND = False
    assert not jobs._background()
    settings.ANALYSIS_BACKGROUND = True
    assert jobs._background()


# --- the command ----------------------------------------------------------------------------------


def test_the_command_runs_the_waiting_jobs(club):
    job = queued(club, data(GOOD_USEBIO))
    failing = queued(club, BAD_FILES["truncated XML"][0](), filename="cut.xml")

    out = StringIO()
    call_command("import_results", "--jobs", stdout=out)
    output = out.getvalue().splitlines()

    session = Session.objects.get(event__club=club)
    assert output == [
        f"job {job.pk} big.xml: imported, session {session.pk}",
        f"job {failing.pk} cut.xml: not imported, {ImportJob.objects.get(pk=failing.pk).message}",
        "2 import jobs ended.",
    ]


def test_the_command_imports_a_large_file_in_the_foreground_and_prints_its_session_last(tmp_path, settings):
    settings.IMPORT_BACKGROUND_BYTES = 10  # every file is "large"
    path = tmp_path / "big.xml"
    path.write_bytes(data(GOOD_USEBIO))
    output = run_import(path)
    assert Session.objects.get(pk=int(output[-1]))
    assert not ImportJob.objects.exists()


@pytest.mark.parametrize("arguments", [(), ("some.xml", "--jobs")])
def test_the_command_wants_a_file_or_jobs(arguments):
    with pytest.raises(CommandError):
        call_command("import_results", *arguments)


# --- in a background thread ---------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)  # the thread reads what the test committed
def test_the_background_thread_imports_the_job_and_closes_its_connection(settings, monkeypatch):
    settings.IMPORT_BACKGROUND = True
    club = make_club(name="Thread Club")
    job = queued(club, data(GOOD_USEBIO))
    closed_by = []

    def close_all():
        closed_by.append(threading.current_thread().name)
        connections.close_all()

    monkeypatch.setattr(background, "connections", type("Spy", (), {"close_all": staticmethod(close_all)}))
    thread = jobs.import_jobs_start()
    assert thread is not None and thread.daemon
    thread.join(timeout=120)
    assert not thread.is_alive()
    job = ImportJob.objects.get(pk=job.pk)
    assert job.status == ImportStatus.DONE and job.session == Session.objects.get(event__club=club)
    assert closed_by == ["results-import"]


@pytest.mark.django_db(transaction=True)
def test_no_thread_is_started_when_no_job_waits(settings):
    settings.IMPORT_BACKGROUND = True
    assert jobs.import_jobs_start() is None


def test_a_teams_job_makes_a_teams_event_and_refuses_a_pairs_event(club):
    from sessions.models import TeamEvent

    teams_file = data("teams/ebu_example_multiple_teams_teamsscorer.xml")
    refused = queued(club, teams_file, event=make_event(club))
    jobs.import_jobs_run()
    refused.refresh_from_db()
    assert (refused.status, refused.message) == (ImportStatus.FAILED, jobs.TEAMS_INTO_EVENT)
    assert not TeamEvent.objects.exists()

    job = queued(club, teams_file)
    jobs.import_jobs_run()
    job.refresh_from_db()
    event = TeamEvent.objects.get()
    assert (job.status, job.team_event, job.session, bytes(job.data)) == (ImportStatus.DONE, event, None, b"")
    assert (job.boards, job.pairs, job.lines) == (30, 10, 240)  # board numbers, teams, room lines
    assert "teams: 10, matches: 40, room lines: 240" in job.summary_lines
