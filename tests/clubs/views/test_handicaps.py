"""Handicaps on the director's pages and the club rating on the player's (RULES 14).

Who may post them is walked in test_director_access.py; hostile input in test_fuzz_routes.py.
"""

from decimal import Decimal

import pytest
from django.urls import reverse

from sessions.models import ChangeAction, Club, Event, Pair, Player, ResultChange, Session
from tests.factories import make_session
from tests.clubs.services.test_handicaps import finished, handicaps, pair
from tests.core.views.test_pages_show_no_template_syntax import TEMPLATE_SYNTAX, visible_text


@pytest.fixture
def handicapped(event) -> Event:
    Event.objects.filter(pk=event.pk).update(handicap="half")
    return Event.objects.get(pk=event.pk)


def pairs_url(session: Session) -> str:
    return reverse("sessions:director_pairs", args=[session.pk])


def handicaps_url(session: Session) -> str:
    return reverse("sessions:director_handicaps", args=[session.pk])


def test_the_pairs_page_offers_the_handicaps_of_a_handicap_event_only(logged_in, session, handicapped):
    other = make_session(Event.objects.create(club=handicapped.club, name="Scratch"))
    html = logged_in.get(pairs_url(session)).content.decode()
    assert f'action="{handicaps_url(session)}"' in html and f'name="h{pair(session, "1NS").pk}"' in html
    assert "Compute handicaps" not in html  # typed: nothing to compute from
    assert f'action="{handicaps_url(other)}"' not in logged_in.get(pairs_url(other)).content.decode()


def test_the_director_types_handicaps_and_the_log_says_so(logged_in, session, handicapped):
    one, two = pair(session, "1NS"), pair(session, "2EW")
    response = logged_in.post(handicaps_url(session), {f"h{one.pk}": "-6.65", f"h{two.pk}": "3", "action": "save"},
                              follow=True)
    assert response.redirect_chain == [(pairs_url(session), 302)]
    html = response.content.decode()
    assert "1NS: handicap none -&gt; -6.65" in html and 'value="-6.65"' in html
    assert handicaps(session)["2EW"] == Decimal("3.00")
    log = logged_in.get(reverse("sessions:director_log", args=[session.pk])).content.decode()
    assert "pair 1NS" in log and "-6.65" in log


@pytest.mark.parametrize(("typed", "message"), [
    ("abc", "Enter a number."),
    ("30", "Ensure this value is less than or equal to 25."),
    ("-25.5", "Ensure this value is greater than or equal to -25."),
    ("1.234", "Ensure that there are no more than 2 decimal places."),
    ("1e400", "Ensure this value is less than or equal to 25."),
])
def test_a_bad_handicap_is_explained_and_changes_nothing(logged_in, session, handicapped, typed, message):
    one, two = pair(session, "1NS"), pair(session, "2NS")
    response = logged_in.post(handicaps_url(session), {f"h{one.pk}": "2", f"h{two.pk}": typed, "action": "save"})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert set(handicaps(session).values()) == {None}
    assert not ResultChange.objects.filter(session=session, action=ChangeAction.HANDICAP).exists()


def test_computing_typed_handicaps_is_refused_with_the_reason(logged_in, session, handicapped):
    response = logged_in.post(handicaps_url(session), {"action": "compute"})
    assert response.status_code == 400 and "typed by the director" in response.content.decode()


def test_the_compute_button_fills_the_handicaps_from_the_club_average(logged_in, handicapped):
    finished(handicapped)
    tonight = make_session(handicapped, pair_players={"1NS": ["Ann Archer", "Nina New"]})
    Club.objects.filter(pk=handicapped.club_id).update(handicap_source="average")
    html = logged_in.get(pairs_url(tonight)).content.decode()
    assert "Compute handicaps" in html and "The club&#x27;s rolling average" in html
    assert not any(syntax in visible_text(html) for syntax in TEMPLATE_SYNTAX)
    logged_in.post(handicaps_url(tonight), {"action": "compute"})
    assert handicaps(tonight)["1NS"] == Decimal("-25.00")  # Ann 100 %, Nina par: 50 - 75, at the limit


