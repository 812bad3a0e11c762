"""Settings of the two-server benchmark (bench/servers.py): the web benchmark's, with the
shared Redis cache's keys under a prefix of the run's own, so a run never reads pages
another run (or the app) left in the same Redis database."""

import os

from bench.web_settings import *  # noqa: F403

CACHES["default"]["KEY_PREFIX"] = os.environ.get("BENCH_CACHE_PREFIX", "")  # noqa: F405
