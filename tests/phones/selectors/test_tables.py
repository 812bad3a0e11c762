"""The table phone's page as its selector builds it: the standings it shows.

A table's phone shows the standings between rounds and at the end (when the event lets
players see them): those of the fields its own pairs play in. A large event of many
sections shows every section on its results pages; a phone at table A3 shows section A's.
"""

import uuid

from django.urls import reverse

from sessions.models import Seating
from sessions.movements import mitchell
from sessions.pairs.services.events import event_update
from sessions.phones.selectors.tables import table_page
from sessions.phones.services.tables import table_links_ensure
from tests.factories import make_session

SCRIPT = {"HTTP_HX_REQUEST": "true"}


def _links(session) -> dict[tuple[str, int], object]:
    return {(link.section.letter, link.table): link for link in table_links_ensure(session=session)}


def _play_round_one(client, link) -> None:
    """The table's phone sends and confirms its round-1 boards (3NT N =)."""
    seating = Seating.objects.get(section=link.section, table=link.table, round=1)
    for number in seating.boards:
        client_key = uuid.uuid4().hex
        client.post(reverse("sessions:table_send", args=[link.token]),
                    {"board": number, "text": "3NT N =", "lead": "", "client_key": client_key})
        client.post(reverse("sessions:table_confirm", args=[link.token]), {"client_key": client_key})


def _titles(page) -> list[str]:
    return [ranking.title for ranking in page.rankings]


def test_a_phone_shows_the_standings_of_its_own_sections_fields(client, event):
    session = make_session(event, mitchell(3, 2), sections=("A", "B"))
    links = _links(session)
    _play_round_one(client, links["A", 1])
    _play_round_one(client, links["B", 1])

    page_a, page_b = table_page(link=links["A", 1]), table_page(link=links["B", 1])

    assert _titles(page_a) == ["Section A North-South", "Section A East-West"]
    assert _titles(page_b) == ["Section B North-South", "Section B East-West"]
    ranked = {item.pair.label for ranking in page_a.rankings for item in ranking.rows}
    assert ranked == {"1NS", "1EW"}  # the section's pairs that have played
    assert {item.pair.section.letter for ranking in page_a.rankings for item in ranking.rows} == {"A"}
    shown = client.get(reverse("sessions:table_page", args=[links["A", 1].token])).content.decode()
    assert "Section A North-South" in shown and "Section B" not in shown


def test_ranked_across_the_sections_a_phone_shows_the_whole_field(client, event):
    event_update(event=event, across_field=True)
    session = make_session(event, mitchell(3, 2), sections=("A", "B"))
    links = _links(session)
    _play_round_one(client, links["A", 1])
    _play_round_one(client, links["B", 1])

    page = table_page(link=links["A", 1])

    assert _titles(page) == ["North-South", "East-West"]
    ranked = {(item.pair.section.letter, item.pair.label) for ranking in page.rankings for item in ranking.rows}
    assert ranked == {("A", "1NS"), ("A", "1EW"), ("B", "1NS"), ("B", "1EW")}


def test_one_section_shows_both_its_fields_as_the_results_page_does(client, event):
    session = make_session(event, mitchell(3, 2))
    links = _links(session)
    _play_round_one(client, links["A", 1])

    page = table_page(link=links["A", 1])

    assert _titles(page) == ["North-South", "East-West"]
    assert page.rankings == [ranking for ranking in page.rankings if ranking.rows]
    assert [(ranking.field, [item.pair.pk for item in ranking.rows]) for ranking in page.rankings] == [
        (field, [item.pair.pk for item in rows]) for field, rows in page.scored.rankings()
    ]