def test_naming_the_players_computes_the_handicaps_when_they_are_not_typed(logged_in, handicapped):
    finished(handicapped)
    tonight = make_session(handicapped)
    Event.objects.filter(pk=handicapped.pk).update(handicap_source="average")
    one = pair(tonight, "1NS")
    logged_in.post(pairs_url(tonight), {f"p{one.pk}_1_name": "Gil Grant", f"p{one.pk}_2_name": "Hal Hunt"})
    assert handicaps(tonight)["1NS"] == Decimal("25.00")  # both 0 %: 50 - 0, at the limit


def test_the_club_owner_chooses_the_source_and_window(logged_in, club):
    url = reverse("sessions:director_club_settings", args=[club.slug])
    response = logged_in.post(url, {"name": "Home Club", "handicap_source": "rating", "rating_sessions": "6"})
    assert response.status_code == 302
    assert Club.objects.values_list("handicap_source", "rating_sessions").get(pk=club.pk) == ("rating", 6)
    for bad, message in (("0", "greater than or equal to 1"), ("x", "Enter a whole number.")):
        response = logged_in.post(url, {"name": "Home Club", "rating_sessions": bad})
        assert message in response.content.decode()
    response = logged_in.post(url, {"name": "Home Club", "handicap_source": "nonsense"})
    assert "Select a valid choice." in response.content.decode()
    assert Club.objects.values_list("handicap_source", "rating_sessions").get(pk=club.pk) == ("rating", 6)


def test_the_director_enters_a_players_grade_and_master_points_held(logged_in, club):
    player = Player.objects.create(club=club, name="Ann Archer")
    url = reverse("sessions:director_player", args=[club.slug, player.pk])
    assert logged_in.post(url, {"name": "Ann Archer", "grade": "54.2"}).status_code == 302
    assert Player.objects.get(pk=player.pk).grade == Decimal("54.20")
    response = logged_in.post(url, {"name": "Ann Archer", "grade": "120"})
    assert "Ensure this value is less than or equal to 100." in response.content.decode()
    assert Player.objects.get(pk=player.pk).grade == Decimal("54.20")
    players = reverse("sessions:director_players", args=[club.slug])
    logged_in.post(players, {"name": "Bob Baker", "grade": "48", "masterpoints_held": "512.34"})
    assert Player.objects.values_list("grade", "masterpoints_held").get(name="Bob Baker") == (
        Decimal("48.00"), Decimal("512.34"))
    response = logged_in.post(url, {"name": "Ann Archer", "grade": "54.2", "masterpoints_held": "-1"})
    assert "Ensure this value is greater than or equal to 0." in response.content.decode()
    assert Player.objects.get(pk=player.pk).masterpoints_held is None


def test_the_player_page_shows_the_club_rating_and_how_many_sessions(client, event):
    finished(event)
    ann = Player.objects.get(name="Ann Archer")
    html = client.get(reverse("sessions:player", args=[ann.pk])).content.decode()
    # Ann: 100 % against Gil and Hal, who average 0: 100 + (0 - 50), from 1 of the club's last 10.
    assert "Club rating <strong>50.00%</strong> from 1 session\n" in html
    assert "their plain average 100.00%" in html
    assert not any(syntax in visible_text(html) for syntax in TEMPLATE_SYNTAX)
    assert "of the club's last 10 final matchpoint sessions" in html


def test_a_player_in_no_final_session_has_no_rating(client, event):
    session = finished(event)
    Session.objects.filter(pk=session.pk).update(final_at=None)
    ann = Player.objects.get(name="Ann Archer")
    assert "Club rating" not in client.get(reverse("sessions:player", args=[ann.pk])).content.decode()


def test_the_ranking_shows_the_handicapped_figures_beside_the_scratch_ones(client, handicapped):
    session = finished(handicapped)
    Pair.objects.filter(pk=pair(session, "1EW").pk).update(handicap=Decimal("20"))
    Session.objects.filter(pk=session.pk).update(revision=session.revision + 1)
    html = client.get(reverse("sessions:session_results", args=[session.pk])).content.decode()
    assert "Handicapped %" in html and ">10.00<" in html  # 1EW: 0 % + 20 / 2
