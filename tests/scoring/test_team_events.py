"""A teams event's matches and standings in the engine (sessions/scoring/team_events.py)."""

from decimal import Decimal
from fractions import Fraction

import pytest

from sessions.scoring.errors import ScoringError
from sessions.scoring.scores import NOT_PLAYED, Artificial, Weighted
from sessions.scoring.team_events import (
    BoardRooms,
    MatchScoring,
    MatchSettings,
    StandingInput,
    TieBreak,
    knockout_winner,
    score_match,
    score_match_totals,
    standings,
)

IMPS_20 = MatchSettings(MatchScoring.IMPS_TO_VPS, "20")
BAM = MatchSettings(MatchScoring.BOARD_A_MATCH)


def _boards(*pairs):
    return [BoardRooms(number, open_room, closed_room) for number, (open_room, closed_room) in enumerate(pairs, 1)]


def test_seed_swing_of_450_is_ten_imps_to_the_home_team():
    # seeds/004: +620 at one table, +170 at the other: 450, 10 IMPs.
    outcome = score_match(_boards((620, 170)), IMPS_20)

    assert (outcome.home_points, outcome.away_points) == (10, 0)


def test_a_match_adds_each_sides_imps_and_converts_the_margin():
    # seeds/004 swings 10, -10, -6, 0, -13: home 10, away 29, lost by 19 -> 3-17 on the 20 scale.
    outcome = score_match(_boards((620, 170), (170, 620), (-100, 140), (420, 420), (-1430, -680)), IMPS_20)

    assert (outcome.home_points, outcome.away_points) == (10, 29)
    assert (outcome.home_vp, outcome.away_vp) == (3, 17)


def test_a_missing_room_leaves_the_board_unscored():
    outcome = score_match(_boards((620, None), (100, 50)), IMPS_20)

    assert outcome.boards[0].home is None
    assert (outcome.home_points, outcome.away_points) == (2, 0)


def test_a_board_not_played_scores_nothing_for_either_team():
    outcome = score_match(_boards((NOT_PLAYED, 620)), IMPS_20)

    assert (outcome.home_points, outcome.away_points, outcome.home_vp) == (0, 0, 10)


@pytest.mark.parametrize(
    ("open_room", "closed_room", "home", "away"),
    [
        (Artificial(60, 40), 420, 3, 0),  # home NS in the open room gets Ave+
        (420, Artificial(60, 40), 0, 3),  # in the closed room NS is the away team
        (Artificial(50, 50), 420, 0, 0),
        (Artificial(60, 60), 420, 0, 0),
    ],
)
def test_artificial_scores_give_three_imps_for_average_plus(open_room, closed_room, home, away):
    outcome = score_match(_boards((open_room, closed_room)), IMPS_20)

    assert (outcome.home_points, outcome.away_points) == (home, away)


def test_a_weighted_score_is_compared_part_by_part():
    # 2/3 of 620 and 1/3 of -100 against 170: 2/3 of 10 IMPs (+450) and 1/3 of -7 IMPs (-270).
    weighted = Weighted(((Fraction(2, 3), 620), (Fraction(1, 3), -100)))
    outcome = score_match(_boards((weighted, 170)), IMPS_20)

    assert outcome.home_points == Fraction(2, 3) * 10 - Fraction(1, 3) * 7


def test_board_a_match_scores_one_half_nothing_and_is_the_match_score():
    # seeds/000: 1 won, 1/2 tied, 0 lost.
    outcome = score_match(_boards((620, 170), (420, 420), (-100, 140), (450, 420)), BAM)

    assert [board.home for board in outcome.boards] == [1, Fraction(1, 2), 0, 1]
    assert (outcome.home_points, outcome.away_points) == (Fraction(5, 2), Fraction(3, 2))
    assert (outcome.home_vp, outcome.away_vp) == (Fraction(5, 2), Fraction(3, 2))


def test_wbf_scale_uses_the_match_length():
    outcome = score_match_totals(Fraction(12), Fraction(10), 16, MatchSettings(vp_scale="wbf2013"))

    assert (outcome.home_vp, outcome.away_vp) == (Decimal("10.61"), Decimal("9.39"))  # 2 IMPs over 16 boards


