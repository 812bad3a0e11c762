"""The session page follows the tables while they play: the round and board each table is
at, lines waiting for the opponents, lines confirmed despite a warning, tables running
late, and the counts per board and per table and round. The grid is a partial the page
polls with htmx; a plain reload of the page shows the same.

The conftest session is a 3-table Mitchell of 2 boards a round: in round 1 table 1
plays boards 1-2, table 2 boards 3-4, table 3 boards 5-6; the boards move down a table
each round (round 2: table 1 boards 3-4, table 2 5-6, table 3 1-2).
"""

import re
import uuid

import pytest
from django.urls import reverse

from sessions.models import EntryStatus, Seating, Session, TableEntry
from sessions.pairs.selectors.sessions import session_progress
from sessions.pairs.services.results import result_record
from sessions.pairs.services.sessions import session_mark_final
from sessions.phones.services.tables import table_entry_confirm, table_entry_refuse, table_entry_send, table_links_ensure
from tests.factories import make_session

HTMX = {"HTTP_HX_REQUEST": "true"}


def seating(session: Session, round: int, table: int) -> Seating:
    return Seating.objects.select_related("ns_pair", "ew_pair", "section").get(
        section__session=session, round=round, table=table
    )


def enter(session: Session, round: int, table: int, texts=("4S N =", "3NT S +1")) -> None:
    """The director enters the table's lines of the round."""
    where = seating(session, round, table)
    for number, text in zip(where.boards, texts, strict=False):
        result_record(board=session.boards.get(number=number), section=where.section,
                      ns_pair=where.ns_pair.label, ew_pair=where.ew_pair.label, text=text, round=round)


def send(session: Session, table: int, number: int, text: str, **kwargs):
    """The table's phone sends a board (NS); EW have not confirmed yet."""
    links = {link.table: link for link in table_links_ensure(session=session)}
    key = uuid.uuid4().hex
    outcome = table_entry_send(link=links[table], board=session.boards.get(number=number), text=text,
                               client_key=key, **kwargs)
    return links[table], key, outcome


def grid(client, session: Session, **extra) -> str:
    response = client.get(reverse("sessions:director_progress", args=[session.pk]), **extra)
    assert response.status_code == 200
    return response.content.decode()


def row_of(html: str, table: int | str) -> str:
    """The "tables now" row of a table (3, or "A 3" with several sections), as its text."""
    body = html.split('<table class="tables-now">')[1].split("</table>")[0]
    section, _, number = str(table).rpartition(" ")
    heading = f"{section} Table {number} " if section else f"Table {number} "
    for row in body.split("<tr")[2:]:
        text = " ".join(re.sub(r"<[^>]+>", " ", "<tr" + row).split())
        if text.startswith(heading):
            return text
    raise AssertionError(f"no row for table {table}")


# --- the page and its partial ---------------------------------------------------------------


def test_the_session_page_polls_the_grid_every_5_seconds(logged_in, session):
    html = logged_in.get(reverse("sessions:director_session", args=[session.pk])).content.decode()

    url = reverse("sessions:director_progress", args=[session.pk])
    assert f'hx-get="{url}" hx-trigger="every 5s" hx-swap="outerHTML"' in html
    assert html.count('id="progress"') == 1


def test_the_partial_is_the_grid_alone_and_the_page_shows_the_same(logged_in, session):
    enter(session, 1, 1)
    send(session, 2, 3, "4H E -1")

    partial = grid(logged_in, session, **HTMX)
    page = logged_in.get(reverse("sessions:director_session", args=[session.pk])).content.decode()

    assert partial.lstrip().startswith("<div id=\"progress\"") and "<html" not in partial
    # Without JavaScript, a reload shows the same grid (its forms' CSRF tokens are masked afresh each time).
    assert unmasked(partial).strip() in unmasked(page)


def unmasked(html: str) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', 'name="csrfmiddlewaretoken"', html)


def test_a_final_session_stops_polling(logged_in, session):
    session_mark_final(session=session)

    html = grid(logged_in, session)

    assert 'id="progress"' in html and "hx-trigger" not in html


def test_a_poll_after_the_login_expired_stops_polling_with_a_note(client, session):
    response = client.get(reverse("sessions:director_progress", args=[session.pk]), **HTMX)

    assert response.status_code == 286  # htmx stops polling
    assert b"Your login has expired" in response.content and b"Tuesday" not in response.content


def test_a_plain_request_of_a_logged_out_user_is_sent_to_log_in(client, session):
    response = client.get(reverse("sessions:director_progress", args=[session.pk]))

    assert response.status_code == 302 and response.url.startswith(reverse("login"))


@pytest.mark.parametrize("persona", ["outsider", "member"])
def test_the_grid_of_another_clubs_session_is_hidden(client, session, persona, request):
    client.force_login(request.getfixturevalue(persona))

    assert client.get(reverse("sessions:director_progress", args=[session.pk]), **HTMX).status_code == 404


def test_the_grid_needs_a_get(logged_in, session):
    assert logged_in.post(reverse("sessions:director_progress", args=[session.pk])).status_code == 405


# --- where the tables are ---------------------------------------------------------------------


def test_before_play_every_table_is_at_its_first_board_and_none_is_late(logged_in, session):
    html = grid(logged_in, session)

    assert row_of(html, 1) == "Table 1 Round 1 Board 1 0/6"
    assert row_of(html, 2) == "Table 2 Round 1 Board 3 0/6"
    assert row_of(html, 3) == "Table 3 Round 1 Board 5 0/6"
    assert "late" not in html.split('<table class="tables-now">')[1].split("</table>")[0]
    assert "Most tables are playing round 1." in html


