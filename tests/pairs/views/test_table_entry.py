"""A table's phone: the link opens one table, NS send, EW confirm, nothing lost or doubled.

The conftest session is a 3-table Mitchell of 2 boards a round (3 rounds, boards 1-6).
Table 1 plays boards 1-2 in round 1 with 1NS v 1EW.
"""

import re
import uuid

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from sessions.models import ChangeAction, EntryStatus, Result, ResultChange, Seating, Session, TableEntry
from sessions.movements import mitchell
from sessions.pairs.services.events import event_update
from sessions.pairs.services.results import result_correct, result_record
from sessions.pairs.services.repair import seating_turn_round
from sessions.phones.services.phone_links import phone_link_renew, phone_link_revoke
from sessions.phones.services.tables import table_links_ensure
from tests.factories import make_club, make_event, make_session

SCRIPT = {"HTTP_HX_REQUEST": "true"}



@pytest.fixture
def links(session):
    return {link.table: link for link in table_links_ensure(session=session)}


def url(link, name="page"):
    return reverse(f"sessions:table_{name}", args=[link.token])


def key() -> str:
    return uuid.uuid4().hex


def send(client, link, board, text, *, client_key=None, lead="", accept_warnings=False, **extra):
    data = {"board": board, "text": text, "lead": lead, "client_key": client_key or key()}
    if accept_warnings:
        data["accept_warnings"] = "1"
    return client.post(url(link, "send"), data, **extra)


def pending_key(board_number):
    return TableEntry.objects.get(board__number=board_number, status=EntryStatus.PENDING).client_key


# --- the page -------------------------------------------------------------------------------


def test_the_table_link_needs_no_login_and_shows_where_the_table_is(client, session, links):
    pairs = {f"{p.label}": p for p in session.sections.get().pairs.all()}
    pairs["1NS"].player_1 = pairs["1NS"].section.session.event.club.players.create(name="Ann Archer")
    pairs["1NS"].save()

    response = client.get(url(links[1]))

    html = response.content.decode()
    assert response.status_code == 200
    assert "Table 1" in html and "Round 1 of 3" in html
    assert re.search(r'Board <span class="board-number">1</span>', html)
    assert 'Dealer <span class="dealer">N</span>' in html
    assert '<span class="vul">None</span> vulnerable' in html
    assert "Ann Archer" in html
    assert '<label for="result-text" class="field-label">Result</label>' in html
    assert 'maxlength="60"' in html and 'maxlength="8"' in html
    assert ">Send</button>" in html


def test_every_table_gets_one_live_link_and_a_renewed_link_revokes_the_old(client, session, links):
    assert sorted(links) == [1, 2, 3]
    assert len({link.token for link in links.values()}) == 3
    assert table_links_ensure(session=session) == list(links.values())  # nothing new made

    renewed = phone_link_renew(link=links[2])

    assert client.get(url(links[2])).status_code == 404
    assert client.get(url(renewed)).status_code == 200
    assert len(renewed.token) >= 32


# --- send and confirm ---------------------------------------------------------------------------


def test_a_result_is_recorded_only_once_ew_confirm_it(client, session, links):
    response = send(client, links[1], 1, "4S N =", lead="hk")

    assert response.status_code == 302
    assert not Result.objects.exists()
    page = client.get(url(links[1])).content.decode()
    assert "NS sent: <strong class=\"pending-text\">4S N =</strong>" in page
    assert ">Confirm</button>" in page

    client.post(url(links[1], "confirm"), {"client_key": pending_key(1)})

    line = Result.objects.get()
    assert (line.board.number, line.ns_pair.label, line.ew_pair.label, line.text, line.lead) == (
        1, "1NS", "1EW", "4S N =", "HK")
    log = ResultChange.objects.get()
    assert (log.action, log.via_table, log.author) == (ChangeAction.RECORDED, 1, "table 1 (phone)")
    assert re.search(r'Board <span class="board-number">2</span>', client.get(url(links[1])).content.decode())


