"""The players' pages show the right figures: worked out by hand in tests/pages.py."""

import datetime
import re

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from sessions.models import Session
from sessions.pairs.services.events import event_update
from sessions.pairs.services.results import result_correct, result_record
from sessions.pairs.services.sessions import session_publish
from sessions.pairs.services.sessions import session_mark_final
from tests.factories import make_club, make_event, make_session, small_howell
from tests.pages import PLAYERS, enter


def body_rows(table):
    """A table's rows without its header row (and without a footer row)."""
    return table[1:]


def results_url(session: Session) -> str:
    return reverse("sessions:session_results", args=[session.pk])


# --- home and club -------------------------------------------------------------------


def test_home_lists_the_clubs_and_sessions_that_published_results(client, played_session, unpublished_session):
    make_club(name="Quiet Club")  # nothing published: not listed

    html = client.get(reverse("sessions:home")).content.decode()

    assert reverse("sessions:club", args=[played_session.event.club.slug]) in html
    assert results_url(played_session) in html
    assert results_url(unpublished_session) not in html
    assert "Quiet Club" not in html


def test_a_club_page_lists_its_published_sessions_newest_first(client, club, event, played_session):
    later = make_session(event, pair_players=PLAYERS)
    later.date = later.date.replace(day=11)
    later.save()
    enter(later, [(1, "1NS", "1EW", "PASS", "")])
    session_publish(session=later)
    hidden = make_session(event)

    html = client.get(reverse("sessions:club", args=[club.slug])).content.decode()

    assert html.index(results_url(later)) < html.index(results_url(played_session))
    assert results_url(hidden) not in html
    assert "Tue 11 Mar 2025" in html


def test_a_club_without_published_results_says_so(client, club):
    response = client.get(reverse("sessions:club", args=[club.slug]))

    assert response.status_code == 200
    assert b"No results published yet." in response.content


# --- the results ----------------------------------------------------------------------


def test_results_show_the_session_and_how_it_was_scored(client, played_session):
    html = client.get(results_url(played_session)).content.decode()

    assert "Tuesday Pairs" in html and played_session.name in html
    assert "Tuesday 4 March 2025" in html
    assert "3-table Mitchell" in html and "Matchpoints" in html


def test_results_under_a_historical_era_say_so_and_the_traveller_shows_its_scores(client, played_session):
    """3NT S +1 on board 2 (NS vulnerable) scores 630 today and 640 under the 1932 laws
    (30 + 40 + 30 below, the fourth trick a 40)."""
    board_2 = reverse("sessions:board", args=[played_session.pk, 2])
    assert "630" in client.get(board_2).content.decode()
    assert "deals scored under" not in client.get(results_url(played_session)).content.decode()
    event_update(event=played_session.event, deal_era="1932")
    html = client.get(results_url(played_session)).content.decode()
    assert "deals scored under the" in html and "1932 laws" in html
    assert reverse("sessions:score_table") + "?era=1932" in html
    traveller = client.get(board_2).content.decode()
    assert "640" in traveller and "630" not in traveller


def test_a_mitchell_ranks_north_south_and_east_west_apart_with_ties(client, played_session, tables_of):
    html = client.get(results_url(played_session)).content.decode()
    north_south, east_west = tables_of(html)

    assert html.index("North-South") < html.index("East-West")
    assert north_south[0] == ["Place", "Pair", "Players", "MP", "%", "Boards"]
    assert body_rows(north_south) == [
        ["1=", "1NS", "Ann Archer & Bob Baker", "6.00", "75.00", "2"],
        ["1=", "3NS", "Eve Evans & Fay Ford", "6.00", "75.00", "2"],
        ["3", "2NS", "Cat Cole & Dan Dale", "0.00", "0.00", "2"],
    ]
    assert [row[:2] + row[3:5] for row in body_rows(east_west)] == [
        ["1", "3EW", "8.00", "100.00"],
        ["2=", "1EW", "2.00", "25.00"],
        ["2=", "2EW", "2.00", "25.00"],
    ]


