"""The prepared queries (sessions/core/query_speed.py): the same rows as the ORM built anew.

Every prepared query the phones' posts run is run again here both ways, with the values
of a real evening (a pairs table's and a teams room's sends, confirmations, refusals
and pages), and must give the same rows with the same related objects; one the flow
never runs fails the walk (add it to the flow). Then the seam's own guards: a query
that a value does not reach as a parameter, or that reads the clock, is refused at once;
values its SQL cannot hold take Django's path; a held query outside a transaction
refuses as Django does.
"""

from __future__ import annotations

import threading
import uuid
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.db.models import Model
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from sessions.core import query_speed
from sessions.core.query_speed import Prepared, PreparedQueryError, PreparedUpdate
from sessions.models import Room, Seating, Session, TableLink
from sessions.movements import mitchell
from sessions.pairs.services.sessions import session_publish
from sessions.phones.services.tables import table_links_ensure
from sessions.phones.services.team_tables import match_table_links_ensure
from sessions.teams.services.teams import round_robin_schedule
from tests.factories import make_session, make_team_event

SCRIPT = {"HTTP_HX_REQUEST": "true"}


def _plain(row) -> object:
    """A row as comparable data: a model's fields and the related objects it carries."""
    if isinstance(row, Model):
        fields = {name: value for name, value in vars(row).items() if not name.startswith("_")}
        related = {name: _plain(value) for name, value in sorted(row._state.fields_cache.items())}
        return type(row).__name__, fields, related
    if isinstance(row, tuple):
        return tuple(_plain(item) for item in row)
    return row


@pytest.fixture
def recorded(monkeypatch):
    """Every prepared query called, with its values, while the test runs."""
    calls: list[tuple[Prepared, dict]] = []
    run = Prepared.__call__

    def recording(self, **values):
        calls.append((self, values))
        return run(self, **values)

    monkeypatch.setattr(Prepared, "__call__", recording)
    return calls


def _table_evening(client, event) -> None:
    """A pairs table's phone: its page, a send confirmed, one refused, a send repeated."""
    session = make_session(event, mitchell(3, 2))
    link = {link.table: link for link in table_links_ensure(session=session)}[1]
    page, send, confirm, refuse = (reverse(f"sessions:table_{name}", args=[link.token])
                                   for name in ("page", "send", "confirm", "refuse"))
    client.get(page)
    for board, text, answer in ((1, "3NT N =", confirm), (2, "4S E -1", refuse), (2, "4S E -2", confirm)):
        key = uuid.uuid4().hex
        sent = {"board": board, "text": text, "lead": "", "client_key": key}
        assert client.post(send, sent, **SCRIPT).status_code == 200
        assert client.post(send, sent, **SCRIPT).status_code == 200  # a retry: nothing twice
        assert client.post(answer, {"client_key": key}, **SCRIPT).status_code == 200
        if board == 1:
            session_publish(session=session)  # a published session's next line marks it amended
    assert Session.objects.get(pk=session.pk).amended_at is not None
    assert client.get(page).status_code == 200


def _room_evening(client, club) -> None:
    event = make_team_event(club, teams=2, form="round_robin", boards_per_match=2)
    round_robin_schedule(event=event)
    room = next(link for link in match_table_links_ensure(event=event, round=1) if link.room == Room.CLOSED)
    key = uuid.uuid4().hex
    client.post(reverse("sessions:team_table_send", args=[room.token]),
                {"board": 1, "text": "4S N =", "lead": "", "client_key": key}, **SCRIPT)
    client.post(reverse("sessions:team_table_confirm", args=[room.token]), {"client_key": key}, **SCRIPT)


def _unprepared(prepared: Prepared, values: dict):
    query_speed.SPEED_UP = False
    try:
        return prepared(**values)
    finally:
        query_speed.SPEED_UP = True


def _both_ways(prepared: Prepared, values: dict) -> tuple[object, object]:
    """The prepared query's rows, and the ORM's built anew, inside a transaction (for the held
    ones); an UPDATE as its changes say (``UPDATES``)."""
    if isinstance(prepared, PreparedUpdate):
        rows, changes = prepared.build(**values)
        compare = UPDATES.get(frozenset(changes))
        assert compare is not None, f"{prepared}: say in UPDATES how to compare this update"
        return compare(prepared, values, rows)
    with transaction.atomic():
        return [_plain(row) for row in prepared(**values)], [_plain(row) for row in _unprepared(prepared, values)]


def _both_ways_bumped(prepared: PreparedUpdate, values: dict, rows) -> tuple[object, object]:
    """A revision's bump, prepared then by the ORM: the same rows changed, each bumped by one,
    at the time given."""
    def revisions():
        return dict(rows.values_list("pk", "revision"))

    with transaction.atomic():
        before, fast = revisions(), prepared(**values)
        after_fast, slow = revisions(), _unprepared(prepared, values)
        after_slow = revisions()
        assert set(rows.values_list("revised_at", flat=True)) == {values["now"]}
    assert after_fast == {pk: revision + 1 for pk, revision in before.items()}
    assert after_slow == {pk: revision + 2 for pk, revision in before.items()}
    return (fast, len(before)), (slow, len(before))