def test_a_phone_whose_requests_land_on_different_app_servers_keeps_its_place(session, links):
    """Nothing of a table lives in a process: each request goes to a "server" that shares only
    the database (a fresh client, the cache emptied); bench/servers.py does it with two gunicorns."""
    def next_server() -> Client:
        cache.clear()
        return Client()

    same = key()
    send(next_server(), links[1], 1, "4S N =", client_key=same)
    page = next_server().get(url(links[1])).content.decode()
    assert "NS sent: <strong class=\"pending-text\">4S N =</strong>" in page
    send(next_server(), links[1], 1, "4S N =", client_key=same)  # the retry, on the other server
    next_server().post(url(links[1], "confirm"), {"client_key": same})
    next_server().post(url(links[1], "confirm"), {"client_key": same})

    assert (Result.objects.get().text, TableEntry.objects.count(), ResultChange.objects.count()) == ("4S N =", 1, 1)
    assert re.search(r'Board <span class="board-number">2</span>', next_server().get(url(links[1])).content.decode())


def test_a_refusal_returns_the_result_to_ns(client, session, links):
    send(client, links[1], 1, "4S N =")
    client.post(url(links[1], "refuse"), {"client_key": pending_key(1)})

    page = client.get(url(links[1])).content.decode()
    assert "EW refused 4S N =: NS, enter the result again." in page
    assert not Result.objects.exists()
    send(client, links[1], 1, "4S N -1")
    client.post(url(links[1], "confirm"), {"client_key": pending_key(1)})
    assert Result.objects.get().text == "4S N -1"


def test_a_line_sent_before_the_table_was_repaired_is_set_aside_with_the_reason(client, session, links):
    send(client, links[1], 1, "4S N =")
    key = pending_key(1)
    # The director finds 1NS and 1EW sat the wrong way round at table 1 in round 1.
    seating_turn_round(section=session.sections.get(), round=1, table=1)

    response = client.post(url(links[1], "confirm"), {"client_key": key}, follow=True)

    page = response.content.decode()
    assert response.status_code == 200
    assert ("board 1: the director changed the seating of table 1 in round 1 after this result was sent "
            "for 1NS v 1EW (the table now has 1EW v 1NS on boards 1, 2). Nothing was recorded; "
            "North-South, send the result again if you played it") in page
    assert not Result.objects.exists()
    assert TableEntry.objects.get(client_key=key).status == EntryStatus.REFUSED
    # Sent again under the new seating, the line is recorded as now seated.
    send(client, links[1], 1, "4S N =")
    client.post(url(links[1], "confirm"), {"client_key": pending_key(1)})
    line = Result.objects.get()
    assert (line.ns_pair.label, line.ew_pair.label) == ("1EW", "1NS")


def test_with_confirmation_off_a_send_is_recorded_at_once(client, session, links):
    session.event.table_confirmation = False
    session.event.save()

    send(client, links[1], 1, "3NT= S")

    assert Result.objects.get().text == "3NT S ="


def test_a_repeated_send_and_a_repeated_confirmation_store_one_line(client, session, links):
    same = key()
    for _ in range(3):  # a retry, a double tap, a reload of the POST
        send(client, links[1], 1, "4S N =", client_key=same)
    assert TableEntry.objects.count() == 1
    for _ in range(3):
        response = client.post(url(links[1], "confirm"), {"client_key": same}, **SCRIPT)
        assert response.status_code == 200
    send(client, links[1], 1, "4S N =", client_key=same)  # the outbox delivering late

    assert Result.objects.count() == 1
    assert ResultChange.objects.count() == 1
    assert TableEntry.objects.get().status == EntryStatus.CONFIRMED


def test_an_impossible_result_is_refused_with_the_directors_message(client, session, links):
    response = send(client, links[1], 1, "4S N +4", **SCRIPT)

    html = response.content.decode()
    assert "cannot make 4 overtricks" in html
    assert 'value="4S N +4"' in html  # kept, to correct
    assert not TableEntry.objects.exists() and not Result.objects.exists()


