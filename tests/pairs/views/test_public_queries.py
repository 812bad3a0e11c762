"""The players' pages read a session in a fixed number of queries, whatever its size.

Each page is fetched for a 3-table and a 15-table Mitchell with the same share of
results entered (every table's first round and every line of board 1), and must issue
exactly the same queries for both.
"""

import itertools

import pytest
from django.urls import reverse

from sessions.models import Pair, Player, Session
from sessions.movements import mitchell
from sessions.clubs.services.players import pair_change_players, player_add
from sessions.pairs.services.results import result_record
from sessions.pairs.services.sessions import session_publish
from sessions.pairs.services.sessions import session_mark_final
from tests.factories import make_session

RESULTS = ["4S N =", "4S N +1", "3NT S =", "4H E -1", "2S W +1", "PASS", "A60/40"]


def entered_session(event, tables: int) -> Session:
    session = make_session(event, mitchell(tables, 1))
    section = session.sections.get()
    boards = {board.number: board for board in session.boards.all()}
    texts = itertools.cycle(RESULTS)
    leads = itertools.cycle(["HK", "S4", ""])
    for seating in section.seatings.select_related("ns_pair", "ew_pair"):
        if seating.round == 1 or 1 in seating.boards:
            (number,) = seating.boards
            text = next(texts)
            result_record(board=boards[number], section=section, ns_pair=seating.ns_pair.label,
                          ew_pair=seating.ew_pair.label, text=text, lead=next(leads) if " " in text else "")
    # Final, so the pages also read the hands' analysis (shown once the session is final).
    return session_mark_final(session=session_publish(session=session))


@pytest.fixture(params=[3, 15], ids=["3 tables", "15 tables"])
def sized_session(request, event) -> Session:
    return entered_session(event, request.param)


def first_pair(session: Session) -> int:
    return session.sections.get().pairs.get(number=1, direction="NS").pk


def test_the_results_page_takes_six_queries(client, sized_session, django_assert_num_queries):
    url = reverse("sessions:session_results", args=[sized_session.pk])
    # 0. the session's revision (the page's ETag and cache key; once cached, the only query)
    # 1. the published session with its event and club
    # 2. session_score: the session's results with boards, sections and pairs
    # 3. session_score: the pairs with their sections and players
    # 4. the board numbers, for the list of travellers
    # 5. the master point awards (the session is final)
    # Sorting adds none: the rows are sorted in Python.
    with django_assert_num_queries(6):
        response = client.get(url, {"sort": "-players"})
    assert response.status_code == 200


def test_the_traveller_takes_seven_queries(client, sized_session, django_assert_num_queries):
    url = reverse("sessions:board", args=[sized_session.pk, 1])
    # 0. the session's revision
    # 1. the deals of that number with their published session, event and club
    # 2. session_score: the pairs
    # 3. session_score: the session's lines (rows, for the scores)
    # 4. the board numbers, for the previous / next links
    # 5. the board's lines (Results, for the rows shown)
    # 6. the board's double-dummy analysis (hand diagram, DD table, par)
    with django_assert_num_queries(7):
        response = client.get(url, {"sort": "ns_points"})
    assert response.status_code == 200
    assert response.content.count(b"<tr") == 1 + sized_session.tables  # header + every table's line


def test_the_score_card_takes_seven_queries(client, sized_session, django_assert_num_queries):
    url = reverse("sessions:scorecard", args=[sized_session.pk, first_pair(sized_session)])
    # 0. the session's revision
    # 1. the pair with its players and its published session, event and club
    # 2. session_score: the pairs (opponents' names come from here)
    # 3. session_score: the session's lines (rows, for the scores)
    # 4. the pair's lines (Results, for the rows shown)
    # 5. the analyses of the pair's boards (the summary against par and double dummy)
    # 6. the pair's master point award (the session is final)
    with django_assert_num_queries(7):
        response = client.get(url, {"sort": "points"})
    assert response.status_code == 200


