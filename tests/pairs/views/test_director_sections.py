"""The new-session form's sections, rounds and arrow-switch rounds, and their refusals."""

import pytest
from django.urls import reverse

from sessions.models import Pair, Seating, Session


@pytest.fixture
def url(club):
    return reverse("sessions:director_session_new", args=[club.slug])


def test_the_first_step_asks_for_sections_rounds_and_arrow_switch(logged_in, url):
    html = logged_in.get(url).content.decode()

    for name in ("sections", "rounds", "boards_per_round", "arrow_switch"):
        assert f'name="{name}"' in html


def test_twenty_pairs_in_two_sections_are_offered_ten_pair_movements(logged_in, url):
    html = logged_in.get(url, {"pairs": 20, "sections": 2}).content.decode()

    assert "> 5-table Mitchell" in html and "> 10-pair" in html
    assert "> 10-table" not in html
    assert 'name="sections" value="2"' in html  # carried to the next step


def test_two_sections_are_created_with_each_sections_players(logged_in, url, event):
    # 6 pairs a section, 2 boards a round: a 3-table Mitchell first, opened from the event's page.
    query = {"pairs": 12, "sections": 2, "boards_per_round": 2, "movement": 0, "event": event.pk}
    step_3 = logged_in.get(url, query).content.decode()
    assert "3-table Mitchell, 3 rounds of 2 boards (6 boards), sections A, B" in step_3
    assert 'name="pair_A-1NS_1"' in step_3 and 'name="pair_B-3EW_2"' in step_3
    assert "each section apart" in step_3
    assert reverse("sessions:director_event", args=[event.pk]) in step_3

    response = logged_in.post(url, {
        **query, "name": "Two sections", "date": "2025-05-06",
        "pair_A-1NS_1": "Ann Smith", "pair_B-1NS_1": "Bob Jones",
    })

    session = Session.objects.get(name="Two sections")
    assert response.status_code == 302
    assert [s.letter for s in session.sections.order_by("letter")] == ["A", "B"]
    assert sorted(session.boards.values_list("number", flat=True)) == [1, 2, 3, 4, 5, 6]  # shared
    for letter, name in (("A", "Ann Smith"), ("B", "Bob Jones")):
        assert Pair.objects.filter(section__session=session, section__letter=letter).count() == 6
        pair_1ns = Pair.objects.get(section__session=session, section__letter=letter, number=1, direction="NS")
        assert pair_1ns.player_1.name == name
        assert Seating.objects.filter(section__session=session, section__letter=letter).count() == 9


def test_the_step_3_note_says_when_the_event_matchpoints_across_the_field(logged_in, url, event):
    event.across_field = True
    event.save()

    html = logged_in.get(url, {"pairs": 12, "sections": 2, "movement": 0, "event": event.pk}).content.decode()

    assert "matchpoints across the field" in html


def test_rounds_and_arrow_switch_rounds_shape_the_mitchell(logged_in, url, event):
    query = {"pairs": 10, "rounds": 4, "boards_per_round": 3, "arrow_switch": "3, 4"}
    html = logged_in.get(url, query).content.decode()
    assert "5-table Mitchell, 4 rounds of 3 boards" in html
    assert "Howell" not in html  # a Howell has no arrows to switch

    logged_in.post(url, {**query, "movement": 0, "event": event.pk, "name": "Switched", "date": "2025-05-06"})

    session = Session.objects.get(name="Switched")
    assert (session.tables, session.rounds, session.boards_per_round, session.arrow_switch) == (5, 4, 3, True)
    switched = Seating.objects.get(section__session=session, round=4, table=1)
    plain = Seating.objects.get(section__session=session, round=2, table=1)
    assert switched.ns_pair.direction == "EW" and plain.ns_pair.direction == "NS"


@pytest.mark.parametrize(("query", "message"), [
    ({"pairs": 5, "sections": 2}, "a section needs at least 3 pairs, not 2"),  # 3 + 2
    ({"pairs": 4, "sections": 2}, "a section needs at least 3 pairs, not 2"),
    ({"pairs": 61}, "a section has at most 60 pairs: add a section"),
    ({"pairs": 10, "sections": 5}, "less than or equal to 4"),
    ({"pairs": 10, "arrow_switch": "last"}, "give the arrow-switch rounds as numbers"),
    ({"pairs": 10, "rounds": 4, "arrow_switch": "9"}, "cannot arrow-switch round 9: there are 4 rounds"),
    ({"pairs": 10, "rounds": 12}, "choose 5, 7 or 9 rounds; a 5-table Mitchell plays 1 to 5 rounds, not 12"),
    ({"pairs": 4, "arrow_switch": "2"}, "only a Mitchell switches arrows"),
])
def test_a_shape_the_movements_cannot_play_is_explained(logged_in, url, query, message):
    response = logged_in.get(url, query)

    assert response.status_code == 200
    assert message in response.content.decode()
    assert 'name="movement"' not in response.content.decode()


def test_a_refused_shape_creates_nothing_when_posted(logged_in, url, event):
    response = logged_in.post(url, {
        "pairs": 10, "rounds": 4, "arrow_switch": "9", "movement": 0, "event": event.pk, "name": "X",
        "date": "2025-05-06",
    })

    assert response.status_code == 200
    assert not Session.objects.filter(name="X").exists()


def test_the_note_lists_each_events_choice_when_the_club_has_several(logged_in, url, event):
    """The event just created (Championship) is preselected; the director may choose
    another in the form, so every event's choice is listed too."""
    from tests.factories import make_event

    across = make_event(event.club, name="Championship")
    across.across_field = True
    across.save()

    html = logged_in.get(url, {"pairs": 12, "sections": 2, "movement": 0}).content.decode()

    assert "Tuesday Pairs matchpoints each section apart" in html
    assert "Championship matchpoints across the field" in html
    assert reverse("sessions:director_event", args=[across.pk]) in html


def test_twenty_seven_pairs_make_sections_of_fourteen_and_thirteen(logged_in, url, event):
    # The movement of the larger section (14 pairs: 7-table Mitchells are offered), played
    # by both; section B is one pair short: its 7EW is a phantom and its opponents sit out.
    query = {"pairs": 27, "sections": 2, "boards_per_round": 2, "event": event.pk}
    step_2 = logged_in.get(url, query).content.decode()
    assert "> 7-table Mitchell" in step_2
    step_3 = logged_in.get(url, {**query, "movement": 0}).content.decode()
    assert "Section B has one pair fewer: pair 7EW is a phantom there" in step_3
    assert 'name="pair_A-7EW_1"' in step_3 and 'name="pair_B-7EW_1"' not in step_3

    response = logged_in.post(url, {**query, "movement": 0, "name": "Odd field", "date": "2025-05-06"})

    session = Session.objects.get(name="Odd field")
    assert response.status_code == 302
    counts = {letter: Pair.objects.filter(section__session=session, section__letter=letter).count() for letter in "AB"}
    assert counts == {"A": 14, "B": 13}
    assert not Pair.objects.filter(section__session=session, section__letter="B", number=7, direction="EW").exists()
    # 7 rounds at 7 tables in A; in B every round has one table fewer (7NS's opponents sit out).
    seatings = {letter: Seating.objects.filter(section__session=session, section__letter=letter).count() for letter in "AB"}
    assert seatings == {"A": 49, "B": 42}
