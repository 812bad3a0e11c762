"""Scoring a whole pairs session: fields, short boards, adjusted scores, totals (RULES 4-6, 8)."""

from fractions import Fraction

import pytest

from sessions.scoring.errors import ScoringError
from sessions.scoring.scores import NOT_PLAYED, Artificial, Weighted
from sessions.scoring.session import Line, ScoringOptions, SessionInput, score_session

F = Fraction


def mitchell(rows, section="", **options):
    """A Mitchell session from (board, NS number, EW number, score) rows: NS and EW fields."""
    lines = tuple(Line(board, f"{ns}NS", f"{ew}EW", score, section=section) for board, ns, ew, score in rows)
    fields = {pair: pair[-2:] for line in lines for pair in (line.ns_pair, line.ew_pair)}
    return SessionInput(lines, fields, ScoringOptions(**options))


def howell(rows, **options):
    lines = tuple(Line(board, str(ns), str(ew), score) for board, ns, ew, score in rows)
    fields = {pair: "" for line in lines for pair in (line.ns_pair, line.ew_pair)}
    return SessionInput(lines, fields, ScoringOptions(**options))


def points(result):
    return [(line.ns_points, line.ew_points) for line in result.lines]


THREE_TABLE_MITCHELL = [
    (1, 1, 1, 420), (1, 2, 2, 450), (1, 3, 3, 400),
    (2, 1, 2, -100), (2, 2, 3, -100), (2, 3, 1, 110),
    (3, 1, 3, 620), (3, 2, 1, 170), (3, 3, 2, 650),
]


def test_mitchell_ns_pairs_earn_ns_points_and_ew_the_complement():
    result = score_session(mitchell(THREE_TABLE_MITCHELL))
    assert points(result)[:3] == [(2, 2), (4, 0), (0, 4)]
    assert points(result)[3:6] == [(1, 3), (1, 3), (4, 0)]
    assert result.top == 4


def test_mitchell_ranks_ns_and_ew_separately_with_shared_places():
    result = score_session(mitchell(THREE_TABLE_MITCHELL))
    assert set(result.standings) == {"NS", "EW"}
    ns = [(s.pair, s.total, s.percentage, s.place) for s in result.standings["NS"]]
    assert ns == [
        ("3NS", 8, F(200, 3), "1"),
        ("1NS", 5, F(125, 3), "2="),
        ("2NS", 5, F(125, 3), "2="),
    ]
    ew = [(s.pair, s.total, s.place) for s in result.standings["EW"]]
    assert ew == [("3EW", 9, "1"), ("1EW", 6, "2"), ("2EW", 3, "3")]
    assert result.standing("3EW").percentage == 75


def test_howell_pairs_earn_the_points_of_the_direction_they_sat_in_one_field():
    rows = [
        (1, 1, 2, 420), (1, 3, 4, 450),
        (2, 1, 3, -100), (2, 2, 4, -50),
        (3, 1, 4, 0), (3, 3, 2, 100),
    ]
    result = score_session(howell(rows))
    assert list(result.standings) == [""]
    table = [(s.pair, s.total, s.percentage, s.place) for s in result.standings[""]]
    assert table == [("3", 6, 100, "1"), ("2", 4, F(200, 3), "2"), ("4", 2, F(100, 3), "3"), ("1", 0, 0, "4")]


def test_arrow_switched_board_needs_only_the_pair_that_sat_ns_and_one_field():
    # Board 3 arrow-switched: the EW pairs sat NS. One field, as the caller sets it.
    rows = [(1, "1NS", "1EW", 420), (1, "2NS", "2EW", 450), (3, "1EW", "2NS", 620), (3, "2EW", "1NS", 650)]
    lines = tuple(Line(board, ns, ew, score) for board, ns, ew, score in rows)
    fields = {pair: "" for line in lines for pair in (line.ns_pair, line.ew_pair)}
    result = score_session(SessionInput(lines, fields))
    assert points(result)[2:] == [(0, 2), (2, 0)]
    # 2NS: 2 (NS, board 1) + 2 (EW, board 3); 2EW: 0 + 2 (NS); 1EW: 2 (EW) + 0 (NS); 1NS: 0.
    table = {s.pair: (s.total, s.place) for s in result.standings[""]}
    assert table == {"2NS": (4, "1"), "2EW": (2, "2="), "1EW": (2, "2="), "1NS": (0, "4")}