def test_a_lead_the_hand_record_says_the_leader_never_held_is_refused_and_kept_to_correct(client, session, links):
    # Board 1's hand record: East, who leads against North, holds 5 3 2 of spades.
    session.boards.filter(number=1).update(deal="N:A98.J92.A75.Q852 532.86.K632.KJT7 KQ4.AKT73.JT.A93 JT76.Q54.Q984.64")

    response = send(client, links[1], 1, "4S N =", lead="SA", **SCRIPT)

    html = response.content.decode()
    assert "the ace of spades is not in East&#x27;s hand" in html
    assert 'value="SA"' in html  # the lead typed, kept to correct
    assert not TableEntry.objects.exists() and not Result.objects.exists()


@pytest.mark.parametrize("text", ["W 0/0 NS 0", "4S N = " + "x" * 60])
def test_hostile_text_is_a_message_not_an_error(client, session, links, text):
    response = send(client, links[1], 1, text, **SCRIPT)

    assert response.status_code == 200
    assert 'role="alert"' in response.content.decode()
    assert not TableEntry.objects.exists()


def test_a_warning_asks_for_a_second_look_before_anything_is_stored(client, event):
    session = make_session(event, mitchell(5, 1))
    links = {link.table: link for link in table_links_ensure(session=session)}
    section = session.sections.get()
    board = session.boards.get(number=1)
    playing = [s for s in Seating.objects.filter(section=section) if 1 in s.boards]
    for seating in playing[1:]:
        result_record(board=board, section=section, ns_pair=seating.ns_pair.label,
                      ew_pair=seating.ew_pair.label, text="4S N =")
    first = links[playing[0].table]

    response = send(client, first, 1, "4S E -1", **SCRIPT)  # EW declared where NS did everywhere

    assert "Check: 4S was declared by N at the other tables but by E here" in response.content.decode()
    assert not TableEntry.objects.exists()
    send(client, first, 1, "4S E -1", accept_warnings=True)
    assert TableEntry.objects.get().warnings


def test_the_directors_line_wins_over_a_send_waiting_for_confirmation(client, session, links):
    send(client, links[1], 1, "4S N =")
    result_record(board=session.boards.get(number=1), section=session.sections.get(),
                  ns_pair="1NS", ew_pair="1EW", text="4S N +1")

    client.post(url(links[1], "confirm"), {"client_key": pending_key(1)})

    assert Result.objects.get().text == "4S N +1"
    assert TableEntry.objects.get().status == EntryStatus.SUPERSEDED
    page = client.get(url(links[1])).content.decode()
    assert "Board 1: 4S N +1" in page


def test_a_directors_correction_shows_on_the_table_page(client, session, links):
    send(client, links[1], 1, "4S N =")
    client.post(url(links[1], "confirm"), {"client_key": pending_key(1)})
    result_correct(result=Result.objects.get(), text="4S N -1", version=1)

    assert "Board 1: 4S N -1" in client.get(url(links[1])).content.decode()


def test_the_score_shows_before_sending(client, session, links):
    response = client.get(url(links[1], "preview"), {"board": 1, "text": "4SX N 10"})
    assert "NS +590" in response.content.decode()
    response = client.get(url(links[1], "preview"), {"board": 1, "text": "9S N ="})
    assert "9 is not a contract level" in response.content.decode()


def test_the_score_before_sending_follows_the_events_era(client, session, links):
    """4SX N -3, not vulnerable: 500 under today's laws, 450 under the 1932 ones."""
    assert "EW +500" in client.get(url(links[1], "preview"), {"board": 1, "text": "4SX N 7"}).content.decode()
    event_update(event=session.event, deal_era="1932")
    assert "EW +450" in client.get(url(links[1], "preview"), {"board": 1, "text": "4SX N 7"}).content.decode()


