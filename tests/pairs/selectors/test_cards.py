"""Table guide cards and pair cards, read off the stored seatings, in two queries.

The conftest session is a 3-table Mitchell of 2 boards a round. By hand: NS pairs stay,
EW pair e starts at table e and moves up a table a round (3 -> 1), board set s (boards
2s-1, 2s) starts at table s and moves down a table (1 -> 3):

round 1   table 1: 1NS v 1EW, 1-2   table 2: 2NS v 2EW, 3-4   table 3: 3NS v 3EW, 5-6
round 2   table 1: 1NS v 3EW, 3-4   table 2: 2NS v 1EW, 5-6   table 3: 3NS v 2EW, 1-2
round 3   table 1: 1NS v 2EW, 5-6   table 2: 2NS v 3EW, 1-2   table 3: 3NS v 1EW, 3-4
"""

import pytest

from sessions.movements import mitchell
from sessions.pairs.selectors.cards import session_cards
from tests.factories import make_session


def table_lines(cards, table, section="A"):
    card = next(c for c in cards.tables if (c.section.letter, c.table) == (section, table))
    return [
        (line.round, line.seating.ns_pair.label, line.seating.ew_pair.label, line.boards,
         line.ns_next, line.ew_next, line.boards_next)
        if line.seating else (line.round, None)
        for line in card.lines
    ]


def pair_lines(cards, label, section="A"):
    card = next(c for c in cards.pairs if (c.pair.section.letter, c.pair.label) == (section, label))
    return [line.text() for line in card.lines]


def test_a_table_card_says_who_plays_which_boards_and_where_pairs_and_boards_go(session):
    cards = session_cards(session=session)

    assert table_lines(cards, 1) == [
        (1, "1NS", "1EW", "1-2", "stays", "table 2 EW", "table 3"),
        (2, "1NS", "3EW", "3-4", "stays", "table 2 EW", "table 3"),
        (3, "1NS", "2EW", "5-6", "", "", ""),  # the last round: nobody moves
    ]
    assert table_lines(cards, 3)[0] == (1, "3NS", "3EW", "5-6", "stays", "table 1 EW", "table 2")


def test_a_pair_card_gives_table_direction_opponents_and_boards_each_round(session):
    cards = session_cards(session=session)

    assert pair_lines(cards, "1EW") == [
        "Round 1: table 1 EW v 1NS, boards 1-2",
        "Round 2: table 2 EW v 2NS, boards 5-6",
        "Round 3: table 3 EW v 3NS, boards 3-4",
    ]
    assert pair_lines(cards, "2NS") == [
        "Round 1: table 2 NS v 2EW, boards 3-4",
        "Round 2: table 2 NS v 1EW, boards 5-6",
        "Round 3: table 2 NS v 3EW, boards 1-2",
    ]


def test_every_table_and_every_pair_has_a_card(session):
    cards = session_cards(session=session)

    assert [card.table for card in cards.tables] == [1, 2, 3]
    assert sorted(card.pair.label for card in cards.pairs) == ["1EW", "1NS", "2EW", "2NS", "3EW", "3NS"]


def test_with_a_missing_pair_its_table_is_empty_and_its_opponents_sit_out(event):
    # 3NS missing: table 3 never plays; the EW pair due there sits out (3EW, then 2EW, then 1EW).
    session = make_session(event, mitchell(3, 2, phantom="3NS"))

    cards = session_cards(session=session)

    assert table_lines(cards, 3) == [(1, None), (2, None), (3, None)]
    assert pair_lines(cards, "3EW") == [
        "Round 1: sit out",
        "Round 2: table 1 EW v 1NS, boards 3-4",
        "Round 3: table 2 EW v 2NS, boards 1-2",
    ]
    # 2EW moves to the empty table 3 for round 2; boards 1-2 go there and are not played.
    assert table_lines(cards, 2)[0][5] == "sits out"
    assert table_lines(cards, 1)[0][6] == "not played next round"


def test_a_relay_shares_boards_between_two_tables_and_rests_a_set_on_the_bye_stand(event):
    # 4-table relay-and-bye: tables 1 and 4 share a set; set 3 starts on the bye stand.
    # Round 1: table 1 and 4 set 1, table 2 set 2, table 3 set 4. Sets move down one place
    # (table 1, table 2, bye stand, table 3): round 2 has set 2 at tables 1 and 4, set 3
    # at table 2, set 1 at table 3, set 4 on the bye stand.
    session = make_session(event, mitchell(4, 2))

    cards = session_cards(session=session)

    assert [table_lines(cards, t)[0][3] for t in (1, 2, 3, 4)] == ["1-2", "3-4", "7-8", "1-2"]
    assert table_lines(cards, 1)[0][6] == "table 3"
    assert table_lines(cards, 2)[0][6] == "tables 1 and 4"
    assert table_lines(cards, 3)[0][6] == "not played next round"


def test_several_sections_name_their_tables_with_the_letter(event):
    session = make_session(event, sections=("A", "B"))

    cards = session_cards(session=session)

    assert cards.several_sections
    assert len(cards.tables) == 6 and len(cards.pairs) == 12
    assert table_lines(cards, 1, "B")[0][5] == "table B2 EW"


@pytest.mark.parametrize("tables", [3, 9])
def test_the_cards_take_three_queries_whatever_the_size(event, tables, django_assert_num_queries):
    session = make_session(event, mitchell(tables, 2), sections=("A", "B"))

    # the seatings with their pairs; the pairs with their players; the tables' live phone links
    with django_assert_num_queries(3):
        cards = session_cards(session=session)
        [card.pair.names for card in cards.pairs]
        [line.seating.ns_pair.label for card in cards.tables for line in card.lines if line.seating]
        [card.link and card.link.token for card in cards.tables]
