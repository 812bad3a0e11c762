"""The players' tables: sorting by a column, escaping what users typed, plain export values."""

import inspect
import re

import pytest
from django.urls import clear_script_prefix, reverse, set_script_prefix
from django.utils.html import conditional_escape

from sessions.models import Pair, Player
from sessions.pairs.selectors.public import (
    published_boards, published_pairs, published_sessions, results_sheet, scorecard_sheet, traveller_sheet,
)
from sessions.pairs.services.results import result_record
from sessions.pairs.services.sessions import session_publish
from sessions.pairs.tables import (
    RankingTable, ScorecardTable, TravellerTable, contract_html, linked_names, pk_urls,
)
from sessions.templatetags.clubscore import player_links
from tests.factories import make_session
from tests.pages import NASTY_NAME, PLAYERS


def results(client, session, **query):
    return client.get(reverse("sessions:session_results", args=[session.pk]), query).content.decode()


def test_rankings_sort_by_a_column_on_request(client, played_session, tables_of):
    north_south, _ = tables_of(results(client, played_session, sort="pair"))

    assert [row[1] for row in north_south[1:]] == ["1NS", "2NS", "3NS"]


def test_rankings_sort_descending_with_a_minus(client, played_session, tables_of):
    north_south, _ = tables_of(results(client, played_session, sort="-pair"))

    assert [row[1] for row in north_south[1:]] == ["3NS", "2NS", "1NS"]


def test_sorting_by_place_descending_turns_the_ranking_over(client, played_session, tables_of):
    _, east_west = tables_of(results(client, played_session, sort="-place"))

    assert [(row[0], row[1]) for row in east_west[1:]] == [("2=", "2EW"), ("2=", "1EW"), ("1", "3EW")]


def test_sorting_compares_percentages_as_numbers(client, played_session, tables_of):
    _, east_west = tables_of(results(client, played_session, sort="percentage"))

    assert [row[4] for row in east_west[1:]] == ["25.00", "25.00", "100.00"]


def test_a_sorted_column_says_so_in_its_header(client, played_session):
    html = results(client, played_session, sort="-percentage")

    assert 'aria-sort="descending"' in html
    assert "?sort=percentage" in html  # the link that reverses it


def test_an_unknown_sort_column_is_ignored(client, played_session, tables_of):
    response = client.get(reverse("sessions:session_results", args=[played_session.pk]), {"sort": "secret"})

    assert response.status_code == 200
    assert [row[1] for row in tables_of(response.content.decode())[0][1:]] == ["1NS", "3NS", "2NS"]


def test_a_traveller_sorts_by_the_ns_score(client, played_session, tables_of):
    url = reverse("sessions:board", args=[played_session.pk, 1])

    (traveller,) = tables_of(client.get(url, {"sort": "ns_score"}).content.decode())

    assert [row[0] for row in traveller[1:]] == ["3NS", "1NS", "2NS"]  # +450, +420, -50


def test_a_score_card_sorts_by_points(client, played_session, pair_id, tables_of):
    url = reverse("sessions:scorecard", args=[played_session.pk, pair_id(played_session, "1EW")])

    (card,) = tables_of(client.get(url, {"sort": "points"}).content.decode())

    assert [row[0] for row in card[1:-1]] == ["2", "1"]


@pytest.mark.parametrize("page_name", ["results", "own card", "opponents card"])
def test_player_names_are_escaped(client, played_session, pair_id, page_name):
    urls = {
        "results": reverse("sessions:session_results", args=[played_session.pk]),
        "own card": reverse("sessions:scorecard", args=[played_session.pk, pair_id(played_session, "3EW")]),
        "opponents card": reverse("sessions:scorecard", args=[played_session.pk, pair_id(played_session, "2NS")]),
    }

    html = client.get(urls[page_name]).content.decode()

    assert NASTY_NAME not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_club_and_event_names_are_escaped(client, played_session):
    event = played_session.event
    event.name = "<b>Pairs</b>"
    event.save()
    club = event.club
    club.name = "<i>Club</i>"
    club.save()

    home = client.get(reverse("sessions:home")).content.decode()
    session_page = results(client, played_session)

    for html in (home, session_page):
        assert "<b>Pairs</b>" not in html and "<i>Club</i>" not in html
    assert "&lt;b&gt;Pairs&lt;/b&gt;" in session_page and "&lt;i&gt;Club&lt;/i&gt;" in home


def test_contracts_and_leads_show_suit_symbols_with_their_names(client, played_session):
    html = client.get(reverse("sessions:board", args=[played_session.pk, 1])).content.decode()

    assert 'aria-label="spades">♠</span>' in html
    assert '<span class="suit red" role="img" aria-label="hearts">♥</span>K' in html


