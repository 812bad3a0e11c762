"""Points the director assigns on a line (RULES 5): exactly those figures for its pairs,
and the line compared with no other, the rest of the board scored as with an artificial score."""

import re
from dataclasses import replace
from fractions import Fraction

import pytest

from sessions.scoring.errors import ScoringError
from sessions.scoring.notation import format_result, parse_result
from sessions.scoring.scores import Artificial, AssignedPoints
from sessions.scoring.session import (
    Line, ScoringOptions, SessionInput, assigned_beyond_top, rescore_boards, score_session,
)

F = Fraction

# Board 1 at four tables (its line 2NS v 2EW the one the director rules on), board 2 at four.
ROWS = [
    (1, 1, 1, 420), (1, 2, 2, 450), (1, 3, 3, 400), (1, 4, 4, -50),
    (2, 1, 2, -100), (2, 2, 3, 110), (2, 3, 4, 140), (2, 4, 1, -100),
]


def session(ruled_on_board_1, **options) -> SessionInput:
    """The Mitchell of ROWS with board 1's second line replaced by ``ruled_on_board_1``."""
    lines = []
    for board, ns, ew, score in ROWS:
        if (board, ns) == (1, 2):
            score = ruled_on_board_1
        lines.append(Line(board, f"{ns}NS", f"{ew}EW", score))
    fields = {pair: pair[-2:] for line in lines for pair in (line.ns_pair, line.ew_pair)}
    return SessionInput(tuple(lines), fields, ScoringOptions(**options))


def figures(result):
    return [(line.ns_points, line.ew_points) for line in result.lines]


@pytest.mark.parametrize("line_display", ["neuberg", "as_played"])
def test_assigned_matchpoints_are_the_lines_figures_and_the_others_score_as_beside_an_artificial_score(line_display):
    assigned = score_session(session(AssignedPoints(F(5), F(1)), line_display=line_display))
    artificial = score_session(session(Artificial(50, 50), line_display=line_display))

    assert figures(assigned)[1] == (5, 1)  # not the 3 / 3 an Ave gives on a top of 6
    assert figures(artificial)[1] == (3, 3)
    others = [index for index in range(len(ROWS)) if index != 1]
    assert [figures(assigned)[i] for i in others] == [figures(artificial)[i] for i in others]
    # Board 1's three compared lines are Neuberg-factored to the board's four results:
    # 420 beats 400 and -50, 4 of a top of 4, (4 + 1) x 4/3 - 1 = 17/3 of a top of 6.
    assert figures(assigned)[0] == (F(17, 3), F(1, 3))
    assert assigned.lines[1].top == 6 and assigned.lines[1].ns_percent == F(500, 6)


def test_the_pairs_totals_and_percentages_count_the_assigned_figures():
    result = score_session(session(AssignedPoints(F(5), F(1))))
    ns2, ew2 = result.standing("2NS"), result.standing("2EW")

    # 2NS: the 5 assigned on board 1 (of a top of 6) and what 110 earns on board 2.
    board_2 = figures(result)[5]
    assert board_2 == (F(4), F(2))  # 110 beats -100 twice, loses to 140
    assert ns2.total == 5 + board_2[0]
    assert ns2.percentage == (5 + board_2[0]) / F(12) * 100
    assert ew2.total == 1 + figures(result)[4][1]


def test_fractional_assigned_figures_are_kept_exactly():
    result = score_session(session(AssignedPoints(F("4.75"), F("1.25"))))
    assert figures(result)[1] == (F(19, 4), F(5, 4))


@pytest.mark.parametrize(
    ("points", "message"),
    [
        (AssignedPoints(F(7), F(0)), "board 1 .2NS v 2EW.: NS cannot be assigned 7 matchpoints: the board's top is 6"),
        (AssignedPoints(F(3), F("6.5")), "EW cannot be assigned 6.5 matchpoints: the board's top is 6"),
    ],
)
def test_matchpoints_beyond_the_boards_top_are_named(points, message):
    # Not refused while scoring (a board's top grows as its results are entered): named
    # for the entry and the import to refuse.
    refusals = assigned_beyond_top(score_session(session(points)))
    assert len(refusals) == 1 and re.search(message, refusals[0])
    assert assigned_beyond_top(score_session(session(AssignedPoints(F(6), F(0))))) == []


