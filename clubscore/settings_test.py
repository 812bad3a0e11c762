"""Test settings: the production settings with a fast hasher and plain static storage."""

import os
import tempfile

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
# No queue whatever the environment says: tests of the queue turn it on with their own queue.
WORK_QUEUE = ""
# Results mails are sent at once in tests (tests of the SMTP path start their own server).
MAIL_BACKGROUND = False
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
SITE_URL = "https://scores.example.org"

#: The SQLite lanes of the suite (bin/test runs both; tests/conftest.py sorts the tests):
#: "memory" runs the tests that see the database from the test's own thread only on an
#: in-memory database; "file" runs the tests whose rows are seen from another thread or
#: process (transaction=True, the live server) on a file. Unset, pytest picks the file
#: when it runs any test of the file lane (tests/conftest.py), else memory.
TEST_LANE = os.environ.get("CLUBSCORE_TEST_LANE", "")
if TEST_LANE not in ("", "memory", "file"):
    raise SystemExit(f"CLUBSCORE_TEST_LANE={TEST_LANE!r}: say memory or file (or leave it unset)")


def sqlite_test_file() -> str:
    """A file, not the shared in-memory database: races between threads then wait on the
    write lock as in production, where the in-memory cache fails at once ("table is locked").
    One file per process, so two runs (or two xdist workers) on one machine never share it."""
    return os.path.join(tempfile.gettempdir(), f"clubscore-test-{os.getpid()}.sqlite3")


if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # In memory unless the lane is the file's (Django's test database for SQLite is then
    # the shared in-memory one, file:memorydb_default?mode=memory&cache=shared).
    DATABASES["default"]["TEST"] = {"NAME": sqlite_test_file()} if TEST_LANE == "file" else {}  # noqa: F405