def test_a_howell_has_one_ranking(client, event, tables_of):
    """Board 1 of the 8-pair Howell, top 6: 3 (NS +450) 6; 8 and 5 (NS +420) 3 each;
    7 (NS -50) 0; EW: 2 6, 6 and 1 3 each, 4 0."""
    session = make_session(event, small_howell())
    enter(session, [
        (1, "8", "6", "4S N =", ""), (1, "5", "1", "4S N =", ""),
        (1, "3", "4", "4S N +1", ""), (1, "7", "2", "4S N -1", ""),
    ])
    session_publish(session=session)

    html = client.get(results_url(session)).content.decode()
    (ranking,) = tables_of(html)

    assert "All pairs" in html and "North-South" not in html
    assert [(row[0], row[1], row[4]) for row in body_rows(ranking)] == [
        ("1=", "2", "100.00"), ("1=", "3", "100.00"),
        ("3=", "1", "50.00"), ("3=", "5", "50.00"), ("3=", "6", "50.00"), ("3=", "8", "50.00"),
        ("7=", "4", "0.00"), ("7=", "7", "0.00"),
    ]


def test_an_imp_event_shows_imps_and_the_average(client, butler_session, tables_of):
    html = client.get(results_url(butler_session)).content.decode()
    north_south, _ = tables_of(html)

    assert "Butler IMPs" in html
    assert north_south[0] == ["Place", "Pair", "Players", "IMPs", "Average", "Boards"]
    assert [(row[0], row[1], row[3], row[4]) for row in body_rows(north_south)] == [
        ("1", "3NS", "5.00", "5.00"), ("2", "1NS", "4.00", "4.00"), ("3", "2NS", "-8.00", "-8.00"),
    ]


def test_each_pair_links_to_its_score_card_and_each_board_to_its_traveller(client, played_session, pair_id):
    html = client.get(results_url(played_session)).content.decode()

    for label in PLAYERS:
        assert reverse("sessions:scorecard", args=[played_session.pk, pair_id(played_session, label)]) in html
    for number in range(1, 7):
        assert f'href="{reverse("sessions:board", args=[played_session.pk, number])}"' in html


# --- the traveller --------------------------------------------------------------------


def board_url(session: Session, number: int) -> str:
    return reverse("sessions:board", args=[session.pk, number])


def test_a_traveller_shows_every_line_with_its_matchpoints(client, played_session, tables_of):
    html = client.get(board_url(played_session, 1)).content.decode()
    (traveller,) = tables_of(html)

    assert "Board 1" in html and "Dealer <strong>North</strong>" in html and "Vulnerable: <strong>None</strong>" in html
    assert traveller[0] == [
        "NS", "EW", "Contract", "By", "Lead", "Result", "NS score", "EW score", "NS MP", "EW MP",
    ]
    # The contract cell repeats declarer and result for a phone, which hides their columns.
    assert body_rows(traveller) == [
        ["1NS", "1EW", "4♠ N =", "N", "♥K", "=", "420", "", "2.00", "2.00"],
        ["2NS", "3EW", "4♠ N -1", "N", "", "-1", "", "50", "0.00", "4.00"],
        ["3NS", "2EW", "4♠ N +1", "N", "", "+1", "450", "", "4.00", "0.00"],
    ]


def test_a_traveller_shows_the_vulnerability_of_the_board(client, played_session):
    html = client.get(board_url(played_session, 2)).content.decode()

    assert "Dealer <strong>East</strong>" in html and "Vulnerable: <strong>North-South</strong>" in html


def test_a_short_board_is_factored_to_the_full_top(client, played_session, tables_of):
    """Board 3 played twice where three results are usual: Neuberg (M + 1) x 3 / 2 - 1,
    so +110 (M = 2) scores 3.50 and -50 (M = 0) scores 0.50 of the top of 4."""
    enter(played_session, [(3, "1NS", "3EW", "2S N =", ""), (3, "2NS", "2EW", "2S N -1", "")])

    html = client.get(board_url(played_session, 3)).content.decode()

    assert [row[-2:] for row in body_rows(tables_of(html)[0])] == [["3.50", "0.50"], ["0.50", "3.50"]]


