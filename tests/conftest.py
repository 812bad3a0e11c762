"""Personas and common rows: the club's director (its owner), a director of the same club
who is not an owner, another club's director (outsider), a logged-in user who directs
nothing, and the data a director works on."""

import pytest
from django.core.cache import cache

from sessions import shared_cache
from sessions.models import ClubDirector
from sessions.selectors import kept_scores
from tests.factories import make_club, make_event, make_session, make_user
from tests.unit_of_work_guard import writes_outside_a_unit


@pytest.fixture(autouse=True)
def empty_cache():
    """Each test starts with an empty cache: pages and scores kept by an earlier test (whose
    rows had the same ids) are never served to the next one; and a cache that failed in an
    earlier test is asked again (sessions/shared_cache.py pauses after a failure)."""
    shared_cache.resume()
    cache.clear()
    kept_scores.forget_all()
    yield
    shared_cache.resume()
    cache.clear()
    kept_scores.forget_all()


@pytest.fixture(autouse=True)
def writes_in_units():
    """Every write of services code runs in a unit of work (sessions.services.unit_of_work):
    one made outside fails the test that made it."""
    with writes_outside_a_unit() as outside:
        yield outside
    assert not outside, "services code wrote outside a unit of work:\n" + "\n".join(outside)


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
