"""A player gives their e-mail address, with consent, on the table's phone (issue 24).

The conftest event's 3-table Mitchell with test_mail's players: table 1's round 1 is
1NS (Ann Archer, Bob Baker) against 1EW (Gil Gray, Hal Hart).
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from sessions.models import Player, Session
from sessions.pairs.services.results import result_record
from sessions.pairs.services.sessions import session_mark_final
from sessions.phones.services.tables import table_links_ensure
from tests.factories import make_session
from tests.clubs.services.test_mail import PLAYERS


@pytest.fixture
def seated(event):
    session = make_session(event, pair_players=PLAYERS)
    links = {link.table: link for link in table_links_ensure(session=session)}
    return session, links


def url(link) -> str:
    return reverse("sessions:table_email", args=[link.token])


def player(name: str) -> Player:
    return Player.objects.get(name=name)


def test_the_phone_links_to_the_form_which_names_the_four_players_at_the_table(client, seated):
    _, links = seated
    page = client.get(reverse("sessions:table_page", args=[links[1].token])).content.decode()
    assert url(links[1]) in page
    form = client.get(url(links[1])).content.decode()
    for name in ("Ann Archer", "Bob Baker", "Gil Gray", "Hal Hart"):
        assert name in form
    assert "Cat Cole" not in form  # at another table


def test_a_player_who_agrees_is_recorded_with_how_and_when(client, seated):
    _, links = seated
    ann = player("Ann Archer")

    response = client.post(url(links[1]), {"player": ann.pk, "email": "ann@example.org", "consent": "on"})

    assert response.status_code == 302
    ann.refresh_from_db()
    assert (ann.email, ann.email_consent) == ("ann@example.org", True)
    assert ann.email_consent_how == "at the table (table 1, round 1)" and ann.email_consent_at is not None


@pytest.mark.parametrize(("data", "message"), [
    ({"email": "ann@example.org"}, "tick the box to agree"),
    ({"email": "not an address", "consent": "on"}, "Enter a valid email address"),
    ({"email": "", "consent": "on"}, "This field is required"),
])
def test_without_consent_or_a_good_address_nothing_is_stored(client, seated, data, message):
    _, links = seated
    ann = player("Ann Archer")
    response = client.post(url(links[1]), {"player": ann.pk, **data})
    assert response.status_code == 400 and message in response.content.decode()
    ann.refresh_from_db()
    assert (ann.email, ann.email_consent) == ("", False)


def test_a_player_at_another_table_cannot_be_given_an_address_here(client, seated):
    _, links = seated
    cat = player("Cat Cole")
    response = client.post(url(links[1]), {"player": cat.pk, "email": "x@example.org", "consent": "on"})
    assert response.status_code == 400
    cat.refresh_from_db()
    assert cat.email == ""


def test_once_final_the_phone_stores_no_address(client, seated):
    session, links = seated
    result_record(board=session.boards.get(number=1), section=session.sections.get(), ns_pair="1NS", ew_pair="1EW",
                  text="4S N =")
    session_mark_final(session=Session.objects.get(pk=session.pk))
    ann = player("Ann Archer")

    response = client.post(url(links[1]), {"player": ann.pk, "email": "ann@example.org", "consent": "on"})

    assert response.status_code == 409
    ann.refresh_from_db()
    assert ann.email == ""
