"""A table calls the director from its phone (sessions.phones.services.calls): one press, one call;
a second press while it is open doubles nothing; a director takes it; once the session is
final the phone calls no more.

The conftest session is a 3-table Mitchell.
"""

import uuid
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from sessions.models import CallReason, DirectorCall, Session
from sessions.phones.services.calls import director_call, director_call_take
from sessions.core.services.errors import EntryClosed
from sessions.pairs.services.sessions import session_mark_final, session_reopen
from sessions.phones.services.tables import table_links_ensure


def key() -> str:
    return uuid.uuid4().hex


@pytest.fixture
def links(session):
    return {link.table: link for link in table_links_ensure(session=session)}


def test_a_press_records_one_open_call_with_its_table_round_reason_and_time(links):
    at = timezone.now() - timedelta(minutes=2)

    call = director_call(link=links[2], client_key=key(), round=3, reason=CallReason.REVOKE, now=at)

    stored = DirectorCall.objects.get()
    assert stored == call
    assert (stored.table, stored.section_id, stored.round, stored.reason, stored.called_at, stored.is_open) == (
        2, links[2].section_id, 3, "revoke", at, True,
    )


def test_the_same_press_sent_again_stores_nothing_more(links):
    press = key()
    first = director_call(link=links[1], client_key=press)
    again = director_call(link=links[1], client_key=press)
    assert again.pk == first.pk and DirectorCall.objects.count() == 1


def test_a_second_press_while_the_call_is_open_returns_the_open_call(links):
    first = director_call(link=links[1], client_key=key(), reason=CallReason.CLAIM)
    second = director_call(link=links[1], client_key=key(), reason=CallReason.LEAD)
    assert second.pk == first.pk and second.reason == "claim"
    assert DirectorCall.objects.count() == 1


def test_another_table_calls_on_its_own(links):
    director_call(link=links[1], client_key=key())
    director_call(link=links[3], client_key=key())
    assert sorted(DirectorCall.objects.values_list("table", flat=True)) == [1, 3]


def test_a_press_key_of_another_table_is_refused(links):
    press = key()
    director_call(link=links[1], client_key=press)
    with pytest.raises(ValidationError, match="another table"):
        director_call(link=links[2], client_key=press)
    assert DirectorCall.objects.filter(table=2).count() == 0


def test_a_press_without_a_valid_key_is_refused(links):
    with pytest.raises(ValidationError):
        director_call(link=links[1], client_key="short")
    assert not DirectorCall.objects.exists()


def test_a_taken_call_is_closed_and_the_next_press_makes_a_new_call(links, director):
    first = director_call(link=links[1], client_key=key())
    at = timezone.now()

    taken = director_call_take(call=first, by=director, now=at)

    assert (taken.is_open, taken.taken_at, taken.taken_by) == (False, at, director)
    second = director_call(link=links[1], client_key=key())
    assert second.pk != first.pk and second.is_open


def test_taking_a_call_twice_keeps_the_first_taking(links, director, co_director):
    call = director_call(link=links[1], client_key=key())
    first_at = timezone.now() - timedelta(minutes=1)
    director_call_take(call=call, by=director, now=first_at)
    again = director_call_take(call=call, by=co_director)
    assert (again.taken_at, again.taken_by) == (first_at, director)


def test_once_final_a_phone_calls_no_more_until_reopened(session, links):
    session_mark_final(session=Session.objects.get(pk=session.pk))
    with pytest.raises(EntryClosed):
        director_call(link=links[1], client_key=key())
    assert not DirectorCall.objects.exists()

    session_reopen(session=Session.objects.get(pk=session.pk))
    director_call(link=links[1], client_key=key())
    assert DirectorCall.objects.count() == 1


def test_the_database_keeps_one_open_call_per_table(links):
    director_call(link=links[1], client_key=key())
    with pytest.raises(IntegrityError), transaction.atomic():
        DirectorCall.objects.create(session=links[1].session, section=links[1].section, table=1,
                                    client_key=key(), called_at=timezone.now())
