"""The work queue: with WORK_QUEUE=rq, the slow work runs in RQ workers fed through Redis.

Without a queue (WORK_QUEUE unset) nothing here runs: each BackgroundWorker
(sessions.core.services.background) runs its work in a thread of the web process, or at once
in tests. With one, ``enqueue`` puts a *pass* of one kind of work (analyse the pending
boards, import the waiting files) on the queue, and a worker process on any machine runs
it: ``manage.py work_queue``, or ``rq worker`` with DJANGO_SETTINGS_MODULE set (the job
sets Django up itself).

A job carries no work of its own, only which kind to run: the work waits in the database
(boards pending analysis, queued ImportJob rows) and a pass does whatever it finds
there, so every app server sees the same progress and

- a pass enqueued twice does the work once: the second finds nothing left (imports are
  claimed row by row; analysis passes take turns, see BackgroundWorker.one_pass);
- a pass still waiting on the queue is not enqueued again: a Redis key marks it until it
  starts, and it sees the work that arrived meanwhile because it reads the database then;
- a worker that dies mid-pass loses nothing: RQ retries the job (after the worker's
  ``retry_after``: for imports, once the interrupted ImportJob counts as stale), and the
  rows stay pending for that retry, the next pass, or the commands run from cron.

This module lives outside the app so that ``rq worker`` can import the job before Django
is set up.
"""

from __future__ import annotations

import datetime
import os
from typing import Any, Protocol

from django.conf import settings
from redis import Redis
from rq import Queue, Retry, Worker, get_current_job
from rq.job import Job



class QueuedWork(Protocol):
    """What the queue needs of a pass's worker (sessions.core.services.background.BackgroundWorker
    is one): the queue is the project's plumbing and never imports the app."""

    name: str
    path: str  # where the worker is imported from: what a queued job names
    retry_after: datetime.timedelta

    def one_pass(self) -> Any: ...

    def summary(self, outcome: Any) -> str: ...

#: A failed or abandoned pass is tried again this many times (then the commands from cron remain).
RETRIES = 3
#: Finished jobs are kept this long (seconds) for `rq info`; their outcome is in the database.
RESULT_TTL = 600


def configured() -> bool:
    """Whether the slow work goes to the queue (WORK_QUEUE=rq)."""
    return getattr(settings, "WORK_QUEUE", "") == "rq"


def redis_connection() -> Redis:
    return Redis.from_url(settings.RQ_REDIS_URL)


def work_queue(connection: Redis | None = None) -> Queue:
    return Queue(settings.RQ_QUEUE, connection=connection or redis_connection())


def waiting_key(name: str) -> str:
    """The Redis key that marks a pass of ``name`` waiting on the queue, not started yet."""
    return f"clubscore:{settings.RQ_QUEUE}:{name}:waiting"


def enqueue(worker: QueuedWork) -> Job | None:
    """Put a pass of ``worker`` on the queue: the job, or None when one is already waiting."""
    connection = redis_connection()
    key = waiting_key(worker.name)
    # The mark expires with the job's timeout: a job lost with its queue cannot block the work for long.
    if not connection.set(key, "1", nx=True, ex=settings.WORK_QUEUE_TIMEOUT):
        return None
    try:
        return work_queue(connection).enqueue(
            run_pass, worker.path,
            description=f"{worker.name}: one pass",
            job_timeout=settings.WORK_QUEUE_TIMEOUT,
            retry=Retry(max=RETRIES, interval=int(worker.retry_after.total_seconds())),
            result_ttl=RESULT_TTL,
        )
    except BaseException:
        connection.delete(key)  # no job is waiting after all
        raise


def run_pass(path: str) -> str:
    """The queued job: one pass of the BackgroundWorker at ``path``; what it did, for the log."""
    _set_up_django()
    from django.utils.module_loading import import_string

    worker: QueuedWork = import_string(path)
    job = get_current_job()
    # From now on new work needs a new pass: this one may already have read the database.
    (job.connection if job is not None else redis_connection()).delete(waiting_key(worker.name))
    return worker.summary(worker.one_pass())


def _set_up_django() -> None:
    """Set Django up when the job runs under plain ``rq worker`` (manage.py has done it already)."""
    from django.apps import apps

    if not apps.ready:
        import django

        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubscore.settings")
        django.setup()


class DjangoWorker(Worker):
    """RQ's forking worker that never lets a job's fork share its database connection.

    Each job runs in a fork that opens its own connection and closes it as it exits; the
    worker itself closes any it holds before forking (two processes on one socket would
    garble each other's queries).
    """

    def execute_job(self, job: Job, queue: Queue) -> Any:
        from django.db import connections

        connections.close_all()
        return super().execute_job(job, queue)
