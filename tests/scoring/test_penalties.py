"""Procedural penalties (Law 90) in a pairs session (RULES 13): they lower the penalised
pair's total only, never its opponents' nor the board's figures for anyone else."""

from fractions import Fraction

import pytest

from sessions.scoring.errors import ScoringError
from sessions.scoring.penalties import Penalty, PenaltyUnit, check_unit, matchpoint_loss
from sessions.scoring.session import Line, ScoringOptions, SessionInput, rescore_boards, score_session

F = Fraction

# A three-table Mitchell (tests/scoring/test_session.py): 3 boards, a top of 4.
# NS totals 3NS 8, 1NS 5, 2NS 5; EW 3EW 9, 1EW 6, 2EW 3.
THREE_TABLE_MITCHELL = [
    (1, 1, 1, 420), (1, 2, 2, 450), (1, 3, 3, 400),
    (2, 1, 2, -100), (2, 2, 3, -100), (2, 3, 1, 110),
    (3, 1, 3, 620), (3, 2, 1, 170), (3, 3, 2, 650),
]


def mitchell(rows=THREE_TABLE_MITCHELL, penalties=None, **options):
    lines = tuple(Line(board, f"{ns}NS", f"{ew}EW", score) for board, ns, ew, score in rows)
    fields = {pair: pair[-2:] for line in lines for pair in (line.ns_pair, line.ew_pair)}
    return SessionInput(lines, fields, ScoringOptions(**options), penalties=penalties or {})


def standing(result, pair):
    found = result.standing(pair)
    return found.total, found.percentage, found.place, found.penalty


def test_a_matchpoint_penalty_lowers_the_pairs_total_and_percentage_only():
    plain = score_session(mitchell())
    penalised = score_session(mitchell(penalties={"1NS": (Penalty(F(1), PenaltyUnit.MATCHPOINTS),)}))
    # 5 of 12 matchpoints (41.67%) less 1: 4 of 12, 33.33%; 1NS drops below 2NS.
    assert standing(penalised, "1NS") == (4, F(100, 3), "3", 1)
    assert penalised.standing("1NS").penalty_percentage == F(25, 3)
    assert standing(penalised, "2NS") == (5, F(125, 3), "2", 0)
    # Its opponents keep every matchpoint, and every line keeps its figures.
    for pair in ("1EW", "2EW", "3EW", "3NS"):
        assert standing(penalised, pair)[:2] == standing(plain, pair)[:2]
    assert penalised.lines == plain.lines


def test_a_quarter_of_a_top_is_a_quarter_of_one_boards_top():
    penalised = score_session(mitchell(penalties={"3EW": (Penalty(F(25), PenaltyUnit.TOP_PERCENT),)}))
    # A top of 4: 25% is 1 matchpoint off 9 of 12 (75%): 8 of 12.
    assert standing(penalised, "3EW") == (8, F(200, 3), "1", 1)


def test_penalties_add_up():
    given = (Penalty(F(50), PenaltyUnit.TOP_PERCENT), Penalty(F(1, 2), PenaltyUnit.MATCHPOINTS))
    penalised = score_session(mitchell(penalties={"3NS": given}))
    assert standing(penalised, "3NS")[0] == 8 - 2 - F(1, 2)


def test_a_pair_that_played_fewer_boards_loses_the_penalty_whole_from_its_scaled_total():
    rows = [row for row in THREE_TABLE_MITCHELL if row[1:3] != (1, 3)]  # 1NS and 3EW miss board 3
    plain = score_session(mitchell(rows))
    penalised = score_session(mitchell(rows, penalties={"1NS": (Penalty(F(1), PenaltyUnit.MATCHPOINTS),)}))
    before, after = plain.standing("1NS"), penalised.standing("1NS")
    assert after.total == before.total - 1
    # Scaled tops: 3 boards of a top of 4 (12): one matchpoint is 100/12 percent.
    assert after.percentage == before.percentage - F(100, 12)


def test_an_imp_penalty_lowers_the_butler_total_only():
    plain = score_session(mitchell(method="butler"))
    penalised = score_session(mitchell(method="butler", penalties={"2EW": (Penalty(F(3), PenaltyUnit.IMPS),)}))
    assert penalised.standing("2EW").total == plain.standing("2EW").total - 3
    assert penalised.standing("2EW").penalty == 3
    assert penalised.standing("2NS").total == plain.standing("2NS").total
    assert penalised.lines == plain.lines


def test_rescoring_a_board_keeps_the_penalty():
    session = mitchell(penalties={"1NS": (Penalty(F(1), PenaltyUnit.MATCHPOINTS),)})
    previous = score_session(session)
    changed_rows = [(1, 1, 1, 450) if row == (1, 1, 1, 420) else row for row in THREE_TABLE_MITCHELL]
    changed = mitchell(changed_rows, penalties=session.penalties)
    assert rescore_boards(previous, changed, {1}).standings == score_session(changed).standings


@pytest.mark.parametrize("unit, method", [
    (PenaltyUnit.IMPS, "matchpoints"), (PenaltyUnit.MATCHPOINTS, "butler"), (PenaltyUnit.TOP_PERCENT, "cross_imps"),
])
def test_a_penalty_in_the_other_scorings_unit_is_refused(unit, method):
    with pytest.raises(ScoringError, match="give the penalty in"):
        check_unit(unit, method)
    with pytest.raises(ScoringError):
        score_session(mitchell(method=method, penalties={"1NS": (Penalty(F(1), unit),)}))


@pytest.mark.parametrize("amount, unit", [(F(0), "MP"), (F(-1), "IMP"), (F(101), "TOP"), (F(1), "VP")])
def test_an_impossible_penalty_is_refused(amount, unit):
    with pytest.raises(ScoringError):
        Penalty(amount, unit)


def test_a_top_percent_is_of_the_pairs_own_top_per_board():
    assert matchpoint_loss([Penalty(F(25), PenaltyUnit.TOP_PERCENT)], tops=F(48), boards=4) == 3
