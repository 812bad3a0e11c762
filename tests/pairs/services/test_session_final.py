"""Publishing, marking final and reopening a session, and the time of the last amendment."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from sessions.models import Session
from sessions.pairs.services.events import event_update
from sessions.pairs.services.results import result_correct, result_record
from sessions.pairs.services.sessions import session_mark_final, session_publish, session_reopen, session_unpublish


def enter_one(session: Session):
    return result_record(board=session.boards.get(number=1), section=session.sections.get(),
                         ns_pair="1NS", ew_pair="1EW", text="4S N =").result


def fresh(session: Session) -> Session:
    return Session.objects.get(pk=session.pk)


def test_a_new_session_is_provisional(session):
    assert not session.final and session.final_at is None and session.amended_at is None


def test_marking_final_records_the_time_and_reopening_undoes_it(session):
    session_mark_final(session=session)
    assert fresh(session).final and fresh(session).final_at is not None

    session_reopen(session=session)
    assert not fresh(session).final


def test_marking_a_final_session_final_again_keeps_its_time(session):
    first = session_mark_final(session=session).final_at

    session_mark_final(session=fresh(session))

    assert fresh(session).final_at == first


def test_publishing_twice_keeps_the_first_publication_time(session):
    enter_one(session)
    published_at = session_publish(session=session).published_at

    session_publish(session=fresh(session))

    assert fresh(session).published_at == published_at


def test_publishing_leaves_the_session_provisional(session):
    enter_one(session)

    session_publish(session=session)

    assert fresh(session).published and not fresh(session).final


def test_an_empty_session_is_still_refused(session):
    with pytest.raises(ValidationError, match="nothing to publish"):
        session_publish(session=session)


def test_unpublishing_reopens_a_final_session(session):
    enter_one(session)
    session_mark_final(session=session_publish(session=session))

    session_unpublish(session=fresh(session))

    assert not fresh(session).published and not fresh(session).final


def test_a_correction_after_publication_marks_the_session_amended(session):
    line = enter_one(session)
    assert fresh(session).amended_at is None  # not published: no amendment
    session_publish(session=session)
    assert fresh(session).amended_at is None

    result_correct(result=line, text="4S N +1", version=line.version)

    amended = fresh(session).amended_at
    assert amended is not None and amended >= fresh(session).published_at


def test_a_fresh_publication_starts_without_an_amendment(session):
    line = enter_one(session)
    session_publish(session=session)
    result_correct(result=line, text="4S N +1", version=line.version)
    session_unpublish(session=fresh(session))

    session_publish(session=fresh(session))

    assert fresh(session).amended_at is None


def test_marking_final_does_not_touch_the_amendment(session):
    line = enter_one(session)
    session_publish(session=session)
    result_correct(result=line, text="4S N +1", version=line.version)
    amended = fresh(session).amended_at

    session_mark_final(session=fresh(session))

    assert fresh(session).amended_at == amended and isinstance(amended, datetime.datetime)


# --- the event's table entry settings -----------------------------------------------------


def test_the_table_entry_settings_are_event_settings(event):
    event_update(event=event, table_confirmation=False, table_shows_traveller=False, live_rankings="end")

    event.refresh_from_db()
    assert (event.table_confirmation, event.table_shows_traveller, event.live_rankings) == (False, False, "end")


def test_an_unknown_live_rankings_choice_is_refused(event):
    with pytest.raises(ValidationError):
        event_update(event=event, live_rankings="sometimes")
