"""Movements: every supported size keeps the rules of a fair schedule, and the cards
for small cases match what a director works out by hand.

The soundness checks here are written independently of ``Movement.validate`` (which
has its own tests below, fed broken schedules), so a bug in one is caught by the other.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections import Counter
from itertools import combinations

import pytest

from sessions.movements import (
    Movement,
    MovementError,
    Seating,
    board_range,
    howell,
    howell_round_options,
    max_mitchell_rounds,
    mitchell,
    suggest_movements,
)
from sessions.movements.howell_starters import STARTERS
from sessions.scoring.errors import ScoringError

_cyclic_starter = importlib.import_module("sessions.movements.howell")._cyclic_starter  # the package exports howell()

# -- independent checks ----------------------------------------------------------


def full_schedule(movement: Movement) -> tuple[Seating, ...]:
    return movement.seatings + movement.phantom_seatings


def everyone(movement: Movement) -> tuple[str, ...]:
    return movement.pairs + ((movement.phantom,) if movement.phantom else ())


def assert_sound(movement: Movement, plays_per_board: int) -> None:
    """No pair twice in a round or on a board; every board scheduled equally often."""
    schedule = full_schedule(movement)
    for round in range(1, movement.rounds + 1):
        present = Counter(p for s in schedule if s.round == round for p in s.pairs)
        assert present == Counter(everyone(movement)), f"round {round}"
        tables = [s.table for s in schedule if s.round == round]
        assert sorted(tables) == list(range(1, movement.tables + 1))
        sitting_out = [
            s.opponent_of(movement.phantom) for s in movement.phantom_seatings if s.round == round
        ]
        assert sorted(movement.sit_outs.get(round, ())) == sorted(sitting_out)
    pair_boards = Counter((p, b) for s in schedule for p in s.pairs for b in s.boards)
    assert max(pair_boards.values()) == 1, "a pair plays a board twice"
    times = Counter(b for s in schedule for b in s.boards)
    assert sorted(times) == list(range(1, len(times) + 1))
    assert set(times.values()) == {plays_per_board}
    assert all(movement.phantom not in s.pairs for s in movement.seatings)
    assert all(len(s.boards) == movement.boards_per_round for s in schedule)


def meetings(movement: Movement) -> Counter[frozenset[str]]:
    return Counter(frozenset(s.pairs) for s in full_schedule(movement))


def assert_mitchell_lines_meet_at_most_once(movement: Movement) -> None:
    met = meetings(movement)
    assert max(met.values()) == 1
    for pairing in met:
        assert {p[-2:] for p in pairing} == {"NS", "EW"}, f"{sorted(pairing)} same line"


# -- Mitchell: every size and option ---------------------------------------------

ODD_TABLES = range(3, 16, 2)
EVEN_TABLES = range(4, 17, 2)


@pytest.mark.parametrize("tables", ODD_TABLES)
def test_odd_mitchell_has_every_ns_meet_every_ew_once_and_boards_played_by_every_table(tables):
    movement = mitchell(tables, 3)
    assert movement.rounds == tables
    assert_sound(movement, plays_per_board=tables)
    assert_mitchell_lines_meet_at_most_once(movement)
    assert len(meetings(movement)) == tables * tables
    assert set(movement.fields.values()) == {"NS", "EW"}


@pytest.mark.parametrize("tables", EVEN_TABLES)
def test_skip_mitchell_plays_one_round_fewer_than_tables_without_replaying_a_board(tables):
    movement = mitchell(tables, 2, even="skip")
    assert movement.rounds == tables - 1
    assert_sound(movement, plays_per_board=tables - 1)
    assert_mitchell_lines_meet_at_most_once(movement)


@pytest.mark.parametrize("tables", EVEN_TABLES)
def test_relay_mitchell_plays_all_rounds_with_tables_1_and_last_sharing(tables):
    movement = mitchell(tables, 2, even="relay")
    assert movement.rounds == tables
    assert_sound(movement, plays_per_board=tables)
    assert_mitchell_lines_meet_at_most_once(movement)
    for round in range(1, tables + 1):
        assert movement.shares_boards_with(round, 1) == (tables,)
        in_play = {b for s in movement.seatings if s.round == round for b in s.boards}
        # one set shared, one on the bye stand: tables - 1 sets in play
        assert len(in_play) == (tables - 1) * 2


@pytest.mark.parametrize("tables", [*ODD_TABLES, *EVEN_TABLES])
def test_mitchell_with_fewer_rounds_plays_every_board_once_a_round(tables):
    for rounds in range(1, max_mitchell_rounds(tables, "skip") + 1):
        even = None if tables % 2 else "skip"
        movement = mitchell(tables, 2, rounds=rounds, even=even)
        assert_sound(movement, plays_per_board=rounds)
        assert_mitchell_lines_meet_at_most_once(movement)


@pytest.mark.parametrize("tables", [3, 4, 7, 8, 13, 14])
def test_arrow_switched_last_round_puts_ew_pairs_north_south_in_one_field(tables):
    movement = mitchell(tables, 2, arrow_switch_last_round=True)
    last = movement.rounds
    assert_sound(movement, plays_per_board=tables)
    assert_mitchell_lines_meet_at_most_once(movement)
    for s in movement.seatings:
        assert s.ns_pair.endswith("EW" if s.round == last else "NS")
    assert set(movement.fields.values()) == {""}
    assert movement.arrow_switch_rounds == {last}


def test_arrow_switch_can_name_several_rounds():
    movement = mitchell(7, 4, arrow_switch_rounds=(6, 7))
    switched = {s.round for s in movement.seatings if s.ns_pair.endswith("EW")}
    assert switched == {6, 7}


@pytest.mark.parametrize(
    "tables, phantom, even",
    [
        (3, "3NS", None),
        (5, "2EW", None),
        (6, "6NS", "relay"),
        (6, "6NS", "skip"),
        (9, "9NS", None),
        (10, "1EW", "relay"),
        (15, "15NS", None),
    ],
)
def test_mitchell_phantom_makes_its_opponent_sit_out_each_round(tables, phantom, even):
    movement = mitchell(tables, 2, phantom=phantom, even=even)
    assert phantom not in movement.pairs
    assert len(movement.pairs) == 2 * tables - 1
    assert_sound(movement, plays_per_board=movement.rounds)
    assert all(len(movement.sit_outs[r]) == 1 for r in range(1, movement.rounds + 1))
    # Only the phantom's plays are lost: it plays `rounds` different sets once each,
    # which is every set except where a skip Mitchell leaves one set unmet.
    real = Counter(b for s in movement.seatings for b in s.boards)
    sets = len(movement.boards()) // 2
    expected = {
        movement.rounds - 1: movement.rounds * 2,
        movement.rounds: (sets - movement.rounds) * 2,
    }
    assert Counter(real.values()) == {k: v for k, v in expected.items() if v}


# -- Mitchell: small cases worked by hand -------------------------------------------


def test_three_table_mitchell_pair_card_for_ew_1():
    # EW 1 moves up a table each round; boards move down. Round 2 at table 2 it gets
    # set 3 (from table 3); round 3 at table 3 it gets set 2 (table 2 -> 1 -> 3).
    card = mitchell(3, 3).pair_card("1EW")
    assert [(c.round, c.table, c.direction, c.opponents, c.boards) for c in card] == [
        (1, 1, "EW", "1NS", (1, 2, 3)),
        (2, 2, "EW", "2NS", (7, 8, 9)),
        (3, 3, "EW", "3NS", (4, 5, 6)),
    ]
    assert card[1].text() == "Round 2: table 2 EW v 2NS, boards 7-9"


def test_three_table_mitchell_table_card_for_table_2():
    card = mitchell(3, 3).table_card(2)
    assert [(s.round, s.ns_pair, s.ew_pair, s.boards) for s in card] == [
        (1, "2NS", "2EW", (4, 5, 6)),
        (2, "2NS", "1EW", (7, 8, 9)),
        (3, "2NS", "3EW", (1, 2, 3)),
    ]


def test_four_table_skip_mitchell_ew_pairs_jump_a_table_after_round_two():
    # EW 1: table 1 set 1, table 2 set 3, then skips table 3: table 4, where set 2
    # has arrived (2 -> 1 -> 4).
    card = mitchell(4, 2, even="skip").pair_card("1EW")
    assert [(c.table, c.opponents, c.boards) for c in card] == [
        (1, "1NS", (1, 2)),
        (2, "2NS", (5, 6)),
        (4, "4NS", (3, 4)),
    ]


def test_four_table_relay_bye_stand_holds_the_unplayed_set():
    # Round 1: table 1 and 4 share set 1, table 2 set 2, bye stand set 3, table 3
    # set 4. Round 2 the boards move down one place: table 1 (and 4) get set 2,
    # table 2 takes set 3 off the bye stand, table 3 gets set 1 from table 4.
    movement = mitchell(4, 2, even="relay")
    boards_at = {(s.round, s.table): s.boards for s in movement.seatings}
    assert [boards_at[(1, t)] for t in (1, 2, 3, 4)] == [(1, 2), (3, 4), (7, 8), (1, 2)]
    assert [boards_at[(2, t)] for t in (1, 2, 3, 4)] == [(3, 4), (5, 6), (1, 2), (3, 4)]


def test_three_table_half_table_ew_pairs_sit_out_at_table_3_in_turn():
    # NS 3 missing: whichever EW pair reaches table 3 sits out: 3, then 2, then 1.
    movement = mitchell(3, 2, phantom="3NS")
    assert dict(movement.sit_outs) == {1: ("3EW",), 2: ("2EW",), 3: ("1EW",)}
    line = movement.pair_card("2EW")[1]
    assert line.sits_out and line.text() == "Round 2: sit out"
    assert movement.table_card(3)[1].ns_pair == "3NS"  # the card still shows the round


def test_expected_line_accepts_only_the_scheduled_pairs_the_right_way_round():
    movement = mitchell(3, 3)
    assert movement.expected_line(8, "2NS", "1EW") == Seating(2, 2, "2NS", "1EW", (7, 8, 9))
    assert movement.expected_line(8, "1EW", "2NS") is None  # directions swapped
    assert movement.expected_line(1, "2NS", "1EW") is None  # they never play board 1
    assert movement.expected_line(8, "3NS", "1EW") is None


def test_traveller_lists_each_table_that_plays_the_board():
    traveller = mitchell(3, 3).traveller(1)
    assert [(s.round, s.ns_pair, s.ew_pair) for s in traveller] == [
        (1, "1NS", "1EW"),
        (2, "3NS", "2EW"),
        (3, "2NS", "3EW"),
    ]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(tables=2, boards_per_round=3), "at least 3 tables"),
        (dict(tables=7, boards_per_round=3, rounds=8), "1 to 7 rounds"),
        (dict(tables=8, boards_per_round=3, even="skip", rounds=8), "1 to 7 rounds"),
        (dict(tables=8, boards_per_round=3, even="relay", rounds=6), "all 8 rounds"),
        (dict(tables=7, boards_per_round=3, even="relay"), "odd"),
        (dict(tables=8, boards_per_round=3, even="hop"), "'skip' or 'relay'"),
        (dict(tables=7, boards_per_round=3, arrow_switch_rounds=(8,)), "round 8"),
        (dict(tables=7, boards_per_round=3, phantom="8NS"), "8NS"),
        (dict(tables=8, boards_per_round=1, even="relay"), "share"),
    ],
)
def test_mitchell_refuses_impossible_options_saying_why(kwargs, message):
    with pytest.raises(MovementError, match=message):
        mitchell(**kwargs)


def test_even_mitchell_defaults_to_relay_for_all_rounds_and_skip_for_fewer():
    assert mitchell(8, 3).rounds == 8 and "relay" in mitchell(8, 3).description
    assert "skip" in mitchell(8, 3, rounds=6).description


# -- Howell ---------------------------------------------------------------------------


@pytest.mark.parametrize("pairs", range(3, 17))
def test_complete_howell_every_pair_meets_every_other_once_and_plays_every_set(pairs):
    movement = howell(pairs, 3)
    tables = (pairs + 1) // 2
    assert movement.tables == tables and movement.rounds == 2 * tables - 1
    assert movement.complete
    assert_sound(movement, plays_per_board=tables)
    met = meetings(movement)
    assert set(met.values()) == {1}
    assert set(met) == {frozenset(p) for p in combinations(everyone(movement), 2)}
    all_boards = set(movement.boards())
    for pair in everyone(movement):
        played = {b for s in full_schedule(movement) if pair in s.pairs for b in s.boards}
        assert played == all_boards
    assert set(movement.fields.values()) == {""}


@pytest.mark.parametrize("pairs", [3, 5, 7, 9, 11, 13, 15])
def test_odd_howell_highest_pair_is_a_stationary_phantom(pairs):
    movement = howell(pairs, 2)
    phantom = str(pairs + 1)
    assert movement.phantom == phantom and phantom not in movement.pairs
    assert {s.table for s in movement.phantom_seatings} == {1}
    sitting_out = [p for r in sorted(movement.sit_outs) for p in movement.sit_outs[r]]
    assert sorted(sitting_out, key=int) == list(movement.pairs)  # each once


@pytest.mark.parametrize("pairs", [9, 10, 12, 13, 14, 16])
def test_short_howell_is_sound_but_not_everyone_meets(pairs):
    tables = (pairs + 1) // 2
    shorter = [r for r in howell_round_options(pairs) if r < 2 * tables - 1]
    assert shorter
    for rounds in shorter:
        movement = howell(pairs, 2, rounds=rounds)
        assert not movement.complete
        assert_sound(movement, plays_per_board=tables)
        assert max(meetings(movement).values()) == 1
        assert len(meetings(movement)) == rounds * tables


@pytest.mark.parametrize("pairs", range(17, 31))
def test_howells_beyond_eight_tables_are_sound_at_every_round_count_offered(pairs):
    tables = (pairs + 1) // 2
    options = howell_round_options(pairs)
    assert options and all(tables <= rounds < 2 * tables for rounds in options)
    for rounds in options:
        movement = howell(pairs, 2, rounds=rounds)
        movement.validate()
        assert_sound(movement, plays_per_board=tables)
        assert max(meetings(movement).values()) == 1
        assert len(meetings(movement)) == rounds * tables


@pytest.mark.parametrize("pairs", range(17, 31))
def test_beyond_eight_tables_a_howell_is_offered_after_the_mitchells(pairs):
    options = suggest_movements(pairs, max_boards=36)
    assert options[0].kind == "mitchell"
    howells = [movement for movement in options if movement.kind == "howell"]
    assert len(howells) == 1 and howells[0].rounds * howells[0].boards_per_round <= 36


def test_the_kept_designs_are_what_the_search_finds():
    """howell_starters.py holds the search's own results (checked where the search is quick)."""
    for (rounds, stationary), starter in STARTERS.items():
        if rounds <= 11:
            assert _cyclic_starter(rounds, stationary) == starter, (rounds, stationary)


