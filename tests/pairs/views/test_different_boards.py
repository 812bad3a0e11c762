"""Sections on different boards in the browser: the new-session form, the director's
traveller, a table's phone and the players' traveller, each on the section's own deal.

Board 1 of a 3-table Mitchell is played by 1NS v 1EW (table 1), 2NS v 3EW (table 2) and
3NS v 2EW (table 3) in each section.
"""

import pytest
from django.core.cache import cache
from django.urls import reverse

from sessions.models import Board, EntryStatus, Pair, Result, Session, TableEntry
from sessions.movements import mitchell
from sessions.pairs.services.results import result_record
from sessions.pairs.services.sessions import session_publish
from sessions.phones.services.tables import table_links_ensure
from tests.factories import make_session

TRAVELLER = [("1NS", "1EW"), ("2NS", "3EW"), ("3NS", "2EW")]
TEXTS = {"A": ["4S N =", "4S N +1", "3S N +1"], "B": ["4S N -1", "4S N =", "4S N +2"]}


@pytest.fixture
def different(event) -> Session:
    """Section A on the shared boards, section B on deals of its own."""
    return make_session(event, mitchell(3, 2), sections=("A", "B"), own_boards=("B",))


def board_of(session, letter, number=1) -> Board:
    """Board ``number`` of section ``letter``'s own deals, or the shared one ("")."""
    if letter:
        return session.boards.get(number=number, section__letter=letter)
    return session.boards.get(number=number, section=None)


def enter_board_1(session):
    for letter in ("A", "B"):
        section = session.sections.get(letter=letter)
        board = board_of(session, "B" if letter == "B" else "")
        for (ns, ew), text in zip(TRAVELLER, TEXTS[letter]):
            result_record(board=board, section=section, ns_pair=ns, ew_pair=ew, text=text)


def test_the_form_offers_same_or_different_boards_per_section_and_creates_them(logged_in, club, event):
    url = reverse("sessions:director_session_new", args=[club.slug])
    query = {"pairs": 12, "sections": 2, "boards_per_round": 2, "movement": 0, "event": event.pk}
    html = logged_in.get(url, query).content.decode()
    assert 'name="deals_A" value="same"' in html and 'name="deals_B" value="different"' in html

    response = logged_in.post(url, {**query, "name": "Own deals", "date": "2025-05-06",
                                    "deals_A": "same", "deals_B": "different"})

    session = Session.objects.get(name="Own deals")
    assert response.status_code == 302
    assert sorted(session.boards.filter(section=None).values_list("number", flat=True)) == [1, 2, 3, 4, 5, 6]
    assert sorted(session.boards.filter(section__letter="B").values_list("number", flat=True)) == [1, 2, 3, 4, 5, 6]
    assert not session.boards.filter(section__letter="A").exists()


def test_a_bad_boards_choice_is_a_form_error_that_creates_nothing(logged_in, club, event):
    url = reverse("sessions:director_session_new", args=[club.slug])
    query = {"pairs": 12, "sections": 2, "boards_per_round": 2, "movement": 0, "event": event.pk}

    response = logged_in.post(url, {**query, "name": "Bad", "date": "2025-05-06", "deals_B": "<other>"})

    assert response.status_code == 200
    assert not Session.objects.filter(name="Bad").exists()


def test_the_directors_traveller_stores_each_sections_line_on_its_own_deal(logged_in, different):
    pairs = {(p.section.letter, p.label): p.pk for p in Pair.objects.filter(section__session=different)}
    url = reverse("sessions:director_board", args=[different.pk, 1])
    assert logged_in.get(url).status_code == 200

    for letter in ("A", "B"):
        key = f"{letter}-1-{pairs[(letter, '1NS')]}-{pairs[(letter, '1EW')]}"
        assert logged_in.post(url, {"row": key, "text": "4S N ="}).status_code == 302

    stored = {line.section.letter: line.board for line in Result.objects.select_related("section", "board")}
    assert stored["A"] == board_of(different, "")
    assert stored["B"] == board_of(different, "B")


def test_a_tables_phone_sends_its_sections_deal(client, different):
    cache.clear()
    link = next(link for link in table_links_ensure(session=different) if link.section.letter == "B" and link.table == 1)

    client.post(reverse("sessions:table_send", args=[link.token]),
                {"board": 1, "text": "4S N =", "lead": "", "client_key": "k" * 32})

    entry = TableEntry.objects.get(status=EntryStatus.PENDING)
    assert entry.board == board_of(different, "B")
    cache.clear()


def test_the_public_traveller_shows_each_sections_deal_apart(client, different, django_assert_num_queries):
    enter_board_1(different)
    session_publish(session=different)
    url = reverse("sessions:board", args=[different.pk, 1])

    shared = client.get(url).content.decode()
    # 1. the session's revision stamp  2. the deals of that number  3. the board numbers
    # 4. the deal's lines as Results, for the rows shown (the scored session is the cached
    # one of the first request: same revision)
    with django_assert_num_queries(4):
        own = client.get(url, {"section": "B"}).content.decode()

    assert "The sections played different deals as board 1" in shared
    assert '<a href="?section=B">section B</a>' in shared
    ns_a, ns_b = '<td class="num">450</td>', '<td class="num">480</td>'  # an NS score of each section
    assert ns_a in shared and ns_b not in shared  # section A's lines only
    assert "Board 1, section B" in own and ns_b in own and ns_a not in own
    assert client.get(url, {"section": "Z"}).status_code == 200  # an unknown section: the shared deal


def test_an_across_field_event_says_why_it_ranked_the_sections_apart(client, event, different):
    event.across_field, event.rankings = True, "one"
    event.save()
    enter_board_1(different)
    session_publish(session=different)

    html = client.get(reverse("sessions:session_results", args=[different.pk])).content.decode()

    assert "The sections played different deals" in html


def test_a_score_card_links_each_board_to_the_deal_the_pair_played(client, different):
    enter_board_1(different)
    session_publish(session=different)
    pair_b = Pair.objects.get(section__session=different, section__letter="B", number=1, direction="NS")
    pair_a = Pair.objects.get(section__session=different, section__letter="A", number=1, direction="NS")

    card_b = client.get(reverse("sessions:scorecard", args=[different.pk, pair_b.pk])).content.decode()
    card_a = client.get(reverse("sessions:scorecard", args=[different.pk, pair_a.pk])).content.decode()

    board_url = reverse("sessions:board", args=[different.pk, 1])
    assert f'href="{board_url}?section=B"' in card_b
    assert f'href="{board_url}"' in card_a


def test_each_sections_deal_is_fouled_on_its_own(logged_in, different):
    enter_board_1(different)
    lines_b = list(Result.objects.filter(section__letter="B").order_by("table"))
    url = reverse("sessions:director_board", args=[different.pk, 1])
    page_b = logged_in.get(url, {"section": "B"}).content.decode()
    assert "section B's deal" in page_b and f'name="group_{lines_b[0].pk}"' in page_b
    shared_lines = Result.objects.filter(section__letter="A")
    assert not any(f'name="group_{line.pk}"' in page_b for line in shared_lines)

    groups = reverse("sessions:director_board_groups", args=[different.pk, 1])
    response = logged_in.post(f"{groups}?section=B", {f"group_{line.pk}": g for line, g in zip(lines_b, (1, 1, 2))})

    assert response.url == f"{url}?section=B#fouled"
    assert [line.group for line in Result.objects.filter(section__letter="B").order_by("table")] == [1, 1, 2]
    assert set(Result.objects.filter(section__letter="A").values_list("group", flat=True)) == {None}
