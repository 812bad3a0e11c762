"""The event's pages: the players' combined ranking and the director's event page.

Two published sessions of the views' 3-table Mitchell with the same players, the second
with the players of 1NS and 2NS swapped: Ann Archer & Bob Baker score 75 % then 0 %,
Cat Cole & Dan Dale 0 % then 75 % (tests/pages.py); the players of 3EW (one of
them named like a script) score 100 % twice.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from sessions.models import Combination, Event
from sessions.pairs.services.events import event_update
from sessions.pairs.services.sessions import session_publish
from tests.factories import make_session
from tests.pages import NASTY_NAME, PLAYED_LINES, PLAYERS, enter

SWAPPED = {**PLAYERS, "1NS": PLAYERS["2NS"], "2NS": PLAYERS["1NS"]}


@pytest.fixture
def two_sessions(event):
    first = make_session(event, pair_players=PLAYERS)
    enter(first, PLAYED_LINES)
    second = make_session(event, pair_players=SWAPPED)
    enter(second, PLAYED_LINES)
    event_update(event=event, combination=Combination.AVERAGE)
    return session_publish(session=first), session_publish(session=second)


def event_url(event) -> str:
    return reverse("sessions:event_results", args=[event.pk])


def test_the_event_page_ranks_the_sessions_together(client, event, two_sessions, tables_of):
    response = client.get(event_url(event))
    assert response.status_code == 200
    (table,) = tables_of(response.content.decode())
    assert table[0] == ["Place", "Players", "Played", "S1", "S2", "%"]
    assert table[1] == ["1", f"{NASTY_NAME} & Kay King", "2", "100.00", "100.00", "100.00"]
    ann = next(row for row in table if row[1] == "Ann Archer & Bob Baker")
    assert ann[2:] == ["2", "75.00", "0.00", "37.50"]


def test_names_are_escaped(client, event, two_sessions):
    html = client.get(event_url(event)).content.decode()
    assert NASTY_NAME not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_each_sessions_ranking_and_each_score_card_is_linked(client, event, two_sessions, pair_id):
    first, second = two_sessions
    html = client.get(event_url(event)).content.decode()
    for session in two_sessions:
        assert reverse("sessions:session_results", args=[session.pk]) in html
    # Ann & Bob sat 1NS in the first session and 2NS in the second: each figure opens that card.
    assert reverse("sessions:scorecard", args=[first.pk, pair_id(first, "1NS")]) in html
    assert reverse("sessions:scorecard", args=[second.pk, pair_id(second, "2NS")]) in html


def test_sessions_outside_the_best_n_are_shown_in_brackets(client, event, two_sessions, tables_of):
    event_update(event=event, sessions_counted=1)
    (table,) = tables_of(client.get(event_url(event)).content.decode())
    ann = next(row for row in table if row[1] == "Ann Archer & Bob Baker")
    assert ann[2:] == ["2", "75.00", "(0.00) not counted", "75.00"]


def test_pairs_below_the_minimum_attendance_have_no_place(client, event, two_sessions, tables_of):
    third = make_session(event, pair_players={"1NS": ["Lee Long", "Max Moss"]})
    enter(third, PLAYED_LINES[:3])
    session_publish(session=third)
    event_update(event=event, minimum_sessions=2)
    (table,) = tables_of(client.get(event_url(event)).content.decode())
    places = [row[0] for row in table[1:]]
    lee = next(row for row in table if row[1] == "Lee Long & Max Moss")
    assert lee[0] == "" and lee[2] == "1"
    first_unranked = places.index("")
    assert all(places[:first_unranked]) and not any(places[first_unranked:])  # the unranked come last


def test_unpublished_sessions_are_left_out(client, event, two_sessions, tables_of):
    make_session(event, pair_players=PLAYERS)
    (table,) = tables_of(client.get(event_url(event)).content.decode())
    assert table[0] == ["Place", "Players", "Played", "S1", "S2", "%"]


@pytest.mark.parametrize("which", ["unknown", "no published session"])
def test_an_event_with_nothing_published_is_not_found(client, event, session, which):
    event_id = event.pk if which == "no published session" else event.pk + 1000
    assert client.get(reverse("sessions:event_results", args=[event_id])).status_code == 404


def test_a_player_entered_twice_shows_why_the_ranking_cannot_be_made(client, event):
    session = make_session(event, pair_players={**PLAYERS, "2NS": ["Ann Archer", "Zoe Zane"]})
    enter(session, PLAYED_LINES)
    session_publish(session=session)
    event_update(event=event, combined_by="players")
    response = client.get(event_url(event))
    assert response.status_code == 200
    assert "Ann Archer played twice" in response.content.decode()


def test_the_club_page_links_each_sessions_event(client, event, two_sessions):
    html = client.get(reverse("sessions:club", args=[event.club.slug])).content.decode()
    assert f'href="{event_url(event)}"' in html


def test_the_session_page_links_its_event(client, event, two_sessions):
    html = client.get(reverse("sessions:session_results", args=[two_sessions[0].pk])).content.decode()
    assert f'href="{event_url(event)}"' in html


# --- the director's event page ---------------------------------------------------------


def test_the_directors_event_page_marks_unpublished_sessions(logged_in, event, two_sessions, tables_of):
    third = make_session(event, pair_players=PLAYERS)
    enter(third, PLAYED_LINES)
    html = logged_in.get(reverse("sessions:director_event", args=[event.pk])).content.decode()
    (table,) = tables_of(html)
    assert table[0] == ["Place", "Players", "Played", "S1", "S2", "S3 *", "%"]
    assert reverse("sessions:director_standings", args=[third.pk]) in html
    assert event_url(event) in html


def test_the_director_sets_how_the_sessions_rank_together(logged_in, event, two_sessions):
    from tests.pairs.views.test_director_events import settings_data

    data = settings_data(event, combination="carry_forward", carry_forward_percent=25, minimum_sessions=2)
    response = logged_in.post(reverse("sessions:director_event", args=[event.pk]), data)
    assert response.status_code == 302
    event.refresh_from_db()
    assert (event.combination, event.carry_forward_percent, event.minimum_sessions) == ("carry_forward", 25, 2)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"sessions_counted": 2, "minimum_sessions": 3}, "cannot exceed the 2 sessions counted"),
        ({"combination": "carry_forward", "sessions_counted": 2}, "best N does not apply"),
        ({"carry_forward_percent": 150}, "less than or equal to 100"),
        ({"minimum_sessions": 0}, "greater than or equal to 1"),
    ],
)
def test_impossible_combinations_are_refused_and_change_nothing(logged_in, event, two_sessions, changes, message):
    from tests.pairs.views.test_director_events import settings_data

    before = Event.objects.values().get(pk=event.pk)
    response = logged_in.post(reverse("sessions:director_event", args=[event.pk]), settings_data(event, **changes))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert Event.objects.values().get(pk=event.pk) == before


def test_a_carry_forward_final_ranks_only_the_finals_pairs(client, event, two_sessions, tables_of):
    # S4 is the final. Ann & Bob: 75 % and 0 % before (average 37.5), 0 % in the final
    # (2NS again): 0 + 1/2 x (37.5 - 50) = -6.25. Lee & Max did not reach the final: unranked.
    third = make_session(event, pair_players={"1NS": ["Lee Long", "Max Moss"]})
    enter(third, PLAYED_LINES[:3])
    session_publish(session=third)
    final = make_session(event, pair_players=SWAPPED)
    enter(final, PLAYED_LINES)
    session_publish(session=final)
    event_update(event=event, combination=Combination.CARRY_FORWARD)
    html = client.get(event_url(event)).content.decode()
    (table,) = tables_of(html)
    assert table[0] == ["Place", "Players", "Played", "S1", "S2", "S3", "S4", "Carried", "%"]
    ann = next(row for row in table if row[1] == "Ann Archer & Bob Baker")
    assert ann[2:] == ["3", "75.00", "0.00", "", "0.00", "-6.25", "-6.25"]
    lee = next(row for row in table if row[1] == "Lee Long & Max Moss")
    assert lee[0] == ""
    assert "did not play the final" in html