def test_a_butler_traveller_shows_the_datum(client, butler_session, tables_of):
    (traveller,) = tables_of(client.get(board_url(butler_session, 1)).content.decode())

    assert traveller[0][-3:] == ["NS IMPs", "EW IMPs", "Datum"]
    assert [row[-3:] for row in body_rows(traveller)] == [
        ["4.00", "-4.00", "270"], ["-8.00", "8.00", "270"], ["5.00", "-5.00", "270"],
    ]


def test_a_traveller_without_butler_has_no_datum(client, played_session):
    assert b"Datum" not in client.get(board_url(played_session, 1)).content


def test_a_traveller_links_to_the_pairs_and_the_boards_either_side(client, played_session, pair_id):
    first = client.get(board_url(played_session, 1)).content.decode()
    middle = client.get(board_url(played_session, 3)).content.decode()
    last = client.get(board_url(played_session, 6)).content.decode()

    assert reverse("sessions:scorecard", args=[played_session.pk, pair_id(played_session, "3EW")]) in first
    assert board_url(played_session, 2) in first and 'rel="prev"' not in first
    assert board_url(played_session, 2) in middle and board_url(played_session, 4) in middle
    assert board_url(played_session, 5) in last and 'rel="next"' not in last


def test_a_traveller_leaves_room_for_the_hand_analysis_above_it():
    text = (settings.BASE_DIR / "templates" / "pairs" / "public" / "board.html").read_text()

    assert text.index("{% block board_analysis %}") < text.index("{% render_table table %}")


def test_a_board_nobody_has_played_yet_has_an_empty_traveller(client, played_session):
    response = client.get(board_url(played_session, 5))

    assert response.status_code == 200 and b"No result entered." in response.content


# --- the score card -------------------------------------------------------------------


def scorecard_url(session: Session, pair: int) -> str:
    return reverse("sessions:scorecard", args=[session.pk, pair])


def test_a_score_card_shows_each_board_from_the_pairs_side(client, played_session, pair_id, tables_of):
    html = client.get(scorecard_url(played_session, pair_id(played_session, "1EW"))).content.decode()
    (card,) = tables_of(html)

    assert "Pair 1EW" in html and "Gil Grant</a> &amp; <a" in html
    assert card[0] == ["Board", "Sat", "Opps", "Contract", "By", "Lead", "Result", "Score", "MP", "%"]
    # The contract cell repeats declarer and result for a phone, which hides their columns.
    assert body_rows(card) == [
        ["1", "EW", "1NS Ann Archer & Bob Baker", "4♠ N =", "N", "♥K", "=", "-420", "2.00", "50.00"],
        ["2", "EW", "1NS Ann Archer & Bob Baker", "3NT S +1", "S", "", "+1", "-630", "0.00", "0.00"],
        ["Total", "", "", "", "", "", "", "", "2.00", "25.00"],
    ]


def test_a_score_card_gives_the_pairs_place_in_its_field(client, played_session, pair_id):
    html = client.get(scorecard_url(played_session, pair_id(played_session, "1EW"))).content.decode()

    assert '<strong class="place">2=</strong> of 3 (East-West)' in html
    assert "<strong>25.00%</strong>, 2.00 MP" in html


def test_a_score_card_for_a_north_south_pair(client, played_session, pair_id, tables_of):
    html = client.get(scorecard_url(played_session, pair_id(played_session, "3NS"))).content.decode()
    (card,) = tables_of(html)

    assert [(row[0], row[1], row[7], row[8], row[9]) for row in body_rows(card)] == [
        ("1", "NS", "+450", "4.00", "100.00"), ("2", "NS", "+600", "2.00", "50.00"),
        ("Total", "", "", "6.00", "75.00"),
    ]
    assert '<strong class="place">1=</strong> of 3 (North-South)' in html


