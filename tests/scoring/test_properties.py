"""Properties every board and session must keep, whatever the scores (hypothesis)."""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from sessions.scoring.butler import butler_board
from sessions.scoring.crossimps import cross_imps_board
from sessions.scoring.matchpoints import SCALES, matchpoint_board, neuberg
from sessions.scoring.scores import Weighted
from sessions.scoring.session import Line, ScoringOptions, SessionInput, score_session

FEW = settings(max_examples=60, deadline=None)
ns_scores = st.integers(min_value=-250, max_value=250).map(lambda tens: tens * 10)
boards = st.lists(ns_scores, min_size=1, max_size=30)
weights = st.integers(min_value=1, max_value=5)


@st.composite
def weighted_scores(draw):
    parts = draw(st.lists(st.tuples(weights, ns_scores), min_size=1, max_size=3))
    total = sum(weight for weight, _ in parts)
    return Weighted(tuple((Fraction(weight, total), score) for weight, score in parts))


mixed_boards = st.lists(st.one_of(ns_scores, weighted_scores()), min_size=1, max_size=15)


@FEW
@given(mixed_boards)
def test_matchpoints_on_a_board_sum_to_n_times_n_minus_one(scores):
    n = len(scores)
    assert sum(matchpoint_board(scores)) == n * (n - 1)


@FEW
@given(boards)
def test_a_higher_score_never_earns_fewer_matchpoints(scores):
    points = matchpoint_board(scores)
    for mine, my_points in zip(scores, points):
        for other, other_points in zip(scores, points):
            if mine > other:
                assert my_points > other_points
            if mine == other:
                assert my_points == other_points


@FEW
@given(boards)
def test_matchpoints_stay_between_zero_and_the_top(scores):
    top = SCALES["two_one"].top(len(scores))
    assert all(0 <= points <= top for points in matchpoint_board(scores))


@FEW
@given(boards, st.sampled_from(["two_one", "acbl"]))
def test_neuberg_with_nothing_missing_changes_nothing(scores, scale):
    points = matchpoint_board(scores, scale)
    assert tuple(neuberg(m, len(scores), len(scores), scale) for m in points) == points


@FEW
@given(boards, st.integers(min_value=0, max_value=5))
def test_neuberg_keeps_the_board_total_at_the_full_boards(scores, missing):
    # Factored, each result still averages half the full top 2(E - 1): the sum is A(E - 1).
    expected = len(scores) + missing
    assert sum(matchpoint_board(scores, expected=expected)) == len(scores) * (expected - 1)


@FEW
@given(boards)
def test_acbl_percentages_equal_the_two_one_percentages(scores):
    n = len(scores)
    if n < 2:
        return
    two_one = [m / SCALES["two_one"].top(n) for m in matchpoint_board(scores, "two_one")]
    acbl = [m / SCALES["acbl"].top(n) for m in matchpoint_board(scores, "acbl")]
    assert two_one == acbl


@FEW
@given(mixed_boards, st.booleans())
def test_cross_imps_on_a_board_sum_to_zero(scores, average):
    assert sum(cross_imps_board(scores, average)) == 0


@FEW
@given(boards)
def test_a_higher_score_never_earns_fewer_cross_imps(scores):
    earned = cross_imps_board(scores)
    ranked = sorted(zip(scores, earned))
    assert all(low[1] <= high[1] for low, high in zip(ranked, ranked[1:]))


@FEW
@given(boards)
def test_butler_datum_lies_within_the_scores_rounded(scores):
    datum, _ = butler_board(scores)
    assert min(scores) - 5 <= datum <= max(scores) + 5
    assert datum % 10 == 0


@st.composite
def mitchell_sessions(draw):
    """A random Mitchell: t tables, b boards, every board played by every table."""
    tables = draw(st.integers(min_value=2, max_value=6))
    board_count = draw(st.integers(min_value=1, max_value=4))
    lines = []
    for board in range(1, board_count + 1):
        for table in range(1, tables + 1):
            ew = (table + board - 2) % tables + 1  # EW pairs move up one table a round
            lines.append(Line(board, f"{table}NS", f"{ew}EW", draw(ns_scores)))
    fields = {pair: pair[-2:] for line in lines for pair in (line.ns_pair, line.ew_pair)}
    return SessionInput(tuple(lines), fields), tables


@FEW
@given(mitchell_sessions(), st.sampled_from(["two_one", "acbl"]))
def test_ns_and_ew_points_of_a_line_add_up_to_the_top(session_and_tables, scale):
    session, tables = session_and_tables
    result = score_session(SessionInput(session.lines, session.fields, ScoringOptions(mp_scale=scale)))
    assert all(line.ns_points + line.ew_points == result.top for line in result.lines)
    assert result.top == SCALES[scale].top(tables)


@FEW
@given(mitchell_sessions())
def test_each_field_averages_fifty_percent(session_and_tables):
    session, tables = session_and_tables
    result = score_session(session)
    for standings in result.standings.values():
        assert sum(standing.percentage for standing in standings) == 50 * tables


@FEW
@given(mitchell_sessions())
def test_acbl_session_percentages_equal_the_two_one_percentages(session_and_tables):
    session, _ = session_and_tables
    two_one = score_session(session)
    acbl = score_session(SessionInput(session.lines, session.fields, ScoringOptions(mp_scale="acbl")))
    for pair in session.fields:
        assert acbl.standing(pair).percentage == two_one.standing(pair).percentage
