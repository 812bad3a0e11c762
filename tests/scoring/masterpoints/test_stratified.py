"""Master points in a stratified session (RULES 15): each stratum's group awarded by the
federation's field rule, each pair keeping its highest award."""

from __future__ import annotations

import pytest

from sessions.scoring import ScoringError
from sessions.scoring.masterpoints import Field, Placing, session_awards
from sessions.scoring.masterpoints.stratified import stratum_group

#: RULES 15's worked example: a 5-table Howell (one field of 10 pairs), limits 1500 and 500.
STRATA = {"p1": "A", "p2": "C", "p3": "B", "p4": "C", "p5": "A", "p6": "B", "p7": "C", "p8": "A", "p9": "C",
          "p10": "B"}
HOWELL = Field("Howell", tuple(Placing(f"p{place}", place) for place in range(1, 11)), tables=5, two_winner=False)


def awards(fields, strata, *, federation="acbl", order="ABC"):
    won = session_awards(federation=federation, scale="", fields=fields, boards=24, strata=strata,
                         strata_order=tuple(order))
    return {pair: award.points for pair, award in won.items() if award.points}


def test_each_pair_keeps_its_highest_award_over_the_strata_it_is_ranked_in():
    # A: 10 pairs, 5 tables: 50, 35, 25, 18 to p1-p4. B group (B and C: 7 pairs, 4 tables,
    # 3 awards): p2 40, p3 28, p4 20. C group (4 pairs, 2 tables, 2 awards): p2 20, p4 14.
    assert awards([HOWELL], STRATA) == {"p1": 50, "p2": 40, "p3": 28, "p4": 20}


def test_without_strata_the_same_field_awards_the_open_places_only():
    won = session_awards(federation="acbl", scale="", fields=[HOWELL], boards=24)
    assert {pair: award.points for pair, award in won.items() if award.points} == {
        "p1": 50, "p2": 35, "p3": 25, "p4": 18}


def test_a_lower_stratum_can_win_what_the_open_field_gives_nobody_below_its_depth():
    # p7 (C) is 7th of 10: nothing in A or B, but with p9 and p4 behind it in C it is placed.
    strata = {**STRATA, "p2": "A", "p4": "A"}  # C is now p7 and p9 only
    won = awards([HOWELL], strata)
    assert won["p7"] > 0 and "p9" not in won


def test_a_stratum_group_counts_its_share_of_the_tables_and_leaves_phantoms_out():
    mitchell_ns = Field("NS", tuple(Placing(f"p{place}", place, is_phantom=place == 8) for place in range(1, 9)),
                        tables=8, two_winner=True)
    group = stratum_group(mitchell_ns, {"p2", "p4", "p6", "p8"})
    assert [placing.pair for placing in group.placings] == ["p2", "p4", "p6"]
    assert group.tables == 4  # 3 of the 7 pairs who count, of 8 tables: 3.43, a part table whole


def test_tied_pairs_in_a_stratum_share_that_strata_places():
    tied = Field("Howell", tuple(Placing(f"p{index}", place) for index, place in
                                 enumerate([1, 2, 3, 3, 5, 6, 7, 8, 9, 10], start=1)), tables=5, two_winner=False)
    strata = {"p3": "B", "p4": "B", "p6": "B", "p7": "B", "p9": "B"}
    # In A they share 3rd and 4th (25 and 18): 21.5 each -> 22. In the B group they tie
    # for 1st of 5 pairs (3 tables: 30 and 21, 2 awards): 25.5 each -> 26, their higher.
    won = awards([tied], strata, order="AB")
    assert won["p3"] == won["p4"] == 26


def test_every_federation_awards_its_strata_with_its_own_rule():
    # Bridge NZ, a third of each group: A (10 pairs) 4000, 2700, 1300; B (7) 4000, 2000; C (4) 4000.
    assert awards([HOWELL], STRATA, federation="nzb") == {"p1": 4000, "p2": 4000, "p3": 2000}
    # EBU, a third of each group in steps of 6: A 18, 12, 6; B 12, 6; C 6: no pair does better below.
    assert awards([HOWELL], STRATA, federation="ebu") == {"p1": 18, "p2": 12, "p3": 6}


def test_an_unknown_stratum_is_refused():
    with pytest.raises(ScoringError, match="no stratum 'D'"):
        awards([HOWELL], {"p1": "D"})