@pytest.mark.parametrize("contract, shown", [
    ("3NT", "3NT"), ("PASS", "PASS"), ("A60/40", "A60/40"), ("NS 420", "NS 420"), ("<x>", "&lt;x&gt;"),
])
def test_results_without_a_suit_are_shown_as_written(contract, shown):
    assert conditional_escape(contract_html(contract)) == shown


def export_rows(table):
    return [[row.get_cell_value(column.name) for column in table.columns] for row in table.rows]


def test_a_ranking_exports_plain_values(played_session):
    session = published_sessions().get(pk=played_session.pk)
    sheet = results_sheet(session=session)
    table = RankingTable(sheet.rankings[0].rows, session_id=session.pk, is_matchpoints=True)

    assert export_rows(table)[0] == ["1=", "1NS", "Ann Archer & Bob Baker", "6.00", "75.00", 2]


def test_linked_cells_export_their_text_without_the_link(played_session, pair_id):
    session = published_sessions().get(pk=played_session.pk)
    traveller = traveller_sheet(board=published_boards().get(session=session, number=1))
    card = scorecard_sheet(pair=published_pairs().get(pk=pair_id(played_session, "1EW")))

    lines = TravellerTable(traveller.rows, session_id=session.pk, method=traveller.method)
    boards = ScorecardTable(card.rows, session_id=session.pk, is_matchpoints=True, points_total=card.points_total)

    assert sorted(row[:2] for row in export_rows(lines)) == [["1NS", "1EW"], ["2NS", "3EW"], ["3NS", "2EW"]]
    assert [row[0] for row in export_rows(boards)] == [1, 2]


def test_a_clubs_sessions_sort_by_date(client, club, event, played_session, tables_of):
    later = make_session(event)
    later.date = played_session.date.replace(day=11)
    later.save()
    result_record(board=later.boards.get(number=1), section=later.sections.get(),
                  ns_pair="1NS", ew_pair="1EW", text="PASS")
    session_publish(session=later)
    url = reverse("sessions:club", args=[club.slug])

    newest_first = tables_of(client.get(url).content.decode())[0]
    oldest_first = tables_of(client.get(url, {"sort": "date"}).content.decode())[0]

    assert [row[0] for row in newest_first[1:]] == ["Tue 11 Mar 2025", "Tue 4 Mar 2025"]
    assert [row[0] for row in oldest_first[1:]] == ["Tue 4 Mar 2025", "Tue 11 Mar 2025"]


# --- on a phone: the columns kept, the links a thumb can hit --------------------------


def header_classes(html: str) -> dict[str, str]:
    """Each results table heading's text -> its class attribute (the last table's, on a repeat)."""
    headings = re.findall(r'<th ([^>]*)scope="col"[^>]*>\s*(?:<a [^>]*>)?(.*?)(?:</a>)?\s*</th>', html, re.S)
    return {re.sub(r"<[^>]+>", "", text).strip(): attrs for attrs, text in headings}


def player_page(name: str) -> str:
    return reverse("sessions:player", args=[Player.objects.get(name=name).pk])


def test_the_ranking_links_each_name_to_the_players_page_and_the_pair_to_its_score_card(
    client, played_session, pair_id
):
    html = results(client, played_session)

    for label, (first, second) in PLAYERS.items():
        card = reverse("sessions:scorecard", args=[played_session.pk, pair_id(played_session, label)])
        assert f'<a href="{card}">{label}</a>' in html
        assert (f'<a href="{player_page(first)}">{conditional_escape(first)}</a> &amp; '
                f'<a href="{player_page(second)}">{conditional_escape(second)}</a>') in html


def test_a_score_card_links_the_opponents_to_their_card_and_each_name_to_the_players_page(
    client, played_session, pair_id
):
    html = client.get(reverse("sessions:scorecard", args=[played_session.pk, pair_id(played_session, "1EW")])).content.decode()
    card = reverse("sessions:scorecard", args=[played_session.pk, pair_id(played_session, "1NS")])

    assert (f'<a href="{card}">1NS</a> <span class="names"><a href="{player_page("Ann Archer")}">Ann Archer</a> &amp; '
            f'<a href="{player_page("Bob Baker")}">Bob Baker</a></span>') in html


def test_a_score_cards_heading_links_the_pairs_players(client, played_session, pair_id):
    html = client.get(reverse("sessions:scorecard", args=[played_session.pk, pair_id(played_session, "1EW")])).content.decode()

    assert (f'<small><a href="{player_page("Gil Grant")}">Gil Grant</a> &amp; '
            f'<a href="{player_page("Hal Hunt")}">Hal Hunt</a></small>') in html