def test_a_howell_beyond_fifteen_tables_is_refused_saying_the_limit():
    with pytest.raises(MovementError, match=r"a Howell is offered for up to 15 tables \(30 pairs\), not 16"):
        howell(32, 2, rounds=17)


def test_four_pair_howell_shares_boards_between_both_tables():
    movement = howell(4, 4)
    for round in range(1, 4):
        assert movement.shares_boards_with(round, 1) == (2,)


def test_six_pair_howell_needs_all_tables_sharing_in_only_one_round():
    movement = howell(6, 3)
    crowded = [r for r in range(1, 6) if len(movement.shares_boards_with(r, 1)) == 2]
    others = [r for r in range(1, 6) if movement.shares_boards_with(r, 1) == ()]
    assert len(crowded) == 1 and len(others) == 4


def test_howell_pair_card_matches_the_seatings():
    movement = howell(8, 3)
    for pair in movement.pairs:
        card = movement.pair_card(pair)
        assert len(card) == 7 and not any(c.sits_out for c in card)
        assert sorted(c.opponents for c in card) == sorted(p for p in movement.pairs if p != pair)
        for line in card:
            seating = movement.seating_for(line.round, line.table)
            assert seating.direction_of(pair) == line.direction
            assert seating.boards == line.boards


@pytest.mark.parametrize(
    "pairs, rounds, message",
    [
        (2, None, "at least 3 pairs"),
        (16, 10, "11, 13 or 15"),
        (8, 5, "choose 7 rounds"),
        (6, 4, "choose 3 or 5 rounds"),
    ],
)
def test_howell_refuses_what_it_cannot_build_and_lists_the_options(pairs, rounds, message):
    with pytest.raises(MovementError, match=message):
        howell(pairs, 3, rounds=rounds)