FOUR_TABLES_BOARD_TWO_SHORT = [
    (1, 1, 1, 420), (1, 2, 2, 450), (1, 3, 3, 400), (1, 4, 4, 430),
    (2, 1, 2, -100), (2, 2, 3, -50), (2, 3, 1, -200),
]


def test_short_board_lines_neuberg_factored_by_default():
    result = score_session(mitchell(FOUR_TABLES_BOARD_TWO_SHORT))
    # 3 results, 4 expected: (M + 1) x 4/3 - 1 with M = 2, 4, 0; top 6.
    assert points(result)[4:] == [(3, 3), (F(17, 3), F(1, 3)), (F(1, 3), F(17, 3))]
    assert result.lines[4].top == 6
    assert result.lines[4].ns_percent == 50


def test_short_board_lines_as_played_in_compscore3_convention():
    result = score_session(mitchell(FOUR_TABLES_BOARD_TWO_SHORT, line_display="as_played"))
    assert points(result)[4:] == [(2, 2), (4, 0), (0, 4)]
    assert result.lines[4].top == 4


@pytest.mark.parametrize("line_display", ["neuberg", "as_played"])
def test_session_totals_are_neuberg_factored_whatever_the_line_display(line_display):
    result = score_session(mitchell(FOUR_TABLES_BOARD_TWO_SHORT, line_display=line_display))
    one = result.standing("1NS")
    assert (one.total, one.percentage, one.boards_played) == (5, F(125, 3), 2)  # 2 + 3 of 12


def test_total_shown_is_scaled_to_the_boards_of_the_session():
    # 4NS played board 1 only (4 of 6): 66.67 %, and its total shown as if it had
    # played both boards, as Compscore3 publishes (RULES 4).
    result = score_session(mitchell(FOUR_TABLES_BOARD_TWO_SHORT))
    four = result.standing("4NS")
    assert (four.boards_played, four.percentage, four.total) == (1, F(200, 3), 8)


def test_boards_in_session_can_be_set():
    session = mitchell(FOUR_TABLES_BOARD_TWO_SHORT)
    result = score_session(SessionInput(session.lines, session.fields, boards_in_session=3))
    assert result.standing("4NS").total == 12
    assert result.standing("1NS").total == F(15, 2)


def test_ratio_scaling_option():
    result = score_session(mitchell(FOUR_TABLES_BOARD_TWO_SHORT, short_boards="ratio"))
    # M x 6/4, rounded: 2 -> 3, 4 -> 6, 0 -> 0; EW the complement of the top.
    assert points(result)[4:] == [(3, 3), (6, 0), (0, 6)]


def test_no_scaling_option_keeps_each_boards_own_top():
    result = score_session(mitchell(FOUR_TABLES_BOARD_TWO_SHORT, short_boards="none"))
    assert points(result)[4:] == [(2, 2), (4, 0), (0, 4)]
    assert result.standing("1NS").percentage == 40  # (2 + 2) / (6 + 4)


def test_line_decimals_round_the_lines_and_the_totals_add_them():
    result = score_session(mitchell(FOUR_TABLES_BOARD_TWO_SHORT, line_decimals=2))
    assert points(result)[5] == (F("5.67"), F("0.33"))
    assert result.standing("2NS").total == 6 + F("5.67")


def test_results_per_board_sets_the_full_top():
    session = mitchell(FOUR_TABLES_BOARD_TWO_SHORT)
    result = score_session(SessionInput(session.lines, session.fields, results_per_board=5))
    assert result.top == 8
    assert points(result)[1] == (F(31, 4), F(1, 4))  # (6 + 1) x 5/4 - 1, top 8
    with pytest.raises(ScoringError, match="board 1 has 4 results, more than the 3 results per board"):
        score_session(SessionInput(session.lines, session.fields, results_per_board=3))


def test_not_played_is_removed_for_both_pairs():
    rows = [
        (1, 1, 1, 420), (1, 2, 2, 450), (1, 3, 3, 400), (1, 4, 4, NOT_PLAYED),
        (2, 1, 2, 100), (2, 2, 3, 100), (2, 3, 4, 100), (2, 4, 1, 200),
    ]
    result = score_session(mitchell(rows))
    assert points(result)[:4] == [(3, 3), (F(17, 3), F(1, 3)), (F(1, 3), F(17, 3)), (None, None)]
    assert result.lines[3].ns_percent is None
    four = result.standing("4NS")
    assert (four.boards_played, four.percentage, four.total) == (1, 100, 12)
    assert result.standing("4EW").boards_played == 1