def test_imps_in_a_matchpoint_event_are_refused():
    with pytest.raises(ScoringError, match=r"board 1 \(2NS v 2EW\): this event is scored in matchpoints \(MP\)"):
        score_session(session(AssignedPoints(F(3), F(-3), unit="IMP")))


def test_negative_matchpoints_are_refused_when_the_line_is_made():
    with pytest.raises(ScoringError, match="matchpoints are never negative"):
        AssignedPoints(F(-1), F(3))


@pytest.mark.parametrize("method", ["cross_imps", "butler"])
def test_assigned_imps_are_the_lines_figures_and_the_others_score_as_beside_an_artificial_score(method):
    assigned = score_session(session(AssignedPoints(F(5), F(-2), unit="IMP"), method=method))
    artificial = score_session(session(Artificial(50, 50), method=method))

    assert figures(assigned)[1] == (5, -2)
    others = [index for index in range(len(ROWS)) if index != 1]
    assert [figures(assigned)[i] for i in others] == [figures(artificial)[i] for i in others]
    assert assigned.standing("2NS").total == 5 + figures(assigned)[5][0]


def test_matchpoints_in_an_imp_event_are_refused():
    with pytest.raises(ScoringError, match=r"this event is scored in IMPs \(IMP\)"):
        score_session(session(AssignedPoints(F(3), F(3)), method="butler"))


def test_rescoring_the_board_of_an_assigned_line_gives_the_whole_sessions_figures():
    before = score_session(session(450))
    changed = session(AssignedPoints(F(5), F(1)))
    assert rescore_boards(before, changed, {1}) == score_session(changed)
    back = session(450)
    assert rescore_boards(score_session(changed), back, {1}) == score_session(back)


def test_an_assigned_line_does_not_count_in_its_pairs_own_percentage_for_an_ave_plus():
    # 2NS's own percentage (the EBU option) is of its boards with a real result only.
    rows = session(AssignedPoints(F(6), F(0)), adjusted_session_percentage=True)
    lines = list(rows.lines)
    lines[5] = replace(lines[5], score=Artificial(60, 40))  # 2NS v 3EW on board 2: Ave+ to 2NS
    result = score_session(replace(rows, lines=tuple(lines)))
    # 2NS has no real result left: its Ave+ stays 60 % of the top, not its 100 % on board 1.
    assert figures(result)[5] == (F(18, 5), F(12, 5))


# --- the notation -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "points", "written"),
    [
        ("MP 23/11", AssignedPoints(F(23), F(11)), "MP 23/11"),
        ("mp 23.5 / 10.5", AssignedPoints(F(47, 2), F(21, 2)), "MP 23.5/10.5"),
        ("IMP 3/-3", AssignedPoints(F(3), F(-3), unit="IMP"), "IMP 3/-3"),
        ("IMPs 2.25/-1", AssignedPoints(F(9, 4), F(-1), unit="IMP"), "IMP 2.25/-1"),
        ("A5050 MP 23/11", AssignedPoints(F(23), F(11), ruling=Artificial(50, 50)), "A50/50 MP 23/11"),
        ("Ave+/Ave- MP 20/14", AssignedPoints(F(20), F(14), ruling=Artificial(60, 40)), "A60/40 MP 20/14"),
        ("NS 420 MP 20/14", AssignedPoints(F(20), F(14), ruling=420), "NS 420 MP 20/14"),
        ("EW 100 IMP -2/2", AssignedPoints(F(-2), F(2), unit="IMP", ruling=-100), "EW 100 IMP -2/2"),
    ],
)
def test_assigned_points_are_typed_with_their_unit_ns_first(text, points, written):
    assert parse_result(text, 1) == points
    assert format_result(points) == written
    assert parse_result(written, 1) == points


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("MP -1/3", "matchpoints are never negative"),
        ("MP 3", "is not a result"),
        ("MP 3/4/5", "is not a result"),
        ("4S N 10 MP 3/4", "only an adjusted score"),
        ("NS 620 MP 3/3", "NS 620 is not a score any contract can produce on board 1"),
        ("MP 3/", "is not a result"),
    ],
)
def test_unreadable_or_impossible_assigned_points_are_refused(text, reason):
    with pytest.raises(ScoringError, match=reason):
        parse_result(text, 1)
