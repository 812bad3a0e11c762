"""The pairs tables' phones through the services (sessions.services.tables): once the
session is final a phone writes nothing until the director reopens it.

The conftest session is a 3-table Mitchell of 2 boards a round: table 1 plays boards 1-2
in round 1 with 1NS v 1EW.
"""

import uuid

import pytest

from sessions.models import EntryStatus, Pair, Result, Session, TableEntry
from sessions.services import result_record
from sessions.services.errors import EntryClosed
from sessions.services.sessions import session_mark_final, session_publish, session_reopen
from sessions.services.tables import (
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

    from sessions.services import tables

    real_check = tables.result_check

    def check_then_final(**kwargs):
        Session.objects.filter(pk=session.pk).update(final_at=timezone.now())
        return real_check(**kwargs)

    monkeypatch.setattr(tables, "result_check", check_then_final)

    with pytest.raises(EntryClosed):
        send(link, 1, "4S N =")
    assert not TableEntry.objects.exists()