def test_six_pair_howell_refuses_two_board_rounds_three_tables_cannot_share():
    with pytest.raises(MovementError, match="3 tables in round 1: they cannot share 2"):
        howell(6, 2)


# -- validate() catches broken schedules ------------------------------------------------


def replace_seating(movement: Movement, index: int, **changes) -> Movement:
    seatings = list(movement.seatings)
    seatings[index] = dataclasses.replace(seatings[index], **changes)
    return dataclasses.replace(movement, seatings=tuple(seatings))


def test_validate_rejects_a_pair_playing_a_board_twice():
    movement = mitchell(3, 2)
    r2t1 = next(i for i, s in enumerate(movement.seatings) if (s.round, s.table) == (2, 1))
    broken = replace_seating(movement, r2t1, boards=(1, 2))  # 1NS had boards 1-2 in round 1
    with pytest.raises(MovementError, match="plays board 1 2 times"):
        broken.validate()


def test_validate_rejects_a_pair_at_two_tables():
    movement = mitchell(3, 2)
    with pytest.raises(MovementError, match="pair 1EW is at two tables in round 1"):
        replace_seating(movement, 1, ew_pair="1EW").validate()


def test_validate_rejects_boards_played_unequally():
    movement = mitchell(3, 2)
    last = len(movement.seatings) - 1
    with pytest.raises(MovementError, match="not all scheduled equally often"):
        replace_seating(movement, last, boards=(7, 8)).validate()


