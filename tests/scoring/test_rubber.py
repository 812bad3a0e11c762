"""Rubber and Chicago score sheets (RULES.md section 9, seeds/000-001)."""

import pytest

from sessions.scoring.boards import Seat, Side, Vulnerability
from sessions.scoring.errors import ScoringError
from sessions.scoring.rubber import (
    Honors,
    RubberDeal,
    SheetEntry,
    chicago_sheet,
    chicago_vulnerability,
    rubber_sheet,
)

NS, EW = Side.NS, Side.EW

# seeds/000 "An example rubber": declarer, contract, tricks taken, honors.
SEED_RUBBER = [
    RubberDeal("N", "2NT", 9),                        # made 3
    RubberDeal("W", "4H", 10),                        # made 4
    RubberDeal("W", "5C", 9),                         # down 2, vulnerable
    RubberDeal("S", "4SX", 11),                       # made 5, not vulnerable
    RubberDeal("N", "3C", 10),                        # made 4
    RubberDeal("E", "6D", 12, Honors(EW, 150)),       # small slam, all five honors
]

# After each deal: (NS above, NS below per game, EW above, EW below per game, games NS, games EW),
# read from the seed's panels and narrative.
SEED_PROGRESS = [
    (30, (70,), 0, (0,), 0, 0),
    (30, (70, 0), 0, (120, 0), 0, 1),              # EW game; NS's 70 cut off
    (230, (70, 0), 0, (120, 0), 0, 1),             # 200 penalty, EW vulnerable
    (380, (70, 240, 0), 0, (120, 0, 0), 1, 1),     # 240 below, 100 + 50 above
    (400, (70, 240, 60), 0, (120, 0, 0), 1, 1),
    (400, (70, 240, 60), 1400, (120, 0, 120), 1, 2),  # 750 slam + 150 honors + 500 rubber
]


@pytest.mark.parametrize("deals_played", range(1, 7))
def test_seed_rubber_sheet_after_each_deal(deals_played):
    sheet = rubber_sheet(SEED_RUBBER[:deals_played])
    ns_above, ns_below, ew_above, ew_below, ns_games, ew_games = SEED_PROGRESS[deals_played - 1]
    assert (sheet.above(NS), sheet.below_by_game(NS)) == (ns_above, ns_below)
    assert (sheet.above(EW), sheet.below_by_game(EW)) == (ew_above, ew_below)
    assert (sheet.games_won(NS), sheet.games_won(EW)) == (ns_games, ew_games)
    assert sheet.finished is (deals_played == 6)


def test_seed_rubber_ends_770_to_1640_with_a_slow_rubber():
    sheet = rubber_sheet(SEED_RUBBER)
    assert (sheet.total(NS), sheet.total(EW)) == (770, 1640)
    assert sheet.entries[-1] == SheetEntry(None, EW, 500, "rubber bonus")
    assert sheet.game_winners == (EW, NS, EW)


def test_seed_rubber_deal_columns():
    entries = rubber_sheet(SEED_RUBBER).entries
    by_deal = {}
    for entry in entries:
        by_deal.setdefault(entry.deal, []).append((entry.side, entry.label, entry.points, entry.below_the_line))
    assert by_deal[1] == [(NS, "contract points", 70, True), (NS, "overtricks", 30, False)]
    assert by_deal[3] == [(NS, "undertricks", 200, False)]
    assert by_deal[4] == [(NS, "contract points", 240, True), (NS, "overtricks", 100, False),
                          (NS, "insult", 50, False)]
    assert by_deal[6] == [(EW, "contract points", 120, True), (EW, "slam bonus", 750, False),
                          (EW, "honours", 150, False)]


def test_fast_rubber_scores_700():
    sheet = rubber_sheet([RubberDeal("N", "4S", 10), RubberDeal("S", "3NT", 9)])
    assert sheet.finished and sheet.games_won(NS) == 2
    assert sheet.entries[-1] == SheetEntry(None, NS, 700, "rubber bonus")
    assert (sheet.total(NS), sheet.total(EW)) == (120 + 100 + 700, 0)


