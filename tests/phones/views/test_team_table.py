"""A teams room's phone: its link opens one room of one match and nothing else; NS send,
EW confirm; the IMPs show once both rooms have a board; the director sees where each
table is and the match's change log, and a stale edit of a match line is refused.

The fixture is round 1 of a 3-team round robin, 2 boards a match (boards 1-2): Team 2
(home) v Team 3, and Team 1's bye. Round 2 is another match with its own links.
"""

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from sessions.models import EntryStatus, MatchLine, MatchTableEntry, Room, TeamEvent
from sessions.phones.services.tables import table_links_ensure
from sessions.phones.services.phone_links import phone_link_revoke
from sessions.phones.services.team_tables import match_table_links_ensure
from sessions.teams.services.teams import match_record_line, round_robin_schedule
from tests.factories import make_club, make_event, make_session, make_team_event

SCRIPT = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def event(club):
    event = make_team_event(club, teams=3, form="round_robin", boards_per_match=2, vp_scale="20")
    round_robin_schedule(event=event)
    return event


@pytest.fixture
def match(event):
    return event.matches.get(round=1, away__isnull=False)


@pytest.fixture
def rooms(event):
    return {link.room: link for link in match_table_links_ensure(event=event, round=1)}


def url(link, name="page"):
    return reverse(f"sessions:team_table_{name}", args=[link.token])


def key() -> str:
    return uuid.uuid4().hex


def send(client, link, board, text, *, client_key=None, lead="", **extra):
    return client.post(url(link, "send"), {"board": board, "text": text, "lead": lead,
                                           "client_key": client_key or key()}, **extra)


def play(client, link, board, text):
    sent = key()
    send(client, link, board, text, client_key=sent)
    return client.post(url(link, "confirm"), {"client_key": sent})


# --- the page ------------------------------------------------------------------------------------


def test_a_rooms_link_shows_the_match_room_board_and_both_teams_players(client, match, rooms):
    response = client.get(url(rooms[Room.CLOSED]))

    page = response.content.decode()
    assert response.status_code == 200
    assert "Closed room (home EW)" in page and "Team 2 v Team 3" in page
    ns_names = [p.name for p in match.away.players.all()]  # the closed room seats the away team NS
    assert all(name in page for name in ns_names)
    assert all(p.name in page for p in match.home.players.all())
    assert page.index("<strong>Team 3</strong>") < page.index("<strong>Team 2</strong>")
    assert 'class="board-number">1<' in page and 'class="dealer">N<' in page
    assert 'data-boards="1:N:None:0,2:E:NS:0"' in page
    assert "js/table.js" in page  # the pairs tables' script, with its outbox


def test_send_then_confirm_stores_the_rooms_line(client, rooms):
    sent = key()
    response = send(client, rooms[Room.OPEN], 1, "4S N =", client_key=sent, lead="hk")
    assert response.status_code == 302
    page = client.get(url(rooms[Room.OPEN])).content.decode()
    assert 'class="pending-text">4S N =<' in page and not MatchLine.objects.exists()

    client.post(url(rooms[Room.OPEN], "confirm"), {"client_key": sent})

    line = MatchLine.objects.get()
    assert (line.room, line.text, line.lead) == ("open", "4S N =", "HK")
    assert 'class="board-number">2<' in client.get(url(rooms[Room.OPEN])).content.decode()


def test_an_impossible_line_is_shown_under_the_box_and_stores_nothing(client, rooms):
    response = send(client, rooms[Room.OPEN], 1, "8S N =", **SCRIPT)
    assert response.status_code == 200
    assert 'id="text-errors"' in response.content.decode()
    assert not MatchTableEntry.objects.exists()


def test_a_board_of_another_match_is_refused_with_a_message(client, rooms):
    response = send(client, rooms[Room.OPEN], 3, "4S N =", **SCRIPT)  # round 2's board
    assert "this match plays boards 1 to 2, not 3" in response.content.decode()
    assert not MatchTableEntry.objects.exists()