def test_artificial_scores_do_not_take_part_and_score_sixty_and_forty_percent():
    rows = [
        (1, 1, 1, Artificial(60, 40)), (1, 2, 2, 420), (1, 3, 3, 450),
        (2, 1, 2, 200), (2, 2, 3, 100), (2, 3, 1, 150),
    ]
    result = score_session(mitchell(rows))
    assert points(result)[:3] == [(F(12, 5), F(8, 5)), (F(1, 2), F(7, 2)), (F(7, 2), F(1, 2))]
    assert result.lines[0].ns_percent == 60
    assert result.lines[0].ew_percent == 40
    assert result.standing("1NS").percentage == 80  # (2.4 + 4) / 8


def test_ave_plus_and_ave_minus_for_both_sides():
    rows = [(1, 1, 1, Artificial(60, 60)), (1, 2, 2, 420), (2, 1, 2, 100), (2, 2, 1, 100)]
    result = score_session(mitchell(rows))
    assert points(result)[0] == (F(6, 5), F(6, 5))


@pytest.mark.parametrize(
    ("board_two", "pair", "plain", "with_option"),
    [
        # 1NS tops board 2 (100 %): its Ave+ becomes 100 % with the option.
        ([(2, 1, 2, 200), (2, 2, 3, 100), (2, 3, 1, 150)], "1NS", 80, 100),
        # 1EW scores 0 % on board 2: its Ave- becomes 0 % with the option.
        ([(2, 1, 2, 100), (2, 2, 3, 50), (2, 3, 1, 200)], "1EW", 20, 0),
        # 1NS scores 50 % on board 2: Ave+ stays 60 %.
        ([(2, 1, 2, 100), (2, 2, 3, 50), (2, 3, 1, 200)], "1NS", 55, 55),
    ],
)
def test_session_percentage_option_for_adjusted_scores(board_two, pair, plain, with_option):
    rows = [(1, 1, 1, Artificial(60, 40)), (1, 2, 2, 420), (1, 3, 3, 450), *board_two]
    assert score_session(mitchell(rows)).standing(pair).percentage == plain
    result = score_session(mitchell(rows, adjusted_session_percentage=True))
    assert result.standing(pair).percentage == with_option


def test_weighted_score_in_a_session():
    weighted = Weighted(((F(1, 2), 420), (F(1, 2), -100)))
    rows = [(1, 1, 1, weighted), (1, 2, 2, 420), (1, 3, 3, -100)]
    result = score_session(mitchell(rows))
    assert points(result) == [(2, 2), (F(7, 2), F(1, 2)), (F(1, 2), F(7, 2))]


def test_fouled_board_groups_are_matchpointed_apart_and_factored_to_the_full_top():
    lines = (
        Line(1, "1NS", "1EW", 420), Line(1, "2NS", "2EW", 450),
        Line(1, "3NS", "3EW", -100, group=1), Line(1, "4NS", "4EW", -200, group=1),
        Line(2, "1NS", "2EW", 100), Line(2, "2NS", "3EW", 100), Line(2, "3NS", "4EW", 100), Line(2, "4NS", "1EW", 100),
    )
    fields = {pair: pair[-2:] for line in lines for pair in (line.ns_pair, line.ew_pair)}
    result = score_session(SessionInput(lines, fields))
    # Each group of 2: M = 2 or 0, Neuberg to 4 results: (M + 1) x 2 - 1 = 5 or 1; top 6.
    assert points(result)[:4] == [(1, 5), (5, 1), (5, 1), (1, 5)]


def test_sections_are_matchpointed_apart_unless_across_the_field():
    lines = (
        Line(1, "A:1NS", "A:1EW", 420, section="A"), Line(1, "A:2NS", "A:2EW", 450, section="A"),
        Line(1, "B:1NS", "B:1EW", 400, section="B"), Line(1, "B:2NS", "B:2EW", 430, section="B"),
    )
    fields = {pair: pair[-2:] for line in lines for pair in (line.ns_pair, line.ew_pair)}
    apart = score_session(SessionInput(lines, fields))
    assert [line.ns_points for line in apart.lines] == [0, 2, 0, 2]
    pooled = score_session(SessionInput(lines, fields, ScoringOptions(across_field=True)))
    assert [line.ns_points for line in pooled.lines] == [2, 6, 0, 4]
    assert pooled.top == 6