def test_undertricks_depend_on_games_won():
    before = rubber_sheet([RubberDeal("W", "5C", 9)])
    after = rubber_sheet([RubberDeal("W", "4H", 10), RubberDeal("W", "5C", 9)])
    assert before.above(NS) == 100 and after.above(NS) == 200


def test_part_scores_are_cut_off_by_a_game_and_then_accumulate():
    deals = [
        RubberDeal("N", "2S", 8),     # NS 60
        RubberDeal("E", "4H", 10),    # EW game: NS's 60 cut off
        RubberDeal("S", "2S", 8),     # NS 60 in game 2: no game yet
    ]
    sheet = rubber_sheet(deals)
    assert sheet.below_by_game(NS) == (60, 60) and sheet.games_won(NS) == 0
    more = rubber_sheet([*deals, RubberDeal("N", "1NT", 7)])  # 60 + 40 completes game 2
    assert more.below_by_game(NS) == (60, 100, 0) and more.games_won(NS) == 1
    assert more.total(NS) == 60 + 60 + 40  # the cut-off 60 still counts in the total


def test_unfinished_rubber_gives_300_for_the_only_game_and_100_for_the_only_part_score():
    deals = [RubberDeal("N", "4S", 10), RubberDeal("E", "3D", 9)]
    sheet = rubber_sheet(deals, abandoned=True)
    assert sheet.finished
    assert SheetEntry(None, NS, 300, "unfinished rubber: game") in sheet.entries
    assert SheetEntry(None, EW, 100, "unfinished rubber: part-score") in sheet.entries
    assert (sheet.total(NS), sheet.total(EW)) == (120 + 300, 60 + 100)


def test_unfinished_rubber_without_abandoning_has_no_bonus():
    sheet = rubber_sheet([RubberDeal("N", "4S", 10)])
    assert not sheet.finished and sheet.total(NS) == 120


def test_unfinished_rubber_at_one_game_all_with_two_part_scores_gives_nothing():
    deals = [RubberDeal("N", "4S", 10), RubberDeal("E", "4H", 10), RubberDeal("S", "2C", 8),
             RubberDeal("W", "2D", 8)]
    sheet = rubber_sheet(deals, abandoned=True)
    assert [e for e in sheet.entries if e.deal is None] == []


def test_no_deal_after_the_end_of_the_rubber():
    with pytest.raises(ScoringError, match="deal 3 comes after the end of the rubber"):
        rubber_sheet([RubberDeal("N", "4S", 10), RubberDeal("N", "4S", 10), RubberDeal("N", "4S", 10)])


def test_defenders_score_their_honors_and_honors_count_when_the_contract_fails():
    sheet = rubber_sheet([RubberDeal("N", "4S", 9, Honors(EW, 100)), RubberDeal("E", "4H", 9, Honors(EW, 100))])
    # Deal 1: NS down 1 (50 to EW) and EW's honors; deal 2: EW down 1 (50 to NS) and EW's honors.
    assert sheet.above(EW) == 50 + 100 + 100
    assert sheet.above(NS) == 50


def test_passed_out_deal_scores_nothing():
    sheet = rubber_sheet([RubberDeal(None, "PASS"), RubberDeal("N", "4S", 10)])
    assert sheet.total(NS) == 120 and sheet.total(EW) == 0


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


def test_redoubled_insult_follows_the_era():
    assert rubber_sheet([RubberDeal("N", "1SXX", 7)]).above(NS) == 100
    assert rubber_sheet([RubberDeal("N", "1SXX", 7)], era="1935").above(NS) == 50


# --- Chicago ---------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("first_dealer", "expected"),
    [
        (Seat.N, ["None", "EW", "NS", "Both"]),
        (Seat.E, ["None", "NS", "EW", "Both"]),
        (Seat.W, ["None", "NS", "EW", "Both"]),
        (Seat.S, ["None", "EW", "NS", "Both"]),
    ],
)
def test_chicago_vulnerability_cycle(first_dealer, expected):
    assert [chicago_vulnerability(deal, first_dealer) for deal in range(1, 5)] == [
        Vulnerability(v) for v in expected
    ]