@pytest.mark.parametrize(
    ("board", "text", "reading"),
    [  # board 1: none vulnerable; board 2: NS vulnerable (RULES.md's deal scores)
        (2, "4SX N 10", "4<span class=\"suit black\" role=\"img\" aria-label=\"spades\">♠</span> doubled by North, "
                        "10 tricks: <strong>NS +790</strong>"),
        (1, "3NT W -1", "3NT by West, 8 tricks: <strong>NS +50</strong>"),
        (1, "6HXX S =", "6<span class=\"suit red\" role=\"img\" aria-label=\"hearts\">♥</span> redoubled by South, "
                        "12 tricks: <strong>NS +1620</strong>"),
        (1, "PASS", "Passed out: <strong>no score</strong>"),
    ],
)
def test_ew_see_how_the_line_was_read_before_they_confirm(client, session, links, board, text, reading):
    """NS sent the text; EW's confirmation shows it in words, as the engine read it, with its score."""
    if board == 2:  # board 1 first: its confirmation shows only once board 1 is played
        send(client, links[1], 1, "1NT N =")
        client.post(url(links[1], "confirm"), {"client_key": pending_key(1)})
    send(client, links[1], board, text, accept_warnings=True)

    page = client.get(url(links[1])).content.decode()
    assert f'<p class="reading">{reading}</p>' in page


# --- the round and the end ---------------------------------------------------------------------------


def play_round(client, link, session, round):
    seating = Seating.objects.get(section__session=session, table=link.table, round=round)
    for number in seating.boards:
        send(client, link, number, "3NT N =")
        client.post(url(link, "confirm"), {"client_key": pending_key(number)})
    return seating


def test_after_the_last_board_of_a_round_the_page_says_where_everyone_goes(client, session, links):
    played = play_round(client, links[1], session, 1)

    page = client.get(url(links[1])).content.decode()
    assert "Round 1 is over: move for round 2" in page
    following = Seating.objects.filter(section__session=session, round=2)
    ew_now = next(s for s in following if played.ew_pair_id in (s.ns_pair_id, s.ew_pair_id))
    moves = re.sub(r"<[^>]+>", "", page)  # as read: the pair's name is cut short on a phone, not in the text
    assert f"{played.ew_pair.label}: table {ew_now.table}, East-West" in moves
    assert "Round 2 of 3" in page


def test_after_the_last_round_the_table_shows_its_results_and_the_ranking(client, session, links):
    for round in (1, 2, 3):
        play_round(client, links[1], session, round)

    page = client.get(url(links[1])).content.decode()
    assert "All rounds played" in page
    assert "provisional" in page
    assert "Standings" in page


def test_rankings_wait_for_the_final_session_when_the_event_says_so(client, session, links):
    session.event.live_rankings = "end"
    session.event.save()
    for round in (1, 2, 3):
        play_round(client, links[1], session, round)

    assert "Standings" not in client.get(url(links[1])).content.decode()


# --- what a token can reach ---------------------------------------------------------------------------------


def test_a_table_cannot_confirm_or_refuse_for_another_table(client, session, links):
    send(client, links[1], 1, "4S N =")

    client.post(url(links[2], "confirm"), {"client_key": pending_key(1)})
    client.post(url(links[2], "refuse"), {"client_key": pending_key(1)})
    response = client.post(url(links[2], "confirm"), {"client_key": pending_key(1)}, **SCRIPT)

    assert "that result was never sent from this table" in response.content.decode()
    assert not Result.objects.exists()
    assert TableEntry.objects.get().status == EntryStatus.PENDING


def test_a_key_of_another_tables_send_is_refused(client, session, links):
    used = key()
    send(client, links[1], 1, "4S N =", client_key=used)

    response = send(client, links[2], 3, "4S N =", client_key=used, **SCRIPT)

    assert "this send belongs to another table" in response.content.decode()
    assert TableEntry.objects.count() == 1


def test_a_board_outside_the_session_is_refused(client, session, links):
    response = send(client, links[1], 99, "4S N =", **SCRIPT)

    assert "board 99 is not a board of this session" in response.content.decode()


