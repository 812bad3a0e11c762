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