def test_chicago_cycle():
    sheet = chicago_sheet([
        RubberDeal("N", "1NT", 8),   # deal 1, none vul: 40 below, 30 above, no bonus
        RubberDeal("S", "2H", 8),    # deal 2, EW vul: 40 + 60 = game, NS not vul: 300
        RubberDeal("W", "3D", 8),    # deal 3, NS vul: EW not vul, down 1: 50
        RubberDeal("E", "2S", 9),    # deal 4, both vul: 60 below, 30 above, part-score 100
    ])
    assert sheet.finished
    assert sheet.game_winners == (NS,)
    assert SheetEntry(2, NS, 300, "game bonus") in sheet.entries
    assert SheetEntry(4, EW, 100, "part-score bonus") in sheet.entries
    assert (sheet.total(NS), sheet.total(EW)) == (40 + 30 + 60 + 300 + 50, 60 + 30 + 100)


def test_chicago_part_scores_carry_over_and_a_deal_4_game_gets_the_game_bonus_not_100():
    sheet = chicago_sheet([
        RubberDeal("N", "4S", 9),    # deal 1: down 1, 50 to EW
        RubberDeal("E", "1S", 7),    # deal 2: EW 30 below (vulnerable), no bonus
        RubberDeal("W", "2C", 8),    # deal 3: EW 70, no bonus
        RubberDeal("E", "1H", 7),    # deal 4: EW 100 = game, vulnerable: 500, no part-score 100
    ])
    assert sheet.game_winners == (EW,)
    assert SheetEntry(4, EW, 500, "game bonus") in sheet.entries
    assert not any(e.label == "part-score bonus" for e in sheet.entries)
    assert sheet.total(EW) == 50 + 30 + 40 + 30 + 500


def test_chicago_game_bonus_follows_the_deal_vulnerability_and_slams_too():
    sheet = chicago_sheet([RubberDeal("E", "6H", 12), RubberDeal("E", "4S", 10)])
    # Deal 1 none vulnerable: 180 + 500 slam + 300 game; deal 2 EW vulnerable: 120 + 500 game.
    assert sheet.total(EW) == 180 + 500 + 300 + 120 + 500
    assert not sheet.finished


def test_chicago_part_score_before_deal_4_gets_no_bonus():
    sheet = chicago_sheet([RubberDeal("N", "2S", 8)])
    assert sheet.total(NS) == 60


def test_chicago_has_four_deals():
    with pytest.raises(ScoringError, match="a Chicago has four deals, not 5"):
        chicago_sheet([RubberDeal(None, "PASS")] * 5)
    with pytest.raises(ScoringError, match="a Chicago has deals 1 to 4, not 5"):
        chicago_vulnerability(5)


# --- honours (seeds/001: "150 points are awarded for any one hand holding all five trump
# suit honors, or all four aces in a notrump contract") ---------------------------------


def test_four_aces_at_notrump_score_150_to_the_side_that_held_them():
    from sessions.scoring.rubber import honors_held

    aces = honors_held("four_aces", EW, "3NT")
    assert aces == Honors(EW, 150)
    sheet = rubber_sheet([RubberDeal("N", "3NT", 9, aces)])
    assert SheetEntry(1, EW, 150, "honours") in sheet.entries
    assert (sheet.total(NS), sheet.total(EW)) == (100, 150)


@pytest.mark.parametrize(
    ("holding", "contract", "points"),
    [("four_trumps", "4S", 100), ("five_trumps", "4S", 150), ("four_aces", "6NT", 150)],
)
def test_each_holding_scores_its_honours(holding, contract, points):
    from sessions.scoring.rubber import honors_held

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
    from sessions.scoring.rubber import honors_held

    with pytest.raises(ScoringError, match=message):
        honors_held(holding, "NS", contract)


def test_honours_in_chicago_go_above_the_line_and_do_not_make_game():
    sheet = chicago_sheet([
        RubberDeal("N", "2S", 8, Honors(NS, 150)),   # deal 1: 60 below, 150 honours above: no game
        RubberDeal("E", "1NT", 7, Honors(NS, 150)),  # deal 2: THEY 40 below; WE held the four aces
    ])
    assert SheetEntry(1, NS, 150, "honours") in sheet.entries and SheetEntry(2, NS, 150, "honours") in sheet.entries
    assert sheet.game_winners == ()
    assert sheet.below_by_game(NS) == (60,) and sheet.total(NS) == 60 + 300
