"""Deals: PBN deal strings (PBN 2.1 section 3.4.11) in and out, validation, HCP, diagrams."""

import pytest

from sessions.handrecords.deals import Deal, DealError, Hand, lead_not_held, parse_deal
from sessions.scoring.boards import Seat
from sessions.scoring.errors import ScoringError

# Board 1 of the Bridgewebs Welwyn hand record.
WELWYN_1 = "N:A98.J92.A75.Q852 532.86.K632.KJT7 KQ4.AKT73.JT.A93 JT76.Q54.Q984.64"
# The standard's example hand (3.4.11) with a void: West's clubs.
WITH_VOID = "W:KQT2.AT.J6542.85 A8654.KQ5.T.QJT6 J973.J98742.3.K4 .63.AKQ987.A9732"


def test_hands_are_read_clockwise_from_the_first_seat():
    deal = parse_deal(WELWYN_1)
    assert deal["N"] == Hand("A98", "J92", "A75", "Q852")
    assert deal[Seat.E]["C"] == "KJT7"
    assert deal["S"].hearts == "AKT73"
    assert deal["W"].spades == "JT76"


def test_the_first_seat_may_be_any_seat():
    from_west = parse_deal(WITH_VOID)
    assert from_west["W"].to_pbn() == "KQT2.AT.J6542.85"
    assert from_west["N"].to_pbn() == "A8654.KQ5.T.QJT6"
    assert from_west["E"].to_pbn() == "J973.J98742.3.K4"


def test_a_void_is_an_empty_suit():
    deal = parse_deal(WITH_VOID)
    assert deal["S"].spades == ""
    assert deal["S"].lengths == (0, 2, 6, 5)


def test_writing_from_another_seat_rotates_the_hands():
    deal = parse_deal(WELWYN_1)
    assert deal.to_pbn() == WELWYN_1
    assert deal.to_pbn(first="E") == "E:532.86.K632.KJT7 KQ4.AKT73.JT.A93 JT76.Q54.Q984.64 A98.J92.A75.Q852"
    assert parse_deal(deal.to_pbn(first=Seat.W)) == deal


def test_ranks_in_any_order_lower_case_and_10_give_the_same_deal():
    messy = "n:89a.2j9.57a.258q 352.68.2k36.10kj7 kq4.a10k73.tj.a93 jt76.q54.q984.64"
    assert parse_deal(messy) == parse_deal(WELWYN_1)
    assert parse_deal(messy).to_pbn() == WELWYN_1


def test_a_dash_for_a_void_suit_is_accepted():
    dashed = WITH_VOID.replace(" .63.", " -.63.")
    assert parse_deal(dashed) == parse_deal(WITH_VOID)


def test_one_unknown_hand_is_the_cards_the_others_do_not_hold():
    three_hands = "N:A98.J92.A75.Q852 532.86.K632.KJT7 - JT76.Q54.Q984.64"
    assert parse_deal(three_hands) == parse_deal(WELWYN_1)


def test_two_unknown_hands_are_refused():
    with pytest.raises(DealError, match="does not give the hands of East and West"):
        parse_deal("N:A98.J92.A75.Q852 - KQ4.AKT73.JT.A93 -")


def test_deals_are_hashable_values():
    assert len({parse_deal(WELWYN_1), parse_deal(WELWYN_1.lower())}) == 1


def test_deal_error_is_a_scoring_error_and_a_value_error():
    assert issubclass(DealError, ScoringError)
    assert issubclass(DealError, ValueError)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # West without the 4 of clubs: short one card, and the card is named.
        ("N:A98.J92.A75.Q852 532.86.K632.KJT7 KQ4.AKT73.JT.A93 JT76.Q54.Q984.6",
         "West has 12 cards; the 4 of clubs is missing"),
        # East's 7 of clubs given to South as well.
        ("N:A98.J92.A75.Q852 532.86.K632.KJT7 KQ4.AKT73.JT.A973 JT76.Q54.Q984.64",
         r"the 7 of clubs appears twice \(East and South\); South has 14 cards"),
        ("N:A98.J92.A75.Q852 532.86.K632.KJT7 KQ4.AKT73.JT.A93 JT76.Q54.Q98X.64",
         "'X' is not a card rank"),
        ("N:A98.J92.A75.Q852 532.86.K632.KJT7 KQ4.AKT73.JT.A93",
         "a PBN deal has 4 hands separated by spaces; .* has 3"),
        ("A98.J92.A75.Q852 532.86.K632.KJT7 KQ4.AKT73.JT.A93 JT76.Q54.Q984.64",
         "starts with the first seat"),
        ("X:A98.J92.A75.Q852 532.86.K632.KJT7 KQ4.AKT73.JT.A93 JT76.Q54.Q984.64",
         "starts with the first seat"),
        ("N:A98.J92.A75Q852 532.86.K632.KJT7 KQ4.AKT73.JT.A93 JT76.Q54.Q984.64",
         "North: hand 'A98.J92.A75Q852' has 3 suits"),
        # The ace of spades held twice by North: a repeated rank within one suit.
        ("N:AA98.J92.A75.Q852 532.86.K632.KJT7 KQ4.AKT73.JT.A93 JT76.Q54.Q984.64",
         r"the ace of spades appears twice \(North\)"),
    ],
)
def test_malformed_deals_are_refused_saying_what_is_wrong(text, message):
    with pytest.raises(DealError, match=message):
        parse_deal(text)


