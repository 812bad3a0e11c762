"""Random deals: each a valid deal, repeatable with a seed, unpredictable without one."""

from collections import Counter

import pytest

from sessions.handrecords.deals import ALL_CARDS, SEATS
from sessions.handrecords.generate import random_deals
from sessions.scoring.errors import ScoringError


def test_every_deal_gives_each_seat_thirteen_of_the_52_cards():
    for deal in random_deals(20, seed=1):
        assert all(len(hand) == 13 for hand in deal.hands)
        assert sorted(card for hand in deal.hands for card in hand.cards()) == sorted(ALL_CARDS)


def test_the_same_seed_gives_the_same_deals_and_another_seed_others():
    assert random_deals(5, seed=42) == random_deals(5, seed=42)
    assert random_deals(5, seed=42) != random_deals(5, seed=43)


def test_without_a_seed_two_sessions_differ():
    # 5 deals twice alike without a seed would mean the shuffle is not random at all.
    assert random_deals(5) != random_deals(5)


def test_deals_in_a_set_differ_from_each_other():
    deals = random_deals(27, seed=7)
    assert len(set(deals)) == 27


def test_cards_are_spread_evenly_over_many_deals():
    # 400 deals hold 1600 aces, 400 expected per seat (standard deviation about 17);
    # a biased shuffle would push a seat outside these bounds, 5 deviations wide.
    aces = Counter(
        seat
        for deal in random_deals(400, seed=3)
        for seat, hand in deal.items()
        for suit, rank in hand.cards()
        if rank == "A"
    )
    assert set(aces) == set(SEATS)
    assert all(313 <= count <= 487 for count in aces.values())


def test_zero_deals_is_an_empty_list():
    assert random_deals(0) == []


@pytest.mark.parametrize("count", [-1, 2.5, "3", True])
def test_a_count_that_is_not_a_whole_number_is_refused(count):
    with pytest.raises(ScoringError, match="is not a number of deals"):
        random_deals(count)