@pytest.mark.parametrize("page_name, phone_hides, phone_keeps", [
    ("results", ["Boards"], ["Place", "Pair", "Players", "MP", "%"]),
    ("traveller", ["By", "Lead", "Result"], ["NS", "EW", "Contract", "NS score", "EW score", "NS MP", "EW MP"]),
    ("score card", ["Sat", "By", "Lead", "Result"], ["Board", "Opps", "Contract", "Score", "MP", "%"]),
    ("club", ["Movement"], ["Date", "Session", "Event"]),
])
def test_a_phone_does_without_the_columns_a_player_needs_least(client, played_session, pair_id, page_name,
                                                                phone_hides, phone_keeps):
    url = {
        "results": reverse("sessions:session_results", args=[played_session.pk]),
        "traveller": reverse("sessions:board", args=[played_session.pk, 1]),
        "score card": reverse("sessions:scorecard", args=[played_session.pk, pair_id(played_session, "1EW")]),
        "club": reverse("sessions:club", args=[played_session.event.club.slug]),
    }[page_name]

    classes = header_classes(client.get(url).content.decode())

    assert all("wide-only" in classes[heading] for heading in phone_hides), classes
    assert not any("wide-only" in classes[heading] for heading in phone_keeps), classes


def test_a_traveller_cell_names_declarer_and_result_for_a_phone(client, played_session):
    html = client.get(reverse("sessions:board", args=[played_session.pk, 1])).content.decode()

    assert '<span class="phone-only"> N =</span>' in html and '<span class="phone-only"> N -1</span>' in html


# --- worked out once a table, not once a cell: the same page --------------------------


@pytest.mark.parametrize("viewname, args", [("sessions:scorecard", [7]), ("sessions:board", [12]), ("sessions:player", [])])
@pytest.mark.parametrize("pk", [1, 9, 10, 70, 2_000_000_000])
def test_a_link_made_by_pk_urls_is_the_one_reverse_makes(viewname, args, pk):
    assert pk_urls(viewname, *args)(pk) == reverse(viewname, args=[*args, pk])


def test_pk_urls_keep_the_requests_script_prefix():
    set_script_prefix("/results/")
    try:
        assert pk_urls("sessions:scorecard", 3)(41) == reverse("sessions:scorecard", args=[3, 41])
        assert pk_urls("sessions:scorecard", 3)(41).startswith("/results/")
    finally:
        clear_script_prefix()


def test_linked_names_are_what_the_player_links_filter_writes(played_session):
    pairs = list(Pair.objects.filter(section__session=played_session).select_related("player_1", "player_2"))
    alone = pairs[0]
    alone.player_2 = None  # a pair with one player known
    for pair in pairs:
        assert linked_names(pair, pk_urls("sessions:player")) == player_links(pair)


def test_every_cell_carries_its_columns_classes(client, played_session):
    html = results(client, played_session)

    assert html.count('<td class="names">') == 6  # the players of the 6 pairs
    assert html.count('<td class="num wide-only">') == 6  # their boards, hidden on a phone


def test_a_table_works_out_its_cells_functions_once_whatever_its_rows(rf, played_session, monkeypatch):
    """django-tables2 asks inspect.signature for a cell's render function on every cell: the
    tables give it functions that carry their signature, so nothing is worked out per cell."""
    session = published_sessions().get(pk=played_session.pk)
    rows = results_sheet(session=session).rankings[0].rows
    signature = inspect.signature

    def worked_out(rows) -> int:
        functions = []

        def spy(function, *args, **kwargs):
            if not hasattr(function, "__signature__"):
                functions.append(function)
            return signature(function, *args, **kwargs)

        monkeypatch.setattr(inspect, "signature", spy)
        RankingTable(rows, session_id=session.pk, is_matchpoints=True).as_html(rf.get("/"))
        monkeypatch.setattr(inspect, "signature", signature)
        return len(functions)

    assert worked_out(rows * 20) == worked_out(rows) <= 7  # once a column at most


def test_a_handicap_event_shows_the_handicapped_percentage_and_place_beside_the_scratch_ones(
    client, event, played_session, tables_of,
):
    event.handicap = "half"
    event.save()
    pairs = {pair.label: pair for pair in Pair.objects.filter(section__session=played_session)}
    pairs["1NS"].handicap = 20  # +10 on 1NS's scratch percentage
    pairs["1NS"].save()
    north_south, _ = tables_of(results(client, played_session))
    header = north_south[0]
    assert "Handicapped %" in header and "Handicapped place" in header
    rows = {row[header.index("Pair")]: row for row in north_south[1:]}
    scratch, handicapped = header.index("%"), header.index("Handicapped %")
    assert float(rows["1NS"][handicapped]) == pytest.approx(float(rows["1NS"][scratch]) + 10, abs=0.01)
    assert float(rows["2NS"][handicapped]) == float(rows["2NS"][scratch])


def test_a_scratch_event_shows_no_handicap_columns(client, played_session, tables_of):
    north_south, _ = tables_of(results(client, played_session))
    assert not any("Handicapped" in cell for cell in north_south[0])
