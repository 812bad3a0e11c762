"""The director's entry pages: keyboard-first traveller and table-round entry.

Board 1 of the conftest session is played by 1NS v 1EW (table 1), 2NS v 3EW (table 2)
and 3NS v 2EW (table 3), in table order.
"""

import re

import pytest
from django.urls import reverse

from sessions.models import Pair, Result, ResultChange
from sessions.services import result_correct, result_delete, result_record

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def logged_in(client, director):
    client.force_login(director)
    return client


def row_key(session, number, ns, ew):
    pairs = {p.label: p.pk for p in Pair.objects.filter(section__session=session)}
    return f"A-{number}-{pairs[ns]}-{pairs[ew]}"


def board_url(session, number=1):
    return reverse("sessions:director_board", args=[session.pk, number])


def focused_row(html: str) -> str:
    """The key of the one row whose result field has autofocus."""
    rows = re.findall(r'<form[^>]*id="row-([^"]+)"(.*?)</form>', html, re.S)
    focused = [key for key, body in rows if " autofocus" in body]
    assert len(focused) == 1, focused
    return focused[0]


def test_the_traveller_shows_every_table_with_the_first_row_focused(logged_in, session):
    response = logged_in.get(board_url(session))

    html = response.content.decode()
    assert response.status_code == 200
    assert [m for m in re.findall(r'role="cell" title="[^"]*">(\d+(?:NS|EW))<', html)] == [
        "1NS", "1EW", "2NS", "3EW", "3NS", "2EW",
    ]
    assert focused_row(html) == row_key(session, 1, "1NS", "1EW")
    assert 'src="/static/js/htmx.min.js"' in html


def test_saving_a_row_without_javascript_redirects_to_the_next_row(logged_in, session):
    key = row_key(session, 1, "1NS", "1EW")

    response = logged_in.post(board_url(session), {"row": key, "text": "4s n =", "lead": "hk"})

    next_key = row_key(session, 1, "2NS", "3EW")
    assert response.status_code == 302
    assert response.url == f"{board_url(session)}?focus={next_key}#row-{next_key}"
    line = Result.objects.get()
    assert (line.text, line.lead, line.ns_score, line.table) == ("4S N =", "HK", 420, 1)
    assert focused_row(logged_in.get(response.url).content.decode()) == next_key


def test_saving_a_row_with_htmx_returns_the_sheet_with_scores_and_the_next_row_focused(logged_in, session):
    result_record(board=session.boards.get(number=1), section=session.sections.get(),
                  ns_pair="1NS", ew_pair="1EW", text="4S N =")
    key = row_key(session, 1, "2NS", "3EW")

    response = logged_in.post(board_url(session), {"row": key, "text": "4S N +1"}, **HTMX)

    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="entry-sheet"')  # the partial, no page around it
    assert "<html" not in html
    assert focused_row(html) == row_key(session, 1, "3NS", "2EW")
    saved_row = html.split(f'id="row-{key}"')[1].split("</form>")[0]
    assert ">450<" in saved_row  # the score
    assert ">2.00<" in saved_row  # matchpoints: beats the other line, top 2 on a two-line board
    assert "2 of 3 lines entered" in html


def test_an_impossible_result_is_shown_in_place_and_nothing_is_saved(logged_in, session):
    key = row_key(session, 1, "1NS", "1EW")

    response = logged_in.post(board_url(session), {"row": key, "text": "4S N +4"}, **HTMX)

    html = response.content.decode()
    row = html.split(f'id="row-{key}"')[1].split("</form>")[0]
    assert "cannot make 4 overtricks" in row
    assert 'value="4S N +4"' in row  # what was typed stays there to fix
    assert 'aria-invalid="true"' in row
    assert focused_row(html) == key
    assert not Result.objects.exists() and not ResultChange.objects.exists()


