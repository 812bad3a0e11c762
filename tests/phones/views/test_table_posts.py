"""What a table phone's Send and Confirm cost the server, and that their answers stay right.

Thirty to three hundred phones post at once during a round (bench/tables.py): each post
must read a few rows of its own table, never more as the session fills, and its answer
(the page's main part for the phone's script) must show what the post just changed.
"""

import re
import uuid

from django.db import connection
from django.test.html import Element, parse_html
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from sessions.models import Seating
from sessions.movements import mitchell
from sessions.pairs.services.events import event_update
from sessions.pairs.services.results import result_record
from sessions.clubs.services.players import pair_set_players, player_add
from sessions.phones.services.tables import table_links_ensure
from tests.factories import make_session

SCRIPT = {"HTTP_HX_REQUEST": "true"}
#: A Send's queries: the link; the session's lock, which reads whether it is final and its
#: setup token (the table's seatings and deals then come from the setup kept under it, as
#: the page's do); the earlier send and the sends still waiting, in one query; the board's
#: lines (the stored line, the duplicate, the warnings' others); the entry (the line's
#: check constraints are decided in Python: were three queries); the final check again; the
#: session's and the club's revisions. Then the answer: the session again, the table's
#: entries, the change log since the kept figures, its lines, the director's call. As many
#: on PostgreSQL.
SEND_QUERIES = 15
#: A Confirm: the link, the lock, the entry under lock, the table's seating in its round
#: held, the board's lines held; the line checked and stored as the director's entry is
#: (in a savepoint: its insert, its log entry and "amended"; their checks in Python, were six
#: queries), the entry saved,
#: the final check, the revisions; the same answer, with the board scored again.
CONFIRM_QUERIES = 25


PARTS = 'class="table-parts" data-parts hidden'


def _link(session, table: int = 1):
    return {link.table: link for link in table_links_ensure(session=session)}[table]


def _round_played(session, *, but: int) -> None:
    """Every table but table ``but`` has recorded its round-1 boards (4S N =)."""
    section = session.sections.get()
    for seating in Seating.objects.filter(section=section, round=1).exclude(table=but).select_related(
        "ns_pair", "ew_pair"
    ):
        for number in seating.boards:
            result_record(board=session.boards.get(number=number), section=section,
                          ns_pair=seating.ns_pair.label, ew_pair=seating.ew_pair.label, text="4S N =")


def _board_played_later(session, number: int) -> None:
    """Board ``number`` recorded (4S N =) at the table that plays it in round 2."""
    section = session.sections.get()
    seating = next(s for s in Seating.objects.filter(section=section, round=2).select_related("ns_pair", "ew_pair")
                   if number in s.boards)
    result_record(board=session.boards.get(number=number), section=section, ns_pair=seating.ns_pair.label,
                  ew_pair=seating.ew_pair.label, text="4S N =")


def _shown_round(answer) -> str:
    """The round a phone's page shows, as table.js tells the server (X-Table-Round)."""
    found = re.search(r'id="board-in-play"[^>]*data-round="(\d*)"', answer.content.decode())
    return found[1] if found else ""


def _send_and_confirm(client, link, board: int, text: str, *, shown: str = "1"):
    """The phone's script's two posts (its page showing round ``shown``); their answers and
    how many queries each took."""
    client_key = uuid.uuid4().hex
    with CaptureQueriesContext(connection) as sending:
        sent = client.post(reverse("sessions:table_send", args=[link.token]),
                           {"board": board, "text": text, "lead": "", "client_key": client_key}, **SCRIPT,
                           HTTP_X_TABLE_ROUND=shown)
    with CaptureQueriesContext(connection) as confirming:
        confirmed = client.post(reverse("sessions:table_confirm", args=[link.token]), {"client_key": client_key},
                                **SCRIPT, HTTP_X_TABLE_ROUND=_shown_round(sent))
    assert (sent.status_code, confirmed.status_code) == (200, 200)
    return sent, confirmed, len(sending), len(confirming)


