"""A player's public page and the club's player search, as a visitor reads them.

Figures from this folder's conftest (worked out by hand there): in ``played_session``
Ann Archer (1NS, with Bob Baker) scores 75.00 %, 1= of 3; in ``butler_session`` 1NS
scores 4 IMPs on board 1, second of 3.
"""

import datetime
import re

import pytest
from django.urls import reverse

from sessions.models import Player, Session
from sessions.pairs.services.sessions import session_publish, session_unpublish
from tests.factories import make_event, make_session
from tests.pages import NASTY_NAME, PLAYED_LINES, PLAYERS, enter


def player_url(name: str) -> str:
    return reverse("sessions:player", args=[Player.objects.get(name=name).pk])


def history_rows(tables_of, html: str) -> list[list[str]]:
    (table,) = tables_of(html)
    return table


@pytest.fixture(params=["anonymous", "director", "outsider"])
def visitor(request, client):
    """The players' pages treat every visitor the same, even the club's own director."""
    if request.param != "anonymous":
        client.force_login(request.getfixturevalue(request.param))
    return client


def test_a_players_page_lists_each_session_with_partner_score_place_and_card(
    visitor, played_session, butler_session, tables_of, pair_id
):
    Session.objects.filter(pk=butler_session.pk).update(date=datetime.date(2025, 3, 11))

    html = visitor.get(player_url("Ann Archer")).content.decode()

    # The session cell repeats the date for a phone, which hides the date column.
    assert history_rows(tables_of, html) == [
        ["Date", "Session", "Partner", "Score", "Place"],
        ["11 Mar 2025", f"Butler Pairs 11 Mar 2025 · {butler_session.name}", "Bob Baker", "4.00 IMPs",
         "2 of 3 North-South"],
        ["4 Mar 2025", f"Tuesday Pairs 4 Mar 2025 · {played_session.name}", "Bob Baker", "75.00%",
         "1= of 3 North-South"],
    ]
    assert f'href="{player_url("Bob Baker")}">Bob Baker</a>' in html  # the partner's own page
    for session, score in ((butler_session, "4.00 IMPs"), (played_session, "75.00%")):
        card = reverse("sessions:scorecard", args=[session.pk, pair_id(session, "1NS")])
        assert f'<a href="{card}" title="Score card of pair 1NS">{score}</a>' in html
        assert reverse("sessions:session_results", args=[session.pk]) in html


def test_a_players_page_draws_the_matchpoint_sessions_and_gives_their_average(client, event, played_session):
    second = make_session(event, pair_players=PLAYERS)
    Session.objects.filter(pk=second.pk).update(date=datetime.date(2025, 3, 11))
    enter(second, [line for line in PLAYED_LINES if line[0] == 1])  # board 1 alone: 1NS 2/4 = 50 %
    session_publish(session=second)

    html = client.get(player_url("Ann Archer")).content.decode()

    assert "average <strong>62.50%</strong> over 2 matchpoint sessions" in html  # (75 + 50) / 2
    assert html.count('class="point ') == 2
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img"' in html
    assert "<script" not in html and "style=" not in html  # the CSP allows neither inline


def test_an_unpublished_session_and_that_evenings_partner_never_show(client, event, played_session):
    secret = make_session(event, pair_players={**PLAYERS, "1NS": ["Ann Archer", "Secret Sam"]})
    secret.name = "The secret session"
    secret.save(update_fields=["name"])
    enter(secret, PLAYED_LINES)

    html = client.get(player_url("Ann Archer")).content.decode()

    assert "Secret Sam" not in html and "The secret session" not in html
    assert client.get(player_url("Secret Sam")).status_code == 404


def test_unpublishing_the_only_session_hides_the_players_page(client, played_session):
    url = player_url("Ann Archer")
    session_unpublish(session=played_session)

    assert client.get(url).status_code == 404


def test_an_unknown_player_is_not_found(client, played_session):
    assert client.get(reverse("sessions:player", args=[99999])).status_code == 404


