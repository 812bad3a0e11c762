"""The results booklet (public for a published session, the director's for any) and the paper forms."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from sessions.models import Result, Seating
from sessions.pairs.services.sessions import session_publish
from sessions.analysis.services.analysis import deals_generate
from tests.factories import make_session
from tests.pairs.views.test_public_queries import entered_session


def booklet_url(session) -> str:
    return reverse("sessions:session_booklet", args=[session.pk])


def sections_of(page: str, css_class: str) -> list[str]:
    return re.findall(rf'<section class="{css_class}"[^>]*>(.*?)</section>', page, flags=re.S)


def test_the_booklet_has_the_ranking_every_traveller_and_the_hands(client, event, django_capture_on_commit_callbacks):
    session = entered_session(event, 3)  # published and final
    with django_capture_on_commit_callbacks(execute=True):  # the analysis runs after the deals' commit
        deals_generate(session=session, seed=7)

    page = client.get(booklet_url(session)).content.decode()

    boards = sections_of(page, "booklet-board")
    assert len(boards) == session.boards.count() == 3
    for board in session.boards.all():
        (section,) = [text for text in boards if f">Board {board.number}</h2>" in text]
        lines = Result.objects.filter(board=board).select_related("ns_pair", "ew_pair")
        traveller = re.search(r"<tbody.*?</tbody>", section.split('class="traveller"')[1], flags=re.S).group()
        assert traveller.count("<tr") == len(lines) > 0  # one row a line
        for line in lines:
            assert re.search(rf">{line.ns_pair.label}</a></td>\s*<td ><a [^>]*>{line.ew_pair.label}<", traveller)
        assert 'class="hand-diagram"' in section and 'class="dd-table"' in section
    ranking = sections_of(page, "ranking")
    pairs_ranked = sum(re.search(r"<tbody.*?</tbody>", text, flags=re.S).group().count("<tr") for text in ranking)
    assert pairs_ranked == 6  # every pair of the 3-table Mitchell


def test_a_provisional_booklet_keeps_the_hands_for_later(client, event):
    session = entered_session(event, 3)
    session.final_at = None
    session.save(update_fields=["final_at"])
    deals_generate(session=session, seed=7)
    page = client.get(booklet_url(session)).content.decode()
    assert len(sections_of(page, "booklet-board")) == 3 and 'class="hand-diagram"' not in page


def test_an_unpublished_booklet_is_the_directors_only(client, session, director, outsider):
    assert client.get(booklet_url(session)).status_code == 404
    director_url = reverse("sessions:director_booklet", args=[session.pk])
    client.force_login(outsider)
    assert client.get(director_url).status_code == 404
    client.force_login(director)
    response = client.get(director_url)
    assert response.status_code == 200 and "not published: the director's copy" in response.content.decode()
    assert len(sections_of(response.content.decode(), "booklet-board")) == 6


def test_a_published_booklet_is_everyones(client, session):
    from sessions.pairs.services.results import result_record

    result_record(board=session.boards.get(number=1), section=session.sections.get(), ns_pair="1NS", ew_pair="1EW",
                  text="4S N =")
    session_publish(session=session)
    assert client.get(booklet_url(session)).status_code == 200


@pytest.mark.parametrize("tables", [3, 15])
def test_the_booklet_reads_the_same_queries_whatever_the_size(client, event, tables, django_assert_max_num_queries):
    """A 3-table and a 15-table session (3 and 15 boards) read the same six queries:
    the page's revision stamp, the session with its event and club, session_score's pairs
    and stored lines, every line for the travellers, the boards with their analyses."""
    session = entered_session(event, tables)
    with django_assert_max_num_queries(6):
        response = client.get(booklet_url(session))
    assert len(sections_of(response.content.decode(), "booklet-board")) == tables


def test_the_directors_booklet_and_paper_forms_stay_at_a_few_queries(client, director, event):
    client.force_login(director)
    counts = []
    for tables in (3, 15):
        session = entered_session(event, tables)
        for name in ("director_booklet", "director_paper_forms"):
            with CaptureQueriesContext(connection) as counted:
                assert client.get(reverse(f"sessions:{name}", args=[session.pk])).status_code == 200
            counts.append(len(counted))
    assert counts[:2] == counts[2:]


def test_blank_travellers_follow_the_movement(client, director, event):
    session = make_session(event)  # 3-table Mitchell, 3 rounds of 2 boards
    client.force_login(director)
    page = client.get(reverse("sessions:director_paper_forms", args=[session.pk])).content.decode()

    travellers = sections_of(page, "blank-traveller")
    assert len(travellers) == 6
    for number in range(1, 7):
        (text,) = [traveller for traveller in travellers if f">Board {number} · section A" in traveller]
        rows = re.findall(r'<tr class="traveller-row"><td>(\d+)</td><td>(\d+)</td><td>(\w+)</td><td>(\w+)</td>', text)
        expected = [
            (str(seating.round), str(seating.table), seating.ns_pair.label, seating.ew_pair.label)
            for seating in Seating.objects.filter(section__session=session).select_related("ns_pair", "ew_pair")
            .order_by("round", "table") if number in seating.boards
        ]
        assert rows == expected and len(rows) == 3


def test_a_pickup_slip_for_each_table_each_round(client, director, event):
    session = make_session(event)
    client.force_login(director)
    page = client.get(reverse("sessions:director_paper_forms", args=[session.pk])).content.decode()
    slips = sections_of(page, "pickup-slip")
    seatings = list(Seating.objects.filter(section__session=session).select_related("ns_pair", "ew_pair"))
    assert len(slips) == len(seatings) == 9
    seating = next(s for s in seatings if s.round == 2 and s.table == 3)
    (slip,) = [text for text in slips if "Round 2 · Table 3<" in text]
    assert f"NS <strong>{seating.ns_pair.label}</strong> · EW <strong>{seating.ew_pair.label}</strong>" in slip
    assert re.findall(r'<tr class="slip-row"><td>(\d+)</td>', slip) == [str(n) for n in seating.boards]
