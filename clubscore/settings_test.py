"""Test settings: the production settings with a fast hasher and plain static storage."""

import os

os.environ.setdefault("SECRET_KEY", "test-only-secret-key")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")

from clubscore.settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES["staticfiles"] = {  # noqa: F405
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
}
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
# Double-dummy analysis runs in the request's thread in tests, so no solver thread
# outlives a test; tests of the background path turn it back on.
ANALYSIS_BACKGROUND = False