def test_an_impossible_result_without_javascript_is_shown_on_the_page(logged_in, session):
    key = row_key(session, 1, "1NS", "1EW")

    response = logged_in.post(board_url(session), {"row": key, "text": "9S N ="})

    assert response.status_code == 200
    assert b"<html" in response.content
    assert b"9 is not a contract level" in response.content
    assert not Result.objects.exists()


def test_a_warning_keeps_the_cursor_on_the_line(logged_in, event):
    from sessions.movements import mitchell
    from tests.factories import make_session

    session = make_session(event, mitchell(5, 2))
    seatings = [s for s in session.sections.get().seatings.select_related("ns_pair", "ew_pair").order_by("table") if 1 in s.boards]
    for seating, text in zip(seatings, ["4S N =", "4S N =", "4S N +1", "4S S ="]):
        result_record(board=session.boards.get(number=1), section=session.sections.get(),
                      ns_pair=seating.ns_pair.label, ew_pair=seating.ew_pair.label, text=text)
    last = seatings[4]
    key = row_key(session, 1, last.ns_pair.label, last.ew_pair.label)

    response = logged_in.post(board_url(session), {"row": key, "text": "4S E ="}, **HTMX)

    html = response.content.decode()
    assert "Check: 4S was declared by N, S at the other tables" in html
    assert focused_row(html) == key
    assert Result.objects.count() == 5  # a warning is not a refusal


def test_a_correction_from_a_stale_page_shows_the_current_line(logged_in, session, member):
    line = result_record(board=session.boards.get(number=1), section=session.sections.get(),
                         ns_pair="1NS", ew_pair="1EW", text="4S N =").result
    result_correct(result=line, text="4S N +1", version=1, by=member)  # someone else, meanwhile
    key = row_key(session, 1, "1NS", "1EW")

    response = logged_in.post(board_url(session), {"row": key, "result": line.pk, "version": 1, "text": "4S N -1"}, **HTMX)

    html = response.content.decode()
    row = html.split(f'id="row-{key}"')[1].split("</form>")[0]
    assert "changed by member to 4S N +1" in row
    assert 'name="version" value="2"' in row  # sending again replaces the current line
    assert Result.objects.get().text == "4S N +1"


def test_a_correction_with_the_current_version_is_saved(logged_in, session):
    line = result_record(board=session.boards.get(number=1), section=session.sections.get(),
                         ns_pair="1NS", ew_pair="1EW", text="4S N =").result
    key = row_key(session, 1, "1NS", "1EW")

    logged_in.post(board_url(session), {"row": key, "result": line.pk, "version": 1, "text": "4S N -1"})

    assert (Result.objects.get().text, Result.objects.get().version) == ("4S N -1", 2)


def test_a_line_can_be_deleted(logged_in, session):
    line = result_record(board=session.boards.get(number=1), section=session.sections.get(),
                         ns_pair="1NS", ew_pair="1EW", text="4S N =").result
    key = row_key(session, 1, "1NS", "1EW")

    logged_in.post(board_url(session), {"row": key, "result": line.pk, "version": 1, "action": "delete"})

    assert not Result.objects.exists()


def test_an_empty_row_just_moves_on(logged_in, session):
    key = row_key(session, 1, "1NS", "1EW")

    response = logged_in.post(board_url(session), {"row": key, "text": ""})

    assert response.status_code == 302 and "focus=" in response.url
    assert not Result.objects.exists()


def test_a_row_that_is_not_on_the_page_is_not_found(logged_in, session):
    response = logged_in.post(board_url(session), {"row": "A-1-999-998", "text": "4S N ="})

    assert response.status_code == 404


def test_the_table_round_page_lists_the_boards_of_that_round(logged_in, session):
    url = reverse("sessions:director_table", args=[session.pk, "A", 2, 1])

    html = logged_in.get(url).content.decode()
    key = row_key(session, 3, "1NS", "3EW")
    assert f'id="row-{key}"' in html and f'id="row-{row_key(session, 4, "1NS", "3EW")}"' in html

    response = logged_in.post(url, {"row": key, "text": "3NT N ="})
    assert response.status_code == 302
    assert Result.objects.get().board.number == 3