def _both_ways_marked(prepared: PreparedUpdate, values: dict, rows) -> tuple[object, object]:
    """A published session marked amended, prepared then by the ORM: the same rows marked, at
    the time given."""
    def marked():
        return dict(rows.values_list("pk", "amended_at"))

    with transaction.atomic():
        fast, after_fast = prepared(**values), marked()
        rows.update(amended_at=None)
        slow, after_slow = _unprepared(prepared, values), marked()
    assert after_fast == after_slow and set(after_fast.values()) <= {values["now"]}
    return fast, slow


#: How each prepared UPDATE of an evening is compared both ways, by the fields it changes.
UPDATES = {
    frozenset({"revision", "revised_at"}): _both_ways_bumped,
    frozenset({"amended_at"}): _both_ways_marked,
}


def test_every_prepared_query_of_an_evening_gives_the_orms_rows(client, club, event, recorded):
    made_at_import = [prepared for prepared in Prepared.made if prepared.build.__module__.startswith("sessions.")]
    _table_evening(client, event)
    _room_evening(client, club)
    calls = list(recorded)
    recorded.clear()

    assert len(calls) > 40 and len(made_at_import) >= 11
    for prepared, values in calls:
        fast, slow = _both_ways(prepared, values)
        assert fast == slow, (prepared, values)
    never_run = {prepared.name for prepared in made_at_import} - {prepared.name for prepared, _ in calls}
    assert not never_run, f"prepared queries the evening never runs: add them to it: {never_run}"


def test_a_prepared_query_asks_one_query_and_gives_its_related_objects_with_it(client, event):
    session = make_session(event, mitchell(3, 2))
    link = table_links_ensure(session=session)[0]
    by_token = Prepared(lambda token: TableLink.objects.filter(token=token).select_related("session__event"))
    by_token(token=link.token)  # (its SQL made)
    with CaptureQueriesContext(connection) as queries:
        (found,) = by_token(token=link.token)
        assert found.session.event.club_id == event.club_id
    assert len(queries) == 1  # the event came with the link


def test_a_tuple_is_prepared_for_its_length_and_a_long_one_takes_djangos_path(event):
    sessions = [make_session(event, mitchell(3, 1)) for _ in range(3)]
    ids = tuple(session.pk for session in sessions)
    by_ids = Prepared(lambda ids: Session.objects.filter(pk__in=ids).order_by("pk"))
    assert [s.pk for s in by_ids(ids=ids[:1])] == [ids[0]]
    assert [s.pk for s in by_ids(ids=ids)] == list(ids)
    assert [s.pk for s in by_ids(ids=(ids[2], ids[0], ids[2]))] == [ids[0], ids[2]]
    many = ids + tuple(range(10**6, 10**6 + query_speed.MOST_ITEMS))
    assert [s.pk for s in by_ids(ids=many)] == list(ids)
    assert len(by_ids._plans) == 2  # lengths 1 and 3 (the second 3 reuses it); the long one has none


def test_a_value_the_sql_cannot_hold_as_built_takes_djangos_path(event):
    """None is IS NULL to the ORM (no parameter), a bool is not an int, and an int beyond 32
    bits is one Django's lookups treat apart: each gives the ORM's own answer."""
    session = make_session(event, mitchell(3, 1))
    final = make_session(event, mitchell(3, 1))
    Session.objects.filter(pk=final.pk).update(final_at=timezone.now())
    by_final = Prepared(lambda final_at: Session.objects.filter(final_at=final_at))
    assert [s.pk for s in by_final(final_at=None)] == [session.pk]
    by_pk = Prepared(lambda pk: Session.objects.filter(pk=pk))
    assert by_pk(pk=2**40) == [] and by_pk(pk=True) == list(Session.objects.filter(pk=True))
    assert [s.pk for s in by_pk(pk=session.pk)] == [session.pk]


def test_a_value_that_does_not_reach_the_sql_as_itself_is_refused(event):
    """``icontains`` makes "%value%" of the value, and a value left out reaches nothing: the
    SQL could not take another value."""
    make_session(event, mitchell(3, 1))
    named = Prepared(lambda name: Session.objects.filter(name__icontains=name))
    with pytest.raises(PreparedQueryError, match="neither one of the values nor a constant"):
        named(name="club")
    forgot = Prepared(lambda pk, name: Session.objects.filter(pk=pk))
    with pytest.raises(PreparedQueryError, match="name do not reach the SQL as parameters"):
        forgot(pk=1, name="club")


