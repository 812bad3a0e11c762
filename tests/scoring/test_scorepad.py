"""The score pad document: reading it, changing it, scoring a night (seeds/000-001, RULES 9).
The figures of whole nights are the cases of pad_cases.json (test_pad_cases.py)."""

import pytest

from sessions.scoring.boards import Side
from sessions.scoring.errors import ScoringError
from sessions.scoring.scorepad import (
    Pad,
    add_deal,
    deal_from_json,
    deal_vulnerabilities,
    dealer_of,
    delete_deal,
    pad_from_json,
    replace_deal,
    score_pad,
    stop_round,
)

NAMES = ["Ann", "Bob", "Cat", "Dan"]
SEED_RUBBER = [
    {"declarer": "N", "contract": "2NT", "tricks": 9},
    {"declarer": "W", "contract": "4H", "tricks": 10},
    {"declarer": "W", "contract": "5C", "tricks": 9},
    {"declarer": "S", "contract": "4SX", "tricks": 11},
    {"declarer": "N", "contract": "3C", "tricks": 10},
    {"declarer": "E", "contract": "6D", "tricks": 12, "honours": "five_trumps", "honours_side": "EW"},
]


def pad(kind="rubber", era="current", rounds=(), first_dealer="N"):
    return pad_from_json({"kind": kind, "era": era, "names": NAMES, "first_dealer": first_dealer,
                          "rounds": [{"deals": list(r)} for r in rounds]})


def deal(declarer, contract, tricks, honours="", side=""):
    return deal_from_json({"declarer": declarer, "contract": contract, "tricks": tricks,
                           "honours": honours, "honours_side": side})


def test_a_finished_rubber_opens_the_next_with_the_same_names_and_the_night_adds_up():
    night = pad(rounds=[SEED_RUBBER])
    night = add_deal(night, deal("N", "4S", 10))
    night = add_deal(night, deal("S", "3NT", 9))  # WE win rubber 2: 120 + 100 + 700
    scored = score_pad(night)
    assert [len(r.round.deals) for r in scored.rounds] == [6, 2]
    assert [r.net for r in scored.rounds] == [-870, 920]
    assert scored.player_totals() == [("Ann", 50), ("Bob", -50), ("Cat", 50), ("Dan", -50)]
    assert not scored.round_open


def test_the_deal_passes_to_the_left_through_the_night():
    night = pad(rounds=[SEED_RUBBER], first_dealer="W")
    assert [dealer_of(night, n) for n in range(1, 8)] == ["W", "N", "E", "S", "W", "N", "E"]


def test_a_chicago_takes_four_deals_then_starts_the_next():
    chicago = pad(kind="chicago", first_dealer="E")
    for _ in range(5):
        chicago = add_deal(chicago, deal_from_json({"contract": "PASS"}))
    assert [len(r.deals) for r in chicago.rounds] == [4, 1]
    # Dealer E first: deal 2 is dealt by South (WE vulnerable), deal 3 by West (THEY).
    assert deal_vulnerabilities(chicago, chicago.rounds[0]) == ("None", "NS", "EW", "Both")


def test_a_correction_and_a_deletion_rescore_the_rubber():
    rubber = pad(rounds=[SEED_RUBBER])
    corrected = replace_deal(rubber, 1, 6, deal("E", "6D", 11, "five_trumps", "EW"))  # one down, vulnerable
    sheet = score_pad(corrected).rounds[0].sheet
    assert (sheet.total(Side.NS), sheet.total(Side.EW), sheet.finished) == (770 + 100, 120 + 150, False)
    assert score_pad(delete_deal(rubber, 1, 6)).round_open
    emptied = rubber
    for _ in range(6):
        emptied = delete_deal(emptied, 1, 1)
    assert emptied.rounds == ()  # a rubber without deals is gone


