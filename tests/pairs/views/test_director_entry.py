"""The director's entry pages: keyboard-first traveller and table-round entry.

Board 1 of the conftest session is played by 1NS v 1EW (table 1), 2NS v 3EW (table 2)
and 3NS v 2EW (table 3), in table order.
"""

import re

import pytest
from django.urls import reverse

from sessions.models import Pair, Result, ResultChange
from sessions.pairs.services.results import result_correct, result_delete, result_record

HTMX = {"HTTP_HX_REQUEST": "true"}


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


def groups(html: str) -> list[tuple[str, bool, str]]:
    """The page's groups (boards or table-rounds): id, hidden, and the HTML inside."""
    return [
        (id, " hidden" in attributes, body)
        for id, attributes, body in re.findall(
            r'<section class="entry-group" id="group-([^"]+)"([^>]*)>(.*?)</section>\n', html, re.S)
    ]


def test_the_traveller_shows_every_table_with_the_first_row_focused(logged_in, session):
    response = logged_in.get(board_url(session))

    html = response.content.decode()
    assert response.status_code == 200
    (shown, hidden, html), *ahead = groups(html)
    assert (shown, hidden) == ("board-1", False)
    # The boards the page moves on to, in place, once this one is complete: hidden, unfocused.
    assert [(id, hidden) for id, hidden, _ in ahead] == [("board-2", True), ("board-3", True), ("board-4", True)]
    assert not any(" autofocus" in body for _, _, body in ahead)
    assert [m for m in re.findall(r'role="cell" title="[^"]*">(\d+(?:NS|EW))<', html)] == [
        "1NS", "1EW", "2NS", "3EW", "3NS", "2EW",
    ]
    assert focused_row(html) == row_key(session, 1, "1NS", "1EW")
    assert 'src="/static/js/entry.js"' in response.content.decode()


def test_the_boards_ahead_come_alone_to_the_page_that_asks_for_them(logged_in, session):
    response = logged_in.get(board_url(session, 3), **HTMX)

    assert response.status_code == 200
    assert [(id, hidden) for id, hidden, _ in groups(response.content.decode())] == [
        ("board-3", False), ("board-4", True), ("board-5", True), ("board-6", True),
    ]
    assert b"<html" not in response.content


def test_a_line_is_refused_when_its_row_is_no_longer_what_the_director_saw(logged_in, session):
    key = row_key(session, 1, "1NS", "1EW")

    response = logged_in.post(board_url(session), {
        "row": key, "text": "4S N =", "seen": "board 1, table 2, round 1, 1NS v 1EW",
    }, **HTMX)

    assert response.status_code == 200
    assert "Not saved: this line was typed for board 1, table 2, round 1, 1NS v 1EW" in response.content.decode()
    assert "the row now reads board 1, table 1, round 1, 1NS v 1EW" in response.content.decode()
    assert not Result.objects.exists()
    response = logged_in.post(board_url(session), {
        "row": key, "text": "4S N =", "seen": "board 1, table 1, round 1, 1NS v 1EW",
    }, **HTMX)
    assert Result.objects.get().text == "4S N ="


def test_saving_a_row_without_javascript_redirects_to_the_next_row(logged_in, session):
    key = row_key(session, 1, "1NS", "1EW")

    response = logged_in.post(board_url(session), {"row": key, "text": "4s n =", "lead": "hk"})

    next_key = row_key(session, 1, "2NS", "3EW")
    assert response.status_code == 302
    assert response.url == f"{board_url(session)}?focus={next_key}#row-{next_key}"
    line = Result.objects.get()
    assert (line.text, line.lead, line.ns_score, line.table) == ("4S N =", "HK", 420, 1)
    assert focused_row(logged_in.get(response.url).content.decode()) == next_key


def row_html(html: str, key: str) -> str:
    return html.split(f'id="row-{key}"')[1].split("</form>")[0]


def test_saving_a_row_with_htmx_returns_that_row_with_its_scores_and_the_other_rows_cells(logged_in, session):
    result_record(board=session.boards.get(number=1), section=session.sections.get(),
                  ns_pair="1NS", ew_pair="1EW", text="4S N =")
    key = row_key(session, 1, "2NS", "3EW")

    response = logged_in.post(board_url(session), {"row": key, "text": "4s n +1", "lead": "hk"}, **HTMX)

    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith(f'<form method="post" action="{board_url(session)}" id="row-{key}"')
    assert "<html" not in html and 'id="entry-sheet"' not in html  # the row, not the page or the sheet
    assert html.count("<form") == 1 and html.count("<input") == 7  # only the posted row's fields
    assert " autofocus" not in html  # the page has moved the cursor on already
    saved_row = row_html(html, key)
    assert 'value="4S N +1"' in saved_row and 'value="HK"' in saved_row  # the stored line's standard text
    line = Result.objects.get(text="4S N +1")
    assert f'name="result" value="{line.pk}"' in saved_row
    assert 'name="version" value="1"' in saved_row
    assert ">450<" in saved_row  # the score
    assert ">2.00<" in saved_row  # matchpoints: beats the other line, top 2 on a two-line board
    # Out of band: the other rows' running scores (the 4S N = line now scores 0) and the count.
    first = row_key(session, 1, "1NS", "1EW")
    assert f'<span id="row-{first}-ns-points" data-cell>0.00</span>' in html
    assert f'<span id="row-{first}-ew-points" data-cell>2.00</span>' in html
    empty = row_key(session, 1, "3NS", "2EW")
    assert f'<span id="row-{empty}-ns-points" data-cell></span>' in html
    assert '<span id="entry-count-board-1" data-cell>2 of 3 lines entered.</span>' in html


