"""Events of several sessions combined into one ranking (RULES 11), from worked examples.

Every expected figure below is worked out by hand in the comment above it.
"""

from fractions import Fraction as F

import pytest

from sessions.scoring import (
    Combination,
    EventOptions,
    EventSession,
    ScoringError,
    SessionEntry,
    combine_sessions,
)


def session(key: str, top: int | None = None, **percentages) -> EventSession:
    """A matchpoint session: competitor=percentage (an exact fraction or a number)."""
    entries = tuple(SessionEntry(competitor=name, percentage=F(value)) for name, value in percentages.items())
    return EventSession(key=key, entries=entries, top=None if top is None else F(top))


def imp_session(key: str, **imps) -> EventSession:
    return EventSession(key=key, entries=tuple(SessionEntry(competitor=n, imps=F(v)) for n, v in imps.items()))


def table(result) -> list[tuple[str, str, F]]:
    return [(standing.place, standing.competitor, standing.total) for standing in result.standings]


# Two sessions of different sizes: 24 boards with a top of 10 (most a pair can score:
# 240) and 26 boards with a top of 12 (312).
TWO_SESSIONS = [
    session("S1", 240, AB=60, CD=50, EF=40),
    session("S2", 312, AB=50, CD=F(125, 2), GH=45),
]


def test_scaled_matchpoints_put_every_session_on_the_largest_sessions_top():
    # Common top 312. AB: 60% x 312 = 187.2, 50% x 312 = 156; 343.2 in all.
    # CD: 156 + 62.5% x 312 = 195; 351. EF: 40% x 312 = 124.8. GH: 45% x 312 = 140.4.
    result = combine_sessions(TWO_SESSIONS, EventOptions(combination=Combination.SCALED))
    assert result.common_top == 312
    assert table(result) == [
        ("1", "CD", F(351)), ("2", "AB", F(1716, 5)), ("3", "GH", F(702, 5)), ("4", "EF", F(624, 5)),
    ]
    ab = result.standing("AB")
    assert [(score.session, score.score, score.counted) for score in ab.scores] == [
        ("S1", F(936, 5), True), ("S2", F(156), True),
    ]
    assert ab.played == 2


def test_average_of_percentages_does_not_reward_attendance():
    # AB (60 + 50) / 2 = 55, CD (50 + 62.5) / 2 = 56.25, GH 45, EF 40.
    result = combine_sessions(TWO_SESSIONS, EventOptions(combination=Combination.AVERAGE))
    assert table(result) == [("1", "CD", F(225, 4)), ("2", "AB", F(55)), ("3", "GH", F(45)), ("4", "EF", F(40))]


def test_pairs_below_the_minimum_attendance_are_listed_unranked_after_the_ranked():
    result = combine_sessions(TWO_SESSIONS, EventOptions(combination=Combination.AVERAGE, minimum=2))
    assert table(result) == [("1", "CD", F(225, 4)), ("2", "AB", F(55)), ("", "GH", F(45)), ("", "EF", F(40))]
    assert [standing.ranked for standing in result.standings] == [True, True, False, False]
    assert result.standing("GH").rank == 0


SERIES = [
    session("S1", 100, AB=60, CD=50),
    session("S2", 100, AB=50, CD=F(125, 2)),
    session("S3", 100, AB=70, CD=48),
]


def test_best_two_of_three_drops_each_pairs_worst_session():
    # AB counts 70 and 60 (drops 50): 65. CD counts 62.5 and 50 (drops 48): 56.25.
    result = combine_sessions(SERIES, EventOptions(combination=Combination.AVERAGE, best=2))
    assert table(result) == [("1", "AB", F(65)), ("2", "CD", F(225, 4))]
    assert [score.counted for score in result.standing("AB").scores] == [True, False, True]
    assert [score.counted for score in result.standing("CD").scores] == [True, True, False]


def test_best_two_of_three_in_scaled_matchpoints_adds_the_two_best():
    # Top 100 in each session, so a session scores its percentage: AB 70 + 60, CD 62.5 + 50.
    result = combine_sessions(SERIES, EventOptions(combination=Combination.SCALED, best=2))
    assert table(result) == [("1", "AB", F(130)), ("2", "CD", F(225, 2))]


def test_a_pair_that_played_fewer_sessions_than_counted_counts_what_it_played():
    # EF played once (55): its average is 55, its scaled sum 55 against AB's 130.
    sessions = [*SERIES[:2], session("S3", 100, AB=70, CD=48, EF=55)]
    average = combine_sessions(sessions, EventOptions(combination=Combination.AVERAGE, best=2))
    assert average.standing("EF").total == 55
    scaled = combine_sessions(sessions, EventOptions(combination=Combination.SCALED, best=2))
    assert scaled.standing("EF").total == 55