def test_the_service_worker_is_served_under_the_tables_link_with_the_sites_csp(client, session, links):
    response = client.get(url(links[1], "sw"))

    assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == url(links[1])  # its scope: this table's pages only
    assert url(links[1], "sw").startswith(url(links[1]))
    assert "script-src 'self'" in response["Content-Security-Policy"]
    assert client.get(reverse("sessions:table_sw", args=["not-a-token"])).status_code == 404


def test_a_token_reaches_no_other_session_and_no_director_page(client, session, links, director):
    other = make_session(make_event(make_club(directors=[director])))
    response = send(client, links[1], 1, "4S N =", **SCRIPT)
    assert response.status_code == 200
    for path in (
        reverse("sessions:director_session", args=[session.pk]),
        reverse("sessions:director_board", args=[session.pk, 1]),
        reverse("sessions:director_table", args=[session.pk, "A", 1, 1]),
    ):
        assert client.get(path).status_code == 302  # to the login page
    assert not other.boards.filter(table_entries__isnull=False).exists()


def test_a_revoked_link_opens_nothing(client, session, links):
    phone_link_revoke(link=links[1])

    assert client.get(url(links[1])).status_code == 404
    assert send(client, links[1], 1, "4S N =").status_code == 404
    assert not TableEntry.objects.exists()


def test_guessing_tokens_is_throttled(client, session, links, settings):
    from sessions.core.throttle import THROTTLE_MISSES

    for attempt in range(THROTTLE_MISSES):
        assert client.get(f"/t/guess{attempt:04d}/").status_code == 404

    assert client.get("/t/guess-more/").status_code == 429
    assert client.get(url(links[1])).status_code == 200  # a good one still opens (test_table_throttle.py)


def test_the_table_page_takes_the_same_queries_for_3_and_11_tables(client, event):
    counts = []
    for tables in (3, 11):
        session = make_session(event, mitchell(tables, 2))
        link = table_links_ensure(session=session)[0]
        send(client, link, 1, "4S N =")
        client.post(url(link, "confirm"), {"client_key": pending_key(1)})
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url(link))
        assert response.status_code == 200
        counts.append(len(captured))
        Result.objects.all().delete()
        TableEntry.objects.all().delete()
    assert counts[0] == counts[1]


# --- who is playing -------------------------------------------------------------------------


def test_the_players_name_themselves_from_the_club_list_or_a_membership_number(client, session, links):
    club = session.event.club
    ann, bob, cat = (club.players.create(name=name) for name in ("Ann Archer", "Bob Baker", "Cat Cole"))
    club.players.create(name="Dan Dale", national_number="12345")
    assert "Who is playing?" in client.get(url(links[1])).content.decode()

    response = client.post(url(links[1], "players"), {
        "N_player": ann.pk, "S_player": bob.pk, "E_player": cat.pk, "W_number": "12345",
    })

    assert response.status_code == 302
    pairs = {p.label: p for p in session.sections.get().pairs.select_related("player_1", "player_2")}
    assert (pairs["1NS"].names, pairs["1EW"].names) == ("Ann Archer & Bob Baker", "Cat Cole & Dan Dale")
    page = client.get(url(links[1])).content.decode()
    assert "Ann Archer &amp; Bob Baker" in page and "Change of player" in page


def test_a_late_change_of_player_keeps_the_other_seats(client, session, links):
    club = session.event.club
    ann, bob, eve = (club.players.create(name=name) for name in ("Ann Archer", "Bob Baker", "Eve Evans"))
    client.post(url(links[1], "players"), {"N_player": ann.pk, "S_player": bob.pk})

    client.post(url(links[1], "players"), {"S_player": eve.pk})

    pair = session.sections.get().pairs.get(number=1, direction="NS")
    assert (pair.player_1, pair.player_2) == (ann, eve)