def test_each_table_is_at_its_first_board_without_a_line(logged_in, session):
    enter(session, 1, 1, texts=("4S N =",))  # board 1 only

    assert row_of(grid(logged_in, session), 1) == "Table 1 Round 1 Board 2 1/6"


def test_a_table_behind_the_round_most_tables_play_is_late(logged_in, session):
    enter(session, 1, 1)
    enter(session, 1, 2)

    html = grid(logged_in, session)

    assert row_of(html, 1) == "Table 1 Round 2 Board 3 2/6"
    assert row_of(html, 2) == "Table 2 Round 2 Board 5 2/6"
    assert row_of(html, 3) == "Table 3 Round 1 late Board 5 0/6"
    assert "Most tables are playing round 2." in html and "1 table late" in html
    # Its round-1 cell is the one in play; the others have moved on.
    assert re.search(r'class="[^"]*in-play"[^>]*>T3 <small>0/2</small>', html)


def test_a_tie_between_two_rounds_counts_the_later(session):
    enter(session, 1, 1)  # table 1 in round 2, table 2 and 3 in round 1: no tie, nobody late
    progress = session_progress(session=session)
    assert progress.current_round == 1 and progress.late == 0

    enter(session, 1, 2)
    enter(session, 2, 1)  # tables 1 (round 3) and 2 (round 2) ahead of table 3 (round 1): a three-way tie
    progress = session_progress(session=session)
    assert [(table.table, table.round, table.late) for table in progress.now] == [
        (1, 3, False), (2, 2, True), (3, 1, True),
    ]


def test_a_table_that_has_played_everything_is_finished_and_never_late(logged_in, session):
    for round in (1, 2, 3):
        enter(session, round, 1)

    html = grid(logged_in, session)

    assert row_of(html, 1) == "Table 1 Finished 6/6"


def test_the_summary_says_every_table_has_finished_once_all_have_and_most_before(logged_in, session):
    for round, table in [(1, 1), (1, 2), (2, 1), (2, 2), (3, 1), (3, 2), (1, 3), (2, 3)]:
        enter(session, round, table)
    assert "Most tables have finished." in grid(logged_in, session)  # table 3 still plays round 3

    enter(session, 3, 3)

    html = grid(logged_in, session)
    assert "Every table has finished." in html and "Most tables" not in html


# --- lines to look at -----------------------------------------------------------------------


def test_a_line_waiting_for_the_opponents_shows_at_its_table_and_in_its_round(logged_in, session):
    send(session, 2, 3, "4H E -1")

    html = grid(logged_in, session)

    assert row_of(html, 2) == "Table 2 Round 1 Board 3 0/6 1 waiting for the opponents"
    assert "1 line waiting for the opponents" in html
    assert "1 waiting</span>" in html  # the round-1 cell of table 2


def test_a_confirmed_line_is_no_longer_waiting(logged_in, session):
    link, key, _ = send(session, 2, 3, "4H E -1")
    table_entry_confirm(link=link, client_key=key)

    html = grid(logged_in, session)

    assert row_of(html, 2) == "Table 2 Round 1 Board 4 1/6"
    assert "waiting" not in html


def test_a_line_confirmed_despite_a_warning_is_flagged(logged_in, session):
    enter(session, 1, 1)  # board 1: 4S by North at table 1
    # Table 3 plays board 1 in round 2: 4S by East is a declarer swap; the table accepts the warning.
    link, key, outcome = send(session, 3, 1, "4S E -1", accept_warnings=True)
    assert outcome.warnings
    table_entry_confirm(link=link, client_key=key)
    assert TableEntry.objects.get().status == EntryStatus.CONFIRMED

    html = grid(logged_in, session)

    assert row_of(html, 3).endswith("1 confirmed despite a warning")
    assert "1 line confirmed despite a warning" in html
    assert "1 warned</span>" in html


def test_a_refused_line_needs_no_look(logged_in, session):
    link, key, _ = send(session, 2, 3, "4H E -1")
    table_entry_refuse(link=link, client_key=key)

    html = grid(logged_in, session)

    assert "waiting" not in html and "warning" not in html


def test_the_progress_with_lines_from_the_phones_still_takes_three_queries(session, django_assert_num_queries):
    enter(session, 1, 1)
    send(session, 2, 3, "4H E -1")
    link, key, _ = send(session, 3, 1, "4S E -1", accept_warnings=True)
    table_entry_confirm(link=link, client_key=key)

    # 1. boards with their counts  2. seatings with their tables' waiting and warned lines  3. the lines
    with django_assert_num_queries(3):
        progress = session_progress(session=session)
        progress.rounds()
    assert (progress.pending, progress.warned, progress.late) == (1, 1, 0)


def test_with_two_sections_each_table_is_named_with_its_section(logged_in, event):
    two = make_session(event, sections=("A", "B"))
    section_b = two.sections.get(letter="B")
    where = Seating.objects.select_related("ns_pair", "ew_pair").get(section=section_b, round=1, table=1)
    for number in where.boards:
        result_record(board=two.boards.get(number=number), section=section_b, ns_pair=where.ns_pair.label,
                      ew_pair=where.ew_pair.label, text="4S N =", round=1)

    html = grid(logged_in, two)

    assert row_of(html, "A 1") == "A Table 1 Round 1 Board 1 0/6"
    assert row_of(html, "B 1") == "B Table 1 Round 2 Board 3 2/6"
