"""gunicorn's settings for ClubScore (read from the working directory: `gunicorn clubscore.wsgi`).

Threaded workers: a request waiting (for the database, for the CPU) holds a thread, not
a whole process, so the players' reloads keep being served while the table phones post
(bench/tables.py --readers). Each thread keeps a database connection: workers x threads
of them must stay under PostgreSQL's max_connections (100 by default), so raise the
threads only with it.

Two pools (GUNICORN_POOL): when every table of a big evening sends its round at once, the
phones' posts fill every worker's threads and the players' reloads queue behind them
(50 phones held the public pages to 56 reloads a second of the 200 asked). Run the app
twice, `GUNICORN_POOL=pages` (every page, 127.0.0.1:8000) and `GUNICORN_POOL=tables` (the
table phones' links, /t/ and /tt/, 127.0.0.1:8001), each with half the workers, and let
the proxy send each path to its pool (deploy/nginx.conf): the phones then queue among
themselves, and the pages keep their own threads and a fair share of the CPUs. Without
GUNICORN_POOL one pool serves everything.

GUNICORN_WORKERS and GUNICORN_THREADS override the defaults; gunicorn's own command-line
options win over this file.
"""

import multiprocessing
import os

#: Each pool's address: deploy/nginx.conf's upstreams point here.
POOLS = {"pages": "127.0.0.1:8000", "tables": "127.0.0.1:8001"}

pool = os.environ.get("GUNICORN_POOL", "")
if pool and pool not in POOLS:
    raise SystemExit(f"gunicorn.conf.py: GUNICORN_POOL={pool!r}: use one of {', '.join(sorted(POOLS))}, or none")

# Two pools share the workers one pool would have: the same connections to the database.
default_workers = multiprocessing.cpu_count() * (1 if pool else 2)
workers = int(os.environ.get("GUNICORN_WORKERS", default_workers))
worker_class = "gthread"
# Each thread keeps its own database connection (CONN_MAX_AGE): workers x threads of them.
threads = int(os.environ.get("GUNICORN_THREADS", "8"))
if pool:
    bind = [POOLS[pool]]
    proc_name = f"clubscore-{pool}"