def test_equal_combined_scores_share_the_place_and_the_next_skips():
    # AB and CD both average 52.5; EF 40.
    sessions = [session("S1", AB=55, CD=50, EF=40), session("S2", AB=50, CD=55, EF=40)]
    result = combine_sessions(sessions, EventOptions(combination=Combination.AVERAGE))
    assert table(result) == [("1=", "AB", F(105, 2)), ("1=", "CD", F(105, 2)), ("3", "EF", F(40))]


def test_carry_forward_adds_half_the_earlier_margin_over_average_to_the_final():
    # AB: earlier 60 and 56, average 58, carries 1/2 x 8 = 4; final 52 -> 56.
    # CD: earlier 48 only, carries 1/2 x -2 = -1; final 58 -> 57.
    # EF: no earlier session, carries 0; final 55 -> 55.
    # GH: did not reach the final: unranked (50 + 1/2 x 13 = 56.5 shown for information).
    sessions = [
        session("S1", AB=60, CD=48, GH=65),
        session("S2", AB=56, GH=61),
        session("Final", AB=52, CD=58, EF=55),
    ]
    result = combine_sessions(sessions, EventOptions(combination=Combination.CARRY_FORWARD, carry_forward=F(1, 2)))
    assert table(result) == [("1", "CD", F(57)), ("2", "AB", F(56)), ("3", "EF", F(55)), ("", "GH", F(113, 2))]
    assert result.standing("AB").carried == 4
    assert result.standing("CD").carried == -1


def test_carry_forward_of_a_quarter():
    # AB: earlier average 70, carries 1/4 x 20 = 5; final 40 -> 45. CD: 1/4 x -10 = -2.5; final 50 -> 47.5.
    sessions = [session("S1", AB=70, CD=40), session("Final", AB=40, CD=50)]
    result = combine_sessions(sessions, EventOptions(combination=Combination.CARRY_FORWARD, carry_forward=F(1, 4)))
    assert table(result) == [("1", "CD", F(95, 2)), ("2", "AB", F(45))]


def test_imp_events_add_the_session_imp_totals():
    # AB 12 - 3 = 9, CD -5 + 20 = 15, EF 7 (one session).
    sessions = [imp_session("S1", AB=12, CD=-5), imp_session("S2", AB=-3, CD=20, EF=7)]
    result = combine_sessions(sessions, EventOptions(combination=Combination.IMPS))
    assert table(result) == [("1", "CD", F(15)), ("2", "AB", F(9)), ("3", "EF", F(7))]


def test_best_one_of_two_in_imps_keeps_the_better_session():
    sessions = [imp_session("S1", AB=12, CD=-5), imp_session("S2", AB=-3, CD=20)]
    result = combine_sessions(sessions, EventOptions(combination=Combination.IMPS, best=1))
    assert table(result) == [("1", "CD", F(20)), ("2", "AB", F(12))]


def test_exact_fractions_are_kept_until_display():
    # 1/3 and 2/3 of a percent above 50 average to exactly 50.5: no rounding on the way.
    sessions = [session("S1", AB=F(151, 3)), session("S2", AB=F(152, 3))]
    result = combine_sessions(sessions, EventOptions(combination=Combination.AVERAGE))
    assert result.standing("AB").total == F(101, 2)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"combination": "sum"}, "unknown way to combine"),
        ({"best": 0}, "at least 1"),
        ({"minimum": 0}, "at least 1 session"),
        ({"best": 2, "minimum": 3}, "cannot exceed"),
        ({"carry_forward": F(3, 2)}, "between 0 and 1"),
        ({"combination": Combination.CARRY_FORWARD, "best": 2}, "best N does not apply"),
    ],
)
def test_impossible_options_are_refused(options, message):
    with pytest.raises(ScoringError, match=message):
        EventOptions(**options)


def test_a_competitor_twice_in_one_session_is_refused():
    sessions = [EventSession("S1", (SessionEntry("AB", F(50)), SessionEntry("AB", F(60))))]
    with pytest.raises(ScoringError, match="AB appears twice in session S1"):
        combine_sessions(sessions, EventOptions(combination=Combination.AVERAGE))


def test_a_matchpoint_session_without_a_top_cannot_be_scaled():
    with pytest.raises(ScoringError, match="no top"):
        combine_sessions([session("S1", AB=50)], EventOptions(combination=Combination.SCALED))


def test_an_imp_event_needs_imps():
    with pytest.raises(ScoringError, match="AB has no imps"):
        combine_sessions([session("S1", AB=50)], EventOptions(combination=Combination.IMPS))


def test_an_event_with_no_results_has_no_standings():
    result = combine_sessions([], EventOptions())
    assert result.standings == () and result.common_top is None
