"""NZ Scorer's conventions as event options (RULES 5 and 8): a not-played line as a 0,
figures cut as it prints them, missing results as ties in the totals, the phantom's
table in the full field, and the handicapped ranking beside the scratch one."""

from fractions import Fraction

import pytest

from sessions.scoring.errors import ScoringError
from sessions.scoring.matchpoints import ties_added
from sessions.scoring.scores import NOT_PLAYED, Artificial
from sessions.scoring.session import ScoringOptions, SessionInput, rescore_boards, score_session
from tests.scoring.test_session import FOUR_TABLES_BOARD_TWO_SHORT, howell, mitchell, points

F = Fraction

BOARD_ONE_NOT_PLAYED = [
    (1, 1, 1, 420), (1, 2, 2, -50), (1, 3, 3, 400), (1, 4, 4, NOT_PLAYED),
    (2, 1, 2, 100), (2, 2, 3, 100), (2, 3, 4, 100), (2, 4, 1, 200),
]


def test_a_not_played_line_compared_as_a_zero_scores_like_a_pass_out():
    result = score_session(mitchell(BOARD_ONE_NOT_PLAYED, not_played="zero"))
    # 420 > 400 > 0 > -50: four results, top 6, no factoring.
    assert points(result)[:4] == [(6, 0), (0, 6), (4, 2), (2, 4)]
    assert result.standing("4NS").boards_played == 2


def test_a_not_played_line_is_removed_by_default():
    result = score_session(mitchell(BOARD_ONE_NOT_PLAYED))
    assert points(result)[3] == (None, None)
    assert result.standing("4NS").boards_played == 1


def test_cut_figures_cut_each_side_of_a_line_to_tenths_and_totals_stay_exact():
    result = score_session(mitchell(FOUR_TABLES_BOARD_TWO_SHORT, cut_figures=True))
    # Neuberg 17/3 and 1/3 shown 5.6 and 0.3 (not 5.7): each side cut on its own.
    assert points(result)[5] == (F("5.6"), F("0.3"))
    assert result.standing("2NS").total == 6 + F(17, 3)


def test_cut_figures_place_pairs_on_whole_matchpoints():
    rows = [(1, 1, 1, 450), (1, 2, 2, 420), (1, 3, 3, Artificial(60, 40)),
            (2, 1, 2, 200), (2, 2, 3, 100), (2, 3, 1, 50)]
    exact = score_session(mitchell(rows))
    # 2NS: 1/2 (420 of 2 results, factored to 3) + 2 = 2.5; 3NS: Ave+ 2.4 + 0 = 2.4.
    assert (exact.standing("2NS").total, exact.standing("3NS").total) == (F(5, 2), F(12, 5))
    assert {s.pair: s.place for s in exact.standings["NS"]} == {"1NS": "1", "2NS": "2", "3NS": "3"}
    cut = score_session(mitchell(rows, cut_figures=True))
    assert {s.pair: s.place for s in cut.standings["NS"]} == {"1NS": "1", "2NS": "2=", "3NS": "2="}


def test_ties_for_missing_results_add_one_per_missing_result_to_each_side():
    assert ties_added(4, 3, 4, "two_one") == 5  # top 4 -> 6: each side gets 1
    assert ties_added(2, 3, 4, "acbl") == F(5, 2)
    with pytest.raises(ScoringError):
        ties_added(2, 4, 3)


def test_short_totals_as_ties_keep_the_lines_by_neuberg():
    result = score_session(mitchell(FOUR_TABLES_BOARD_TWO_SHORT, short_totals="ties"))
    assert points(result)[4:] == [(3, 3), (F(17, 3), F(1, 3)), (F(1, 3), F(17, 3))]
    # 2NS: board 1 6 of 6, board 2 4 (of 4) + 1 for the missing result = 5 of 6.
    assert result.standing("2NS").percentage == F(11 * 100, 12)
    assert score_session(mitchell(FOUR_TABLES_BOARD_TWO_SHORT)).standing("2NS").percentage != F(1100, 12)


PHANTOM_HOWELL = [  # 5 pairs (a phantom makes 6): two tables play each board
    (1, 1, 2, 420), (1, 3, 4, 400),
    (2, 1, 5, 100), (2, 2, 3, 200),
]


def test_phantom_table_factors_the_lines_to_a_full_field_with_the_phantoms_table():
    plain = score_session(howell(PHANTOM_HOWELL))
    assert points(plain)[:2] == [(2, 0), (0, 2)]
    result = score_session(howell(PHANTOM_HOWELL, phantom_table=True))
    # 5 pairs: 3 tables, so 3 results a board (top 4): Neuberg 2 -> (2 + 1) x 3/2 - 1.
    assert points(result)[:2] == [(F(7, 2), F(1, 2)), (F(1, 2), F(7, 2))]
    assert result.lines[0].top == 4
    # The percentages stay as played.
    assert result.standing("1").percentage == plain.standing("1").percentage


def test_handicap_adds_its_share_beside_the_scratch_percentage_and_place():
    session = mitchell(FOUR_TABLES_BOARD_TWO_SHORT[:4] + [
        (2, 1, 2, 100), (2, 2, 3, 50), (2, 3, 4, 150), (2, 4, 1, 200)], handicap="half")
    handicaps = {"1NS": F(10), "2NS": F(-4)}
    result = score_session(SessionInput(session.lines, session.fields, session.options, handicaps=handicaps))
    scratch = {s.pair: s for s in result.standings["NS"]}
    for pair, standing in scratch.items():
        assert standing.handicapped == standing.percentage + handicaps.get(pair, F(0)) / 2
    by_handicap = sorted(scratch.values(), key=lambda s: s.handicap_rank)
    assert [s.handicapped for s in by_handicap] == sorted((s.handicapped for s in by_handicap), reverse=True)
    assert [s.rank for s in result.standings["NS"]] == sorted(s.rank for s in result.standings["NS"])
    full = score_session(SessionInput(session.lines, session.fields, ScoringOptions(handicap="full"), handicaps=handicaps))
    assert full.standing("1NS").handicapped == full.standing("1NS").percentage + 10


def test_no_handicap_leaves_the_handicapped_figures_empty():
    session = mitchell(FOUR_TABLES_BOARD_TWO_SHORT)
    result = score_session(SessionInput(session.lines, session.fields, handicaps={"1NS": F(10)}))
    assert result.standing("1NS").handicapped is None


@pytest.mark.parametrize("name, value", [("not_played", "nil"), ("short_totals", "x"), ("handicap", "75")])
def test_unknown_nz_option_values_are_refused(name, value):
    with pytest.raises(ScoringError, match=name):
        ScoringOptions(**{name: value})


@pytest.mark.parametrize("options", [
    {"not_played": "zero"}, {"cut_figures": True}, {"short_totals": "ties"}, {"phantom_table": True},
])
def test_rescoring_a_board_under_nz_options_gives_the_full_scoring(options):
    session = mitchell(BOARD_ONE_NOT_PLAYED, **options)
    previous = score_session(session)
    changed = tuple(line if line.board != 2 or line.ns_pair != "1NS" else line.__class__(
        2, "1NS", "2EW", 300) for line in session.lines)
    new = SessionInput(changed, session.fields, session.options)
    assert rescore_boards(previous, new, {2}) == score_session(new)
