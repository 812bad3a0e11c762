"""What the players' pages read: published objects only, lines seen from each side."""

import datetime

import pytest

from sessions.models import Session
from sessions.pairs.selectors.public import (
    club_sessions,
    clubs_with_results,
    field_title,
    latest_sessions,
    published_boards,
    published_pairs,
    published_sessions,
    results_sheet,
    scorecard_sheet,
    traveller_sheet,
)
from sessions.pairs.services.results import result_record
from sessions.pairs.services.sessions import session_publish
from tests.factories import make_club, make_event, make_session, small_howell


def record(session: Session, number: int, ns: str, ew: str, text: str, lead: str = "") -> None:
    result_record(board=session.boards.get(number=number), section=session.sections.get(),
                  ns_pair=ns, ew_pair=ew, text=text, lead=lead)


@pytest.fixture
def published(session) -> Session:
    """The root conftest's 3-table Mitchell with board 1 played three ways."""
    record(session, 1, "1NS", "1EW", "4SX N =", "HK")
    record(session, 1, "3NS", "2EW", "PASS")
    record(session, 1, "2NS", "3EW", "A60/40")
    return session_publish(session=session)


# --- published objects ---------------------------------------------------------------


def test_only_published_sessions_boards_and_pairs_are_found(published, event):
    hidden = make_session(event)

    assert list(published_sessions()) == [published]
    assert {board.session_id for board in published_boards()} == {published.pk}
    assert {pair.section.session_id for pair in published_pairs()} == {published.pk}
    assert hidden not in club_sessions(club=event.club)


def test_a_club_with_several_published_sessions_is_listed_once(published, event):
    second = make_session(event)
    record(second, 1, "1NS", "1EW", "PASS")
    session_publish(session=second)
    make_club(name="Quiet Club")

    assert [club.name for club in clubs_with_results()] == ["Home Club"]


def test_latest_sessions_are_newest_first_across_clubs(published):
    other = make_session(make_event(make_club(name="Other Club")))
    other.date = published.date + datetime.timedelta(days=1)
    other.save()
    record(other, 1, "1NS", "1EW", "PASS")
    session_publish(session=other)

    assert list(latest_sessions()) == [other, published]
    assert list(latest_sessions(limit=1)) == [other]


@pytest.mark.parametrize("field, title", [
    ("NS", "North-South"), ("EW", "East-West"), ("", "All pairs"),
    ("A NS", "Section A North-South"), ("B EW", "Section B East-West"), ("B", "Section B"),
])
def test_ranking_fields_have_readable_titles(field, title):
    assert field_title(field) == title


# --- lines ----------------------------------------------------------------------------


def loaded(session: Session) -> Session:
    return published_sessions().get(pk=session.pk)


def test_traveller_rows_split_a_played_result_into_its_parts(published):
    board = published_boards().get(session=published, number=1)

    rows = traveller_sheet(board=board).rows

    assert [(row.ns_pair.label, row.contract, row.declarer, row.outcome) for row in rows] == [
        ("1NS", "4SX", "N", "="), ("2NS", "A60/40", "", ""), ("3NS", "PASS", "", ""),
    ]


def test_a_traveller_knows_the_boards_either_side(published):
    first, last = (published_boards().get(session=published, number=n) for n in (1, 6))

    assert (traveller_sheet(board=first).previous, traveller_sheet(board=first).next) == (None, 2)
    assert (traveller_sheet(board=last).previous, traveller_sheet(board=last).next) == (5, None)


def test_the_results_sheet_lists_the_boards_and_ranks_north_south_first(published):
    sheet = results_sheet(session=loaded(published))

    assert sheet.boards == [1, 2, 3, 4, 5, 6]
    assert [ranking.title for ranking in sheet.rankings] == ["North-South", "East-West"]
    assert sheet.is_matchpoints


def test_a_howell_card_follows_the_pair_from_north_south_to_east_west(event):
    """Pair 1 sits EW against 5 on board 1 and NS against 2 on board 3."""
    session = make_session(event, small_howell())
    record(session, 1, "5", "1", "4S N =")
    record(session, 3, "1", "2", "4S N -1")
    session_publish(session=session)
    pair = published_pairs().get(section__session=session, number=1)

    card = scorecard_sheet(pair=pair)

    assert [(row.board, row.side, row.opponents.label, row.score) for row in card.rows] == [
        (1, "EW", "5", -420), (3, "NS", "2", -50),
    ]
    assert card.field_title == "All pairs"


def test_a_pair_without_a_scored_board_has_no_standing_yet(event):
    session = make_session(event)
    record(session, 1, "1NS", "1EW", "4S N =")
    session_publish(session=session)
    pair = published_pairs().get(section__session=session, number=2, direction="EW")

    card = scorecard_sheet(pair=pair)

    assert card.rows == [] and card.standing is None and card.points_total == 0


def test_an_artificial_score_counts_on_the_card_but_has_no_score(published):
    pair = published_pairs().get(section__session=published, number=2, direction="NS")

    (row,) = scorecard_sheet(pair=pair).rows

    assert row.score is None
    assert row.percent == 60 and row.points == row.line.scored.top * 60 / 100


# --- queries --------------------------------------------------------------------------


def test_the_sheets_take_a_fixed_number_of_queries(published, django_assert_num_queries):
    session = loaded(published)
    board = published_boards().get(session=published, number=1)
    pair = published_pairs().get(section__session=published, number=1, direction="NS")

    with django_assert_num_queries(3):  # pairs, lines (rows), board numbers
        results_sheet(session=session)
    with django_assert_num_queries(4):  # pairs, lines (rows), board numbers, the board's lines when read
        list(traveller_sheet(board=board).rows)
    with django_assert_num_queries(3):  # pairs, lines (rows), the pair's lines
        scorecard_sheet(pair=pair)