def test_the_imps_show_once_both_rooms_have_the_board_and_the_match_so_far(client, rooms):
    play(client, rooms[Room.OPEN], 1, "4S N =")
    page = client.get(url(rooms[Room.OPEN])).content.decode()
    assert "(other room still to play)" in page and "IMPs to" not in page

    play(client, rooms[Room.CLOSED], 1, "4S N -1")

    page = client.get(url(rooms[Room.OPEN])).content.decode()
    assert "10 IMPs to Team 2" in page
    assert "Team 2 10 - 0 Team 3" in page


def test_the_imps_stay_hidden_when_the_event_says_so(client, event, rooms):
    event.table_shows_imps = False
    event.save()
    play(client, rooms[Room.OPEN], 1, "4S N =")
    play(client, rooms[Room.CLOSED], 1, "4S N -1")
    page = client.get(url(rooms[Room.OPEN])).content.decode()
    assert "IMPs to" not in page and "The match so far" not in page


def test_the_preview_scores_what_is_typed(client, rooms):
    response = client.get(url(rooms[Room.OPEN], "preview"), {"board": 2, "text": "3NT S +1"})
    assert "NS +630" in response.content.decode()
    response = client.get(url(rooms[Room.OPEN], "preview"), {"board": 5, "text": "3NT S +1"})
    assert "not a board of this match" in response.content.decode()


def test_the_room_page_reads_a_fixed_number_of_queries(client, django_assert_num_queries, club):
    for boards in (2, 16):
        event = make_team_event(club, teams=2, form="round_robin", boards_per_match=boards)
        match = round_robin_schedule(event=event)[0]
        closed_room = next(link for link in match_table_links_ensure(event=event, round=1) if link.room == "closed")
        for board in match.board_numbers:
            match_record_line(match=match, board=board, room=Room.OPEN, text="4S N =")
            if board % 2:
                match_record_line(match=match, board=board, room=Room.CLOSED, text="4S N -1")
        # The link (with match, event, club, teams), the teams' players, the match's
        # lines, the room's open sends, the room's latest call to the director; the
        # session's one (the messages are cookies).
        with django_assert_num_queries(5):
            assert client.get(url(closed_room)).status_code == 200


#: A room's Send: the link; the teams event's lock, which reads whether it is final; the
#: earlier send and the waiting ones in one query; the room's line; the entry (the line's
#: checks decided in Python); the final check again; the revision; then the room's page as its phone reads it
#: (were 18: the room link's own lock, the earlier send and the waiting ones apart).
ROOM_SEND_QUERIES = 13
#: A room's Confirm: the link, the lock, the entry under lock, the line stored and logged
#: (the checks decided in Python), the entry saved, the final check, the revision; the same
#: answer (were 33 with the log entry's checks asked one by one, 27 in one query).
ROOM_CONFIRM_QUERIES = 21


def test_a_rooms_send_and_confirm_take_as_many_queries_in_a_longer_match(client, club):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for boards in (2, 16):
        event = make_team_event(club, teams=2, form="round_robin", boards_per_match=boards)
        match = round_robin_schedule(event=event)[0]
        room = next(link for link in match_table_links_ensure(event=event, round=1) if link.room == "closed")
        for board in match.board_numbers[1:]:
            match_record_line(match=match, board=board, room=Room.OPEN, text="4S N =")
        client.get(url(room))
        sent = key()
        with CaptureQueriesContext(connection) as sending:
            assert send(client, room, match.board_numbers[0], "4S N =", client_key=sent, **SCRIPT).status_code == 200
        with CaptureQueriesContext(connection) as confirming:
            assert client.post(url(room, "confirm"), {"client_key": sent}, **SCRIPT).status_code == 200
        counts.append((len(sending), len(confirming)))
    assert counts == [(ROOM_SEND_QUERIES, ROOM_CONFIRM_QUERIES)] * 2


# --- what a token opens ---------------------------------------------------------------------------


