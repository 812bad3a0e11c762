"""gunicorn's settings for ClubScore (read from the working directory: `gunicorn clubscore.wsgi`).

Threaded workers: a request waiting (for the database, for the CPU) holds a thread, not
a whole process, so the players' reloads keep being served while the table phones post
(bench/tables.py --readers). Each thread keeps a database connection: workers x threads
of them must stay under PostgreSQL's max_connections (100 by default), so raise the
threads only with it.
GUNICORN_WORKERS and GUNICORN_THREADS override the defaults; gunicorn's own command-line
options win over this file.
"""

import multiprocessing
import os

workers = int(os.environ.get("GUNICORN_WORKERS", 2 * multiprocessing.cpu_count()))
worker_class = "gthread"
# Each thread keeps its own database connection (CONN_MAX_AGE): workers x threads of them.
threads = int(os.environ.get("GUNICORN_THREADS", "8"))
