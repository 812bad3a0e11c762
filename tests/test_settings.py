import os
import runpy
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_deploy_check_passes_with_production_values():
    env = {
        **{k: v for k, v in os.environ.items() if k not in {"SECURE_SSL_REDIRECT", "DJANGO_ALLOW_ASYNC_UNSAFE"}},
        "DJANGO_SETTINGS_MODULE": "clubscore.settings",
        "DEBUG": "0",
        "SECRET_KEY": "x" * 20 + "production-like-secret-key-with-enough-entropy-1234567890",
        "ALLOWED_HOSTS": "scores.example.org",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def _without_settings(**extra):
    env = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    return {**env, "DJANGO_SETTINGS_MODULE": "clubscore.settings", **extra}


def test_settings_refuse_to_start_without_secret_key_in_production_in_one_plain_line(tmp_path):
    env = _without_settings(CLUBSCORE_LOCAL_ENV=str(tmp_path / "absent"))
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode != 0
    assert result.stderr.strip().startswith("ClubScore: SECRET_KEY is not set")
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_local_environment_file_makes_commands_just_work(tmp_path):
    local = tmp_path / ".env.local"
    local.write_text("# written by bin/setup\nDEBUG=1\nSECRET_KEY=local-key-of-this-checkout\n")
    result = subprocess.run(
        [sys.executable, "manage.py", "import_results", str(tmp_path / "missing.xml")],
        cwd=ROOT, env=_without_settings(CLUBSCORE_LOCAL_ENV=str(local)), capture_output=True, text=True,
    )
    assert "Traceback" not in result.stderr
    assert "SECRET_KEY" not in result.stderr


def test_production_never_reads_the_local_file(tmp_path):
    local = tmp_path / ".env.local"
    local.write_text("DEBUG=1\nSECRET_KEY=local\n")
    env = _without_settings(CLUBSCORE_LOCAL_ENV=str(local), SECRET_KEY="p" * 60, ALLOWED_HOSTS="scores.example.org")
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); from django.conf import settings; "
         "print(settings.DEBUG, settings.SECRET_KEY[:1])"],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )
    assert result.stdout.split() == ["False", "p"], result.stderr


def test_a_redis_url_gives_a_shared_cache_and_none_gives_local_memory():
    probe = ("import django; django.setup(); from django.core.cache import cache; from django.conf import settings; "
             "cache.set('clubscore-probe', 42, 5); print(settings.CACHES['default']['BACKEND'], cache.get('clubscore-probe'))")
    for url, backend in (("redis://127.0.0.1:6379/15", "RedisCache"), ("", "LocMemCache")):
        env = {**_without_settings(), "DEBUG": "1", "REDIS_URL": url}
        result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        shown, value = result.stdout.split()
        assert shown.endswith(backend) and value == "42"


def _queue_environment(extra: dict[str, str]) -> dict[str, str]:
    """Settings from ``extra`` alone: the queue's variables of the outer environment left out."""
    env = _without_settings(DEBUG="1")
    for name in ("WORK_QUEUE", "REDIS_URL", "RQ_REDIS_URL", "RQ_QUEUE"):
        env.pop(name, None)
    return {**env, **extra}


def test_the_work_queue_follows_the_environment_and_refuses_what_it_cannot_run(tmp_path):
    probe = ("import django; django.setup(); from django.conf import settings; "
             "print(repr(settings.WORK_QUEUE), settings.RQ_REDIS_URL or '-', settings.RQ_QUEUE)")
    cases = [
        ({}, "'' - clubscore"),
        ({"WORK_QUEUE": "rq", "REDIS_URL": "redis://cache:6379/0"}, "'rq' redis://cache:6379/0 clubscore"),
        ({"WORK_QUEUE": "RQ", "REDIS_URL": "redis://cache:6379/0", "RQ_REDIS_URL": "redis://jobs:6379/1",
          "RQ_QUEUE": "scores"}, "'rq' redis://jobs:6379/1 scores"),
    ]
    for extra, shown in cases:
        env = _queue_environment(extra)
        result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True)
        assert result.stdout.strip() == shown, result.stderr
    for extra, message in (({"WORK_QUEUE": "celery"}, "WORK_QUEUE='celery' is not a queue"),
                           ({"WORK_QUEUE": "rq"}, "WORK_QUEUE=rq needs a Redis server")):
        env = _queue_environment(extra)
        result = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True,
                                text=True)
        assert result.returncode != 0 and "Traceback" not in result.stderr
        assert result.stderr.strip().startswith("ClubScore: " + message), result.stderr