def test_a_score_card_of_a_pair_that_sat_out_says_how_its_total_was_scaled(client, played_session, pair_id,
                                                                          tables_of):
    """Boards 3 and 4 played at two of their three tables (3NS v 1EW did not play them):
    3NS and 1EW played 2 boards, the others of their fields 4. 3NS's lines add up to
    4 + 2 = 6 MP; its total is scaled to the field's 4 boards: 6 x 4/2 = 12 MP (RULES 4)."""
    enter(played_session, [
        (3, "2NS", "2EW", "2H N =", ""), (3, "1NS", "3EW", "2H N +1", ""),
        (4, "2NS", "2EW", "1NT S =", ""), (4, "1NS", "3EW", "1NT S -1", ""),
    ])
    html = client.get(scorecard_url(played_session, pair_id(played_session, "3NS"))).content.decode()
    (card,) = tables_of(html)

    assert body_rows(card)[-1][8] == "6.00"  # the card's lines, as played
    assert "<strong>75.00%</strong>, 12.00 MP" in html
    assert "6.00 MP on 2 boards, scaled to 4 boards: 12.00 MP" in html
    east_west = client.get(scorecard_url(played_session, pair_id(played_session, "1EW"))).content.decode()
    assert "2.00 MP on 2 boards, scaled to 4 boards: 4.00 MP" in east_west
    full = client.get(scorecard_url(played_session, pair_id(played_session, "1NS"))).content.decode()
    assert "scaled to" not in full  # 1NS played the 4 boards: nothing to scale


def test_an_imp_score_card_totals_the_imps(client, butler_session, pair_id, tables_of):
    html = client.get(scorecard_url(butler_session, pair_id(butler_session, "2NS"))).content.decode()
    (card,) = tables_of(html)

    assert card[0][-1] == "IMPs"
    assert body_rows(card)[-1][-1] == "-8.00"
    assert "<strong>-8.00 IMPs</strong>, average -8.00" in html


def test_a_score_card_links_to_the_boards_and_the_opponents(client, played_session, pair_id):
    html = client.get(scorecard_url(played_session, pair_id(played_session, "1EW"))).content.decode()

    assert board_url(played_session, 1) in html and board_url(played_session, 2) in html
    assert scorecard_url(played_session, pair_id(played_session, "1NS")) in html


@pytest.mark.parametrize("url_name", ["session_results", "board", "scorecard"])
def test_the_pages_lead_back_to_the_club_and_the_session(client, played_session, pair_id, url_name):
    args = {
        "session_results": [played_session.pk],
        "board": [played_session.pk, 1],
        "scorecard": [played_session.pk, pair_id(played_session, "1NS")],
    }[url_name]

    html = client.get(reverse(f"sessions:{url_name}", args=args)).content.decode()

    assert reverse("sessions:club", args=[played_session.event.club.slug]) in html
    assert results_url(played_session) in html


def test_two_sections_are_ranked_apart(client, club, tables_of):
    session = make_session(make_event(club), sections=("A", "B"))
    for letter in ("A", "B"):
        section = session.sections.get(letter=letter)
        result_record(board=session.boards.get(number=1), section=section, ns_pair="1NS", ew_pair="1EW",
                      text="4S N =")
    session_publish(session=session)

    html = client.get(results_url(session)).content.decode()

    titles = ["Section A North-South", "Section A East-West", "Section B North-South", "Section B East-West"]
    assert [html.index(title) for title in titles] == sorted(html.index(title) for title in titles)
    assert len(tables_of(html)) == 4


# --- downloads ------------------------------------------------------------------------


def download_links(html: str) -> list[str]:
    """The hrefs of the export buttons, which sit in a section the printer leaves out."""
    section = html.split('<section class="downloads no-print">')[1].split("</section>")[0]
    return re.findall(r'href="([^"]+)" download', section)


def test_the_results_page_offers_a_final_session_for_download_to_anyone(client, played_session):
    session_mark_final(session=played_session)
    links = download_links(client.get(results_url(played_session)).content.decode())

    assert links == [
        reverse("sessions:transfer_export", args=[played_session.pk, fmt]) for fmt in ("xlsx", "csv", "usebio", "pbn")
    ]
    for link in links:
        response = client.get(link)  # anonymous
        assert response.status_code == 200, link
        assert response["Content-Disposition"].startswith("attachment; filename=")
        assert response.content


def test_the_traveller_and_score_card_pages_offer_the_same_downloads(client, played_session, pair_id):
    session_mark_final(session=played_session)
    expected = download_links(client.get(results_url(played_session)).content.decode())
    pages = [
        reverse("sessions:board", args=[played_session.pk, 1]),
        reverse("sessions:scorecard", args=[played_session.pk, pair_id(played_session, "1NS")]),
    ]
    for page in pages:
        assert download_links(client.get(page).content.decode()) == expected, page


