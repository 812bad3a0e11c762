"""The director's competition pages: created and changed through the services; a rule
the engine refuses is shown on the form, nothing saved."""

from django.urls import reverse

from sessions.models import Competition


def test_the_director_creates_a_competition_and_lands_on_its_page(client, director, event):
    client.force_login(director)
    response = client.post(reverse("sessions:director_competition_new", args=[event.pk]),
                           {"name": "Winter Cup", "place_points": "5, 3, 1", "minimum_sessions": 2, "best_sessions": 4,
                            "tie_breaks": "head_to_head, wins"})
    competition = Competition.objects.get(event=event)
    assert response.url == reverse("sessions:director_competition", args=[competition.pk])
    assert (competition.points, competition.tie_break_order) == ((5, 3, 1), ("head_to_head", "wins"))
    assert "Winter Cup" in client.get(reverse("sessions:director_event", args=[event.pk])).content.decode()


def test_a_minimum_above_the_sessions_counted_is_refused_on_the_form(client, director, event):
    client.force_login(director)
    response = client.post(reverse("sessions:director_competition_new", args=[event.pk]),
                           {"name": "Cup", "place_points": "10,9", "minimum_sessions": 5, "best_sessions": 3,
                            "tie_breaks": "wins"})
    assert response.status_code == 200 and "minimum" in response.content.decode()
    assert not Competition.objects.exists()