def test_a_token_opens_only_its_own_room(client, event, match, rooms):
    other_round = {link.room: link for link in match_table_links_ensure(event=event, round=2)}
    sent = key()
    send(client, rooms[Room.OPEN], 1, "4S N =", client_key=sent)

    other_event = make_team_event(make_club(), teams=2, form="round_robin", boards_per_match=2)
    round_robin_schedule(event=other_event)
    stranger = match_table_links_ensure(event=other_event, round=1)[0]  # another club's event

    # The closed room cannot confirm, nor another match's or another event's room.
    for link in (rooms[Room.CLOSED], other_round[Room.OPEN], stranger):
        response = client.post(url(link, "confirm"), {"client_key": sent}, follow=True)
        assert "never sent from this table" in response.content.decode()
        response = send(client, link, 1, "4S N =", client_key=sent, **SCRIPT)
        assert "belongs to another table" in response.content.decode()
    assert not MatchLine.objects.exists()
    assert MatchTableEntry.objects.get().status == EntryStatus.PENDING
    assert "pending-text" not in client.get(url(rooms[Room.CLOSED])).content.decode()


def test_a_revoked_or_unknown_token_opens_nothing(client, rooms):
    link = rooms[Room.OPEN]
    phone_link_revoke(link=link)
    assert client.get(url(link)).status_code == 404
    assert send(client, link, 1, "4S N =").status_code == 404
    assert client.get(reverse("sessions:team_table_page", args=["no-such-token"])).status_code == 404
    assert not MatchTableEntry.objects.exists()


def test_a_pairs_token_opens_no_teams_room_and_a_teams_token_no_pairs_table(client, club, rooms):
    pairs_link = table_links_ensure(session=make_session(make_event(club)))[0]
    assert client.get(reverse("sessions:team_table_page", args=[pairs_link.token])).status_code == 404
    assert client.get(reverse("sessions:table_page", args=[rooms[Room.OPEN].token])).status_code == 404


def test_a_phone_reaches_no_director_page(client, event, match, rooms):
    client.get(url(rooms[Room.OPEN]))  # the phone's own page first: no login comes with it
    for name, args in [("director_team_match", [match.pk]), ("director_team_round_tables", [event.pk, 1]),
                       ("director_team_event", [event.pk])]:
        response = client.get(reverse(f"sessions:{name}", args=args))
        assert response.status_code == 302 and response.url.startswith(reverse("login")), name


def test_guessing_tokens_is_throttled(client, db):
    for _ in range(20):
        client.get(reverse("sessions:team_table_page", args=[key()]))
    assert client.get(reverse("sessions:team_table_page", args=[key()])).status_code == 429


# --- the director -------------------------------------------------------------------------------


def test_the_round_tables_page_shows_links_qr_codes_and_where_each_room_is(logged_in, event, match, rooms):
    play(logged_in, rooms[Room.OPEN], 1, "4S N =")
    send(logged_in, rooms[Room.CLOSED], 1, "4S N -1")

    page = logged_in.get(reverse("sessions:director_team_round_tables", args=[event.pk, 1])).content.decode()

    assert rooms[Room.OPEN].token in page and rooms[Room.CLOSED].token in page
    assert page.count('class="qr"') == 2
    open_row = page[page.index(f'id="progress-{rooms[Room.OPEN].match_id}-open"'):]
    closed_row = page[page.index(f'id="progress-{rooms[Room.CLOSED].match_id}-closed"'):]
    assert "On board 2</td>" in open_row[:open_row.index("</tr>")]
    assert "1/2" in open_row[:open_row.index("</tr>")]
    assert "On board 1</td>" in closed_row[:closed_row.index("</tr>")]
    assert "board 1 4S N -1 waits for EW" in closed_row[:closed_row.index("</tr>")]


def test_the_round_tables_page_reads_a_fixed_number_of_queries(logged_in, club, django_assert_num_queries):
    for teams in (4, 8):
        event = make_team_event(club, teams=teams, form="round_robin", boards_per_match=2)
        round_robin_schedule(event=event)
        match_table_links_ensure(event=event, round=1)
        # Session and user, the event (club-scoped), then the matches with their teams,
        # the links, the lines, the sends waiting.
        with django_assert_num_queries(7):
            logged_in.get(reverse("sessions:director_team_round_tables", args=[event.pk, 1]))