def test_validate_rejects_a_complete_howell_where_two_pairs_never_meet():
    short = howell(10, 2, rounds=7)
    with pytest.raises(MovementError, match="never meet in a complete Howell"):
        dataclasses.replace(short, complete=True).validate()


def test_validate_rejects_pairs_meeting_twice():
    movement = mitchell(3, 2, rounds=2)
    # swap round 2's EW pairs at tables 1 and 2 back to round 1's opponents
    seatings = [
        dataclasses.replace(s, ew_pair=f"{s.table}EW") if s.round == 2 else s
        for s in movement.seatings
    ]
    with pytest.raises(MovementError, match="meet 2 times"):
        dataclasses.replace(movement, seatings=tuple(seatings)).validate()


def test_validate_rejects_a_mitchell_pair_sitting_the_wrong_way():
    movement = mitchell(3, 2)
    with pytest.raises(MovementError, match="1EW sits NS, not its line"):
        replace_seating(movement, 0, ns_pair="1EW", ew_pair="1NS").validate()


def test_validate_rejects_more_tables_sharing_than_boards_to_pass_round():
    movement = howell(6, 3)
    with pytest.raises(MovementError, match="cannot share 2 board"):
        dataclasses.replace(
            movement,
            boards_per_round=2,
            seatings=tuple(dataclasses.replace(s, boards=s.boards[:2]) for s in movement.seatings),
        ).validate()


