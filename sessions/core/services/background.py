"""One background worker per kind of slow work: the double-dummy analysis and large imports.

Each kind has one ``BackgroundWorker``. ``start`` is called after the commit that made
work (deals stored, an import queued). With a work queue configured (WORK_QUEUE=rq,
clubscore.work_queue) it puts a pass on the queue, which a worker process on any
machine runs; without one, it runs the work at once when the deployment runs nothing in
the background (tests, or a setting), else starts the worker's thread in this process
unless it is already running, in which case the thread is asked to go round once more
so that nothing queued meanwhile waits for the next start. The thread has its own
database connection, closed when it ends. The work itself (``run``) is the same
function the management commands call after a restart, so a pass cut short loses
nothing that the next pass or the command does not pick up: the work waits in the
database, never in a process.
"""

from __future__ import annotations

import atexit
import datetime
import logging
import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Generic, TypeVar

from django.db import connection, connections

from clubscore import work_queue

logger = logging.getLogger(__name__)

T = TypeVar("T")

#: How long a process that exits waits for a pass still running in its thread.
EXIT_WAIT_SECONDS = 300.0
#: Every worker that has started a thread in this process.
_STARTED: weakref.WeakSet[BackgroundWorker] = weakref.WeakSet()


@atexit.register
def _finish_passes_at_exit() -> None:
    # A daemon thread still inside the double-dummy solver's C code when the interpreter
    # tears itself down crashes the process (a command such as load_demo ended in a
    # segmentation fault about one run in three): the running pass ends first, and no
    # further pass starts. The work it leaves waits in the database for the next one.
    for worker in list(_STARTED):
        worker.finish(timeout=EXIT_WAIT_SECONDS)


class BackgroundWorker(Generic[T]):
    def __init__(
        self, *, name: str, path: str, run: Callable[[], T], summary: Callable[[T], str], stopped: str,
        exclusive: bool = False, retry_after: datetime.timedelta = datetime.timedelta(minutes=1),
    ) -> None:
        self.name = name
        self.path = path  # where this worker is imported from: what a queued job names
        self.run = run
        self.summary = summary  # how one pass is logged
        self.stopped = stopped  # what the log says when a pass fails
        # Passes that would do the same work twice if they ran together take turns.
        self.exclusive = exclusive
        self.retry_after = retry_after  # a queued pass that failed or died is tried again after this
        self.thread: threading.Thread | None = None
        self.run_again = False
        self._lock = threading.Lock()

    def start(self, *, background: bool, pending: Callable[[], bool]) -> threading.Thread | None:
        """Queue a pass, run now (no background), or in the thread: the thread it started (tests join it), else None."""
        if work_queue.configured():
            if pending():
                self.enqueue()
            return None
        if not background:
            self.one_pass()
            return None
        if not pending():
            return None
        with self._lock:
            if self.thread is not None and self.thread.is_alive():
                self.run_again = True
                return None
            self.thread = threading.Thread(target=self.work, name=self.name, daemon=True)
            self.thread.start()
            _STARTED.add(self)
            return self.thread

    def finish(self, *, timeout: float) -> None:
        """Let the thread's running pass end, ask for no other, and wait for it (at exit)."""
        with self._lock:
            self.run_again = False
            thread = self.thread
        if thread is not None:
            thread.join(timeout)

    def enqueue(self) -> None:
        """A pass on the work queue; a queue that cannot be reached is logged, never raised.

        start runs after the commit that made the work: the request has done its part, and
        the work stays pending in the database for the next pass or the command.
        """
        try:
            work_queue.enqueue(self)
        except Exception:
            logger.exception("%s: the work queue could not be reached; the work waits in the database", self.name)

    def one_pass(self) -> T:
        """One pass of the work, after any other pass of an exclusive worker has ended."""
        with self._one_at_a_time():
            return self.run()

    @contextmanager
    def _one_at_a_time(self) -> Iterator[None]:
        # PostgreSQL's session advisory lock, on whichever machine the pass runs: it ends
        # with the pass, or with the connection if its process dies. SQLite serves one
        # machine only, and serialises writers itself.
        if not self.exclusive or connection.vendor != "postgresql":
            yield
            return
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_lock(hashtext(%s))", [f"clubscore:{self.name}"])
        try:
            yield
        finally:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(hashtext(%s))", [f"clubscore:{self.name}"])

    def work(self) -> None:
        """The thread's body: passes until one ends with nothing more asked, then its connection closed."""
        try:
            while True:
                try:
                    logger.info("%s: %s", self.name, self.summary(self.one_pass()))
                except Exception:  # logged; the work waits for the next start or the command
                    logger.exception(self.stopped)
                with self._lock:
                    if not self.run_again:
                        self.thread = None
                        return
                    self.run_again = False
        finally:
            connections.close_all()  # this thread's own connection: never left open