def test_the_cells_an_answer_updates_are_on_the_page(logged_in, session):
    html = logged_in.get(board_url(session)).content.decode()

    for label in [("1NS", "1EW"), ("2NS", "3EW"), ("3NS", "2EW")]:
        key = row_key(session, 1, *label)
        assert f'id="row-{key}-ns-points"' in row_html(html, key)
        assert f'id="row-{key}-ew-points"' in row_html(html, key)
    assert re.search(r'<p class="entry-count" id="entry-count-board-1" aria-live="polite">0 of 3 lines entered.</p>', html)


def test_a_correction_with_htmx_answers_with_the_new_version(logged_in, session):
    line = result_record(board=session.boards.get(number=1), section=session.sections.get(),
                         ns_pair="1NS", ew_pair="1EW", text="4S N =").result
    key = row_key(session, 1, "1NS", "1EW")

    response = logged_in.post(board_url(session), {"row": key, "result": line.pk, "version": 1, "text": "4S N -1"},
                              **HTMX)

    row = row_html(response.content.decode(), key)
    assert 'value="4S N -1"' in row and 'name="version" value="2"' in row  # a later correction works
    assert ">50<" in row
    logged_in.post(board_url(session), {"row": key, "result": line.pk, "version": 2, "text": "4S N ="}, **HTMX)
    assert (Result.objects.get().text, Result.objects.get().version) == ("4S N =", 3)


def test_an_impossible_result_is_shown_in_place_and_nothing_is_saved(logged_in, session):
    key = row_key(session, 1, "1NS", "1EW")

    response = logged_in.post(board_url(session), {"row": key, "text": "4S N +4"}, **HTMX)

    html = response.content.decode()
    assert html.lstrip().startswith(f'<form method="post" action="{board_url(session)}" id="row-{key}"')
    row = row_html(html, key)
    assert "cannot make 4 overtricks" in row
    assert 'role="alert"' in row
    assert 'value="4S N +4"' in row  # what was typed stays there to fix
    assert 'aria-invalid="true"' in row
    assert " autofocus" not in html  # the page puts the cursor back (static/js/entry.js)
    assert "0 of 3 lines entered" in html
    assert not Result.objects.exists() and not ResultChange.objects.exists()


def test_an_impossible_result_without_javascript_is_shown_on_the_page(logged_in, session):
    key = row_key(session, 1, "1NS", "1EW")

    response = logged_in.post(board_url(session), {"row": key, "text": "9S N ="})

    assert response.status_code == 200
    assert b"<html" in response.content
    assert b"9 is not a contract level" in response.content
    assert not Result.objects.exists()


@pytest.mark.parametrize("htmx", [True, False])
def test_a_warning_is_shown_on_the_line(logged_in, event, htmx):
    from sessions.movements import mitchell
    from tests.factories import make_session

    session = make_session(event, mitchell(5, 2))
    seatings = [s for s in session.sections.get().seatings.select_related("ns_pair", "ew_pair").order_by("table") if 1 in s.boards]
    for seating, text in zip(seatings, ["4S N =", "4S N =", "4S N +1", "4S S ="]):
        result_record(board=session.boards.get(number=1), section=session.sections.get(),
                      ns_pair=seating.ns_pair.label, ew_pair=seating.ew_pair.label, text=text)
    last = seatings[4]
    key = row_key(session, 1, last.ns_pair.label, last.ew_pair.label)

    response = logged_in.post(board_url(session), {"row": key, "text": "4S E ="}, **(HTMX if htmx else {}))

    if htmx:  # on the row itself, which shows the stored line
        row = row_html(response.content.decode(), key)
        assert "Check: 4S was declared by N, S at the other tables" in row
        assert 'value="4S E ="' in row and "has-warning" in response.content.decode()
    else:  # without JavaScript the cursor stays on the line, and the page says why
        assert response.url == f"{board_url(session)}?focus={key}#row-{key}"
        page = logged_in.get(response.url).content.decode()
        assert focused_row(page) == key
        assert "4S was declared by N, S at the other tables" in page
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


# --- an expired login, the page's limits and links ------------------------------------------


def test_a_row_posted_after_the_login_expired_gets_a_401_not_the_login_page(client, session):
    key = row_key(session, 1, "1NS", "1EW")

    response = client.post(board_url(session), {"row": key, "text": "4S N ="}, **HTMX)

    assert response.status_code == 401
    body = response.content.decode()
    assert body == "Your login has expired: log in again, then press Enter again."
    assert "<form" not in body and "password" not in body.lower()
    assert not Result.objects.exists()


