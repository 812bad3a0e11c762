"""The work queue (clubscore.work_queue) on the real Redis at 127.0.0.1:6379, run by RQ
workers in burst mode: the analysis and the imports go through it when WORK_QUEUE=rq,
inline without it; a pass queued twice does the work once; a pass that dies is retried
and its interrupted import taken again; analysis passes take turns on PostgreSQL."""

from __future__ import annotations

import datetime
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, connections
from django.utils import timezone
from rq import SimpleWorker
from rq.job import Job, JobStatus

from clubscore import work_queue
from sessions.models import AnalysisStatus, BoardAnalysis, ImportJob, ImportStatus, Session
from sessions.analysis.services import analysis
from sessions.core.services.background import BackgroundWorker
from sessions.transfer.services import jobs
from tests.analysis.conftest import TEN_TRICKS_NS, board_of, give_deal
from tests.factories import make_club, make_event, make_session
from tests.transfer.helpers import GOOD_USEBIO, data

pytestmark = pytest.mark.django_db

REDIS_URL = os.environ.get("TEST_RQ_REDIS_URL", "redis://127.0.0.1:6379/14")


@pytest.fixture
def queue(settings):
    """A queue of the test's own on the real Redis, emptied afterwards."""
    settings.WORK_QUEUE, settings.RQ_REDIS_URL = "rq", REDIS_URL
    settings.RQ_QUEUE = f"clubscore-test-{uuid.uuid4().hex[:12]}"
    redis = work_queue.redis_connection()
    yield work_queue.work_queue(redis)
    for key in redis.scan_iter("rq:job:*"):
        if redis.hget(key, "origin") == settings.RQ_QUEUE.encode():
            redis.delete(key, key.replace(b"rq:job:", b"rq:results:"))
    for key in redis.scan_iter(f"*{settings.RQ_QUEUE}*"):
        redis.delete(key)
    redis.srem("rq:queues", f"rq:queue:{settings.RQ_QUEUE}")


def burst(queue) -> None:
    """Run every job on the queue in this process (it sees the test's transaction), then stop."""
    SimpleWorker([queue], connection=queue.connection).work(burst=True, logging_level="WARNING")


def session_with_a_deal() -> Session:
    session = make_session(make_event(make_club()))
    give_deal(board_of(session, 1), TEN_TRICKS_NS)
    return session


def import_job() -> ImportJob:
    content = data(GOOD_USEBIO)
    return ImportJob.objects.create(club=make_club(name="Home Club"), filename="big.xml", size=len(content),
                                    data=content)


def test_without_a_queue_the_analysis_runs_in_the_request_and_nothing_is_queued(settings):
    settings.WORK_QUEUE, settings.RQ_REDIS_URL, settings.ANALYSIS_BACKGROUND = "", REDIS_URL, False
    session_with_a_deal()
    assert analysis.analysis_start() is None
    assert BoardAnalysis.objects.get().status == AnalysisStatus.DONE


def test_stored_deals_are_analysed_by_the_queue_worker_not_by_the_request(queue, django_capture_on_commit_callbacks):
    session = session_with_a_deal()
    with django_capture_on_commit_callbacks(execute=True):
        analysis.analysis_request(boards=[board_of(session, 1)])
    assert BoardAnalysis.objects.get().status == AnalysisStatus.PENDING  # the request only queued a pass
    assert queue.count == 1

    burst(queue)

    assert BoardAnalysis.objects.get().status == AnalysisStatus.DONE
    assert queue.count == 0


def test_a_large_upload_is_imported_by_the_queue_worker(queue, django_capture_on_commit_callbacks):
    club = make_club(name="Home Club")
    with django_capture_on_commit_callbacks(execute=True):
        job = jobs.import_job_create(club=club, data=data(GOOD_USEBIO), filename="big.xml")
    assert ImportJob.objects.get(pk=job.pk).status == ImportStatus.QUEUED and queue.count == 1

    burst(queue)

    job = ImportJob.objects.get(pk=job.pk)
    assert (job.status, job.attempts, job.session) == (ImportStatus.DONE, 1, Session.objects.get(event__club=club))