def test_seed_twelve_imps_give_fifteen_to_five_and_twenty_five_to_five():
    # seeds/000: "A team winning by 12 IMPs would receive 15 VPs and their opponents 5" (and 25-5 on 30).
    assert (score_match_totals(Fraction(40), Fraction(28), 7, IMPS_20).home_vp) == 15
    thirty = score_match_totals(Fraction(28), Fraction(40), 7, MatchSettings(vp_scale="30"))
    assert (thirty.home_vp, thirty.away_vp) == (5, 25)


def test_carry_over_counts_towards_the_margin():
    outcome = score_match(_boards((620, 170)), IMPS_20, carry_over=Fraction(-21, 2))

    assert (outcome.home_points, outcome.away_points) == (10, Fraction(21, 2))


def test_board_a_match_totals_must_add_up_to_the_boards():
    with pytest.raises(ScoringError, match=r"add up to 1 a board \(7\), not 6"):
        score_match_totals(Fraction(3), Fraction(3), 7, BAM)


def test_an_unknown_scale_is_refused():
    with pytest.raises(ScoringError, match="unknown VP scale '25'"):
        MatchSettings(vp_scale="25")


def test_standings_share_a_place_on_equal_vps_and_add_adjustments():
    a = score_match_totals(Fraction(30), Fraction(18), 7, IMPS_20)  # 12 IMPs: 15-5
    b = score_match_totals(Fraction(18), Fraction(18), 7, IMPS_20)  # 10-10
    table = standings([1, 2, 3, 4], StandingInput([(1, 2, a), (3, 4, b)], adjustments=[(1, Fraction(-5))]))

    assert [(line.team, line.vp, line.place) for line in table] == [
        (1, 10, "1="), (3, 10, "1="), (4, 10, "1="), (2, 5, "4"),  # ties listed by IMP difference
    ]


def test_knockout_tie_goes_to_the_stated_rule_or_waits_for_extra_boards():
    tied = score_match_totals(Fraction(40), Fraction(40), 24, IMPS_20)
    extra = score_match_totals(Fraction(2), Fraction(5), 4, IMPS_20)

    assert knockout_winner(tied, home_seed=3, away_seed=1, tie_break=TieBreak.HIGHER_SEED) == "away"
    assert knockout_winner(tied, home_seed=3, away_seed=1, tie_break=TieBreak.EXTRA_BOARDS) is None
    assert knockout_winner(tied, home_seed=3, away_seed=1, tie_break=TieBreak.EXTRA_BOARDS, extra_boards=extra) == "away"


BAM_TWO = MatchSettings(MatchScoring.BOARD_A_MATCH, bam_win=2)


def test_board_a_match_on_the_two_one_nothing_scale_doubles_every_board():
    # Won, tied, lost (+420 v +400, 420 v 420, -50 v +100), then an Ave+ / Ave- board.
    boards = _boards((420, 400), (420, 420), (-50, 100), (Artificial(60, 40), Artificial(60, 40)))

    one, two = score_match(boards, BAM), score_match(boards, BAM_TWO)

    assert [(b.home, b.away) for b in two.boards] == [(2 * b.home, 2 * b.away) for b in one.boards]
    assert [(b.home, b.away) for b in two.boards][:3] == [(2, 0), (1, 1), (0, 2)]
    assert (two.home_vp, two.away_vp) == (2 * one.home_vp, 2 * one.away_vp)


def test_board_a_match_totals_add_up_to_the_scales_points_a_board():
    assert score_match_totals(Fraction(5), Fraction(3), 4, BAM_TWO).home_vp == 5
    with pytest.raises(ScoringError, match=r"add up to 2 a board \(8\), not 4"):
        score_match_totals(Fraction(3), Fraction(1), 4, BAM_TWO)


@pytest.mark.parametrize("points", [0, 3, True, "2"])
def test_a_board_a_match_board_is_worth_one_or_two_points(points):
    with pytest.raises(ScoringError, match="worth 1 or 2 points"):
        MatchSettings(MatchScoring.BOARD_A_MATCH, bam_win=points)