def test_a_change_of_player_after_round_1_holds_from_the_tables_round(client, session, links):
    club = session.event.club
    ann, bob, eve = (club.players.create(name=name) for name in ("Ann Archer", "Bob Baker", "Eve Evans"))
    client.post(url(links[1], "players"), {"N_player": ann.pk, "S_player": bob.pk})
    _round_played(session, finished=False)  # the table moves on to round 2
    form = client.get(url(links[1], "players")).content.decode()
    assert f'<option value="{bob.pk}" selected>' in form  # the round's players, to change

    client.post(url(links[1], "players"), {"S_player": eve.pk})

    pair = session.sections.get().pairs.get(number=1, direction="NS")
    lineups = [(lineup.from_round, lineup.player_1, lineup.player_2) for lineup in pair.lineups.order_by("from_round")]
    assert lineups == [(1, ann, bob), (2, ann, eve)]  # Bob keeps round 1
    assert (pair.player_1, pair.player_2) == (ann, eve)  # of the most boards: rounds 2 and 3
    log = ResultChange.objects.get(action=ChangeAction.PLAYERS)
    assert (log.via_table, log.after_text) == (1, "round 1 Ann Archer & Bob Baker; rounds 2-3 Ann Archer & Eve Evans")


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        ({"N_number": "999"}, "no player of the club has membership number 999"),
        ({"N_player": "__ann__", "E_player": "__ann__"}, "one player is chosen for two seats"),
    ],
)
def test_a_wrong_player_choice_is_refused_and_changes_nothing(client, session, links, seats, message):
    ann = session.event.club.players.create(name="Ann Archer")
    data = {name: (ann.pk if value == "__ann__" else value) for name, value in seats.items()}

    response = client.post(url(links[1], "players"), data)

    assert message in response.content.decode()
    assert not session.sections.get().pairs.filter(player_1__isnull=False).exists()


def test_a_typed_membership_number_wins_over_the_name_list_and_an_unknown_one_is_refused(client, session, links):
    """The list comes pre-filled with the seat's player: a number typed beside it is what the player meant."""
    club = session.event.club
    ann, bob = club.players.create(name="Ann Archer"), club.players.create(name="Bob Baker")
    dan = club.players.create(name="Dan Dale", national_number="12345")
    client.post(url(links[1], "players"), {"N_player": ann.pk, "S_player": bob.pk})
    pair = session.sections.get().pairs.get(number=1, direction="NS")

    response = client.post(url(links[1], "players"), {"N_player": ann.pk, "S_player": bob.pk, "N_number": "999"})
    assert response.status_code == 200
    assert "North: no player of the club has membership number 999" in response.content.decode()
    pair.refresh_from_db()
    assert (pair.player_1, pair.player_2) == (ann, bob)

    client.post(url(links[1], "players"), {"N_player": ann.pk, "S_player": bob.pk, "S_number": "12345"})
    pair.refresh_from_db()
    assert (pair.player_1, pair.player_2) == (ann, dan)


def test_a_visitor_is_named_at_the_table_and_marked_as_a_visitor(client, session, links):
    club = session.event.club
    ann, bob = club.players.create(name="Ann Archer"), club.players.create(name="Bob Baker")
    client.post(url(links[1], "players"), {"N_player": ann.pk, "S_player": bob.pk})

    response = client.post(url(links[1], "players"), {"N_player": ann.pk, "S_player": bob.pk, "S_name": "Vera Visitor"})

    assert response.status_code == 302
    vera = club.players.get(name="Vera Visitor")
    assert vera.visitor and not ann.visitor
    pair = session.sections.get().pairs.get(number=1, direction="NS")
    assert (pair.player_1, pair.player_2) == (ann, vera)
    form = client.get(url(links[1], "players")).content.decode()
    assert "Vera Visitor (visitor)" in form  # on the list from now on, marked
    # The same visitor named again at the next table is the same player, not a second one.
    client.post(url(links[2], "players"), {"E_name": "vera visitor"})
    assert club.players.filter(name__iexact="Vera Visitor").count() == 1


def test_another_clubs_player_cannot_be_chosen(client, session, links):
    stranger = make_club().players.create(name="Stranger")

    response = client.post(url(links[1], "players"), {"N_player": stranger.pk})

    assert response.status_code == 200
    assert not session.sections.get().pairs.filter(player_1=stranger).exists()