def test_work_arriving_while_a_pass_waits_joins_it_and_a_started_pass_lets_a_new_one_queue(queue):
    session_with_a_deal()
    analysis.analysis_start()
    analysis.analysis_start()  # a pass is waiting: it will find this work too
    assert queue.count == 1

    burst(queue)  # the pass started (and ended): new work needs a new pass
    give_deal(board_of(Session.objects.get(), 2), TEN_TRICKS_NS)
    analysis.analysis_start()
    assert queue.count == 1


def test_nothing_pending_queues_nothing(queue):
    make_session(make_event(make_club()))
    analysis.analysis_start()
    jobs.import_jobs_start()
    assert queue.count == 0


def test_a_pass_queued_twice_imports_the_file_once(queue):
    job = import_job()
    first = work_queue.enqueue(jobs.WORKER)
    queue.connection.delete(work_queue.waiting_key(jobs.WORKER.name))  # as if the first had started
    second = work_queue.enqueue(jobs.WORKER)
    assert first is not None and second is not None and queue.count == 2

    burst(queue)

    job = ImportJob.objects.get(pk=job.pk)
    assert (job.status, job.attempts) == (ImportStatus.DONE, 1)
    assert Session.objects.count() == 1
    results = [Job.fetch(each.id, connection=queue.connection).return_value() for each in (first, second)]
    assert results == [f"import jobs ended: {job.pk} done", "import jobs ended: none"]


def test_a_pass_that_dies_mid_import_is_retried_and_imports_the_file_once(queue, monkeypatch):
    job = import_job()

    def dies(claimed):  # the worker stops after claiming the job: its import was rolled back
        raise SystemExit("worker killed")

    monkeypatch.setattr(jobs, "import_job_run", dies)
    queued = work_queue.enqueue(jobs.WORKER)
    burst(queue)
    assert ImportJob.objects.get(pk=job.pk).status == ImportStatus.RUNNING  # left as a dead worker leaves it
    # RQ keeps the pass for a retry once the job counts as interrupted, not before.
    retry = Job.fetch(queued.id, connection=queue.connection)
    assert retry.get_status() == JobStatus.SCHEDULED and retry.retries_left == work_queue.RETRIES - 1
    waits = queue.connection.zscore(queue.scheduled_job_registry.key, retry.id) - time.time()
    assert waits > jobs.STALE_AFTER.total_seconds()

    monkeypatch.undo()
    ImportJob.objects.filter(pk=job.pk).update(started_at=timezone.now() - jobs.STALE_AFTER * 2)  # time passes
    queue.enqueue_job(retry)  # what the scheduler does when the time comes
    burst(queue)

    job = ImportJob.objects.get(pk=job.pk)
    assert (job.status, job.attempts) == (ImportStatus.DONE, 2)
    assert Session.objects.count() == 1


def test_an_unreachable_queue_is_logged_and_the_work_stays_pending(settings, caplog):
    settings.WORK_QUEUE, settings.RQ_REDIS_URL = "rq", "redis://127.0.0.1:1/0"  # nothing listens on port 1
    session_with_a_deal()
    assert analysis.analysis_start() is None
    assert "the work queue could not be reached" in caplog.text
    assert analysis.boards_needing_analysis().count() == 1


def test_the_worker_command_needs_a_queue(settings):
    settings.WORK_QUEUE = ""
    with pytest.raises(CommandError, match="WORK_QUEUE=rq"):
        call_command("work_queue", "--burst", stdout=StringIO())


def test_the_worker_command_says_when_redis_cannot_be_reached(settings):
    settings.WORK_QUEUE, settings.RQ_REDIS_URL = "rq", "redis://127.0.0.1:1/0"
    with pytest.raises(CommandError, match="the work queue's Redis cannot be reached"):
        call_command("work_queue", "--burst", stdout=StringIO())


