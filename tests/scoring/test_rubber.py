"""Rubber and Chicago score sheets (RULES.md section 9, seeds/000-001): what the deals and
honours refuse. The sheets' figures are the cases of pad_cases.json, which both engines
run (test_pad_cases.py here, tests/js/pad_engine.test.mjs for static/js/pad-engine.js)."""

import pytest

from sessions.scoring.boards import Side
from sessions.scoring.errors import ScoringError
from sessions.scoring.rubber import Honors, RubberDeal, chicago_vulnerability, honors_held

NS = Side.NS


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Honors(NS, 120), "honours score 100 or 150, not 120"),
        (lambda: RubberDeal("N", "3NT", 9, Honors(NS, 100)), "at notrump only the four aces score honours"),
        (lambda: RubberDeal(None, "PASS", 0, Honors(NS, 100)), "a passed-out deal scores no honours"),
        (lambda: RubberDeal(None, "4S", 10), "4S needs a declarer"),
        (lambda: RubberDeal("N", "4S", 14), "4S by N cannot take 14 tricks"),
    ],
)
def test_impossible_deals_are_refused(make, message):
    with pytest.raises(ScoringError, match=message):
        make()


def test_a_chicago_has_deals_1_to_4():
    with pytest.raises(ScoringError, match="a Chicago has deals 1 to 4, not 5"):
        chicago_vulnerability(5)


# --- honours (seeds/001: "150 points are awarded for any one hand holding all five trump
# suit honors, or all four aces in a notrump contract") ---------------------------------


@pytest.mark.parametrize(
    ("holding", "contract", "points"),
    [("four_trumps", "4S", 100), ("five_trumps", "4S", 150), ("four_aces", "6NT", 150)],
)
def test_each_holding_scores_its_honours(holding, contract, points):
    assert honors_held(holding, "NS", contract) == Honors(NS, points)


@pytest.mark.parametrize(
    ("holding", "contract", "message"),
    [
        ("four_trumps", "3NT", "at notrump there are no trump honours"),
        ("five_trumps", "1NT", "at notrump there are no trump honours"),
        ("four_aces", "4H", "the four aces score honours at notrump only"),
        ("three_kings", "4H", "unknown honours 'three_kings'"),
    ],
)
def test_holdings_that_score_no_honours_are_refused(holding, contract, message):
    with pytest.raises(ScoringError, match=message):
        honors_held(holding, "NS", contract)
