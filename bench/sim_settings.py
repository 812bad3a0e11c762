"""Settings of the simultaneous-pairs benchmark (bench/sim.py): bench/web.py's, with no
shared cache, so that every page is rendered (the scored figures stay in the process,
as on a server); and room for a national event's results file."""

from bench.web_settings import *  # noqa: F403

CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
MAX_UPLOAD_BYTES = 200 * 1024 * 1024
