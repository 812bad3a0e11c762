"""Personas and common rows: the club's director (its owner), a director of the same club
who is not an owner, another club's director (outsider), a logged-in user who directs
nothing, and the data a director works on."""

import sys

import pytest
from django.conf import settings
from django.core.cache import cache

from sessions.core import shared_cache
from sessions.models import ClubDirector
from sessions.core.selectors import kept_scores
from sessions.core import kept_here
from tests import solver_memo
from tests.factories import make_club, make_event, make_session, make_user
from tests.pages import (  # noqa: F401 (the published sessions every feature's page tests read)
    butler_session, logged_in, pair_id, played_session, tables_of, unpublished_session,
)
from tests.unit_of_work_guard import writes_outside_a_unit

#: Fixtures whose rows another thread or process reads: the test's transaction is committed.
COMMITTING_FIXTURES = {"transactional_db", "live_server", "django_db_serialized_rollback"}


def in_the_file_lane(item: pytest.Item) -> bool:
    """A test whose rows are read from another thread or process (the race tests, the
    background threads, the RQ worker, the live server) commits them: on SQLite it runs on
    a file, where a second connection waits on the write lock as in production. Every
    other test runs on the in-memory database (clubscore/settings_test.py)."""
    marker = item.get_closest_marker("django_db")
    if marker is not None and (marker.kwargs.get("transaction") or (marker.args and marker.args[0])):
        return True
    return bool(COMMITTING_FIXTURES & set(getattr(item, "fixturenames", ())))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """CLUBSCORE_TEST_LANE (bin/test on SQLite) keeps only its lane's tests. Unset, every
    test runs, on the file database if any of them is in the file lane."""
    browserless = [item.nodeid for item in items if not item.nodeid.startswith("tests/browser/")
                   and "browser_name" in getattr(getattr(item, "callspec", None), "params", {})]
    if browserless:
        # A parameter named like one of pytest-playwright's fixtures ("page") pulls its
        # browser parametrization into a test outside tests/browser/: rename the parameter.
        raise pytest.UsageError("a browser fixture outside tests/browser/: " + ", ".join(browserless[:5]))
    for item in items:
        if item.nodeid.startswith("tests/browser/"):
            # One worker runs every browser test (bin/test: --dist loadgroup): one Chromium
            # and its live server at a time, as before pytest-xdist, on a busy CI machine.
            item.add_marker(pytest.mark.xdist_group("browser"))
    lane = settings.TEST_LANE
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3":
        lane = ""  # PostgreSQL: one database, one lane (bin/test runs no second one)
    if lane:
        kept = [item for item in items if in_the_file_lane(item) == (lane == "file")]
        dropped = [item for item in items if in_the_file_lane(item) != (lane == "file")]
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = kept
    elif settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3" and any(
        in_the_file_lane(item) for item in items
    ):
        from clubscore.settings_test import sqlite_test_file

        settings.DATABASES["default"]["TEST"]["NAME"] = sqlite_test_file()  # the connection's own dict


@pytest.fixture(scope="session", autouse=True)
def solver_answers_kept():
    """DDS solves each deal once a process (tests/solver_memo.py): the same hand records
    are imported by dozens of tests, and solving them again was most of the suite's time."""
    solver_memo.install()


@pytest.fixture(autouse=True)
def empty_cache():
    """Each test starts with an empty cache: pages and scores kept by an earlier test (whose
    rows had the same ids) are never served to the next one; and a cache that failed in an
    earlier test is asked again (sessions/core/shared_cache.py pauses after a failure)."""
    shared_cache.resume()
    cache.clear()
    kept_scores.forget_all()
    kept_here.forget_all()
    yield
    shared_cache.resume()
    cache.clear()
    kept_scores.forget_all()
    kept_here.forget_all()


@pytest.fixture(autouse=True)
def writes_in_units():
    """Every write of services code runs in a unit of work (sessions.core.services.unit_of_work):
    one made outside fails the test that made it."""
    with writes_outside_a_unit() as outside:
        yield outside
    assert not outside, "services code wrote outside a unit of work:\n" + "\n".join(outside)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database; on PostgreSQL, before it is dropped, the connections
    a test's own threads left open (a thread's connection is not closed with the request
    it never had) are ended, which DROP DATABASE would otherwise refuse ("being accessed
    by other users", an error at the end of a passing run). Each is printed, to be found."""
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid, state, left(query, 120) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        for pid, state, query in cursor.fetchall():
            print(f"\ntests: a connection left open ({state}: {query}) is ended", file=sys.stderr)
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])


@pytest.fixture
def director(db):
    return make_user("director")


@pytest.fixture
def club(director):
    return make_club(directors=[director], name="Home Club")


@pytest.fixture
def co_director(club):
    """Directs the Home Club's sessions, but does not own the club."""
    user = make_user("co_director")
    ClubDirector.objects.create(user=user, club=club, is_owner=False)
    return user


@pytest.fixture
def outsider(db):
    other = make_user("outsider")
    make_club(directors=[other], name="Away Club")
    return other


@pytest.fixture
def member(db):
    """Logged in, but directs no club."""
    return make_user("member")


@pytest.fixture
def event(club):
    return make_event(club, name="Tuesday Pairs")


@pytest.fixture
def session(event):
    """A 3-table Mitchell, 3 rounds of 2 boards (6 boards, pairs 1NS-3NS, 1EW-3EW)."""
    return make_session(event)
