"""Run the slow work (double-dummy analysis, large imports) from the work queue.

With WORK_QUEUE=rq the web app puts a pass of each kind of work on an RQ queue on Redis
(clubscore.work_queue) and keeps nothing in its own processes; this command is the
worker that runs them, on any machine that reaches the database and Redis:

    WORK_QUEUE=rq REDIS_URL=redis://... python manage.py work_queue           # until stopped
    WORK_QUEUE=rq REDIS_URL=redis://... python manage.py work_queue --burst   # until the queue is empty

Start as many as the work needs. Each first queues a pass of every kind, so whatever a
stopped worker left pending in the database is picked up, and runs RQ's scheduler for
the retries of passes that failed or died.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser
from redis.exceptions import RedisError

from clubscore import work_queue
from sessions.analysis.services.analysis import WORKER as ANALYSIS
from sessions.transfer.services.jobs import WORKER as IMPORTS

KINDS = (ANALYSIS, IMPORTS)


class Command(BaseCommand):
    help = "Run the queued double-dummy analysis and large imports (needs WORK_QUEUE=rq)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--burst", action="store_true", help="stop once the queue is empty")

    def handle(self, *args, burst: bool = False, **options) -> None:
        if not work_queue.configured():
            raise CommandError("no work queue is configured: set WORK_QUEUE=rq and REDIS_URL (or RQ_REDIS_URL); "
                               "without them the web app runs this work itself")
        connection = work_queue.redis_connection()
        try:
            connection.ping()
        except RedisError as error:
            raise CommandError(f"the work queue's Redis cannot be reached ({error}): check RQ_REDIS_URL or REDIS_URL") from None
        for kind in KINDS:
            kind.enqueue()
        queue = work_queue.work_queue(connection)
        self.stdout.write(f"working on the queue {queue.name!r}" + (" until it is empty" if burst else ""))
        work_queue.DjangoWorker([queue], connection=connection).work(burst=burst, with_scheduler=not burst)