def test_acbl_scale_halves_the_points_and_keeps_the_percentages():
    two_one = score_session(mitchell(FOUR_TABLES_BOARD_TWO_SHORT))
    acbl = score_session(mitchell(FOUR_TABLES_BOARD_TWO_SHORT, mp_scale="acbl"))
    assert acbl.top == 3
    assert [line.ns_points for line in acbl.lines] == [line.ns_points / 2 for line in two_one.lines]
    assert [s.percentage for s in acbl.standings["NS"]] == [s.percentage for s in two_one.standings["NS"]]


BUTLER_ROWS = [
    (1, 1, 1, 620), (1, 2, 2, 170), (1, 3, 3, 140), (1, 4, 4, -100),
    (2, 1, 2, Artificial(60, 40)), (2, 2, 3, 100), (2, 3, 4, 100), (2, 4, 1, 100),
]


def test_butler_session_datum_imps_and_adjusted_scores():
    result = score_session(mitchell(BUTLER_ROWS, method="butler"))
    # Board 1: drop 620 and -100, (170 + 140) / 2 = 155 -> 160.
    assert [line.datum for line in result.lines[:4]] == [160, 160, 160, 160]
    assert points(result)[:4] == [(10, -10), (0, 0), (-1, 1), (-6, 6)]
    # Board 2: Ave+ / Ave- are +3 / -3 IMPs; datum of the three 100s is 100.
    assert points(result)[4:] == [(3, -3), (0, 0), (0, 0), (0, 0)]
    assert result.lines[4].datum == 100
    one = result.standing("1NS")
    assert (one.total, one.average, one.percentage, one.place) == (13, F(13, 2), None, "1")
    assert result.top == 0


def test_butler_adjusted_imps_is_an_event_setting():
    result = score_session(mitchell(BUTLER_ROWS, method="butler", butler_adjusted_imps=2))
    assert points(result)[4] == (2, -2)


def test_imp_pairs_rank_by_average_when_pairs_played_different_numbers_of_boards():
    rows = [(1, 1, 1, 620), (1, 2, 2, -100), (1, 3, 3, 450), (2, 1, 2, -100), (2, 2, 3, 0)]
    result = score_session(mitchell(rows, method="cross_imps"))
    # Board 1: 620 scores (12 + 5) / 2, -100 (-12 - 11) / 2, 450 (-5 + 11) / 2.
    # Board 2: -100 against 0 is -3. 1NS: 17/2 - 3 = 11/2 over 2 boards; 3NS: 3 over 1.
    ns = [(s.pair, s.boards_played, s.total, s.average, s.place) for s in result.standings["NS"]]
    assert ns == [
        ("3NS", 1, 3, 3, "1"),
        ("1NS", 2, F(11, 2), F(11, 4), "2"),
        ("2NS", 2, F(-17, 2), F(-17, 4), "3"),
    ]


def test_imp_pairs_rank_by_total_when_every_pair_played_the_same_boards():
    rows = [(1, 1, 1, 620), (1, 2, 2, -100), (1, 3, 3, 450)]
    result = score_session(mitchell(rows, method="cross_imps"))
    assert [(s.pair, s.total, s.place) for s in result.standings["NS"]] == [
        ("1NS", F(17, 2), "1"), ("3NS", 3, "2"), ("2NS", F(-23, 2), "3"),
    ]


def test_cross_imps_session_averaged_and_summed():
    rows = [(1, 1, 1, 620), (1, 2, 2, -100), (1, 3, 3, -100), (1, 4, 4, -300), (1, 5, 5, 650)]
    averaged = score_session(mitchell(rows, method="cross_imps"))
    summed = score_session(mitchell(rows, method="cross_imps", cross_imps="sum"))
    assert averaged.lines[0].ns_points == F(37, 4)
    assert summed.lines[0].ns_points == 37
    assert averaged.lines[0].ew_points == F(-37, 4)
    assert averaged.standing("1NS").total == F(37, 4)


def test_artificial_in_summed_cross_imps_is_worth_the_setting_per_comparison():
    rows = [(1, 1, 1, Artificial(60, 40)), (1, 2, 2, -100), (1, 3, 3, 620), (1, 4, 4, 650)]
    summed = score_session(mitchell(rows, method="cross_imps", cross_imps="sum"))
    assert points(summed)[0] == (9, -9)  # 3 IMPs for each of the 3 results it would have met
    averaged = score_session(mitchell(rows, method="cross_imps"))
    assert points(averaged)[0] == (3, -3)


