"""Before final: the players whose national number the federation would not credit."""

from __future__ import annotations

from django.urls import reverse

from sessions.models import Club
from sessions.clubs.selectors.masterpoints import national_number_warnings
from sessions.clubs.services.players import pair_name_players
from tests.factories import make_session


def named(session) -> None:
    pairs = {pair.label: pair for pair in session.sections.get().pairs.all()}
    pair_name_players(pair=pairs["1NS"], players=[("Ann Archer", "123456"), ("Bob Baker", "")])
    pair_name_players(pair=pairs["2NS"], players=[("Cat Cole", "12-34"), ("Dan Dale", "7654321")])


def test_a_missing_or_malformed_number_is_named_by_pair(club, event):
    Club.objects.filter(pk=club.pk).update(masterpoint_federation="ebu")
    session = make_session(event)
    named(session)
    session.event.club.refresh_from_db()
    assert national_number_warnings(session=session) == [
        "Pair 1NS: Bob Baker has no national number",
        "Pair 2NS: Cat Cole's national number '12-34' is not a valid EBU number",
    ]


def test_a_club_without_master_points_is_not_warned(event):
    session = make_session(event)
    named(session)
    assert national_number_warnings(session=session) == []


def test_the_session_page_warns_before_final(client, director, club, event):
    Club.objects.filter(pk=club.pk).update(masterpoint_federation="ebu")
    session = make_session(event)
    named(session)
    client.force_login(director)
    html = client.get(reverse("sessions:director_session", args=[session.pk])).content.decode()
    assert "Bob Baker has no national number" in html