def test_making_renewing_and_revoking_links_from_the_page(logged_in, event, match):
    base = reverse("sessions:director_team_round_tables", args=[event.pk, 1])
    logged_in.post(reverse("sessions:director_team_round_links_make", args=[event.pk, 1]))
    links = list(match.table_links.filter(revoked_at__isnull=True))
    assert len(links) == 2

    logged_in.post(reverse("sessions:director_team_table_link_renew", args=[event.pk, links[0].pk]))
    logged_in.post(reverse("sessions:director_team_table_link_revoke", args=[event.pk, links[1].pk]))

    live = list(match.table_links.filter(revoked_at__isnull=True))
    assert len(live) == 1 and live[0].room == links[0].room and live[0].pk != links[0].pk
    page = logged_in.get(base).content.decode()
    assert "No live link</strong> (revoked)" in page


def test_the_match_page_shows_the_change_log_with_the_phone_and_the_director(logged_in, match, rooms, director):
    play(logged_in, rooms[Room.OPEN], 1, "4S N =")
    match_record_line(match=match, board=1, room=Room.OPEN, text="4S N +1", version=1, by=director)

    page = logged_in.get(reverse("sessions:director_team_match", args=[match.pk])).content.decode()

    log = page[page.index('id="change-log"'):]
    assert "open room phone" in log and "director" in log
    assert "<td>4S N =</td><td>4S N +1</td>" in log


def test_a_stale_edit_on_the_match_page_is_refused_and_the_phones_line_stays(logged_in, match, rooms):
    page_url = reverse("sessions:director_team_match", args=[match.pk])
    # The director's page showed board 1's open room empty (version 0) ...
    seen = {"b1_open": "4S N -2", "initial-b1_open": "", "v1_open": 0,
            "b2_open": "3NT S =", "initial-b2_open": "", "v2_open": 0}
    play(logged_in, rooms[Room.OPEN], 1, "4S N =")  # ... and the phone stored a line meanwhile.

    response = logged_in.post(page_url, seen)

    assert response.status_code == 400
    assert "while you were typing" in response.content.decode()
    assert list(MatchLine.objects.values_list("board", "text")) == [(1, "4S N =")]  # nothing else stored


def test_a_box_left_as_shown_keeps_a_line_a_phone_stored_meanwhile(logged_in, match, rooms):
    page_url = reverse("sessions:director_team_match", args=[match.pk])
    seen = {"b1_open": "", "initial-b1_open": "", "v1_open": 0,
            "b2_open": "3NT S =", "initial-b2_open": "", "v2_open": 0}
    play(logged_in, rooms[Room.OPEN], 1, "4S N =")

    assert logged_in.post(page_url, seen).status_code == 302
    assert sorted(MatchLine.objects.values_list("board", "text")) == [(1, "4S N ="), (2, "3NT S =")]


def test_the_new_event_form_sets_the_phones_options(logged_in, club):
    from sessions.models import TeamEvent

    form = logged_in.get(reverse("sessions:director_team_event_new", args=[club.slug])).content.decode()
    assert "Phones: the opponents confirm each result" in form
    logged_in.post(reverse("sessions:director_team_event_new", args=[club.slug]), {
        "name": "Phone Teams", "date": "2025-02-01", "form": "swiss", "scoring": "imps", "vp_scale": "20",
        "imp_table": "wbf", "boards_per_match": 6, "bye_vp": "12", "tie_break": "extra_boards",
        "table_shows_imps": "on",  # confirmation left unticked: a send is recorded at once
    })
    event = TeamEvent.objects.get(name="Phone Teams")
    assert (event.table_confirmation, event.table_shows_imps) == (False, True)