def _round_played(session, finished: bool) -> None:
    """Every table plays its boards of round 1, or of every round: 4S N = at each."""
    section = session.sections.get()
    seatings = Seating.objects.filter(section=section).select_related("ns_pair", "ew_pair")
    for seating in seatings if finished else seatings.filter(round=1):
        for number in seating.boards:
            result_record(board=session.boards.get(number=number), section=section,
                          ns_pair=seating.ns_pair.label, ew_pair=seating.ew_pair.label, text="4S N =")


def _page_queries(client, session, table: int) -> int:
    link = {link.table: link for link in table_links_ensure(session=session)}[table]
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url(link)).status_code == 200
    return len(captured)


@pytest.mark.parametrize("finished", [False, True], ids=["in play", "finished"])
def test_a_tables_page_reads_as_many_queries_at_three_tables_as_at_eleven(client, event, finished):
    # The table reads its own section's lines, the last board's and its pairs' own: never
    # every line of the session (a national event's session holds thousands of tables).
    small = make_session(event, mitchell(3, 2))
    large = make_session(event, mitchell(11, 2))
    event_update(event=event, table_shows_traveller=True)
    for session in (small, large):
        _round_played(session, finished)

    assert _page_queries(client, small, 1) == _page_queries(client, large, 1)


# --- once the session is final ----------------------------------------------------------------


def _published_and_final(director, session):
    """Board 3 entered, then published and marked final through the director's pages: board 1 has no line."""
    result_record(board=session.boards.get(number=3), section=session.sections.get(), ns_pair="3NS",
                  ew_pair="1EW", text="3NT N =")
    director_client = Client()
    director_client.force_login(director)
    director_client.post(reverse("sessions:director_publish", args=[session.pk]))
    director_client.post(reverse("sessions:director_mark_final", args=[session.pk]))
    assert Session.objects.get(pk=session.pk).final
    return director_client


def test_once_final_the_phone_shows_the_table_and_offers_nothing_to_write(client, director, session, links):
    _published_and_final(director, session)

    html = client.get(url(links[1])).content.decode()

    assert "The results are final" in html and "Board 1: to play" in html
    assert ">Send</button>" not in html and "Change of player" not in html
    response = client.get(url(links[1], "players"))
    assert response.status_code == 302 and response.url == url(links[1])


@pytest.mark.parametrize("script", [True, False], ids=["table.js", "plain form"])
def test_once_final_every_write_of_a_phone_is_refused_409_saying_so(client, director, session, links, script):
    extra = SCRIPT if script else {}
    waiting = key()
    send(client, links[1], 1, "4S N =", client_key=waiting)  # sent before final, EW not yet confirmed
    _published_and_final(director, session)
    ann = session.event.club.players.create(name="Ann Archer")

    answers = [
        send(client, links[1], 2, "3NT S =", **extra),
        client.post(url(links[1], "confirm"), {"client_key": waiting}, **extra),
        client.post(url(links[1], "refuse"), {"client_key": waiting}, **extra),
        client.post(url(links[1], "players"), {"N_player": ann.pk}, **extra),
    ]

    for response in answers:
        assert response.status_code == 409
        html = response.content.decode()
        assert "marked this session final" in html and "nothing was recorded" in html
        assert ">Send</button>" not in html
    assert list(Result.objects.values_list("board__number", flat=True)) == [3]
    assert TableEntry.objects.get().status == EntryStatus.PENDING
    assert not session.sections.get().pairs.filter(player_1=ann).exists()


def test_the_directors_reopen_opens_the_phones_again(client, director, session, links):
    director_client = _published_and_final(director, session)
    director_client.post(reverse("sessions:director_reopen", args=[session.pk]))

    sent = key()
    send(client, links[1], 1, "4S N =", client_key=sent, **SCRIPT)
    response = client.post(url(links[1], "confirm"), {"client_key": sent}, **SCRIPT)

    assert response.status_code == 200
    assert Result.objects.get(board__number=1).text == "4S N ="