def test_an_expired_login_is_said_even_without_the_csrf_cookie(session):
    """A browser that lost all its cookies: "log in again", not a CSRF failure."""
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    response = client.post(board_url(session), {"row": row_key(session, 1, "1NS", "1EW"), "text": "4S N ="}, **HTMX)

    assert response.status_code == 401


@pytest.mark.parametrize("htmx", [True, False])
def test_the_entry_pages_still_check_the_csrf_token(director, session, htmx):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(director)
    key = row_key(session, 1, "1NS", "1EW")

    response = client.post(board_url(session), {"row": key, "text": "4S N ="}, **(HTMX if htmx else {}))

    assert response.status_code == 403
    assert not Result.objects.exists()
    page = client.get(board_url(session))
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode())[1]
    response = client.post(board_url(session), {"csrfmiddlewaretoken": token, "row": key, "text": "4S N ="},
                           **(HTMX if htmx else {}))
    assert response.status_code == (200 if htmx else 302)
    assert Result.objects.count() == 1


def test_without_htmx_a_logged_out_director_is_sent_to_log_in(client, session):
    table = reverse("sessions:director_table", args=[session.pk, "A", 1, 1])
    for url in (board_url(session), table):
        for response in (client.get(url), client.post(url, {"text": "4S N ="})):
            assert response.status_code == 302
            assert response.url.startswith(reverse("login") + "?next=")
    assert client.get(table, **HTMX).status_code == 401
    assert not Result.objects.exists()


@pytest.mark.parametrize("entry_page", ["board", "table"])
def test_the_boxes_carry_the_lengths_the_server_accepts(logged_in, session, entry_page):
    url = board_url(session) if entry_page == "board" else reverse("sessions:director_table", args=[session.pk, "A", 1, 1])

    html = groups(logged_in.get(url).content.decode())[0][2]  # the group shown

    assert len(re.findall(r'<input name="text" [^>]*maxlength="60"', html)) == (3 if entry_page == "board" else 2)
    assert len(re.findall(r'<input name="lead" [^>]*maxlength="8"', html)) == (3 if entry_page == "board" else 2)


def test_the_pages_run_no_inline_script(logged_in, session):
    line = result_record(board=session.boards.get(number=1), section=session.sections.get(),
                         ns_pair="1NS", ew_pair="1EW", text="4S N =").result
    table = reverse("sessions:director_table", args=[session.pk, "A", 1, 1])

    for url in (board_url(session), table):
        html = logged_in.get(url).content.decode()
        assert '<script type="module" src="/static/js/entry.js"></script>' in html  # right after the rows
        assert not re.search(r"<script(?![^>]*\bsrc=)", html)  # every script from static/
        assert not re.search(r"\son[a-z]+=", html)  # no onclick= and the like
    key = row_key(session, 1, "1NS", "1EW")
    row = row_html(logged_in.get(board_url(session)).content.decode(), key)
    assert f'name="result" value="{line.pk}"' in row
    assert 'value="delete" class="danger" tabindex="-1" data-confirm="Delete this line?"' in row


def test_a_board_links_to_the_next_board_and_its_tables_rounds(logged_in, session):
    html = logged_in.get(board_url(session)).content.decode()

    assert f'data-next-url="{board_url(session, 2)}" data-next-label="Board 2"' in html
    # Board 1 is played at table 1 in round 1, table 2 in round 3, table 3 in round 2 (3-table Mitchell).
    for key, (round, table) in [(row_key(session, 1, "1NS", "1EW"), (1, 1)), (row_key(session, 1, "2NS", "3EW"), (3, 2))]:
        url = reverse("sessions:director_table", args=[session.pk, "A", round, table])
        assert f'<a href="{url}" tabindex="-1"' in row_html(html, key)
    last = logged_in.get(board_url(session, 6)).content.decode()
    assert "data-next-url" not in last
    assert f'href="{board_url(session, 5)}" accesskey="p"' in last


def test_a_table_links_to_the_tables_and_rounds_around_it_and_to_its_boards(logged_in, session):
    def table(round, number):
        return reverse("sessions:director_table", args=[session.pk, "A", round, number])

    html = logged_in.get(table(2, 2)).content.decode()

    assert f'href="{table(2, 1)}" accesskey="p" rel="prev">&larr; Table 1<' in html
    assert f'href="{table(2, 3)}" accesskey="n" rel="next">Table 3 &rarr;<' in html
    assert f'href="{table(1, 2)}">&uarr; Round 1<' in html
    assert f'href="{table(3, 2)}">Round 3 &darr;<' in html
    assert f'data-next-url="{table(2, 3)}" data-next-label="Table 3"' in html
    for number in re.findall(r'id="row-A-(\d+)-', html):
        assert f'<a href="{board_url(session, int(number))}" tabindex="-1"' in html
    # The last table of a round moves on to the first table of the next round; the very last, nowhere.
    assert f'data-next-url="{table(3, 1)}" data-next-label="Round 3, table 1"' in logged_in.get(table(2, 3)).content.decode()
    assert "data-next-url" not in logged_in.get(table(3, 3)).content.decode()
