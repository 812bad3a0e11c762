"""The public competition page: standings with each competitor's "why", the same
queries with more sessions, 404 without a published session."""

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from sessions.clubs.services.competitions import competition_create
from tests.pairs.selectors.test_events import BOTTOM, MIDDLE, TOP, played

TEXTS = {"1NS": TOP, "2NS": MIDDLE, "3NS": BOTTOM}


def test_the_page_shows_the_standings_and_why_each_place(client, event):
    played(event, {"1NS": ("Ann", "Bob"), "2NS": ("Cat", "Dan")}, TEXTS)
    played(event, {"1NS": ("Cat", "Dan"), "2NS": ("Ann", "Bob")}, TEXTS)
    competition = competition_create(event=event, name="Spring Cup", minimum_sessions=2)

    page = client.get(reverse("sessions:competition", args=[competition.pk])).content.decode()

    assert "Spring Cup" in page
    # Level on 19 points and on Butler (150 %): head to head is one all; each won once: 1= each.
    assert page.count("Why 1=") == 2
    assert "S1 4 Mar</a>:\n            1 NS,\n            10.00 points" in page


def test_the_page_takes_the_same_queries_with_more_sessions(client, event):
    competition = competition_create(event=event, name="Cup")
    counts = []
    for _ in range(2):
        played(event, {"1NS": ("Ann", "Bob")}, TEXTS)
        played(event, {"2NS": ("Ann", "Bob")}, TEXTS)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("sessions:competition", args=[competition.pk])).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_without_a_published_session_the_page_is_not_found(client, event):
    played(event, {"1NS": ("Ann", "Bob")}, TEXTS, publish=False)
    competition = competition_create(event=event, name="Cup")
    assert client.get(reverse("sessions:competition", args=[competition.pk])).status_code == 404


def test_the_event_page_links_to_its_competitions(client, event):
    played(event, {"1NS": ("Ann", "Bob")}, TEXTS)
    competition = competition_create(event=event, name="Spring Cup")
    page = client.get(reverse("sessions:event_results", args=[event.pk])).content.decode()
    assert f'href="{reverse("sessions:competition", args=[competition.pk])}">Spring Cup' in page