def test_the_round_progress_is_polled_alone_and_a_logged_out_poll_stops(client, director, event, match, rooms):
    progress = reverse("sessions:director_team_round_progress", args=[event.pk, 1])
    assert client.get(progress, HTTP_HX_REQUEST="true").status_code == 286  # logged out: stop polling

    client.force_login(director)
    play(client, rooms[Room.OPEN], 1, "4S N =")
    response = client.get(progress, HTTP_HX_REQUEST="true")

    part = response.content.decode()
    assert response.status_code == 200 and 'id="round-progress"' in part
    assert "<html" not in part and "On board 2</td>" in part


def test_the_directors_line_wins_and_the_phone_is_told(client, match, rooms, director):
    sent = key()
    send(client, rooms[Room.OPEN], 1, "4S N =", client_key=sent)
    match_record_line(match=match, board=1, room=Room.OPEN, text="4S N +1", by=director, version=0)

    client.post(url(rooms[Room.OPEN], "confirm"), {"client_key": sent})
    response = send(client, rooms[Room.OPEN], 1, "4S N -1", follow=True)

    page = response.content.decode()
    assert "Board 1 is already recorded: 4S N +1." in page
    assert "Board 1: 4S N +1" in page and 'class="board-number">2<' in page
    assert list(MatchLine.objects.values_list("text", flat=True)) == ["4S N +1"]
    assert MatchTableEntry.objects.get().status == EntryStatus.SUPERSEDED


# --- once the event is final ---------------------------------------------------------------------


def _published_and_final(director, event):
    """Every match given IMP totals, then published and marked final on the director's pages."""
    from sessions.teams.services.teams import match_set_totals

    for match in event.matches.filter(away__isnull=False):
        match_set_totals(match=match, home_imps=10, away_imps=4)
    director_client = Client()
    director_client.force_login(director)
    director_client.post(reverse("sessions:director_team_publish", args=[event.pk]), {"publish": "1"})
    director_client.post(reverse("sessions:director_team_final", args=[event.pk]), {"final": "1"})
    assert TeamEvent.objects.get(pk=event.pk).final
    return director_client


def test_once_the_event_is_final_the_rooms_phone_reads_and_offers_nothing_to_write(client, director, event, rooms):
    _published_and_final(director, event)

    html = client.get(url(rooms[Room.OPEN])).content.decode()

    assert "The results are final" in html and "Board 1: to play" in html
    assert ">Send</button>" not in html


@pytest.mark.parametrize("script", [True, False], ids=["table.js", "plain form"])
def test_once_the_event_is_final_every_write_of_a_room_is_refused_409_saying_so(client, director, event, rooms,
                                                                                script):
    extra = SCRIPT if script else {}
    waiting = key()
    send(client, rooms[Room.OPEN], 1, "4S N =", client_key=waiting)  # sent before final
    _published_and_final(director, event)

    answers = [
        send(client, rooms[Room.OPEN], 2, "3NT S =", **extra),
        client.post(url(rooms[Room.OPEN], "confirm"), {"client_key": waiting}, **extra),
        client.post(url(rooms[Room.OPEN], "refuse"), {"client_key": waiting}, **extra),
    ]

    for response in answers:
        assert response.status_code == 409
        html = response.content.decode()
        assert "marked this event final" in html and "nothing was recorded" in html
        assert ">Send</button>" not in html
    assert not MatchLine.objects.exists()
    assert MatchTableEntry.objects.get().status == EntryStatus.PENDING


def test_the_directors_reopen_opens_the_rooms_phones_again(client, director, event, rooms):
    director_client = _published_and_final(director, event)
    director_client.post(reverse("sessions:director_team_final", args=[event.pk]), {"final": "0"})

    response = play(client, rooms[Room.OPEN], 1, "4S N =")

    assert response.status_code == 302
    assert MatchLine.objects.get().text == "4S N ="


def test_a_rooms_service_worker_is_served_under_the_rooms_link(client, rooms):
    link = rooms[Room.OPEN]
    response = client.get(url(link, "sw"))

    assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == url(link)
    assert f'data-sw-url="{url(link, "sw")}"' in client.get(url(link)).content.decode()
