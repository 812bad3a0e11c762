"""session_score and sessions_scores through the cache: once per revision, never stale,
never inside a writer's transaction."""

import pytest
from django.db import transaction

from sessions.models import Result, Session
from sessions.selectors.scoring import scores_from_cache, session_score, sessions_scores
from sessions.services import result_correct, result_record
from tests.factories import make_session


@pytest.fixture
def entered(session) -> Session:
    for ns, ew, text in (("2NS", "3EW", "4S N +1"), ("1NS", "1EW", "4S N ="), ("3NS", "2EW", "4S N -1")):
        result_record(board=session.boards.get(number=1), section=session.sections.get(), ns_pair=ns, ew_pair=ew,
                      text=text)
    return Session.objects.select_related("event").get(pk=session.pk)


def ns_points(scored, ns_number: int):
    line = next(r for r in scored.results if r.ns_pair.number == ns_number)
    return scored.scored_line(line).ns_points


def test_a_revision_is_scored_once(entered, django_assert_num_queries):
    with scores_from_cache():
        first = session_score(session=entered)
        with django_assert_num_queries(0):
            again = session_score(session=entered)
    assert again.session is entered  # the caller's session object, not the cached one
    assert again.result == first.result


def test_a_correction_is_scored_afresh(entered, django_assert_num_queries):
    with scores_from_cache():
        assert ns_points(session_score(session=entered), 1) == 2
        line = Result.objects.get(board__session=entered, ns_pair__number=1)
        result_correct(result=line, text="4S N +2", version=line.version)  # the top now
        fresh = Session.objects.select_related("event").get(pk=entered.pk)
        with django_assert_num_queries(2):  # its lines, its pairs: a new revision
            scored = session_score(session=fresh)
        assert ns_points(scored, 1) == 4


def test_outside_the_block_nothing_is_cached(entered, django_assert_num_queries):
    session_score(session=entered)
    with django_assert_num_queries(2):
        session_score(session=entered)


def test_a_writers_transaction_never_reads_or_fills_the_cache(entered, django_assert_num_queries):
    with scores_from_cache(), transaction.atomic():
        session_score(session=entered)
        with django_assert_num_queries(2):
            session_score(session=entered)
    with scores_from_cache(), django_assert_num_queries(2):
        session_score(session=entered)  # nothing was kept from inside the transaction


def test_many_sessions_read_only_those_not_cached(entered, event, django_assert_num_queries):
    other = Session.objects.select_related("event").get(pk=make_session(event).pk)
    with scores_from_cache():
        session_score(session=entered)
        with django_assert_num_queries(2):  # the other's results and pairs only
            scored = sessions_scores(sessions=[entered, other])
        with django_assert_num_queries(0):
            again = sessions_scores(sessions=[entered, other])
    assert set(scored) == set(again) == {entered.pk, other.pk}
    assert ns_points(again[entered.pk], 2) == 4
