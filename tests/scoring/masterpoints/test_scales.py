"""Club scales from their regulations' own words and examples (the real files are
tests/formats/test_masterpoint_files.py)."""

from __future__ import annotations

import pytest

from sessions.scoring import ScoringError
from sessions.scoring.masterpoints import Field, Placing, federation_for_program, session_awards


def field(places, *, tables=None, two_winner=False, phantoms=(), boards_played=None):
    placings = tuple(
        Placing(f"p{index}", place, boards_played=(boards_played or {}).get(index), is_phantom=index in phantoms)
        for index, place in enumerate(places, start=1)
    )
    return Field("A", placings, tables or (len(places) + 1) // 2, two_winner)


def points(federation, fields, *, scale="", boards=24):
    awards = session_awards(federation=federation, scale=scale, fields=fields, boards=boards)
    pairs = [placing.pair for each in fields for placing in each.placings]
    return [awards[pair].points if pair in awards else None for pair in pairs]


def test_ebu_awards_a_third_of_a_one_winner_field_in_steps_of_six():
    assert points("ebu", [field(range(1, 16))]) == [30, 24, 18, 12, 6] + [0] * 10


def test_ebu_two_winner_direction_steps_by_ten():
    assert points("ebu", [field(range(1, 13), two_winner=True)]) == [40, 30, 20, 10] + [0] * 8


def test_ebu_tied_pairs_share_the_places_they_cover():
    # 12 pairs, 4 awards (24, 18, 12, 6): three pairs 2= share (18 + 12 + 6) / 3.
    assert points("ebu", [field([1, 2, 2, 2, 5, 6, 7, 8, 9, 10, 11, 12])]) == [24, 12, 12, 12] + [0] * 8


def test_ebu_a_tie_across_the_last_award_keeps_the_club_minimum():
    # 4 awards (24, 18, 12, 6): 4= shares 6 and nothing, yet no club award is below 6.
    assert points("ebu", [field([1, 2, 3, 4, 4, 6, 7, 8, 9, 10, 11, 12])])[3:5] == [6, 6]


def test_ebu_county_scale_is_twice_club():
    assert points("ebu", [field(range(1, 13))], scale="county")[:4] == [48, 36, 24, 12]


@pytest.mark.parametrize("boards", [12, 17, 36])
def test_ebu_refuses_board_counts_whose_scale_is_not_pinned(boards):
    with pytest.raises(ScoringError, match="18 to 35 boards"):
        points("ebu", [field(range(1, 13))], boards=boards)


def test_a_phantom_neither_wins_nor_counts_in_the_field():
    # 13 pairs and a phantom: a third of 13 is 4 awards, the phantom's place gives nothing.
    result = points("nzb", [field([1, *range(2, 15)], phantoms={1})])
    assert result == [None, 4000, 3000, 2000, 1000] + [0] * 9


def test_pairs_who_played_fewer_boards_keep_their_place_award():
    assert points("ebu", [field(range(1, 13), boards_played={1: 20})])[0] == 24


def test_nz_awards_forty_to_each_direction_down_to_a_third_in_whole_points():
    # 15 tables: "the top five pairs in each direction will win some C points".
    ns, ew = field(range(1, 16), two_winner=True), field(range(1, 16), two_winner=True)
    ew = Field("B", tuple(Placing(f"q{p.pair}", p.place) for p in ew.placings), 15, True)
    awards = session_awards(federation="nzb", scale="club", fields=[ns, ew], boards=26)
    assert [awards[f"p{i}"].points for i in range(1, 7)] == [4000, 3200, 2400, 1600, 800, 0]
    assert awards["qp1"].points == 4000 and awards["qp1"].point_type == "c"


def test_nz_rounds_each_place_to_the_whole_c_point():
    assert points("nzb", [field(range(1, 10))])[:4] == [4000, 2700, 1300, 0]


def test_abf_mitchell_winners_award_is_two_w_t_hundredths_and_the_top_half_places():
    # 10 tables, W 1.5: 0.30; places 0.30, 0.21 (70%), 0.15 (1/2), 0.10 (1/3), 0.08 (1/4).
    assert points("abf", [field(range(1, 11), tables=10, two_winner=True)]) == [30, 21, 15, 10, 8] + [0] * 5


def test_abf_howell_winners_award_doubles_and_follows_the_exponential_above_fifteen_tables():
    assert points("abf", [field(range(1, 9))])[0] == 24  # 4 tables: 0.04 x 1.5 x 4
    # 20 tables: 1.5 x (1 - exp(-20/16)) = 1.0703 -> 107 hundredths.
    assert points("abf", [field(range(1, 41), tables=20)])[0] == 107


def test_abf_shared_award_rounds_half_up():
    # 7 pairs: 3 awards of 0.21, 0.15, 0.11; 3= shares (0.11 + 0) / 2 = 0.055 -> 6.
    assert points("abf", [field([1, 2, 3, 3, 5, 6, 7], tables=7, two_winner=True)])[:4] == [21, 15, 6, 6]


def test_acbl_open_club_game_first_place_is_ten_hundredths_per_table_to_forty_percent():
    # An eight-table Mitchell: groups of 8 pairs, 0.80 for first, 40% of 8 = 3.2 -> 3 awards.
    assert points("acbl", [field(range(1, 9), tables=8, two_winner=True)]) == [80, 56, 40, 0, 0, 0, 0, 0]


def test_acbl_caps_first_place_at_one_and_a_half():
    assert points("acbl", [field(range(1, 41), tables=20, two_winner=True)])[0] == 150


def test_unknown_federation_or_scale_is_refused():
    with pytest.raises(ScoringError, match="federation"):
        points("fbf", [field(range(1, 9))])
    with pytest.raises(ScoringError, match="scale"):
        points("nzb", [field(range(1, 9))], scale="congress")


@pytest.mark.parametrize(
    ("program", "federation"),
    [("EBUScore Pairs", "ebu"), ("ScoreBridge", "ebu"), ("Scorer", "nzb"), ("Compscore3", "abf"),
     ("PairsScorer", "ebu"), ("ClubScore", None), ("Bridgemate", None)],
)
def test_a_program_names_the_federation_its_awards_follow(program, federation):
    assert federation_for_program(program) == federation
