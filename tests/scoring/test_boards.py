"""Dealer and vulnerability by board number (RULES.md section 1, seeds/000 16-board table)."""

import pytest

from sessions.scoring.boards import (
    Seat,
    Side,
    Vulnerability,
    dealer,
    is_vulnerable,
    parse_seat,
    vulnerability,
)
from sessions.scoring.errors import ScoringError

# Board, dealer, vulnerability as printed in the seed's 16-board example.
SEED_BOARDS = [
    (1, "N", "None"), (2, "E", "NS"), (3, "S", "EW"), (4, "W", "Both"),
    (5, "N", "NS"), (6, "E", "EW"), (7, "S", "Both"), (8, "W", "None"),
    (9, "N", "EW"), (10, "E", "Both"), (11, "S", "None"), (12, "W", "NS"),
    (13, "N", "Both"), (14, "E", "None"), (15, "S", "NS"), (16, "W", "EW"),
]


@pytest.mark.parametrize(("board", "seat", "vul"), SEED_BOARDS)
def test_dealer_and_vulnerability_of_the_sixteen_boards(board, seat, vul):
    assert dealer(board) is Seat(seat)
    assert vulnerability(board) is Vulnerability(vul)


@pytest.mark.parametrize(("board", "seat", "vul"), SEED_BOARDS)
def test_boards_repeat_every_sixteen(board, seat, vul):
    for later in (board + 16, board + 32, board + 160):
        assert dealer(later) is Seat(seat)
        assert vulnerability(later) is Vulnerability(vul)


def test_board_17_is_board_1_and_32_is_16():
    assert (dealer(17), vulnerability(17)) == (Seat.N, Vulnerability.NONE)
    assert (dealer(32), vulnerability(32)) == (Seat.W, Vulnerability.EW)


@pytest.mark.parametrize("board", [0, -1, -16])
def test_board_numbers_below_one_are_refused(board):
    with pytest.raises(ScoringError, match=f"{board} is not a board number"):
        vulnerability(board)
    with pytest.raises(ScoringError, match="boards are numbered from 1"):
        dealer(board)


@pytest.mark.parametrize("board", ["3", 1.0, None, True])
def test_non_integer_board_numbers_are_refused(board):
    with pytest.raises(ScoringError, match="is not a board number"):
        vulnerability(board)


@pytest.mark.parametrize(
    ("vul", "ns", "ew"),
    [("None", False, False), ("NS", True, False), ("EW", False, True), ("Both", True, True)],
)
def test_is_vulnerable_for_each_seat_and_side(vul, ns, ew):
    vul = Vulnerability(vul)
    assert is_vulnerable(vul, Side.NS) is ns
    assert is_vulnerable(vul, Side.EW) is ew
    assert [is_vulnerable(vul, seat) for seat in Seat] == [ns, ew, ns, ew]


def test_seats_know_their_side_and_the_next_dealer():
    assert [seat.side for seat in Seat] == [Side.NS, Side.EW, Side.NS, Side.EW]
    assert [seat.next for seat in Seat] == [Seat.E, Seat.S, Seat.W, Seat.N]
    assert Side.NS.other is Side.EW and Side.EW.other is Side.NS


@pytest.mark.parametrize(("text", "seat"), [("N", Seat.N), ("e", Seat.E), (" South ", Seat.S), ("west", Seat.W)])
def test_parse_seat_accepts_letters_and_words(text, seat):
    assert parse_seat(text) is seat


def test_parse_seat_names_an_unknown_declarer():
    with pytest.raises(ScoringError, match="unknown declarer 'Q': use N, E, S or W"):
        parse_seat("Q")