def test_the_home_page_takes_two_queries(client, played_session, django_assert_num_queries):
    # 1. the clubs with a published session  2. the latest published sessions with event and club
    with django_assert_num_queries(2):
        client.get(reverse("sessions:home"))


def test_the_club_page_takes_six_queries(client, played_session, django_assert_num_queries):
    url = reverse("sessions:club", args=[played_session.event.club.slug])
    # 0. the club's revision  1. the club  2. the number of published sessions (paging)  3. this page of them
    # 4. the events with a published session, counted and dated  5. the club's published teams events
    with django_assert_num_queries(6):
        client.get(url, {"sort": "-date"})


# --- a player's page: the same queries for 3 sessions as for 30 ---------------------------


def players_sessions(event, count: int, final: bool = False) -> int:
    """``count`` published sessions of Ann Archer, with a new partner every third one, and
    an unpublished one (``final``: the published ones final, so the club rating's window
    holds them); the id of Ann Archer."""
    for number in range(count + 1):
        partner = f"Partner {number // 3}"
        session = make_session(event, pair_players={"1NS": ["Ann Archer", partner], "1EW": ["Opp One", "Opp Two"]})
        board = session.boards.get(number=1)
        section = session.sections.get()
        result_record(board=board, section=section, ns_pair="1NS", ew_pair="1EW", text=RESULTS[number % 5])
        result_record(board=board, section=section, ns_pair="3NS", ew_pair="2EW", text="3NT S =")
        if number < count:  # the last one stays unpublished
            session_publish(session=session)
            if final:
                session_mark_final(session=session)
    return Player.objects.get(name="Ann Archer").pk


@pytest.mark.parametrize("final", [False, True], ids=["not final", "final: rated"])
@pytest.mark.parametrize("count", [3, 30], ids=["3 sessions", "30 sessions"])
def test_the_player_page_takes_six_queries_however_many_sessions(client, event, count, final,
                                                                  django_assert_num_queries):
    url = reverse("sessions:player", args=[players_sessions(event, count, final)])
    # 0. the player's club's revision
    # 1. the player with its club, if it sat in a published session
    # 2. the player's pairs in published sessions, with their sessions and events (and partners)
    # 3. the club's rating window: its last final matchpoint sessions, with their events
    # 4. sessions_scores: every line of those sessions and the window's
    # 5. sessions_scores: every pair of those sessions and the window's, with sections and players
    # Each session is scored in Python; the chart and the club rating are computed in Python.
    with django_assert_num_queries(6):
        response = client.get(url)
    assert response.status_code == 200
    assert response.content.count(b'class="point ') == count  # every published session drawn, no more
    assert (b"Club rating" in response.content) == final


def test_the_player_search_takes_three_queries(client, played_session, django_assert_num_queries):
    url = reverse("sessions:club_players", args=[played_session.event.club.slug])
    # 0. the club's revision  1. the club  2. its players who sat in a published session (names folded in Python)
    with django_assert_num_queries(3):
        response = client.get(url, {"q": "ann"})
    assert b"Ann Archer" in response.content


@pytest.mark.parametrize("count", [3, 30], ids=["3 sessions", "30 sessions"])
def test_the_player_page_reads_the_lineups_once_when_a_partner_changed(client, event, count,
                                                                       django_assert_num_queries):
    player = players_sessions(event, count)
    for pair in Pair.objects.filter(section__session__published=True, number=1, direction="NS").select_related(
            "section__session__event", "player_1"):
        pair_change_players(pair=pair, player_1=pair.player_1, player_2=player_add(club=event.club,
                            name=f"Sub {pair.pk}"), from_round=2)
    url = reverse("sessions:player", args=[player])
    # 0-5. as without a change of player
    # 6. the lineups of the player's pairs whose players changed, with their players
    with django_assert_num_queries(7):
        response = client.get(url)
    assert response.status_code == 200
    assert response.content.count(b">Sub ") == count  # each session names both partners
