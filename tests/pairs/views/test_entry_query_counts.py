"""Absolute query counts of the entry pages, each query named (as the public pages do).

A save reads the sheet once before it and once after it (the answer carries the running
scores), never more, whatever the session's size.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from sessions.models import Pair
from sessions.movements import mitchell
from tests.factories import make_session

HTMX = {"HTTP_HX_REQUEST": "true"}

# Django's session and user: 2 queries on every director page.
LOGIN = 2
# A session's scores (session_score): its pairs with players, then its lines (as rows);
# and the lines the page shows (as Results).
SCORES = 3
# Recording a line, whatever the page: whether the section plays its own deal of that
# number (a line lies on its section's deal), the section's pairs, the two pairs' seatings, the
# board's lines (a duplicate, and the others for the warnings: one query, results.board_lines),
# the seating locked and checked again (a repair may have changed it), Result.full_clean() (none:
# its 10 check constraints are decided in Python, sessions/models/validation.py; not its 4
# foreign keys and 2 unique constraints, which the service has just read and checked), the
# savepoints of the service's transactions, the insert, the log entry (its checks in Python
# too), the session's amended time, the bumps of the session's and the club's
# revisions (the cached pages' key), and whether the session is final (an amendment after
# final awards its master points again); and where the database locks rows (PostgreSQL),
# the session's lock the unit of work takes at the service's top.
RECORD = 15 + (1 if connection.features.has_select_for_update else 0)


def _row(session, number, ns, ew):
    pairs = {p.label: p.pk for p in Pair.objects.filter(section__session=session)}
    return f"A-{number}-{pairs[ns]}-{pairs[ew]}"


def _count(client, method, url, data=None):
    with CaptureQueriesContext(connection) as captured:
        response = getattr(client, method)(url, data or {}, **(HTMX if method == "post" else {}))
    assert response.status_code == 200
    return len(captured)


@pytest.mark.parametrize("tables", [3, 11])
def test_the_board_page_reads_six_queries_and_a_save_a_fixed_number(logged_in, event, tables):
    session = make_session(event, mitchell(tables, 2))
    url = reverse("sessions:director_board", args=[session.pk, 1])

    # LOGIN, the board (with session and event), SCORES (the lines of the board and of
    # the boards ahead, which the page holds hidden), the deals of that number (one per
    # section on different boards), the session's seatings, and the deals of the boards ahead.
    assert _count(logged_in, "get", url) == LOGIN + 1 + SCORES + 1 + 1 + 1
    # LOGIN, the page as loaded (the board, SCORES, deals and seatings: 6), RECORD, the page
    # read again (SCORES, deals and seatings: 5).
    saved = _count(logged_in, "post", url, {"row": _row(session, 1, "1NS", "1EW"), "text": "4S N ="})
    assert saved == LOGIN + 6 + RECORD + 5


@pytest.mark.parametrize("tables", [3, 11])
def test_the_table_round_page_reads_eight_queries(logged_in, event, tables):
    session = make_session(event, mitchell(tables, 2))
    url = reverse("sessions:director_table", args=[session.pk, "A", 1, 1])

    # LOGIN, the section (with session and event), the table's seating, its boards,
    # SCORES, and the number of sections (the heading names the section when several).
    assert _count(logged_in, "get", url) == LOGIN + 1 + 1 + 1 + SCORES + 1
    # LOGIN, the page as loaded with its section count (7), RECORD, and the sheet read
    # again for the running scores: the seating, its boards, SCORES (5).
    saved = _count(logged_in, "post", url, {"row": _row(session, 1, "1NS", "1EW"), "text": "4S N ="})
    assert saved == LOGIN + 7 + RECORD + 5
