"""One background thread per kind of slow work: the double-dummy analysis and large imports.

Each kind has one ``BackgroundWorker``. ``start`` is called after the commit that made
work (deals stored, an import queued): it runs the work at once when the deployment
runs nothing in the background (tests, or a setting), else starts the worker's thread
unless it is already running, in which case the thread is asked to go round once more
so that nothing queued meanwhile waits for the next start. The thread has its own
database connection, closed when it ends. The work itself (``run``) is the same
function the management commands call after a restart, so a thread cut short loses
nothing that the command does not pick up.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

from django.db import connections

logger = logging.getLogger(__name__)

T = TypeVar("T")


class BackgroundWorker(Generic[T]):
    def __init__(self, *, name: str, run: Callable[[], T], summary: Callable[[T], str], stopped: str) -> None:
        self.name = name
        self.run = run
        self.summary = summary  # how one pass is logged
        self.stopped = stopped  # what the log says when a pass fails
        self.thread: threading.Thread | None = None
        self.run_again = False
        self._lock = threading.Lock()

    def start(self, *, background: bool, pending: Callable[[], bool]) -> threading.Thread | None:
        """Run now (no background), or in the thread: the thread it started (tests join it), else None."""
        if not background:
            self.run()
            return None
        if not pending():
            return None
        with self._lock:
            if self.thread is not None and self.thread.is_alive():
                self.run_again = True
                return None
            self.thread = threading.Thread(target=self.work, name=self.name, daemon=True)
            self.thread.start()
            return self.thread

    def work(self) -> None:
        """The thread's body: passes until one ends with nothing more asked, then its connection closed."""
        try:
            while True:
                try:
                    logger.info("%s: %s", self.name, self.summary(self.run()))
                except Exception:  # logged; the work waits for the next start or the command
                    logger.exception(self.stopped)
                with self._lock:
                    if not self.run_again:
                        self.thread = None
                        return
                    self.run_again = False
        finally:
            connections.close_all()  # this thread's own connection: never left open
