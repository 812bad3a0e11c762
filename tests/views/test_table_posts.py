"""What a table phone's Send and Confirm cost the server, and that their answers stay right.

Thirty to three hundred phones post at once during a round (bench/tables.py): each post
must read a few rows of its own table, never more as the session fills, and its answer
(the page's main part for the phone's script) must show what the post just changed.
"""

import re
import uuid

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from sessions.models import Seating
from sessions.movements import mitchell
from sessions.services import event_update, result_record
from sessions.services.tables import table_links_ensure
from tests.factories import make_session

SCRIPT = {"HTTP_HX_REQUEST": "true"}
#: A Send's queries: the link, the board, the final check, the table's lock, the earlier
#: send, the seating, the stored line, the line's checks (pairs, seatings, duplicate,
#: foreign keys, unique constraints, the check constraints in one query), the entry, the
#: revision, the final check under lock; then the answer: the session again, the table's
#: seatings, boards, entries, the scored figures brought up to date, its lines, the traveller.
SEND_QUERIES = 40
#: A Confirm: the entry under lock, the seating, the line recorded as the director's entry
#: is (checked again, held, saved, logged, bumped), the entry saved; the same answer.
CONFIRM_QUERIES = 52


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


def _send_and_confirm(client, link, board: int, text: str):
    """The phone's script's two posts; their answers and how many queries each took."""
    client_key = uuid.uuid4().hex
    with CaptureQueriesContext(connection) as sending:
        sent = client.post(reverse("sessions:table_send", args=[link.token]),
                           {"board": board, "text": text, "lead": "", "client_key": client_key}, **SCRIPT)
    with CaptureQueriesContext(connection) as confirming:
        confirmed = client.post(reverse("sessions:table_confirm", args=[link.token]), {"client_key": client_key},
                                **SCRIPT)
    assert (sent.status_code, confirmed.status_code) == (200, 200)
    return sent, confirmed, len(sending), len(confirming)


def test_a_send_and_a_confirm_take_few_queries_and_no_more_in_a_larger_session(client, event):
    counts = []
    for tables in (3, 11):
        session = make_session(event, mitchell(tables, 2))
        _round_played(session, but=1)
        *_, send_queries, confirm_queries = _send_and_confirm(client, _link(session), 1, "3NT N =")
        counts.append((send_queries, confirm_queries))
    assert counts[0] == counts[1]
    assert counts[0][0] <= SEND_QUERIES and counts[0][1] <= CONFIRM_QUERIES, counts


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