def test_a_send_and_a_confirm_take_few_queries_and_no_more_in_a_larger_session(client, event):
    counts = []
    for tables in (3, 11):
        session = make_session(event, mitchell(tables, 2))
        _round_played(session, but=1)
        link = _link(session)
        client.get(reverse("sessions:table_page", args=[link.token]))  # the phone's page, read first
        sent, confirmed, send_queries, confirm_queries = _send_and_confirm(client, link, 1, "3NT N =")
        assert PARTS in sent.content.decode() and PARTS in confirmed.content.decode()  # answered by parts
        counts.append((send_queries, confirm_queries))
    assert counts == [(SEND_QUERIES, CONFIRM_QUERIES)] * 2


def test_a_confirms_answer_scores_the_line_it_just_recorded(client, event):
    """The answer scores through the kept figures (as the page's GET does), at the revision
    the Confirm made: the new line has its matchpoints, and the other table's line its new ones."""
    event_update(event=event, table_shows_traveller=True)
    session = make_session(event, mitchell(3, 2))
    _board_played_later(session, 1)  # board 1 in round 2, at table 3: 3NS, 4S N =
    link = _link(session)
    client_key = uuid.uuid4().hex
    client.post(reverse("sessions:table_send", args=[link.token]),
                {"board": 1, "text": "4S N +1", "lead": "", "client_key": client_key}, **SCRIPT)
    # The page read again (a reload, a second phone): the figures are kept at the send's revision.
    assert client.get(reverse("sessions:table_page", args=[link.token])).status_code == 200

    confirmed = client.post(reverse("sessions:table_confirm", args=[link.token]), {"client_key": client_key}, **SCRIPT)

    traveller = confirmed.content.decode().split('id="traveller-title"')[1]
    rows = re.findall(r"<tr(?: class=\"ours\")?><td>(\w+)</td><td>\w+</td><td>([^<]+)</td>"
                      r"<td class=\"num\">[^<]*</td><td class=\"num\">([^<]*)</td>", traveller)
    # Two lines on the board: the overtrick tops it (2 of 2 matchpoints), 4S = gets 0.
    assert sorted((ns, text, float(points)) for ns, text, points in rows) == [
        ("1NS", "4S N +1", 2.0), ("3NS", "4S N =", 0.0)]


# --- the answer's parts -----------------------------------------------------------------

#: What differs from one rendering of the same page to the next: the CSRF token's mask, a
#: new send's or call's key, the server's clock.
VARYING = re.compile(r'((?:name="(?:csrfmiddlewaretoken|client_key)"|data-now-ms=)\s*value="|data-now-ms=")[^"]*"')


def _tree(html: str):
    return parse_html(VARYING.sub(r'\1"', html))


def _by_id(element, found=None) -> dict:
    """Every element of the tree that has an id, by id."""
    found = {} if found is None else found
    for child in element.children:
        if isinstance(child, Element):
            if child.attributes and dict(child.attributes).get("id"):
                found.setdefault(dict(child.attributes)["id"], child)
            _by_id(child, found)
    return found


def _answer_parts(answer) -> dict:
    """An answer's parts by id: the elements of its data-parts wrapper."""
    html = answer.content.decode()
    assert PARTS in html, html[:300]
    wrapper = _tree(html)
    return {dict(part.attributes)["id"]: part for part in wrapper.children if isinstance(part, Element)}


def _page_main(client, link) -> dict:
    """The page's main part as the phone's script reads it, its elements by id."""
    page = client.get(reverse("sessions:table_page", args=[link.token]), **SCRIPT)
    return _by_id(_tree(page.content.decode()))