def test_a_ranking_shown_at_the_end_keeps_the_players_figures_until_final(client, club):
    session = make_session(make_event(club, name="Secretive Pairs", live_rankings="end"), pair_players=PLAYERS)
    enter(session, PLAYED_LINES)
    session_publish(session=session)

    html = client.get(player_url("Ann Archer")).content.decode()

    assert "75.00" not in html and "1= of 3" not in html and ">later<" in html
    assert "the event shows the ranking once the director marks the session final" in html


def test_a_players_name_is_escaped_everywhere_on_the_page(client, played_session):
    html = client.get(player_url(NASTY_NAME)).content.decode()

    assert NASTY_NAME not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


# --- the club page and the search -------------------------------------------------------


def club_url(session: Session) -> str:
    return reverse("sessions:club", args=[session.event.club.slug])


def test_the_club_page_shows_the_club_its_events_and_a_search_that_needs_no_script(client, played_session, club):
    club.description = "Tuesdays at 7.30 in the village hall.\nVisitors welcome."
    club.website = "https://example.org/bridge"
    club.save()

    html = client.get(club_url(played_session)).content.decode()

    assert "Tuesdays at 7.30 in the village hall.<br>Visitors welcome." in html
    assert '<a href="https://example.org/bridge" rel="external noopener">' in html
    search = reverse("sessions:club_players", args=[club.slug])
    assert f'<form class="player-search" method="get" action="{search}"' in html
    assert '<input id="player-search-q" type="search" name="q"' in html
    assert "Tuesday Pairs" in html and "1 session, latest 4 Mar 2025" in html


def test_the_club_page_lists_only_events_with_a_published_session(client, played_session, club):
    make_session(make_event(club, name="Unplayed Cup"))

    html = client.get(club_url(played_session)).content.decode()

    assert "Unplayed Cup" not in html


def test_the_club_page_lists_its_sessions_newest_first(client, played_session, event, tables_of):
    later = make_session(event, pair_players=PLAYERS)
    Session.objects.filter(pk=later.pk).update(date=datetime.date(2025, 4, 1))
    enter(later, PLAYED_LINES[:1])
    session_publish(session=later)

    (sessions, *_) = tables_of(client.get(club_url(played_session)).content.decode())

    assert [row[1] for row in sessions[1:]] == [later.name, played_session.name]


def test_the_search_lists_matching_players_linked_to_their_pages(client, played_session, club):
    url = reverse("sessions:club_players", args=[club.slug])

    html = client.get(url, {"q": "AN"}).content.decode()

    assert "4 players found for “AN”" in html
    found = re.findall(r'<li><a href="(/players/\d+/)">([^<]+)</a></li>', html)
    assert found == [(player_url(name), name) for name in ["Ann Archer", "Dan Dale", "Eve Evans", "Gil Grant"]]
    assert 'value="AN"' in html  # the box keeps what was typed


def test_a_search_that_finds_nobody_says_so(client, played_session, club):
    html = client.get(reverse("sessions:club_players", args=[club.slug]), {"q": "<zzz>"}).content.decode()

    assert "0 players found for “&lt;zzz&gt;”" in html and "<zzz>" not in html


def test_the_search_page_without_a_query_explains_itself(client, played_session, club):
    html = client.get(reverse("sessions:club_players", args=[club.slug])).content.decode()

    assert "case and accents do not matter" in html


def test_the_search_of_an_unknown_club_is_not_found(client, db):
    assert client.get(reverse("sessions:club_players", args=["no-such-club"]), {"q": "a"}).status_code == 404


def test_a_substitutes_page_and_the_score_card_say_who_played_which_rounds(client, event):
    from tests.clubs.selectors.test_players import substituted

    session = substituted(event)
    bob = Player.objects.get(name="Bob Baker")
    pair = session.sections.get().pairs.get(number=1, direction="NS")

    page = client.get(reverse("sessions:player", args=[bob.pk])).content.decode()
    card = client.get(reverse("sessions:scorecard", args=[session.pk, pair.pk])).content.decode()

    assert "100.00%" in page and '<span class="names">round 1</span>' in page  # Bob's one round
    assert "A change of player: round 1 Ann Archer &amp; Bob Baker; rounds 2-3 Ann Archer &amp; Carl Cole." in card
