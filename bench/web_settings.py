"""Settings of the web benchmark (bench/web.py): production settings on a throwaway
database, plain HTTP on loopback, and the benchmark's own URLconf (the app's URLs plus a
trivial view to compare with)."""

import os
import warnings

os.environ.setdefault("SECRET_KEY", "bench-only-secret-key")
os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")  # loopback HTTP, no TLS proxy in front
os.environ.setdefault("LOG_LEVEL", "WARNING")

from clubscore.settings import *  # noqa: E402,F403

ROOT_URLCONF = "bench.web_urls"
# The pages are measured, not their static files: no collectstatic, no manifest.
STORAGES["staticfiles"] = {  # noqa: F405
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
}
warnings.filterwarnings("ignore", "No directory at", UserWarning)  # whitenoise: no STATIC_ROOT
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
# The pages without any cache (bench/web.py's "uncached" figures): nothing is ever kept.
if os.environ.get("BENCH_CACHE") == "none":
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
elif os.environ.get("BENCH_CACHE") == "redis":
    # A prefix of this run's own on the shared server: bench/web.py deletes its keys at the end.
    CACHES = {"default": {"BACKEND": "clubscore.redis_cache.RedisCache",
                          "LOCATION": os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0"),
                          "KEY_PREFIX": os.environ["BENCH_CACHE_PREFIX"]}}
