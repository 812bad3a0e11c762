"""Stratification (RULES 15) on the event's settings and the session's ranking."""

from decimal import Decimal

import pytest
from django.urls import reverse

from sessions.models import Event, Player, Session
from sessions.pairs.selectors.public import results_sheet
from sessions.pairs.services.events import event_update
from tests.clubs.services.test_handicaps import finished
from tests.pairs.views.test_director_events import settings_data


def test_the_director_stratifies_an_event(logged_in, event):
    url = reverse("sessions:director_event", args=[event.pk])
    assert "Stratification (ACBL)" in logged_in.get(url).content.decode()
    response = logged_in.post(url, settings_data(event, strata_by="masterpoints", strata_limits="1500, 500"))
    assert response.status_code == 302
    assert Event.objects.values_list("strata_by", "strata_limits").get(pk=event.pk) == ("masterpoints", "1500, 500")


@pytest.mark.parametrize(("changes", "message"), [
    ({"strata_by": "masterpoints", "strata_limits": ""}, "give the limits of the lower strata"),
    ({"strata_by": "masterpoints", "strata_limits": "500, 1500"}, "below the one before it"),
    ({"strata_by": "rating", "strata_limits": "fifty"}, "numbers separated by commas"),
    ({"strata_by": "rating", "strata_limits": "NaN"}, "numbers separated by commas"),
    ({"strata_by": "rating", "strata_limits": "-5"}, "above 0"),
    ({"strata_by": "height", "strata_limits": "5"}, "Select a valid choice"),
])
def test_bad_strata_are_explained_and_change_nothing(logged_in, event, changes, message):
    response = logged_in.post(reverse("sessions:director_event", args=[event.pk]), settings_data(event, **changes))
    assert response.status_code == 200 and message in response.content.decode()
    assert Event.objects.values_list("strata_by", "strata_limits").get(pk=event.pk) == ("", "")


def test_the_ranking_shows_each_pairs_stratum_and_places(client, event):
    session = finished(event)  # NS: 1NS (Ann & Bob) 100 %, 3NS 50 %, 2NS 0 %; EW: 3EW 100 %, 2EW 50 %, 1EW 0 %
    Player.objects.filter(name="Ann Archer").update(masterpoints_held=Decimal("2000"))
    Player.objects.filter(name="Gil Grant").update(masterpoints_held=Decimal("700"))
    event_update(event=Event.objects.get(pk=event.pk), strata_by="masterpoints", strata_limits="1500, 500")

    html = client.get(reverse("sessions:session_results", args=[session.pk])).content.decode()

    assert "Stratum places" in html
    strata = results_sheet(session=Session.objects.select_related("event__club").get(pk=session.pk)).strata
    by_label = {pair.label: strata[pair.pk] for pair in session.sections.get().pairs.all()}
    assert (by_label["1NS"].letter, by_label["1NS"].places_text) == ("A", "A 1")
    assert (by_label["3NS"].letter, by_label["3NS"].places_text) == ("C", "A 2 · B 1 · C 1")  # no names: none held
    assert (by_label["1EW"].letter, by_label["1EW"].places_text) == ("B", "A 3 · B 3")  # Gil's 700
    assert ">A 2 · B 1 · C 1<" in html


def test_a_ranking_by_club_rating_uses_the_sessions_before(event):
    finished(event)  # Ann & Bob 100 % against Gil & Hal 0 %: every one rated 50
    session = finished(event)
    event_update(event=Event.objects.get(pk=event.pk), strata_by="rating", strata_limits="55, 45")
    strata = results_sheet(session=Session.objects.select_related("event__club").get(pk=session.pk)).strata
    by_label = {pair.label: strata[pair.pk] for pair in session.sections.get().pairs.all()}
    assert by_label["1NS"].letter == by_label["1EW"].letter == "B"  # 50: below 55, not below 45
    assert by_label["2NS"].letter == "C"  # unnamed: rated 0


def test_an_event_without_strata_shows_no_stratum_column(client, event):
    session = finished(event)
    assert "Stratum" not in client.get(reverse("sessions:session_results", args=[session.pk])).content.decode()


def test_strata_by_master_points_cost_the_results_page_no_query(client, event, django_assert_num_queries):
    session = finished(event)
    event_update(event=Event.objects.get(pk=event.pk), strata_by="masterpoints", strata_limits="1500, 500")
    # 0. the session's revision  1. the published session with its event and club
    # 2-3. session_score: the results, the pairs with their players (and master points held)
    # 4. the board numbers  5. the master point awards (final); the strata in Python
    with django_assert_num_queries(6):
        assert b"Stratum places" in client.get(reverse("sessions:session_results", args=[session.pk])).content


@pytest.mark.parametrize("earlier", [1, 4], ids=["1 earlier session", "4 earlier sessions"])
def test_strata_by_rating_cost_the_window_whatever_its_size(client, event, earlier, django_assert_num_queries):
    for _ in range(earlier):
        finished(event)
    session = finished(event)
    event_update(event=Event.objects.get(pk=event.pk), strata_by="rating", strata_limits="55, 45")
    # 0-5. as by master points; 6. the club's window before the session, with events
    # 7-8. sessions_scores: the window's results and pairs
    with django_assert_num_queries(9):
        assert b"Stratum places" in client.get(reverse("sessions:session_results", args=[session.pk])).content