def test_a_table_the_movement_does_not_have_is_not_found(logged_in, session):
    assert logged_in.get(reverse("sessions:director_table", args=[session.pk, "A", 9, 1])).status_code == 404


# --- posts the page did not expect: an error on the row, never a 404 or a 500 --------------


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"text": "4S N = " + "x" * 60}, "Result: Ensure this value has at most 60 characters"),
        ({"text": "4S N =", "lead": "H" * 9}, "Lead: Ensure this value has at most 8 characters"),
        ({"text": "4S N =", "result": "1", "version": "two"}, "Version: Enter a whole number"),
        ({"text": "4S N =", "result": "x"}, "Line: Enter a whole number"),
        ({"text": "4S N =", "result": "1", "version": "99999999999999999999"}, "Version: Ensure this value"),
        ({"text": "W 0/0 NS 0"}, "the weight 0/0 divides by 0"),
        ({"text": "W 1/0 NS 420, 1/3 EW 100"}, "the weight 1/0 divides by 0"),
    ],
)
@pytest.mark.parametrize("htmx", [True, False])
def test_a_malformed_row_is_refused_on_the_row_with_the_text_kept(logged_in, session, fields, message, htmx):
    key = row_key(session, 1, "1NS", "1EW")

    response = logged_in.post(board_url(session), {"row": key, **fields}, **(HTMX if htmx else {}))

    assert response.status_code == 200
    html = response.content.decode()
    row = html.split(f'id="row-{key}"')[1].split("</form>")[0]
    assert message in row
    assert 'aria-invalid="true"' in row
    assert f'value="{fields["text"][:60]}"' in row
    assert not Result.objects.exists() and not ResultChange.objects.exists()


def test_a_correction_of_a_weighted_score_dividing_by_zero_changes_nothing(logged_in, session):
    line = result_record(board=session.boards.get(number=1), section=session.sections.get(),
                         ns_pair="1NS", ew_pair="1EW", text="4S N =").result
    key = row_key(session, 1, "1NS", "1EW")

    response = logged_in.post(board_url(session), {
        "row": key, "result": line.pk, "version": 1, "text": "W 1/0 NS 420, 1/3 EW 100"}, **HTMX)

    assert "divides by 0" in response.content.decode()
    assert (Result.objects.get().text, Result.objects.get().version) == ("4S N =", 1)


def test_a_row_posting_another_rows_line_changes_nothing(logged_in, session):
    board_2_line = result_record(board=session.boards.get(number=2), section=session.sections.get(),
                                 ns_pair="1NS", ew_pair="1EW", text="3NT S =").result
    key = row_key(session, 1, "1NS", "1EW")  # the board-1 row, posting board 2's line

    response = logged_in.post(board_url(session), {
        "row": key, "result": board_2_line.pk, "version": 1, "text": "4S N -1"}, **HTMX)

    row = response.content.decode().split(f'id="row-{key}"')[1].split("</form>")[0]
    assert "that line is not board 1, 1NS v 1EW: nothing was saved" in row
    assert (Result.objects.get().text, Result.objects.get().version) == ("3NT S =", 1)
    assert not ResultChange.objects.exclude(action="recorded").exists()


@pytest.mark.parametrize("action", ["save", "delete"])
def test_a_correction_of_a_line_deleted_meanwhile_shows_the_conflict_on_the_row(logged_in, session, action):
    line = result_record(board=session.boards.get(number=1), section=session.sections.get(),
                         ns_pair="1NS", ew_pair="1EW", text="4S N =").result
    key = row_key(session, 1, "1NS", "1EW")
    result_delete(result=line, version=1)  # another director, meanwhile

    response = logged_in.post(board_url(session), {
        "row": key, "result": line.pk, "version": 1, "text": "4S N -1", "action": action}, **HTMX)

    assert response.status_code == 200
    row = response.content.decode().split(f'id="row-{key}"')[1].split("</form>")[0]
    assert "deleted by someone else while you were typing" in row
    assert not Result.objects.exists()
