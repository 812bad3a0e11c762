"""The pairs page: naming each pair's players after the session was created."""

from django.urls import reverse

from sessions.models import Pair, Player
from sessions.clubs.services.players import player_add


def pairs_url(session):
    return reverse("sessions:director_pairs", args=[session.pk])


def names(session):
    return {pair.label: pair.names for pair in Pair.objects.filter(section__session=session).select_related("player_1", "player_2")}


def test_the_page_offers_the_club_list_and_shows_the_current_players(logged_in, club, event):
    from tests.factories import make_session

    session = make_session(event, pair_players={"2EW": ["Ann Archer", "Bob Baker"]})
    player_add(club=club, name="Cat Cole", national_number="31")

    html = logged_in.get(pairs_url(session)).content.decode()

    assert '<option value="Cat Cole">31</option>' in html
    assert 'value="Ann Archer"' in html and 'list="club-players"' in html
    assert html.count("<tr><th scope=\"row\">") == 6


def test_the_page_lists_north_south_before_east_west(logged_in, session):
    import re

    html = logged_in.get(pairs_url(session)).content.decode()

    assert re.findall(r'<tr><th scope="row">([^<]+)</th>', html) == ["1NS", "2NS", "3NS", "1EW", "2EW", "3EW"]


def test_saving_names_a_pair_and_says_what_changed(logged_in, club, session, pair_id):
    known = player_add(club=club, name="Cat Cole")
    pk = pair_id(session, "1NS")

    response = logged_in.post(pairs_url(session), {
        f"p{pk}_1_name": "cat cole", f"p{pk}_2_name": "Dan Dale", f"p{pk}_2_number": "4242",
    }, follow=True)

    assert names(session)["1NS"] == "Cat Cole & Dan Dale"
    assert Pair.objects.get(pk=pk).player_1 == known
    assert Player.objects.get(name="Dan Dale").national_number == "4242"
    assert "1NS: no names -&gt; Cat Cole &amp; Dan Dale" in response.content.decode()


def test_a_refused_name_is_explained_and_nothing_is_saved(logged_in, club, session, pair_id):
    player_add(club=club, name="Eve Evans", national_number="7")
    first, second = pair_id(session, "1NS"), pair_id(session, "2NS")

    response = logged_in.post(pairs_url(session), {
        f"p{first}_1_name": "Fay Ford", f"p{second}_1_name": "Gil Grant", f"p{second}_1_number": "7",
    })

    assert response.status_code == 200
    assert "pair 2NS: national number 7 is Eve Evans&#x27;s, not Gil Grant&#x27;s" in response.content.decode()
    assert set(names(session).values()) == {""}
    assert not Player.objects.filter(name="Fay Ford").exists()


def test_posting_the_page_unchanged_changes_nothing(logged_in, event, pair_id):
    from tests.factories import make_session

    session = make_session(event, pair_players={"1NS": ["Hal Hunt", "Ivy Irwin"]})
    pk = pair_id(session, "1NS")

    response = logged_in.post(pairs_url(session), {f"p{pk}_1_name": "Hal Hunt", f"p{pk}_2_name": "Ivy Irwin"}, follow=True)

    assert b"Nothing changed." in response.content
    assert names(session)["1NS"] == "Hal Hunt & Ivy Irwin"


def test_the_session_page_links_to_the_pairs(logged_in, session):
    assert pairs_url(session) in logged_in.get(reverse("sessions:director_session", args=[session.pk])).content.decode()


def test_saving_an_unchanged_page_takes_the_same_queries_for_a_bigger_session(logged_in, event):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from sessions.movements import mitchell
    from tests.factories import make_session

    counts = []
    for tables in (3, 9):
        movement = mitchell(tables, 2)
        named = {label: [f"North {tables}-{label}", ""] for label in movement.pairs[::2]}  # some pairs named
        session = make_session(event, movement, pair_players=named)
        data = {
            f"p{pair.pk}_{seat}_name": (player.name if player else "")
            for pair in Pair.objects.filter(section__session=session).select_related("player_1", "player_2")
            for seat, player in ((1, pair.player_1), (2, pair.player_2))
        }
        with CaptureQueriesContext(connection) as queries:
            response = logged_in.post(pairs_url(session), data, follow=False)
        assert response.status_code == 302
        counts.append(len(queries))

    assert counts[0] == counts[1]  # nothing changed: no query per pair


def test_a_substitute_named_from_a_round_keeps_the_earlier_rounds_players(logged_in, event):
    from tests.factories import make_session

    session = make_session(event, pair_players={"1NS": ["Ann Archer", "Bob Baker"]})
    pk = Pair.objects.get(section__session=session, number=1, direction="NS").pk
    assert '<option value="2">round 2 on</option>' in logged_in.get(pairs_url(session)).content.decode()

    response = logged_in.post(pairs_url(session), {
        f"p{pk}_1_name": "Ann Archer", f"p{pk}_2_name": "Carl Cole", "from_round": "3",
    }, follow=True)

    pair = Pair.objects.select_related("player_1", "player_2").get(pk=pk)
    assert pair.names == "Ann Archer & Bob Baker"  # still the players of the most boards
    html = response.content.decode()
    assert "Changes of player" in html
    assert "1NS: rounds 1-2 Ann Archer &amp; Bob Baker; round 3 Ann Archer &amp; Carl Cole" in html
