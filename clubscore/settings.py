"""ClubScore settings, read from the environment.

SECRET_KEY, DEBUG, ALLOWED_HOSTS and DATABASE_URL come from the environment. With no
DATABASE_URL the app runs on an SQLite file in the project (no server needed);
production gives a PostgreSQL URL.
"""

import datetime
import os
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def read_local_env(path: Path) -> None:
    """A checkout's own settings (.env.local, written by bin/setup: DEBUG=1 and a key of its
    own), so manage.py commands just work locally. Read only when the environment gives
    no SECRET_KEY: production always sets one, so it never reads the file. The
    environment wins over the file."""
    if os.environ.get("SECRET_KEY") or not path.is_file():
        return
    for line in path.read_text(encoding="utf-8").splitlines():
        name, sep, value = line.partition("=")
        if sep and not line.lstrip().startswith("#"):
            os.environ.setdefault(name.strip(), value.strip())


read_local_env(Path(os.environ.get("CLUBSCORE_LOCAL_ENV", BASE_DIR / ".env.local")))

DEBUG = env_bool("DEBUG", False)
# A fixed key is only acceptable for local development; production must set SECRET_KEY.
SECRET_KEY = os.environ.get("SECRET_KEY") or (
    "dev-only-insecure-key-change-me" if DEBUG else None
)
if not SECRET_KEY:
    # One plain line for the person starting the server, not a traceback.
    raise SystemExit(
        "ClubScore: SECRET_KEY is not set. In production set SECRET_KEY (and ALLOWED_HOSTS, "
        "DATABASE_URL) in the environment; on a development machine run bin/setup, which writes .env.local."
    )
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_tables2",
    "django_htmx",
    "axes",
    "csp",
    "sessions.apps.SessionsConfig",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # After the headers above (its 400 carries them), before anything reads the request.
    "clubscore.middleware.RefuseOtherCharsetsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into its lockout answer.
    "axes.middleware.AxesMiddleware",
]