def test_a_value_beyond_its_columns_kind_gives_the_orms_answer(event):
    """A table number is a small integer column (psycopg sends its values as Int2): 40,000
    cannot be one, and no seating has it."""
    session = make_session(event, mitchell(3, 1))
    by_table = Prepared(lambda section, table: Seating.objects.filter(section=section, table=table))
    section = session.sections.get().pk
    assert {s.table for s in by_table(section=section, table=2)} == {2}
    assert by_table(section=section, table=40_000) == [] == list(Seating.objects.filter(table=40_000))
    (plan,) = by_table._plans.values()
    assert plan.wrapped == (connection.vendor == "postgresql")  # the case this test is about, where it arises


def test_a_query_built_from_the_clock_is_refused(event):
    """A value taken from elsewhere than the values (here the clock) would be kept for good."""
    make_session(event, mitchell(3, 1))
    recent = Prepared(lambda pk: Session.objects.filter(pk=pk, created_at__gte=timezone.now() - timedelta(hours=1)))
    with pytest.raises(PreparedQueryError, match="neither one of the values nor a constant"):
        recent(pk=1)


def test_a_function_that_builds_no_queryset_or_no_sql_or_prefetches_is_refused(event):
    with pytest.raises(PreparedQueryError, match="without SQL"):
        Prepared(lambda pk: Session.objects.filter(pk=pk).none())(pk=1)
    with pytest.raises(PreparedQueryError, match="not a QuerySet"):
        Prepared(lambda pk: list(Session.objects.filter(pk=pk)))(pk=1)
    with pytest.raises(PreparedQueryError, match="prefetch_related"):
        Prepared(lambda pk: Session.objects.filter(pk=pk).prefetch_related("boards"))(pk=1)


@pytest.mark.django_db(transaction=True)
def test_a_held_query_outside_a_transaction_refuses_as_django_does():
    from tests.factories import make_club, make_event

    session = make_session(make_event(make_club()), mitchell(3, 1))
    held = Prepared(lambda pk: Session.objects.filter(pk=pk).select_for_update())
    with transaction.atomic():
        assert [s.pk for s in held(pk=session.pk)] == [session.pk]
    if connection.features.has_select_for_update:  # PostgreSQL: refused outside, as the ORM
        with pytest.raises(TransactionManagementError):
            held(pk=session.pk)
        with pytest.raises(TransactionManagementError):
            list(Session.objects.filter(pk=session.pk).select_for_update())
    else:  # SQLite has no row lock: the ORM reads, and so does the prepared query
        assert [s.pk for s in held(pk=session.pk)] == [session.pk]


def test_an_update_with_a_date_and_time_is_prepared_and_a_naive_one_takes_djangos_path(event):
    """SQLite keeps a date and time as text: the value is adapted as the ORM adapts it."""
    sessions = [make_session(event, mitchell(3, 1)) for _ in range(2)]
    ids = tuple(session.pk for session in sessions)
    when = timezone.now() - timedelta(days=3)
    amend = PreparedUpdate(lambda ids, when: (Session.objects.filter(pk__in=ids), {"amended_at": when}))
    assert amend(ids=ids, when=when) == 2
    assert set(Session.objects.filter(pk__in=ids).values_list("amended_at", flat=True)) == {when}
    assert amend._plans  # prepared
    assert amend(ids=ids[:1], when=when + timedelta(hours=1)) == 1
    assert Session.objects.get(pk=ids[0]).amended_at == when + timedelta(hours=1)
    assert Session.objects.get(pk=ids[1]).amended_at == when
    assert amend(ids=(10**6,), when=when) == 0
    with pytest.warns(RuntimeWarning, match="naive datetime"):  # the ORM's own warning: its path
        amend(ids=ids, when=when.replace(tzinfo=None))


def test_switched_off_every_prepared_query_is_built_by_the_orm(event, monkeypatch):
    session = make_session(event, mitchell(3, 1))
    built = []
    by_pk = Prepared(lambda pk: built.append(pk) or Session.objects.filter(pk=pk))
    monkeypatch.setattr(query_speed, "SPEED_UP", False)
    assert [s.pk for s in by_pk(pk=session.pk)] == [session.pk]
    assert built == [session.pk] and by_pk._plans == {}


@pytest.mark.django_db(transaction=True)
def test_another_thread_runs_the_same_plan_on_its_own_connection(settings):
    """A compiler holds the connection it was made on; each run takes its own thread's."""
    from tests.factories import make_club, make_event

    session = make_session(make_event(make_club()), mitchell(3, 1))
    by_pk = Prepared(lambda pk: Session.objects.filter(pk=pk))
    assert [s.pk for s in by_pk(pk=session.pk)] == [session.pk]  # the plan, made on this thread's
    found, used = [], []

    def other_thread():
        try:
            with CaptureQueriesContext(connection) as queries:
                found.extend(s.pk for s in by_pk(pk=session.pk))
            used.append(len(queries))
        finally:
            connection.close()

    worker = threading.Thread(target=other_thread)
    worker.start()
    worker.join()
    assert found == [session.pk] and used == [1]  # counted on the thread's own connection