def test_movement_error_is_the_movements_own_not_the_scoring_engines():
    """Movements are built before anything is scored: a caller catches MovementError for them."""
    assert issubclass(MovementError, ValueError) and not issubclass(MovementError, ScoringError)


# -- suggestions and helpers ------------------------------------------------------------


@pytest.mark.parametrize("pairs", range(3, 33))
def test_suggestions_are_valid_and_fit_the_board_limit(pairs):
    options = suggest_movements(pairs, max_boards=28)
    assert options
    for movement in options:
        movement.validate()
        assert len(movement.pairs) == pairs
        assert movement.rounds * movement.boards_per_round <= 28
        assert movement.boards_per_round >= 2


def test_small_fields_get_a_howell_first_and_large_ones_a_mitchell():
    assert suggest_movements(8)[0].kind == "howell"
    assert suggest_movements(10)[0].kind == "howell"
    assert suggest_movements(14)[0].kind == "mitchell"
    assert suggest_movements(18)[0].kind == "mitchell"
    assert any(m.arrow_switch_rounds for m in suggest_movements(14))


@pytest.mark.parametrize(
    "boards, text", [((7, 8, 9), "7-9"), ((5,), "5"), ((1, 3), "1, 3"), ((), "")]
)
def test_board_range_prints_runs_compactly(boards, text):
    assert board_range(boards) == text


def test_cards_refuse_unknown_pairs_and_tables():
    movement = mitchell(3, 2)
    with pytest.raises(MovementError, match="no pair '4NS'"):
        movement.pair_card("4NS")
    with pytest.raises(MovementError, match="no table 4"):
        movement.table_card(4)