# Failed logins are counted per account and address together (django-axes): after
# LOGIN_FAILURE_LIMIT failures that account waits AXES_COOLOFF_TIME at that address only,
# so nobody can lock a director out by failing from elsewhere. An account that has had
# LOGIN_ACCOUNT_ALERT failures in that time, from any addresses, gets only
# LOGIN_FAILURE_LIMIT_ALERTED tries from each address (its owner's right password from a
# new address still logs in). The club's owners clear a director's lockouts on the
# directors page, the admin anyone's. Each failure is logged ("AXES: User login failed")
# and kept in the admin's access logs.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
LOGIN_ACCOUNT_ALERT = int(os.environ.get("LOGIN_ACCOUNT_ALERT", "20"))
LOGIN_FAILURE_LIMIT_ALERTED = int(os.environ.get("LOGIN_FAILURE_LIMIT_ALERTED", "2"))
AXES_FAILURE_LIMIT = "sessions.clubs.selectors.logins.login_failure_limit"
AXES_COOLOFF_TIME = datetime.timedelta(minutes=int(os.environ.get("AXES_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
# No "AXES: BEGIN version ..." banner at start-up: management commands print only their own output.
AXES_VERBOSE = False
# The client's address (clubscore/client_address.py): TRUSTED_PROXIES is how many proxies
# stand in front of the app (each appends to X-Forwarded-For); 0, the default, never reads
# the header, which a client can forge when nothing in front rewrites it.
try:
    TRUSTED_PROXIES = int(os.environ.get("TRUSTED_PROXIES", "0"))
except ValueError:
    TRUSTED_PROXIES = -1
if TRUSTED_PROXIES < 0:
    raise SystemExit("ClubScore: TRUSTED_PROXIES is the number of proxies in front of the app: 0 (none), 1, 2 ...")
AXES_CLIENT_IP_CALLABLE = "clubscore.client_address.client_address"

# Content-Security-Policy (django-csp): scripts and styles from our own static files only
# (no inline script anywhere), nothing framed, forms post to ourselves.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}
# Permissions-Policy (django-permissions-policy): the app needs none of these features.
PERMISSIONS_POLICY = {
    name: [] for name in (
        "accelerometer", "autoplay", "camera", "display-capture", "geolocation", "gyroscope",
        "magnetometer", "microphone", "midi", "payment", "usb",
    )
}

ROOT_URLCONF = "clubscore.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "clubscore.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        # A kept connection is checked before a request uses it (a restarted database).
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's, with a health check that asks the server only when its socket has news.
    DATABASES["default"]["ENGINE"] = "clubscore.postgresql"
# The revision lookup every cached page starts with is prepared once per connection on
# PostgreSQL (sessions/core/selectors/revisions.py); 0 behind a pooler that cannot keep
# prepared statements (PgBouncer in transaction mode before 1.21).
PREPARED_STAMPS = os.environ.get("PREPARED_STAMPS", "1") != "0"
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several directors and table phones writing at once: wait for the write lock instead
    # of failing, and take it when a transaction starts (IMMEDIATE), so two transactions
    # that read then write queue up instead of deadlocking into "database is locked".
    # Write-ahead logging: a commit appends to one log (synced, FULL: a line a phone was
    # told is stored survives a power cut) instead of writing, syncing and deleting a
    # rollback journal beside the database each time; readers no longer wait for a writer.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        timeout=20, transaction_mode="IMMEDIATE", init_command="PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;",
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/London")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# A shared cache when the deployment gives one (REDIS_URL, e.g. redis://127.0.0.1:6379/0):
# the table links' guessing throttle then counts there, across every worker. Otherwise
# each process keeps its own in local memory, which needs no server (and the throttle
# counts in the database). A Redis that takes connections and never answers must not hold
# pages up: REDIS_TIMEOUT seconds to connect and to answer, and after a failure each
# process does without the cache for CACHE_FAILURE_PAUSE seconds (sessions/core/shared_cache.py).
REDIS_URL = os.environ.get("REDIS_URL", "")
REDIS_TIMEOUT = float(os.environ.get("REDIS_TIMEOUT", "0.25"))
CACHE_FAILURE_PAUSE = float(os.environ.get("CACHE_FAILURE_PAUSE", "30"))
# With REDIS_URL, a cached page is served without asking the database: each write puts
# the new revisions in Redis after its commit, and a revision is kept there this many
# seconds (whole seconds, at least 1). A write whose revision never reached Redis (a
# worker killed right after the commit) shows on the pages this much later at most.
STAMP_CACHE_SECONDS = max(1, int(os.environ.get("STAMP_CACHE_SECONDS", "2")))


def redis_cache(location: str) -> dict:
    """The cache settings for a Redis server at ``location``."""
    return {
        "BACKEND": "clubscore.redis_cache.RedisCache",  # Django's, keeping its client (see there)
        "LOCATION": location,
        "OPTIONS": {"socket_connect_timeout": REDIS_TIMEOUT, "socket_timeout": REDIS_TIMEOUT},
    }


CACHES = {
    "default": redis_cache(REDIS_URL) if REDIS_URL else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
}

# The slow work (double-dummy analysis, large imports). WORK_QUEUE unset: a thread in the
# web process runs it, which needs no server (development, the demo; tests run it inline).
# WORK_QUEUE=rq: it goes to an RQ queue on Redis (RQ_REDIS_URL, else REDIS_URL), run by
# `manage.py work_queue` on any machine, so app servers keep no work of their own.
WORK_QUEUE = os.environ.get("WORK_QUEUE", "").strip().lower()
RQ_REDIS_URL = os.environ.get("RQ_REDIS_URL", REDIS_URL)
RQ_QUEUE = os.environ.get("RQ_QUEUE", "clubscore")
# Longest a pass may run before RQ stops it (its work stays pending in the database).
WORK_QUEUE_TIMEOUT = int(os.environ.get("WORK_QUEUE_TIMEOUT", "3600"))
if WORK_QUEUE not in ("", "rq"):
    raise SystemExit(f"ClubScore: WORK_QUEUE={WORK_QUEUE!r} is not a queue ClubScore knows: set rq, or leave it unset.")
if WORK_QUEUE == "rq" and not RQ_REDIS_URL:
    raise SystemExit("ClubScore: WORK_QUEUE=rq needs a Redis server: set RQ_REDIS_URL or REDIS_URL.")

# Results by e-mail (issue 24). EMAIL_URL gives the whole server in one line
# (smtp://user:password@host:587/?tls=1, smtps:// for SSL, console:// to print the mails);
# else EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS and
# EMAIL_USE_SSL, Django's own names. SITE_URL is what the mails' links start with.


def email_settings(url: str) -> dict:
    """Django's EMAIL_* settings from an EMAIL_URL."""
    from urllib.parse import parse_qs, unquote, urlsplit

    parts = urlsplit(url)
    backends = {
        "smtp": "django.core.mail.backends.smtp.EmailBackend",
        "smtps": "django.core.mail.backends.smtp.EmailBackend",
        "console": "django.core.mail.backends.console.EmailBackend",
        "locmem": "django.core.mail.backends.locmem.EmailBackend",
        "dummy": "django.core.mail.backends.dummy.EmailBackend",
    }
    if parts.scheme not in backends:
        raise SystemExit(f"ClubScore: EMAIL_URL scheme {parts.scheme!r} is not one of {', '.join(backends)}.")
    query = {name: values[-1].strip().lower() for name, values in parse_qs(parts.query).items()}
    yes = {"1", "true", "yes", "on"}
    return {
        "EMAIL_BACKEND": backends[parts.scheme],
        "EMAIL_HOST": parts.hostname or "localhost",
        "EMAIL_PORT": parts.port or (465 if parts.scheme == "smtps" else 25),
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_TLS": query.get("tls", "") in yes,
        "EMAIL_USE_SSL": parts.scheme == "smtps" or query.get("ssl", "") in yes,
    }


if os.environ.get("EMAIL_URL"):
    globals().update(email_settings(os.environ["EMAIL_URL"]))
else:
    EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.smtp.EmailBackend")
    EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
    EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "30"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "ClubScore <results@localhost>")
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")

# Webhooks (sessions.api.services.webhooks): the scheme and host the links in their bodies
# start with, how many tries a delivery gets, the wait before the second (doubling each
# time, seconds) and each try's timeout. WEBHOOK_ALLOW_LOCAL lets tests send to a receiver
# on 127.0.0.1 over http: never set it in production (it opens the door to the server's
# own network).
WEBHOOK_ATTEMPTS = int(os.environ.get("WEBHOOK_ATTEMPTS", "6"))
WEBHOOK_BACKOFF = float(os.environ.get("WEBHOOK_BACKOFF", "30"))
WEBHOOK_TIMEOUT = float(os.environ.get("WEBHOOK_TIMEOUT", "5"))
WEBHOOK_ALLOW_LOCAL = False

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# Uploaded results files: refuse anything larger before parsing.
MAX_UPLOAD_BYTES = int(os.environ.get("MAX_UPLOAD_BYTES", str(10 * 1024 * 1024)))
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_UPLOAD_BYTES
FILE_UPLOAD_MAX_MEMORY_SIZE = MAX_UPLOAD_BYTES

DJANGO_TABLES2_TEMPLATE = "core/public/table.html"

if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
