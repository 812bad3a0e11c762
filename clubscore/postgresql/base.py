"""Django's PostgreSQL backend with a health check that costs no round trip while the
connection is sound (settings: ENGINE "clubscore.postgresql").

A kept connection (CONN_MAX_AGE) is checked at its first use in each request
(CONN_HEALTH_CHECKS): Django asks the server "SELECT 1" and waits for the answer, which
on a loaded machine took as long as the revision lookup itself, on every reload of a
cached page. A database that restarts, or ends an idle session, tells its clients so
(its last message, then the socket closes): the socket then has something to read. So
an idle connection with nothing to read is taken as sound without asking, and one with
anything to read (the server's farewell, a notice) gets Django's full check, which
reconnects when the server has gone. A peer that vanished without a word, which neither
check can tell quickly, fails the request's first query just as before.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql.base import DatabaseWrapper as PostgreSQLDatabaseWrapper
from psycopg.pq import TransactionStatus


class DatabaseWrapper(PostgreSQLDatabaseWrapper):
    def is_usable(self) -> bool:
        raw = self.connection
        if raw is None or raw.closed or raw.broken:
            return False
        if raw.info.transaction_status != TransactionStatus.IDLE or not hasattr(select, "poll"):
            return super().is_usable()
        poller = select.poll()
        poller.register(raw.fileno(), select.POLLIN | select.POLLPRI)
        if poller.poll(0):  # the server said something unasked: ask it properly
            return super().is_usable()
        return True
