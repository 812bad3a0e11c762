"""The director publishes (asked first when lines are missing), marks the session final,
and reopens it; the session page says where the session stands.

The conftest session is a 3-table Mitchell of 3 rounds of 2 boards: 18 lines.
"""

import pytest
from django.urls import reverse

from sessions.models import Session
from sessions.pairs.services.results import result_correct, result_record
from sessions.pairs.services.sessions import session_mark_final, session_publish
from tests.pairs.selectors.test_entry import enter_everything


def enter_one(session: Session):
    return result_record(board=session.boards.get(number=1), section=session.sections.get(),
                         ns_pair="1NS", ew_pair="1EW", text="4S N =").result


def fresh(session: Session) -> Session:
    return Session.objects.get(pk=session.pk)


def publish_url(session):
    return reverse("sessions:director_publish", args=[session.pk])


def session_page(client, session) -> str:
    return client.get(reverse("sessions:director_session", args=[session.pk])).content.decode()


# --- publishing -----------------------------------------------------------------------------


def test_publishing_with_lines_missing_asks_first_with_the_count(logged_in, session):
    enter_one(session)

    response = logged_in.post(publish_url(session))

    assert response.status_code == 200
    html = response.content.decode()
    assert "17 lines of 18 are missing</strong>: publish anyway?" in html
    assert 'name="confirm" value="1"' in html and f'action="{publish_url(session)}"' in html
    assert not fresh(session).published


def test_one_line_missing_is_said_in_the_singular(logged_in, session):
    enter_everything(session)
    session.boards.get(number=6).results.first().delete()

    html = logged_in.post(publish_url(session)).content.decode()

    assert "1 line of 18 is missing</strong>: publish anyway?" in html


def test_publishing_anyway_publishes(logged_in, session):
    enter_one(session)

    response = logged_in.post(publish_url(session), {"confirm": "1"})

    assert response.status_code == 302 and response.url == reverse("sessions:director_session", args=[session.pk])
    assert fresh(session).published and not fresh(session).final


def test_a_complete_session_publishes_without_asking(logged_in, session):
    enter_everything(session)

    response = logged_in.post(publish_url(session), follow=True)

    assert fresh(session).published
    assert b"Published: players can see the results" in response.content
    assert b"publish anyway" not in response.content


def test_an_empty_session_is_refused_without_asking(logged_in, session):
    response = logged_in.post(publish_url(session), follow=True)

    assert b"nothing to publish" in response.content and b"publish anyway" not in response.content
    assert not fresh(session).published


def test_publishing_a_published_session_again_asks_nothing_and_changes_nothing(logged_in, session):
    enter_one(session)
    published_at = session_publish(session=session).published_at

    response = logged_in.post(publish_url(session))

    assert response.status_code == 302 and fresh(session).published_at == published_at


# --- final ----------------------------------------------------------------------------------


def test_the_session_page_offers_mark_final_then_reopen(logged_in, session):
    html = session_page(logged_in, session)
    assert reverse("sessions:director_mark_final", args=[session.pk]) in html and ">Mark final<" in html
    assert "provisional" in html

    session_mark_final(session=session)
    html = session_page(logged_in, session)
    assert reverse("sessions:director_reopen", args=[session.pk]) in html and ">Reopen<" in html
    assert ">Mark final<" not in html and 'class="badge final"' in html


def test_the_session_page_stops_saying_provisional_once_final(logged_in, session):
    enter_one(session)
    session_publish(session=session)
    assert "as provisional, without the hands, until you mark it final" in session_page(logged_in, session)

    session_mark_final(session=session)

    html = session_page(logged_in, session)
    assert "until you mark it final" not in html
    assert "Final: players see the results with the hands, and can download them." in html


def test_marking_final_and_reopening(logged_in, session):
    enter_one(session)
    session_publish(session=session)

    response = logged_in.post(reverse("sessions:director_mark_final", args=[session.pk]), follow=True)
    assert fresh(session).final
    assert b"Marked final: players see the results as final" in response.content

    response = logged_in.post(reverse("sessions:director_reopen", args=[session.pk]), follow=True)
    assert not fresh(session).final
    assert b"Reopened: the results are provisional again" in response.content


def test_marking_an_unpublished_session_final_says_to_publish_it(logged_in, session):
    response = logged_in.post(reverse("sessions:director_mark_final", args=[session.pk]), follow=True)

    assert fresh(session).final and b"publish the session for players to see it" in response.content


@pytest.mark.parametrize("name", ["director_mark_final", "director_reopen", "director_publish"])
def test_the_actions_need_a_post(logged_in, session, name):
    assert logged_in.get(reverse(f"sessions:{name}", args=[session.pk])).status_code == 405
    assert not fresh(session).final and not fresh(session).published


@pytest.mark.parametrize("persona", ["outsider", "member"])
def test_another_clubs_director_cannot_mark_final_or_reopen(client, session, persona, request):
    client.force_login(request.getfixturevalue(persona))

    assert client.post(reverse("sessions:director_mark_final", args=[session.pk])).status_code == 404
    assert not fresh(session).final
    session_mark_final(session=session)
    assert client.post(reverse("sessions:director_reopen", args=[session.pk])).status_code == 404
    assert fresh(session).final


def test_anonymous_is_sent_to_log_in(client, session):
    response = client.post(reverse("sessions:director_mark_final", args=[session.pk]))

    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    assert not fresh(session).final


def test_the_session_page_shows_when_a_published_session_was_amended(logged_in, session):
    line = enter_one(session)
    session_publish(session=session)
    assert "amended" not in session_page(logged_in, session)

    result_correct(result=line, text="4S N +1", version=line.version)

    assert "· amended " in session_page(logged_in, session)