def test_a_provisional_session_offers_no_downloads_until_final(client, played_session, pair_id):
    """The files would carry the hands and the ranking that provisional pages hide."""
    pages = [
        results_url(played_session),
        reverse("sessions:board", args=[played_session.pk, 1]),
        reverse("sessions:scorecard", args=[played_session.pk, pair_id(played_session, "1NS")]),
    ]
    for page in pages:
        html = client.get(page).content.decode()
        assert download_links(html) == [], page
        assert "The results can be downloaded once the director marks the session final." in html, page


# --- provisional, final, amended --------------------------------------------------------------

PROVISIONAL = "Provisional results</strong>: they may still change until the director marks the session final."


def public_pages(session, pair):
    return [
        results_url(session),
        reverse("sessions:board", args=[session.pk, 1]),
        reverse("sessions:scorecard", args=[session.pk, pair]),
    ]


def test_the_pages_of_a_session_not_yet_final_say_provisional(client, played_session, pair_id):
    for url in public_pages(played_session, pair_id(played_session, "1NS")):
        assert PROVISIONAL in client.get(url).content.decode(), url


def test_the_pages_of_a_final_session_do_not(client, played_session, pair_id):
    session_mark_final(session=played_session)

    for url in public_pages(played_session, pair_id(played_session, "1NS")):
        html = client.get(url).content.decode()
        assert "Provisional" not in html and 'class="session-status"' not in html, url


def test_the_results_page_reloads_itself_until_the_session_is_final(client, played_session):
    assert '<meta http-equiv="refresh" content="60">' in client.get(results_url(played_session)).content.decode()

    session_mark_final(session=played_session)

    assert 'http-equiv="refresh"' not in client.get(results_url(played_session)).content.decode()


def test_during_play_the_ranking_shows_while_provisional(client, played_session, tables_of):
    html = client.get(results_url(played_session)).content.decode()

    assert PROVISIONAL in html and len(tables_of(html)) == 2  # NS and EW
    assert "The ranking is shown once" not in html


@pytest.fixture
def ranked_at_the_end(played_session):
    event_update(event=played_session.event, live_rankings="end")
    return Session.objects.get(pk=played_session.pk)


def test_ranked_at_the_end_the_ranking_is_hidden_until_final(client, ranked_at_the_end, tables_of, pair_id):
    html = client.get(results_url(ranked_at_the_end)).content.decode()

    assert tables_of(html) == [] and "The ranking is shown once the director marks the session final" in html
    assert "No result entered." not in html
    assert reverse("sessions:board", args=[ranked_at_the_end.pk, 1]) in html  # the travellers stay open
    card = client.get(scorecard_url(ranked_at_the_end, pair_id(ranked_at_the_end, "1NS"))).content.decode()
    assert "Place <strong" not in card and "place and percentage are shown once" in card
    (rows,) = tables_of(card)
    assert rows[-1][-1] == ""  # no session percentage under the card


def test_ranked_at_the_end_the_ranking_shows_once_final(client, ranked_at_the_end, tables_of, pair_id):
    session_mark_final(session=ranked_at_the_end)

    html = client.get(results_url(ranked_at_the_end)).content.decode()
    assert len(tables_of(html)) == 2 and "The ranking is shown once" not in html
    card = client.get(scorecard_url(ranked_at_the_end, pair_id(ranked_at_the_end, "1NS"))).content.decode()
    assert "Place <strong" in card


def test_a_correction_after_publication_shows_amended_with_the_time(client, played_session, pair_id):
    assert "Amended" not in client.get(results_url(played_session)).content.decode()
    line = played_session.boards.get(number=1).results.get(ns_pair__number=1)

    result_correct(result=line, text="4S N +1", version=line.version)

    amended = Session.objects.get(pk=played_session.pk).amended_at
    shown = timezone.localtime(amended).strftime("%-d %B %Y, %H:%M")
    for url in public_pages(played_session, pair_id(played_session, "1NS")):
        html = client.get(url).content.decode()
        assert f'Amended <time datetime="{timezone.localtime(amended).isoformat()}">{shown}</time>' in html, url
    assert amended - timezone.now() < datetime.timedelta(minutes=1)
