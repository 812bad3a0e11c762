"""Club competitions across sessions (sessions.scoring.competitions): one test per rule."""

from __future__ import annotations

from fractions import Fraction

import pytest

from sessions.scoring.competitions import (
    CompetitionRules,
    CompetitionSession,
    Finish,
    rank_competition,
    session_points,
)
from sessions.scoring.errors import ScoringError


def session(key: str, *order: str, field: str = "", scores: dict[str, int] | None = None) -> CompetitionSession:
    """Competitors in finishing order; "B=C" ties them."""
    finishes, rank = [], 1
    for entry in order:
        names = entry.split("=")
        finishes.extend(Finish(name, field, rank, Fraction((scores or {}).get(name, 50))) for name in names)
        rank += len(names)
    return CompetitionSession(key, tuple(finishes))


def standings(sessions, **rules):
    return {s.competitor: s for s in rank_competition(sessions, CompetitionRules(**rules))}


def test_the_default_table_gives_10_for_1st_down_to_1_for_10th_and_nothing_below():
    names = [f"P{number}" for number in range(1, 13)]
    given = session_points(session("S1", *names), CompetitionRules().points)
    assert [given[name].points for name in names] == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0]


def test_the_clubs_own_table_replaces_the_default():
    given = session_points(session("S1", "A", "B", "C"), (5, 3))
    assert [given[name].points for name in "ABC"] == [5, 3, 0]


def test_a_tie_shares_the_points_of_the_places_it_covers():
    given = session_points(session("S1", "A", "B=C", "D"), CompetitionRules().points)
    assert (given["B"].place, given["B"].points, given["C"].points) == ("2=", Fraction(17, 2), Fraction(17, 2))
    assert (given["D"].place, given["D"].points) == ("4", 7)


def test_each_field_of_a_mitchell_gives_its_own_1st_full_points():
    both = CompetitionSession("S1", (*session("S1", "A", "B", field="NS").finishes,
                                     *session("S1", "C", "D", field="EW").finishes))
    given = session_points(both, CompetitionRules().points)
    assert (given["A"].points, given["C"].points, given["D"].points) == (10, 10, 9)


def test_members_only_ranks_the_members_again_among_themselves():
    """The visitor V won; handed only the members' finishes, A is 1st and takes 10."""
    members = CompetitionSession("S1", tuple(f for f in session("S1", "V", "A", "B").finishes if f.competitor != "V"))
    given = session_points(members, CompetitionRules().points)
    assert (given["A"].place, given["A"].points, given["B"].points) == ("1", 10, 9)


def test_points_add_up_over_the_sessions_and_rank_the_competitors():
    table = standings([session("S1", "A", "B", "C"), session("S2", "C", "A", "B")])
    assert (table["A"].total, table["C"].total, table["B"].total) == (19, 18, 17)
    assert [table[name].place for name in "ACB"] == ["1", "2", "3"]


def test_only_the_best_n_sessions_count_and_the_others_are_marked():
    table = standings([session("S1", "B", "A"), session("S2", "A", "B"), session("S3", "B", "A")], best=2)
    assert table["B"].total == 20
    assert [c.counted for c in table["A"].contributions] == [True, True, False]  # 9, 10, 9: the earlier 9 counts


def test_below_the_minimum_attendance_a_competitor_is_listed_after_without_a_place():
    table = standings([session("S1", "A", "B"), session("S2", "B", "C")], minimum=2)
    ranked = rank_competition([session("S1", "A", "B"), session("S2", "B", "C")], CompetitionRules(minimum=2))
    assert [s.competitor for s in ranked] == ["B", "A", "C"]
    assert (table["A"].ranked, table["A"].place, table["B"].place) == (False, "", "1")


def test_butler_breaks_a_tie_on_points_first():
    sessions = [session("S1", "A", "B", scores={"A": 60, "B": 55}), session("S2", "B", "A", scores={"B": 70, "A": 52})]
    table = standings(sessions)
    assert table["A"].total == table["B"].total == 19
    assert (table["B"].place, table["A"].place, table["B"].decided_by) == ("1", "2", "butler")


def test_head_to_head_breaks_a_tie_left_by_butler():
    """A and B level on points (28) and scores; A finished ahead of B in two sessions of three."""
    sessions = [session("S1", "A", "B"), session("S2", "A", "B"), session("S3", "B", "X", "A")]
    table = standings(sessions, tie_breaks=("butler", "head_to_head", "wins"))
    assert table["A"].total == table["B"].total == 28
    assert (table["A"].place, table["B"].place, table["A"].decided_by) == ("1", "2", "head_to_head")


def test_most_wins_breaks_what_head_to_head_leaves():
    """A and B never met and have 16 points each: A won once, B never."""
    sessions = [session("S1", "A", "X"), session("S2", "P", "Q", "R", "S", "A"),
                session("S3", "P", "Q", "B"), session("S4", "T", "U", "B")]
    table = standings(sessions, tie_breaks=("head_to_head", "wins"))
    assert table["A"].total == table["B"].total == 16
    assert (table["A"].place, table["B"].place, table["A"].decided_by) == ("3", "4", "wins")  # after P (20) and Q (18)


def test_the_tie_breaks_apply_in_the_order_the_club_chose():
    """A and B have 26 points each: B won two sessions, A one; A has the higher scores."""
    a = {"A": 70, "B": 40}
    sessions = [session("S1", "B", "A", scores=a), session("S2", "B", "X", "Y", "A", scores=a),
                session("S3", "A", "X", "Y", "Z", "B", scores=a)]
    assert standings(sessions)["A"].total == standings(sessions)["B"].total == 26
    by_wins = standings(sessions, tie_breaks=("wins", "butler"))
    by_butler = standings(sessions, tie_breaks=("butler", "wins"))
    assert (by_wins["B"].place, by_wins["A"].place) == ("1", "2")
    assert (by_butler["A"].place, by_butler["B"].place) == ("1", "2")


def test_competitors_level_after_every_tie_break_share_the_place():
    table = standings([session("S1", "A=B")])
    assert (table["A"].place, table["B"].place, table["A"].decided_by) == ("1=", "1=", "")


@pytest.mark.parametrize("rules, message", [
    (CompetitionRules(tie_breaks=("coin",)), "unknown tie-break"),
    (CompetitionRules(best=2, minimum=3), "minimum"),
    (CompetitionRules(points=(10, -1)), "negative"),
])
def test_impossible_rules_are_refused(rules, message):
    with pytest.raises(ScoringError, match=message):
        rank_competition([session("S1", "A")], rules)
