"""The printable cards page: one card per table and per pair, one a page when printed.

The conftest session (3-table Mitchell, 2 boards a round), by hand: table 1 plays
1NS v 1EW (boards 1-2), 1NS v 3EW (3-4), 1NS v 2EW (5-6); the EW pair moves to table 2
and the boards to table 3 after each round. Pair 1EW: table 1 v 1NS (1, 2), table 2 v
2NS (5, 6), table 3 v 3NS (3, 4).
"""

import re
from pathlib import Path

import segno
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from sessions.models import TableLink
from sessions.movements import mitchell
from sessions.phones.services.tables import table_links_ensure
from tests.factories import make_session


def cards_url(session):
    return reverse("sessions:director_cards", args=[session.pk])


def card_rows(html: str, heading_id: str) -> list[list[str]]:
    """The rows of the card whose heading has this id, as cell texts."""
    card = html.split(f'id="{heading_id}"')[1].split("</section>")[0]
    rows = re.findall(r"<tr>(.*?)</tr>", card, re.S)
    return [[" ".join(re.sub(r"<[^>]+>", "", cell).split()) for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]
            for row in rows]


def test_the_table_card_lists_each_round_and_where_pairs_and_boards_go(logged_in, session):
    html = logged_in.get(cards_url(session)).content.decode()

    assert card_rows(html, "table-card-A-1") == [
        ["Round", "NS", "EW", "Boards", "NS pair next", "EW pair next", "Boards next to"],
        ["1", "1NS", "1EW", "1-2", "stays", "table 2 EW", "table 3"],
        ["2", "1NS", "3EW", "3-4", "stays", "table 2 EW", "table 3"],
        ["3", "1NS", "2EW", "5-6", "", "", ""],
    ]


def test_the_pair_card_lists_table_direction_opponents_and_boards(logged_in, session, pair_id):
    html = logged_in.get(cards_url(session)).content.decode()

    assert card_rows(html, f"pair-card-{pair_id(session, '1EW')}") == [
        ["Round", "Table", "Sit", "Opponents", "Boards"],
        ["1", "1", "EW", "1NS", "1, 2"],
        ["2", "2", "EW", "2NS", "5, 6"],
        ["3", "3", "EW", "3NS", "3, 4"],
    ]


def test_a_sit_out_is_printed_on_the_pair_card(logged_in, event, pair_id):
    session = make_session(event, mitchell(3, 2, phantom="3NS"))

    html = logged_in.get(cards_url(session)).content.decode()

    assert card_rows(html, f"pair-card-{pair_id(session, '3EW')}")[1] == ["1", "Sit out"]
    assert card_rows(html, "table-card-A-3")[1] == ["1", "No play at this table"]


def test_one_kind_of_card_can_be_printed_alone(logged_in, session):
    tables_only = logged_in.get(cards_url(session), {"only": "tables"}).content.decode()
    pairs_only = logged_in.get(cards_url(session), {"only": "pairs"}).content.decode()

    assert tables_only.count('class="card table-card"') == 3 and 'class="card pair-card"' not in tables_only
    assert pairs_only.count('class="card pair-card"') == 6 and 'class="card table-card"' not in pairs_only


def test_the_page_shows_player_names_escaped(logged_in, event):
    session = make_session(event, pair_players={"1NS": ["<b>Ann</b>", "Bob"]})

    html = logged_in.get(cards_url(session)).content.decode()

    assert "&lt;b&gt;Ann&lt;/b&gt; &amp; Bob" in html and "<b>Ann</b>" not in html


def test_the_session_page_links_to_the_cards(logged_in, session):
    html = logged_in.get(reverse("sessions:director_session", args=[session.pk])).content.decode()

    assert cards_url(session) in html


def test_each_card_is_a_printed_page(logged_in, session):
    """The print rules live in director.css under @media print: a page break after each card."""
    css = (Path(settings.BASE_DIR) / "static/css/director.css").read_text()
    print_rules = css.split("@media print")[1]

    assert re.search(r"\.card \{[^}]*break-after: page", print_rules)
    assert "director.css" in logged_in.get(cards_url(session)).content.decode()


def test_the_cards_page_takes_the_same_queries_for_a_bigger_session(logged_in, event):
    small, big = make_session(event), make_session(event, mitchell(9, 2), sections=("A", "B"))
    counts = []
    for session in (small, big):
        with CaptureQueriesContext(connection) as queries:
            assert logged_in.get(cards_url(session)).status_code == 200
        counts.append(len(queries))

    assert counts[0] == counts[1]


def table_qr(url: str) -> str:
    """A table's QR code as the cards inline it: segno's, made from the table's full URL."""
    return segno.make_qr(url, error="m").svg_inline(scale=4, svgclass="qr", omitsize=True)


def test_each_table_card_carries_its_links_qr_code_and_url(logged_in, session):
    links = table_links_ensure(session=session)

    html = logged_in.get(cards_url(session)).content.decode()

    for link in links:
        card = html.split(f'id="table-card-A-{link.table}"')[1].split("</section>")[0]
        url = f"http://testserver/t/{link.token}/"
        assert table_qr(url) in card and f'<span class="url">{url}</span>' in card
        assert Client().get(f"/t/{link.token}/").status_code == 200
    assert html.count("<svg") == 3
    assert "without a live phone link" not in html


def test_the_cards_page_offers_to_make_the_missing_links(logged_in, session):
    assert logged_in.get(cards_url(session)).content.decode().count("<svg") == 3  # made with the session
    TableLink.objects.filter(session=session).update(revoked_at=timezone.now())
    html = logged_in.get(cards_url(session)).content.decode()

    assert "<svg" not in html and "3 tables without a live phone link" in html
    make = reverse("sessions:director_table_links_make", args=[session.pk])
    assert f'action="{make}"' in html and 'name="next" value="cards"' in html

    response = logged_in.post(make, {"next": "cards"})

    assert response.status_code == 302 and response.url == cards_url(session)
    assert TableLink.objects.filter(session=session, revoked_at__isnull=True).count() == 3
    assert logged_in.get(cards_url(session)).content.decode().count("<svg") == 3


def test_the_cards_page_takes_the_same_queries_with_the_links_made(logged_in, event):
    small, big = make_session(event), make_session(event, mitchell(9, 2), sections=("A", "B"))
    counts = []
    for session in (small, big):
        tables = len(table_links_ensure(session=session))
        with CaptureQueriesContext(connection) as queries:
            assert logged_in.get(cards_url(session)).content.decode().count("<svg") == tables
        counts.append(len(queries))

    assert counts[0] == counts[1]