def test_cards_moved_between_hands_name_both_hands_sizes():
    # East's 7 of clubs moved to West: no card doubled, two hands the wrong size.
    moved = "N:A98.J92.A75.Q852 532.86.K632.KJT KQ4.AKT73.JT.A93 JT76.Q54.Q984.764"
    with pytest.raises(DealError, match="^East has 12 cards; West has 14 cards$"):
        parse_deal(moved)


def test_high_card_points_count_four_three_two_one():
    assert parse_deal(WELWYN_1).hcp() == {Seat.N: 11, Seat.E: 7, Seat.S: 17, Seat.W: 5}
    assert sum(parse_deal(WITH_VOID).hcp().values()) == 40


def test_suit_lengths_spades_first():
    assert parse_deal(WELWYN_1).lengths()[Seat.S] == (3, 5, 2, 3)
    assert parse_deal(WITH_VOID)[Seat.W].lengths == (4, 2, 5, 2)


def test_diagram_gives_symbols_tens_and_a_dash_for_a_void():
    diagram = parse_deal(WITH_VOID).diagram()
    assert list(diagram) == [Seat.N, Seat.E, Seat.S, Seat.W]
    assert diagram[Seat.S] == [("♠", "—"), ("♥", "63"), ("♦", "AKQ987"), ("♣", "A9732")]
    assert diagram[Seat.W][0] == ("♠", "KQ102")
    hearts = diagram[Seat.N][1]
    assert (hearts.symbol, hearts.ranks, hearts.is_red) == ("♥", "KQ5", True)
    assert not diagram[Seat.N][0].is_red


def test_a_deal_is_immutable():
    deal = parse_deal(WELWYN_1)
    with pytest.raises(AttributeError):
        deal.north = deal.south  # type: ignore[misc]


def test_a_deal_built_from_hands_is_checked_too():
    hand = Hand("AKQJT98765432", "", "", "")
    with pytest.raises(DealError, match="appears 4 times"):
        Deal(hand, hand, hand, hand)


# --- the opening lead against the hand record -------------------------------------------


@pytest.mark.parametrize(("declarer", "lead"), [("N", "S5"), ("E", "HA"), ("S", "SJ"), ("W", "SA"), ("w", "C8")])
def test_a_lead_from_the_hand_on_declarers_left_is_accepted(declarer, lead):
    # WELWYN_1: East leads against North (532 of spades), South against East, West
    # against South, North against West.
    assert lead_not_held(WELWYN_1, declarer, lead) is None


def test_a_lead_from_another_hand_is_refused_naming_the_card_and_the_leader():
    message = lead_not_held(WELWYN_1, "N", "SA")  # North's own ace: East leads
    assert message == ("the ace of spades is not in East's hand, and East leads against North: "
                       "check the lead and the declarer")
    assert "the 10 of clubs is not in South's hand" in lead_not_held(WELWYN_1, "E", "CT")


@pytest.mark.parametrize("deal", ["", "   ", "N:AKQ.JT9 nonsense", "N:A98.J92.A75.Q852 - - -"])
def test_without_a_complete_deal_there_is_nothing_to_check(deal):
    assert lead_not_held(deal, "N", "SA") is None


def test_with_no_lead_or_no_declarer_there_is_nothing_to_check():
    assert lead_not_held(WELWYN_1, "", "SA") is None
    assert lead_not_held(WELWYN_1, "N", "") is None