def _dies_once_then_analyses():
    flag = Path(os.environ["CLUBSCORE_TEST_DIES_ONCE"])
    if not flag.exists():
        flag.write_text("killed")
        os.kill(os.getpid(), signal.SIGKILL)  # the worker's process dies in the middle of the pass
    return analysis.analysis_run()


#: An analysis pass whose first run is killed (retried at once, for the test).
DIES_ONCE = BackgroundWorker(name="dies-once", path=f"{__name__}.DIES_ONCE", run=_dies_once_then_analyses,
                             summary=repr, stopped="", retry_after=datetime.timedelta(0))


def worker_environment(settings, **extra) -> dict[str, str]:
    """A worker process's environment: the test's database (committed data) and queue."""
    database = connection.settings_dict
    url = (f"sqlite:///{database['NAME']}" if connection.vendor == "sqlite" else
           f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}")
    return {**os.environ, "DJANGO_SETTINGS_MODULE": "clubscore.settings", "SECRET_KEY": "test-only-secret-key",
            "DATABASE_URL": url, "WORK_QUEUE": "rq", "RQ_REDIS_URL": REDIS_URL, "RQ_QUEUE": settings.RQ_QUEUE,
            **extra}


@pytest.mark.django_db(transaction=True)  # the worker process reads what the test committed
def test_a_killed_worker_process_loses_nothing_its_retry_analyses_the_boards(queue, settings, tmp_path):
    """Under plain `rq worker` (the job sets Django up itself), the forked process running the pass is killed."""
    session_with_a_deal()
    queued = work_queue.enqueue(DIES_ONCE)
    flag = tmp_path / "died"
    done = subprocess.run(
        [str(Path(sys.executable).with_name("rq")), "worker", "--burst", "--url", REDIS_URL,
         "--worker-class", "clubscore.work_queue.DjangoWorker", settings.RQ_QUEUE],
        cwd=settings.BASE_DIR, env=worker_environment(settings, CLUBSCORE_TEST_DIES_ONCE=str(flag)),
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert flag.exists() and "terminated unexpectedly" in done.stderr + done.stdout
    job = Job.fetch(queued.id, connection=queue.connection)
    assert (job.get_status(), job.retries_left) == (JobStatus.FINISHED, work_queue.RETRIES - 1)
    assert BoardAnalysis.objects.get().status == AnalysisStatus.DONE


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the advisory lock is PostgreSQL's")
def test_analysis_passes_take_turns_across_connections():
    """A pass on another machine holds the lock: this one waits for it to end."""
    ran = threading.Event()
    worker = analysis.WORKER.__class__(
        name=analysis.WORKER.name, path="tests.not.queued", run=ran.set, summary=repr, stopped="", exclusive=True,
    )
    other = connections.create_connection("default")  # the other machine's pass
    with other.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(hashtext(%s))", [f"clubscore:{worker.name}"])

    def this_pass():
        try:
            worker.one_pass()
        finally:
            connections.close_all()

    thread = threading.Thread(target=this_pass)
    thread.start()
    try:
        assert not ran.wait(timeout=1)
    finally:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(hashtext(%s))", [f"clubscore:{worker.name}"])
        other.close()
    thread.join(timeout=10)
    assert ran.is_set()


@pytest.mark.django_db(transaction=True)  # the worker process reads what the test committed
def test_the_worker_command_runs_the_queued_analysis_in_forked_jobs(queue, settings):
    session_with_a_deal()
    analysis.analysis_start()
    done = subprocess.run([sys.executable, "manage.py", "work_queue", "--burst"], cwd=settings.BASE_DIR,
                          env=worker_environment(settings), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert BoardAnalysis.objects.get().status == AnalysisStatus.DONE
    # At its start it queued a pass of each kind not already waiting (for work a stopped worker left): the imports.
    assert (queue.count, queue.finished_job_registry.count, queue.failed_job_registry.count) == (0, 2, 0)