def test_an_artificial_score_with_no_imp_equivalent_is_refused():
    rows = [(1, 1, 1, Artificial(70, 30)), (1, 2, 2, 100)]
    with pytest.raises(ScoringError, match="70% has no IMP equivalent"):
        score_session(mitchell(rows, method="butler"))


def test_scored_lines_keep_the_input_order():
    result = score_session(mitchell(THREE_TABLE_MITCHELL))
    assert [scored.line for scored in result.lines] == list(mitchell(THREE_TABLE_MITCHELL).lines)


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([(1, 1, 1, 420), (1, 1, 2, 450)], "pair '1NS' already has a result on board 1"),
        ([(0, 1, 1, 420)], "a board number must be a whole number from 1"),
        ([(1, 1, 1, "420")], "'420' is not a line score"),
        ([(1, 1, 1, True)], "True is not a line score"),
    ],
)
def test_impossible_sessions_are_refused(rows, message):
    with pytest.raises(ScoringError, match=message):
        score_session(mitchell(rows))


def test_a_pair_without_a_field_is_refused():
    with pytest.raises(ScoringError, match="pair '2' has no ranking field"):
        score_session(SessionInput((Line(1, "1", "2", 420),), {"1": ""}))


def test_a_pair_cannot_play_itself():
    with pytest.raises(ScoringError, match="cannot play against itself"):
        score_session(SessionInput((Line(1, "1", "1", 420),), {"1": ""}))


@pytest.mark.parametrize(
    ("option", "value"),
    [("method", "swiss"), ("line_display", "rounded"), ("short_boards", "average"), ("cross_imps", "median"),
     ("butler_datum", "mode"), ("mp_scale", "percent"), ("imp_table", "1999"), ("line_decimals", -1)],
)
def test_unknown_options_are_refused(option, value):
    with pytest.raises(ScoringError):
        ScoringOptions(**{option: value})


def test_standing_of_a_pair_that_played_nothing_is_refused():
    result = score_session(mitchell(THREE_TABLE_MITCHELL))
    with pytest.raises(ScoringError, match="pair '9NS' played no board"):
        result.standing("9NS")


def test_cross_imp_total_is_the_exact_sum_not_the_sum_of_rounded_lines():
    # 170 against 620, 140, 140: (-10 + 1 + 1) / 3 = -8/3, shown -2.67, on each of 3 boards.
    rows = [
        (board, ns, ew, score)
        for board in (1, 2, 3)
        for ns, ew, score in ((1, 1, 620), (2, 2, 170), (3, 3, 140), (4, 4, 140))
    ]
    result = score_session(mitchell(rows, method="cross_imps"))
    assert result.lines[1].ns_points == F(-8, 3)
    assert result.standing("2NS").total == -8  # not 3 x -2.67 = -8.01


def test_tutorial_8_tables_24_boards_top_168_and_84_is_a_50_percent_game():
    """seeds/004: "in an 8 table game with 24 boards, your theoretical maximum is 168 match
    points (7 match points on each board x 24 boards). If your match point score was 84,
    that would be a 50% game." NS pair k scores 10k on every board, except that pairs 4
    and 5 swap on even boards: pair 8 beats the field everywhere, pair 4 scores 3 and 4
    alternately (84)."""
    rows = []
    for board in range(1, 25):
        for table in range(1, 9):
            ns = {4: 5, 5: 4}.get(table, table) if board % 2 == 0 else table
            rows.append((board, ns, table, 10 * table))
    result = score_session(mitchell(rows, mp_scale="acbl"))
    standings = {s.pair: s for s in result.standings["NS"]}
    assert (standings["8NS"].total, standings["8NS"].percentage) == (168, 100)
    assert (standings["4NS"].total, standings["4NS"].percentage) == (84, 50)
    assert (standings["1NS"].total, standings["1NS"].percentage) == (0, 0)


def test_cross_imps_trim_and_median_datum_are_session_options():
    rows = [(1, 1, 1, 1430), (1, 2, 2, 420), (1, 3, 3, 450), (1, 4, 4, 400), (1, 5, 5, -200)]
    trimmed = score_session(mitchell(rows, method="cross_imps", cross_imps="sum", cross_imps_trim=1))
    everyone = score_session(mitchell(rows, method="cross_imps", cross_imps="sum"))
    assert points(trimmed)[1][0] == -1 + 1  # 420 against 450 and 400 only
    assert points(everyone)[1][0] != points(trimmed)[1][0]
    median = score_session(mitchell(rows, method="butler", butler_datum="median"))
    assert {line.datum for line in median.lines} == {420}


