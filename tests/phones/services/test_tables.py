"""The pairs tables' phones through the services (sessions.phones.services.tables): once the
session is final a phone writes nothing until the director reopens it.

The conftest session is a 3-table Mitchell of 2 boards a round: table 1 plays boards 1-2
in round 1 with 1NS v 1EW.
"""

import uuid

import pytest

from sessions.models import EntryStatus, Pair, Result, Session, TableEntry
from sessions.pairs.services.results import result_record
from sessions.core.services.errors import EntryClosed
from sessions.pairs.services.sessions import session_mark_final, session_publish, session_reopen
from sessions.phones.services.tables import (
    SeatChoice,
    table_entry_confirm,
    table_entry_refuse,
    table_entry_send,
    table_links_ensure,
    table_seat_players,
)


def key() -> str:
    return uuid.uuid4().hex


@pytest.fixture
def link(session):
    """Table 1's link, read before the session is made final (as a phone's page was)."""
    return next(link for link in table_links_ensure(session=session) if link.table == 1)


def send(link, number, text):
    return table_entry_send(link=link, board=link.session.boards.get(number=number), text=text, client_key=key())


def published_and_final(session: Session) -> None:
    """Board 3 entered by the director, the session published and marked final: board 1 has no line."""
    result_record(board=session.boards.get(number=3), section=session.sections.get(), ns_pair="3NS",
                  ew_pair="1EW", text="3NT N =")
    session_publish(session=session)
    session_mark_final(session=Session.objects.get(pk=session.pk))


def test_once_final_a_phone_can_neither_send_nor_confirm_nor_refuse(session, link):
    waiting = send(link, 1, "4S N =").entry  # sent before the session was final, not yet confirmed
    published_and_final(session)

    with pytest.raises(EntryClosed, match="marked this session final"):
        send(link, 2, "3NT S =")
    with pytest.raises(EntryClosed):
        table_entry_confirm(link=link, client_key=waiting.client_key)
    with pytest.raises(EntryClosed):
        table_entry_refuse(link=link, client_key=waiting.client_key)

    assert list(Result.objects.values_list("board__number", flat=True)) == [3]  # the director's alone
    assert list(TableEntry.objects.values_list("board__number", "status")) == [(1, EntryStatus.PENDING)]


def test_once_final_a_phone_cannot_rename_a_pair(session, link):
    published_and_final(session)
    seating = link.section.seatings.get(table=1, round=1)
    ann = session.event.club.players.create(name="Ann Archer")

    with pytest.raises(EntryClosed):
        table_seat_players(link=link, seating=seating, seats={"N": SeatChoice(player_id=ann.pk)})

    assert not Pair.objects.filter(player_1=ann).exists()


def test_the_directors_reopening_opens_the_phones_again(session, link):
    published_and_final(session)
    session_reopen(session=Session.objects.get(pk=session.pk))

    sent = send(link, 1, "4S N =").entry
    table_entry_confirm(link=link, client_key=sent.client_key)

    assert Result.objects.get(board__number=1).text == "4S N ="


def test_a_session_marked_final_while_a_send_is_on_its_way_stores_nothing(session, link, monkeypatch):
    """The check before the write passed; the director marks final before the write ends:
    the check at the end, under the session's lock, undoes it."""
    from django.utils import timezone

    from sessions.phones.services import tables

    real_check = tables.line_check

    def check_then_final(**kwargs):
        Session.objects.filter(pk=session.pk).update(final_at=timezone.now())
        return real_check(**kwargs)

    monkeypatch.setattr(tables, "line_check", check_then_final)

    with pytest.raises(EntryClosed):
        send(link, 1, "4S N =")
    assert not TableEntry.objects.exists()


# --- a confirmation racing the director's deletion ---------------------------------------------


def _confirm_racing_delete(entry_model, confirm, delete, monkeypatch):
    """Run ``confirm`` and ``delete`` in threads, the deletion starting once the confirmation
    has read the line it will name and is about to write its entry: without a lock on that
    line, the deletion commits first and the entry names a deleted line. With the lock, the
    deletion waits (the confirmation waits a second for it, then goes on). What each raised."""
    import threading

    from django.db import connection

    read, deleted = threading.Event(), threading.Event()
    real_save = entry_model.save

    def save_once_the_deletion_had_its_chance(self, *args, **kwargs):
        read.set()
        deleted.wait(timeout=1)
        return real_save(self, *args, **kwargs)

    monkeypatch.setattr(entry_model, "save", save_once_the_deletion_had_its_chance)
    outcomes: list[Exception | None] = [None, None]

    def run(index, action, first=None):
        try:
            if first is not None:
                first.wait(timeout=10)
            action()
        except Exception as error:  # noqa: BLE001 - the test inspects every outcome
            outcomes[index] = error
        finally:
            if index == 1:
                deleted.set()
            connection.close()

    threads = [threading.Thread(target=run, args=(0, confirm)), threading.Thread(target=run, args=(1, delete, read))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    monkeypatch.setattr(entry_model, "save", real_save)
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_a_confirmation_racing_the_directors_deletion_of_the_line_gets_an_answer(event, monkeypatch):
    """PostgreSQL once failed the confirmation at COMMIT (its entry named the deleted line): a 500."""
    from sessions.pairs.services.results import result_delete
    from tests.factories import make_session

    session = make_session(event)
    link = next(link for link in table_links_ensure(session=session) if link.table == 1)
    sent = send(link, 1, "4S N =").entry
    directors = result_record(board=session.boards.get(number=1), section=session.sections.get(),
                              ns_pair="1NS", ew_pair="1EW", text="4S N +1").result

    outcomes = _confirm_racing_delete(
        TableEntry,
        lambda: table_entry_confirm(link=link, client_key=sent.client_key),
        lambda: result_delete(result=directors, version=1),
        monkeypatch,
    )

    assert outcomes == [None, None]  # the confirmation first, then the deletion: no error for either
    entry = TableEntry.objects.get()
    assert (entry.status, entry.result) == (EntryStatus.SUPERSEDED, None)  # the director's line stood, then went
    assert not Result.objects.exists()
