"""Calling the director from a table's phone, and the director's grid showing the call
until it is taken (sessions/phones/views/table.py, sessions/pairs/views/live.py).

The conftest session is a 3-table Mitchell of 2 boards a round.
"""

import uuid
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from sessions.models import DirectorCall, Session
from sessions.phones.services.calls import director_call, director_call_take
from sessions.pairs.services.sessions import session_mark_final
from sessions.phones.services.tables import table_links_ensure

SCRIPT = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def links(session):
    return {link.table: link for link in table_links_ensure(session=session)}


def call_url(link) -> str:
    return reverse("sessions:table_call", args=[link.token])


def press(client, link, **fields):
    return client.post(call_url(link), {"client_key": uuid.uuid4().hex, "round": "1", **fields}, **SCRIPT)


def grid(client, session) -> str:
    response = client.get(reverse("sessions:director_progress", args=[session.pk]), **SCRIPT)
    assert response.status_code == 200
    return response.content.decode()


# --- the phone ------------------------------------------------------------------------------


def test_the_phone_offers_the_call_and_its_reasons(client, links):
    html = client.get(reverse("sessions:table_page", args=[links[1].token])).content.decode()
    assert f'action="{call_url(links[1])}"' in html and 'data-kind="call"' in html
    assert "Call the director" in html and 'value="revoke"' in html


def test_a_press_calls_the_director_and_the_phone_says_so(client, links):
    response = press(client, links[2], reason="claim")

    assert response.status_code == 200
    call = DirectorCall.objects.get()
    assert (call.table, call.round, call.reason, call.is_open) == (2, 1, "claim", True)
    html = response.content.decode()
    assert "The director is called (0" in html and "Call the director</button>" not in html


def test_a_plain_form_press_goes_back_to_the_page(client, links):
    response = client.post(call_url(links[1]), {"client_key": uuid.uuid4().hex})
    assert response.status_code == 302 and response["Location"] == reverse("sessions:table_page", args=[links[1].token])
    assert DirectorCall.objects.count() == 1


def test_a_second_press_and_a_repeated_press_store_one_call(client, links):
    key = uuid.uuid4().hex
    client.post(call_url(links[1]), {"client_key": key}, **SCRIPT)
    client.post(call_url(links[1]), {"client_key": key}, **SCRIPT)
    press(client, links[1])
    assert DirectorCall.objects.count() == 1


def test_the_phone_says_the_director_is_coming_once_taken(client, links, director):
    call = director_call(link=links[1], client_key=uuid.uuid4().hex)
    director_call_take(call=call, by=director)
    html = client.get(reverse("sessions:table_page", args=[links[1].token])).content.decode()
    assert "The director is coming." in html and "Call the director</button>" in html


def test_a_taken_call_long_ago_is_no_longer_shown(client, links, director):
    call = director_call(link=links[1], client_key=uuid.uuid4().hex)
    director_call_take(call=call, by=director, now=timezone.now() - timedelta(minutes=30))
    html = client.get(reverse("sessions:table_page", args=[links[1].token])).content.decode()
    assert "The director is" not in html


def test_once_final_a_press_is_refused_and_stores_nothing(client, session, links):
    session_mark_final(session=Session.objects.get(pk=session.pk))
    response = press(client, links[1])
    assert response.status_code == 409
    assert not DirectorCall.objects.exists()
    assert "Call the director</button>" not in response.content.decode()


def test_a_revoked_or_unknown_token_calls_nothing(client, links):
    response = client.post(reverse("sessions:table_call", args=["x" * 32]), {"client_key": uuid.uuid4().hex})
    assert response.status_code == 404
    assert not DirectorCall.objects.exists()


def test_a_press_needs_a_post(client, links):
    assert client.get(call_url(links[1])).status_code == 405


def test_a_press_keeps_csrf(links):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    assert strict.post(call_url(links[1]), {"client_key": uuid.uuid4().hex}).status_code == 403
    assert not DirectorCall.objects.exists()


# --- the director's grid ----------------------------------------------------------------------


def test_the_grid_shows_each_open_call_with_its_table_and_the_time_since(client, director, session, links):
    client.force_login(director)
    director_call(link=links[3], client_key=uuid.uuid4().hex, round=2, reason="lead",
                  now=timezone.now() - timedelta(minutes=7))

    html = grid(client, session)

    calls = html.split('class="director-calls"')[1].split("</section>")[0]
    assert "Table 3</strong>, round 2: Lead out of turn" in calls
    assert "called 7\xa0minutes ago" in calls
    assert reverse("sessions:director_call_take", args=[session.pk, DirectorCall.objects.get().pk]) in calls


def test_taken_the_call_leaves_the_grid(client, director, session, links):
    client.force_login(director)
    call = director_call(link=links[1], client_key=uuid.uuid4().hex)

    response = client.post(reverse("sessions:director_call_take", args=[session.pk, call.pk]), **SCRIPT)

    assert response.status_code == 200
    assert 'class="director-calls"' not in response.content.decode()
    call.refresh_from_db()
    assert call.taken_by == director and call.taken_at is not None


def test_the_plain_taken_form_goes_back_to_the_session(client, director, session, links):
    client.force_login(director)
    call = director_call(link=links[1], client_key=uuid.uuid4().hex)
    response = client.post(reverse("sessions:director_call_take", args=[session.pk, call.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("sessions:director_session", args=[session.pk])


@pytest.mark.parametrize("persona", ["outsider", "member"])
def test_only_the_clubs_directors_take_a_call(client, session, links, persona, request):
    client.force_login(request.getfixturevalue(persona))
    call = director_call(link=links[1], client_key=uuid.uuid4().hex)
    response = client.post(reverse("sessions:director_call_take", args=[session.pk, call.pk]))
    assert response.status_code == 404
    call.refresh_from_db()
    assert call.is_open


def test_the_grid_takes_the_same_queries_with_one_call_or_three(client, director, session, links):
    client.force_login(director)
    counts = []
    for table in (1, 2, 3):
        director_call(link=links[table], client_key=uuid.uuid4().hex)
        if table == 2:
            continue
        with CaptureQueriesContext(connection) as captured:
            html = grid(client, session)
        assert html.count('class="call"') == table
        counts.append(len(captured))
    assert counts[0] == counts[1]