@pytest.mark.parametrize("trim", [-1, True, "1"])
def test_a_wrong_cross_imps_trim_is_refused(trim):
    with pytest.raises(ScoringError, match="cross_imps_trim is a number of results"):
        ScoringOptions(cross_imps_trim=trim)


@pytest.mark.parametrize("scale", ["two_one", "acbl"])
def test_a_large_field_scores_each_line_as_its_board_alone_and_totals_exactly(scale):
    """Lines share their board's distinct figures (a field of thousands has a few dozen):
    each line still gets its own Line and its board's figures, and the totals add them exactly."""
    import random

    from sessions.scoring.matchpoints import matchpoint_board

    generator = random.Random(13)
    pairs = 300
    boards = {number: [generator.choice((420, 450, -50, 170, 620, -100)) for _ in range(pairs)] for number in (1, 2)}
    boards[2][:3] = [Artificial(60, 40), Artificial(40, 60), NOT_PLAYED]  # board 2: short, so Neuberg-factored
    lines = tuple(
        Line(number, f"{table}NS", f"{table}EW", scores[table - 1])
        for number, scores in boards.items() for table in range(1, pairs + 1)
    )
    fields = {pair: pair[-2:] for line in lines for pair in (line.ns_pair, line.ew_pair)}
    result = score_session(SessionInput(lines, fields, ScoringOptions(mp_scale=scale)))

    assert [scored.line for scored in result.lines] == list(lines)
    plain = [score for score in boards[2] if isinstance(score, int)]
    expected = {
        1: list(matchpoint_board(boards[1], scale)),
        2: [None, None, None] + list(matchpoint_board(plain, scale, expected=pairs)),  # Neuberg to the full 300
    }
    for number in (1, 2):
        figures = [scored.ns_points for scored in result.lines if scored.line.board == number]
        if number == 2:
            top = ScoringOptions(mp_scale=scale).scale.top(pairs)
            assert figures[:2] == [top * Fraction(60, 100), top * Fraction(40, 100)]
            figures[:2] = [None, None]
        assert figures == expected[number]
    one = next(standing for standing in result.standings["NS"] if standing.pair == "7NS")
    own = [scored for scored in result.lines if scored.line.ns_pair == "7NS"]
    assert one.total == sum((scored.ns_points for scored in own), Fraction(0))


def test_imp_total_scaled_to_the_sessions_boards_shows_a_missed_board_at_the_average():
    # Magic Contest (RULES 6): 1NS played both boards, 3NS only board 1 (3 IMPs):
    # scaled to the session's 2 boards, 3NS shows 3 x 2/1 = 6, 1NS its sum.
    rows = [(1, 1, 1, 620), (1, 2, 2, -100), (1, 3, 3, 450), (2, 1, 2, -100), (2, 2, 3, 0)]
    result = score_session(mitchell(rows, method="cross_imps", imp_total="scaled"))
    ns = [(s.pair, s.total, s.average, s.place) for s in result.standings["NS"]]
    assert ns == [("3NS", 6, 3, "1"), ("1NS", F(11, 2), F(11, 4), "2"), ("2NS", F(-17, 2), F(-17, 4), "3")]


def test_imp_total_per_comparison_divides_summed_cross_imps_by_the_comparisons_met():
    # Ruter: 729 summed IMPs over 16 boards of 11 comparisons show as 729 / 176 = 4.14.
    # Here 1NS meets 4 other results on board 1 (37 IMPs): 37 / 4; Butler counts one datum.
    rows = [(1, 1, 1, 620), (1, 2, 2, -100), (1, 3, 3, -100), (1, 4, 4, -300), (1, 5, 5, 650)]
    result = score_session(mitchell(rows, method="cross_imps", cross_imps="sum", imp_total="per_comparison"))
    assert result.lines[0].ns_points == 37
    assert result.standing("1NS").total == F(37, 4)
    butler = score_session(mitchell(BUTLER_ROWS, method="butler", imp_total="per_comparison"))
    assert butler.standing("1NS").total == F(13, 2)


def test_an_unknown_imp_total_is_refused():
    with pytest.raises(ScoringError, match="imp_total"):
        ScoringOptions(imp_total="mean")