def test_the_answers_parts_are_the_pages_own_and_bring_the_confirmation_and_the_next_board(client, event):
    event_update(event=event, table_shows_traveller=True)
    session = make_session(event, mitchell(3, 2))
    link = _link(session)
    client.get(reverse("sessions:table_page", args=[link.token]))
    client_key = uuid.uuid4().hex
    sent = client.post(reverse("sessions:table_send", args=[link.token]),
                       {"board": 1, "text": "4S N +1", "lead": "HK", "client_key": client_key}, **SCRIPT,
                       HTTP_X_TABLE_ROUND="1")

    parts = _answer_parts(sent)
    # A send waiting for EW records no line: the traveller and the standings stay as the phone has them.
    assert set(parts) == {"table-messages", "table-head", "round-clock", "table-moves", "board-in-play",
                          "round-boards", "director-call"}
    text = sent.content.decode()
    assert 'class="to-confirm">NS sent: <strong class="pending-text">4S N +1</strong>, lead HK' in text
    assert f'name="client_key" value="{client_key}"' in text and 'data-kind="confirm"' in text
    assert "Board 1: waiting for EW" in text
    assert "deal-entry" not in text and "email-link" not in text  # what no post changes stays on the phone
    main = _page_main(client, link)
    for name, part in parts.items():  # each part exactly as the page has it
        assert main[name] == part, name

    confirmed = client.post(reverse("sessions:table_confirm", args=[link.token]), {"client_key": client_key},
                            **SCRIPT, HTTP_X_TABLE_ROUND="1")

    parts = _answer_parts(confirmed)
    assert set(parts) == {"table-messages", "table-head", "round-clock", "table-moves", "board-in-play",
                          "round-boards", "director-call", "table-traveller", "table-rankings"}
    text = confirmed.content.decode()
    assert 'data-kind="send"' in text and '<input type="hidden" name="board" value="2">' in text  # the next board
    assert re.search(r'<li class="done">Board 1: 4S N \+1 <span class="num">\+450</span></li>', text)
    assert 'id="traveller-title">Board 1 so far' in text
    main = _page_main(client, link)
    for name, part in parts.items():
        assert main[name] == part, name


def test_only_a_post_that_records_a_line_answers_with_the_traveller_and_the_standings(client, event):
    event_update(event=event, table_shows_traveller=True)
    session = make_session(event, mitchell(3, 3))  # boards 1-3 in round 1
    link = _link(session)
    send, confirm, refuse = (reverse(f"sessions:table_{name}", args=[link.token]) for name in ("send", "confirm", "refuse"))
    figures = {"table-traveller", "table-rankings"}

    def post(url, data):
        return _answer_parts(client.post(url, data, **SCRIPT, HTTP_X_TABLE_ROUND="1"))

    first, second, third = (uuid.uuid4().hex for _ in range(3))
    assert not figures & set(post(send, {"board": 1, "text": "4S N =", "lead": "", "client_key": first}))
    refused = post(refuse, {"client_key": first})
    assert not figures & set(refused) and "Board 1: to play" in str(refused["round-boards"])
    assert not figures & set(post(send, {"board": 1, "text": "4S N +9", "lead": "", "client_key": second}))
    assert not figures & set(post(send, {"board": 1, "text": "", "lead": "", "client_key": second}))
    post(send, {"board": 1, "text": "4S N =", "lead": "", "client_key": third})
    confirmed = post(confirm, {"client_key": third})
    assert figures <= set(confirmed) and "Board 1 so far" in str(confirmed["table-traveller"])

    event_update(event=event, table_confirmation=False)  # a send is recorded at once
    recorded = post(send, {"board": 2, "text": "4S N -1", "lead": "", "client_key": uuid.uuid4().hex})
    assert figures <= set(recorded) and "Board 2 so far" in str(recorded["table-traveller"])