def test_management_commands_print_no_axes_banner():
    env = {**{k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"},
           "DJANGO_SETTINGS_MODULE": "clubscore.settings_test"}
    result = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "AXES" not in result.stdout + result.stderr
    assert result.stdout.strip() == "System check identified no issues (0 silenced)."



def test_gunicorn_runs_threaded_workers_within_the_databases_connections(monkeypatch):
    """gunicorn.conf.py: threads, so a post waiting for the database holds no whole worker;
    workers x threads connections kept, under PostgreSQL's default 100 on a 2-CPU server."""
    monkeypatch.delenv("GUNICORN_WORKERS", raising=False)
    monkeypatch.delenv("GUNICORN_THREADS", raising=False)
    monkeypatch.setattr("multiprocessing.cpu_count", lambda: 2)
    config = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    assert config["worker_class"] == "gthread" and config["threads"] > 1
    assert config["workers"] * config["threads"] <= 100 - 20  # room left for commands and the worker queue
    monkeypatch.setenv("GUNICORN_THREADS", "4")
    assert runpy.run_path(str(ROOT / "gunicorn.conf.py"))["threads"] == 4


def test_kept_database_connections_are_checked_before_use():
    probe = ("import django; django.setup(); from django.conf import settings; "
             "d = settings.DATABASES['default']; print(d['CONN_MAX_AGE'], d['CONN_HEALTH_CHECKS'])")
    env = {**_without_settings(DEBUG="1"), "DATABASE_URL": "postgres://u@127.0.0.1:5432/x"}
    env.pop("CONN_MAX_AGE", None)
    result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.stdout.split() == ["60", "True"], result.stderr
def test_an_sqlite_database_logs_ahead_and_syncs_each_commit(tmp_path):
    """The embedded database commits through its write-ahead log, synced at each commit (a
    line a phone was told is stored survives a power cut); another connection reads while
    a writer holds the write lock."""
    probe = (
        "import django; django.setup(); from django.db import connection, transaction; "
        "from django.db.backends.sqlite3.base import DatabaseWrapper; from django.conf import settings; "
        "cursor = connection.cursor(); cursor.execute('CREATE TABLE t (a integer)'); "
        "other = DatabaseWrapper(settings.DATABASES['default'], alias='other'); "
        "print(cursor.execute('PRAGMA journal_mode').fetchone()[0], cursor.execute('PRAGMA synchronous').fetchone()[0]); "
        "block = transaction.atomic(); block.__enter__(); cursor = connection.cursor(); "
        "cursor.execute('INSERT INTO t VALUES (1)'); "
        "print(other.cursor().execute('SELECT count(*) FROM t').fetchone()[0]); block.__exit__(None, None, None); "
        "print(other.cursor().execute('SELECT count(*) FROM t').fetchone()[0])"
    )
    env = {**_without_settings(DEBUG="1"), "DATABASE_URL": f"sqlite:///{tmp_path / 'club.sqlite3'}"}
    result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.stdout.split() == ["wal", "2", "0", "1"], result.stderr  # 2: FULL


def test_the_mail_server_comes_from_email_url_or_the_separate_variables():
    probe = ("import django; django.setup(); from django.conf import settings as s; "
             "print(s.EMAIL_BACKEND.rsplit('.', 2)[1], s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_HOST_USER or '-', "
             "s.EMAIL_HOST_PASSWORD or '-', s.EMAIL_USE_TLS, s.EMAIL_USE_SSL)")
    cases = [
        ({"EMAIL_URL": "smtp://club%40mail.org:p%3Ass@mail.example.org:587/?tls=1"},
         "smtp mail.example.org 587 club@mail.org p:ss True False"),
        ({"EMAIL_URL": "smtps://u:pw@mail.example.org"}, "smtp mail.example.org 465 u pw False True"),
        ({"EMAIL_URL": "console://"}, "console localhost 25 - - False False"),
        ({"EMAIL_HOST": "relay.example.org", "EMAIL_PORT": "2525", "EMAIL_HOST_USER": "me",
          "EMAIL_HOST_PASSWORD": "secret", "EMAIL_USE_TLS": "1"}, "smtp relay.example.org 2525 me secret True False"),
    ]
    for extra, shown in cases:
        env = {name: value for name, value in _without_settings(DEBUG="1").items() if not name.startswith("EMAIL_")}
        result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env={**env, **extra}, capture_output=True,
                                text=True)
        assert result.stdout.strip() == shown, result.stderr
    env = {**_without_settings(DEBUG="1"), "EMAIL_URL": "imap://mail.example.org"}
    result = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode != 0 and result.stderr.strip().startswith("ClubScore: EMAIL_URL scheme 'imap'")