def test_a_correction_that_would_end_the_rubber_early_is_refused():
    rubber = pad(rounds=[[{"declarer": "N", "contract": "4S", "tricks": 10},
                          {"declarer": "E", "contract": "1C", "tricks": 7},
                          {"declarer": "N", "contract": "4S", "tricks": 10}]])
    with pytest.raises(ScoringError, match="rubber 1: deal 3 comes after the end of the rubber"):
        replace_deal(rubber, 1, 2, deal("N", "4S", 10))


def test_stopping_a_rubber_scores_the_unfinished_bonuses_and_the_next_deal_opens_a_new_one():
    rubber = stop_round(add_deal(pad(), deal("N", "4S", 10)))
    scored = score_pad(rubber)
    assert scored.rounds[0].sheet.total(scored.rounds[0].sheet.game_winners[0]) == 120 + 300
    assert len(add_deal(rubber, deal("N", "1C", 7)).rounds) == 2
    assert not stop_round(rubber, stopped=False).rounds[0].stopped


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("pad", "a score pad must be an object"),
        ({"kind": "bridge", "names": NAMES}, "a score pad is a rubber or a chicago"),
        ({"kind": "rubber", "era": "1920", "names": NAMES}, "unknown scoring era '1920'"),
        ({"kind": "rubber", "names": NAMES[:3]}, "needs four names"),
        ({"kind": "rubber", "names": ["Ann", " ", "Cat", "Dan"]}, "needs four names"),
        ({"kind": "rubber", "names": ["A" * 41, "B", "C", "D"]}, "a name is longer than 40 characters"),
        ({"kind": "rubber", "names": NAMES, "first_dealer": "X"}, "the first dealer is N, E, S or W"),
        ({"kind": "rubber", "names": NAMES, "rounds": [{"deals": [{"contract": "4S", "tricks": 10}]}]},
         "4S needs a declarer"),
        ({"kind": "rubber", "names": NAMES, "rounds": [{"deals": [{"declarer": "N", "contract": "4S", "tricks": "10"}]}]},
         "tricks must be a whole number"),
        ({"kind": "rubber", "names": NAMES, "rounds": [{"deals": [{"declarer": "N", "contract": "9S", "tricks": 10}]}]},
         "not a contract"),
        ({"kind": "chicago", "names": NAMES, "rounds": [{"deals": [{"contract": "P"}] * 5}]},
         "a Chicago has four deals, not 5"),
        ({"kind": "rubber", "names": NAMES, "rounds": [{"deals": [{"declarer": "N", "contract": "3NT", "tricks": 9,
                                                                     "honours": "four_aces"}]}]},
         "say which side held the honours"),
    ],
)
def test_a_pad_that_cannot_be_scored_is_refused_saying_why(data, message):
    with pytest.raises(ScoringError, match=message):
        pad_from_json(data)


def test_a_pad_survives_its_own_json():
    night = add_deal(pad(rounds=[SEED_RUBBER]), deal("N", "3NT", 9, "four_aces", "EW"))
    assert pad_from_json(night.as_json()) == night
    assert isinstance(night, Pad)


def test_a_change_scores_only_the_rubbers_it_touches_however_long_the_evening(monkeypatch):
    """Each change used to score the whole pad twice: an evening of 40 rubbers scored 80
    sheets a deal. Now adding a deal scores the last rubber (is it over?) and the one it
    lands in; a correction scores its own rubber."""
    from sessions.scoring import scorepad

    night = pad(rounds=[SEED_RUBBER] * 40)
    scored = []
    original = scorepad.round_sheet
    monkeypatch.setattr(scorepad, "round_sheet", lambda pad, pad_round: scored.append(pad_round) or original(
        pad, pad_round))
    night = add_deal(night, deal("N", "4S", 10))
    assert len(scored) == 2 and [len(r.deals) for r in night.rounds][-2:] == [6, 1]
    scored.clear()
    night = replace_deal(night, 3, 1, deal("N", "2NT", 10))
    assert len(scored) == 1 and score_pad(night).rounds[2].sheet.entries[0].points == 70