def test_a_post_answers_the_whole_main_part_when_the_phone_shows_another_round_or_does_not_say(client, event):
    session = make_session(event, mitchell(3, 2))
    link = _link(session)
    send_url, confirm_url = (reverse(f"sessions:table_{name}", args=[link.token]) for name in ("send", "confirm"))

    def post(url, data, **shown):
        answer = client.post(url, data, **SCRIPT, **shown)
        assert answer.status_code == 200
        return answer.content.decode()

    # A page from before the parts (an old script) says no round: the whole main part, as before.
    first = uuid.uuid4().hex
    answer = post(send_url, {"board": 1, "text": "4S N =", "lead": "", "client_key": first})
    assert PARTS not in answer and 'id="table-head"' in answer and "csrfmiddlewaretoken" in answer
    post(confirm_url, {"client_key": first}, HTTP_X_TABLE_ROUND="1")
    # The round's last board: the table moves on to round 2, so its whole page goes, with the moves.
    last = uuid.uuid4().hex
    post(send_url, {"board": 2, "text": "4S N =", "lead": "", "client_key": last}, HTTP_X_TABLE_ROUND="1")
    answer = post(confirm_url, {"client_key": last}, HTTP_X_TABLE_ROUND="1")
    assert PARTS not in answer and 'id="moves-title">Round 1 is over: move for round 2' in answer
    assert 'data-round="2"' in answer
    # A phone still showing round 1 (a second phone on the link) gets the whole page too.
    answer = post(send_url, {"board": 2, "text": "4S N =", "lead": "", "client_key": uuid.uuid4().hex},
                  HTTP_X_TABLE_ROUND="1")
    assert PARTS not in answer and "Board 2 is already recorded: 4S N =." in answer


def test_a_refused_send_and_a_refusal_answer_with_parts_that_say_so(client, event):
    session = make_session(event, mitchell(3, 2))
    link = _link(session)
    send_url = reverse("sessions:table_send", args=[link.token])
    answer = client.post(send_url, {"board": 1, "text": "9S N =", "lead": "", "client_key": uuid.uuid4().hex},
                         **SCRIPT, HTTP_X_TABLE_ROUND="1")
    board = str(_answer_parts(answer)["board-in-play"])
    assert "9 is not a contract level" in board and 'value="9S N ="' in board  # kept to correct
    client_key = uuid.uuid4().hex
    client.post(send_url, {"board": 1, "text": "4S N =", "lead": "", "client_key": client_key}, **SCRIPT,
                HTTP_X_TABLE_ROUND="1")

    refused = client.post(reverse("sessions:table_refuse", args=[link.token]), {"client_key": client_key},
                          **SCRIPT, HTTP_X_TABLE_ROUND="1")

    assert "EW refused 4S N =: NS, enter the result again." in refused.content.decode()
    assert "board-in-play" in _answer_parts(refused)
    # A button of an old page: the message comes in the messages part.
    stale = client.post(reverse("sessions:table_confirm", args=[link.token]), {"client_key": ""}, **SCRIPT,
                        HTTP_X_TABLE_ROUND="1")
    assert "That button belongs to an old page" in str(_answer_parts(stale)["table-messages"])


def test_a_plain_forms_post_still_goes_back_to_the_page(client, event):
    session = make_session(event, mitchell(3, 2))
    link = _link(session)
    answer = client.post(reverse("sessions:table_send", args=[link.token]),
                         {"board": 1, "text": "4S N =", "lead": "", "client_key": uuid.uuid4().hex},
                         HTTP_X_TABLE_ROUND="1")
    assert answer.status_code == 302 and answer["Location"] == reverse("sessions:table_page", args=[link.token])


def test_a_change_of_players_shows_in_the_next_posts_answer(client, event):
    """The table's seatings are kept between posts under the session's setup token: naming a
    pair draws a new one, so the next answer names the players."""
    session = make_session(event, mitchell(3, 2))
    link = _link(session)
    client.get(reverse("sessions:table_page", args=[link.token]))  # the seatings kept
    pair = session.sections.get().pairs.get(number=1, direction="NS")
    club = event.club
    pair_set_players(pair=pair, player_1=player_add(club=club, name="Ann Abbot"),
                     player_2=player_add(club=club, name="Bob Baker"))

    answer = client.post(reverse("sessions:table_send", args=[link.token]),
                         {"board": 1, "text": "4S N =", "lead": "", "client_key": uuid.uuid4().hex}, **SCRIPT,
                         HTTP_X_TABLE_ROUND="1")

    assert "Ann Abbot" in str(_answer_parts(answer)["table-head"])
