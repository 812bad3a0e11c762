"""Result notation (RULES.md section 2): what directors type, what it means, what is refused."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sessions.scoring.boards import Seat
from sessions.scoring.contracts import parse_contract
from sessions.scoring.errors import ScoringError
from sessions.scoring.notation import (
    PASSED_OUT,
    Assigned,
    Played,
    format_assigned,
    format_result,
    ns_score,
    parse_lead,
    parse_result,
    producible_ns_scores,
)
from sessions.scoring.scores import NOT_PLAYED, Artificial, Weighted


def played(contract, seat, tricks):
    return Played(parse_contract(contract), Seat(seat), tricks)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("4SX N 10", played("4SX", "N", 10)),
        ("4S N 10", played("4S", "N", 10)),
        ("3NT= W", played("3NT", "W", 9)),
        ("3NT=W", played("3NT", "W", 9)),
        ("3nt = w", played("3NT", "W", 9)),
        ("4H-1 S", played("4H", "S", 9)),
        ("4H S -1", played("4H", "S", 9)),
        ("4H+1 N", played("4H", "N", 11)),
        ("4H N +1", played("4H", "N", 11)),
        ("4S N =", played("4S", "N", 10)),
        ("4sx n 10", played("4SX", "N", 10)),
        ("4S X N 10", played("4SX", "N", 10)),
        ("6♦X E +1", played("6DX", "E", 13)),
        ("7NTXX S =", played("7NTXX", "S", 13)),
        ("3N N 9", played("3NT", "N", 9)),
        ("3NN9", played("3NT", "N", 9)),
        ("4SXS-1", played("4SX", "S", 9)),
        ("1S S 7", played("1S", "S", 7)),
        ("2D E 8", played("2D", "E", 8)),
        ("4S by N 10", played("4S", "N", 10)),
        ("4S north 10", played("4S", "N", 10)),
        ("4S N 0", played("4S", "N", 0)),
        ("7S N -13", played("7S", "N", 0)),
        ("4S N - 2", played("4S", "N", 8)),
        ("  4S   N   10  ", played("4S", "N", 10)),
        ("P", PASSED_OUT),
        ("PASS", PASSED_OUT),
        ("pass", PASSED_OUT),
        ("passed out", PASSED_OUT),
        ("All Pass", PASSED_OUT),
        ("NS 420", Assigned(420)),
        ("EW 100", Assigned(-100)),
        ("ns 420", Assigned(420)),
        ("NS -100", Assigned(-100)),
        ("EW -420", Assigned(420)),
        ("N/S 620", Assigned(620)),
        ("NS 0", Assigned(0)),
        ("A60/40", Artificial(60, 40)),
        ("A6040", Artificial(60, 40)),
        ("a 60 / 40", Artificial(60, 40)),
        ("A50/50", Artificial(50, 50)),
        ("A40/40", Artificial(40, 40)),
        ("A60/60", Artificial(60, 60)),
        ("A40/60", Artificial(40, 60)),
        ("Ave+/Ave-", Artificial(60, 40)),
        ("Ave-/Ave+", Artificial(40, 60)),
        ("Ave/Ave-", Artificial(50, 40)),
        ("Ave+/Ave+", Artificial(60, 60)),
        ("Ave", Artificial(50, 50)),
        ("NP", NOT_PLAYED),
        ("np", NOT_PLAYED),
        ("not played", NOT_PLAYED),
        ("W 2/3 NS 620, 1/3 EW 100", Weighted(((Fraction(2, 3), 620), (Fraction(1, 3), -100)))),
        ("w 1/2 NS 420; 1/2 NS 450", Weighted(((Fraction(1, 2), 420), (Fraction(1, 2), 450)))),
        ("W 40% NS 620, 60% EW 100", Weighted(((Fraction(2, 5), 620), (Fraction(3, 5), -100)))),
        ("W 0.25 NS 140, 0.75 NS 110", Weighted(((Fraction(1, 4), 140), (Fraction(3, 4), 110)))),
        ("W 1 NS 420", Weighted(((Fraction(1), 420),))),
    ],
)
def test_parse_result_reads_every_accepted_form(text, expected):
    assert parse_result(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4S N 14", "4S by N cannot take 14 tricks: tricks run from 0 to 13"),
        ("7S N +1", "7S by N cannot make an overtrick: a 7-level contract needs all 13 tricks"),
        ("7NTX E+2", "7NTX by E cannot make an overtrick"),
        ("4S N +4", "4S by N cannot make 4 overtricks: at most 3"),
        ("4S N -11", "4S by N cannot go down 11: at most 10 undertricks"),
        ("1C W -8", "1C by W cannot go down 8: at most 7 undertricks"),
        ("4S Q 10", "unknown declarer 'Q': use N, E, S or W"),
        ("4S NS 10", "unknown declarer 'NS': use N, E, S or W"),
        ("4S N", "'4S N' has no outcome: add the tricks taken (10), = or +1 / -1"),
        ("8S N 10", "8 is not a contract level"),
        ("4Z N =", "'4Z' is not a contract: unknown strain Z"),
        ("NS 425", "NS 425 is not a score any contract can produce"),
        ("EW 15", "NS -15 is not a score any contract can produce"),
        ("NS 10", "NS 10 is not a score any contract can produce"),
        ("Ave+", "'Ave+' does not say what the other side gets"),
        ("Ave-", "'Ave-' does not say what the other side gets"),
        ("A70/20", "20% is not an artificial adjusted score for EW"),
        ("A55/45", "55% is not an artificial adjusted score for NS"),
        ("W 1/2 NS 620, 1/3 EW 100", "the weights of a weighted score sum to 5/6, not 1"),
        ("W 1/2 NS 620, 1/2 NS 425", "NS 425 is not a score any contract can produce"),
        ("W 1/2 NS 620, 1/2 4S N 10", "'1/2 4S N 10' is not a part of a weighted score"),
        ("hello", "'hello' is not a result: write e.g. 4S N 10"),
        ("", "no result entered"),
    ],
)
def test_parse_result_refuses_with_the_reason(text, message):
    with pytest.raises(ScoringError) as error:
        parse_result(text)
    assert message in str(error.value)


@pytest.mark.parametrize(
    ("text", "board", "message"),
    [
        ("NS 620", 1, "NS 620 is not a score any contract can produce on board 1 (None vulnerable)"),
        # EW are not vulnerable on board 2: they cannot score 620, nor NS go down 50.
        ("EW 620", 2, "NS -620 is not a score any contract can produce on board 2 (NS vulnerable)"),
        ("EW 50", 2, "NS -50 is not a score any contract can produce on board 2"),
        # 1NT doubled +1 scores 280 only when not vulnerable.
        ("NS 280", 2, "NS 280 is not a score any contract can produce on board 2"),
        ("W 1/2 NS 620, 1/2 NS 420", 1, "NS 620 is not a score any contract can produce on board 1"),
    ],
)
def test_assigned_scores_are_checked_against_the_board_vulnerability(text, board, message):
    with pytest.raises(ScoringError) as error:
        parse_result(text, board)
    assert message in str(error.value)


@pytest.mark.parametrize(
    ("text", "board", "ns"),
    [("NS 620", 2, 620), ("EW 620", 3, -620), ("NS 100", 1, 100), ("NS 100", 3, 100), ("NS 420", 1, 420),
     ("NS 280", 1, 280), ("EW 50", 1, -50)],
)
def test_assigned_scores_possible_on_the_board_are_accepted(text, board, ns):
    assert parse_result(text, board) == Assigned(ns)


def test_bad_board_number_is_refused():
    with pytest.raises(ScoringError, match="0 is not a board number"):
        parse_result("4S N 10", 0)


def test_producible_scores_include_the_seed_results_and_exclude_odd_ones():
    anywhere = producible_ns_scores()
    for score in (-140, -500, 130, -1510, 590, -1080, -50, 400, 2210, -7600, 7600, 0):
        assert score in anywhere
    for score in (425, 10, 20, 30, 40, 60, 10_000):
        assert score not in anywhere
    # Redoubled, vulnerable, down 13: 400 + 12 x 600 = 7600 is the largest penalty.
    assert max(anywhere) == 7600 and min(anywhere) == -7600


# seeds/000 16-board table: the notation of each board's result and its NS score.
SEED_BOARD_RESULTS = [
    (1, "1H E +2", -140), (2, "4SX N -2", -500), (3, "2D N +2", 130), (4, "1NT W +2", -150),
    (5, "3NT S -1", -100), (6, "3H S +1", 170), (7, "3C W =", -110), (8, "7H E =", -1510),
    (9, "4SX N =", 590), (10, "2NT E =", -120), (11, "6C N =", 920), (12, "2D E +1", -110),
    (13, "4HXX W =", -1080), (14, "5S S -1", -50), (15, "4H E +1", -450), (16, "3NT N =", 400),
]


@pytest.mark.parametrize(("board", "text", "ns"), SEED_BOARD_RESULTS)
def test_ns_score_of_the_seed_sixteen_boards(board, text, ns):
    assert ns_score(parse_result(text, board), board) == ns


def test_ns_score_of_passed_out_and_assigned():
    assert ns_score(PASSED_OUT, 4) == 0
    assert ns_score(Assigned(-100), 4) == -100


@pytest.mark.parametrize("text", ["A60/40", "NP", "W 2/3 NS 620, 1/3 EW 100"])
def test_ns_score_passes_special_scores_through(text):
    result = parse_result(text)
    assert ns_score(result, 2) is result


def test_ns_score_checks_assigned_scores_against_the_board():
    with pytest.raises(ScoringError, match="on board 1"):
        ns_score(Assigned(620), 1)


def test_played_result_validates_its_tricks():
    with pytest.raises(ScoringError, match="3NT by W cannot take 14 tricks"):
        played("3NT", "W", 14)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("4SX N 10", "4SX N ="), ("4h-1 s", "4H S -1"), ("3N+1 W", "3NT W +1"), ("7NTXX E 0", "7NTXX E -13"),
        ("passed out", "PASS"), ("EW 100", "EW 100"), ("ns 420", "NS 420"), ("NS 0", "NS 0"),
        ("A6040", "A60/40"), ("Ave/Ave", "A50/50"), ("np", "NP"),
        ("W 40% NS 620, 60% EW 100", "W 2/5 NS 620, 3/5 EW 100"),
    ],
)
def test_format_result_writes_the_house_form(text, canonical):
    assert format_result(parse_result(text)) == canonical


@pytest.mark.parametrize(
    "text",
    ["4SX N 10", "4H S -1", "3NT= W", "6CXX E +1", "1D W 0", "PASS", "EW 1100", "A60/60",
     "W 1/3 NS 620, 2/3 NS 650", "NP"],
)
def test_format_result_round_trips(text):
    result = parse_result(text)
    assert parse_result(format_result(result)) == result


# --- hostile text: a refusal with a message, never another exception ---------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("W 0/0 NS 0", "the weight 0/0 divides by 0"),
        ("W 1/0 NS 420, 1/3 EW 100", "the weight 1/0 divides by 0"),
        ("W 2/3 NS 420, 1/0 EW 100", "the weight 1/0 divides by 0"),
        ("W 0% NS 420, 100% EW 50", "every weight of a weighted score must be positive"),
    ],
)
def test_a_weight_dividing_by_zero_is_refused_with_a_message(text, message):
    with pytest.raises(ScoringError, match=message):
        parse_result(text, 1)


@pytest.mark.parametrize("text", ["²S N =", "4S N ١٠", "NS ٤٢٠", "A６０/４０", "W ½ NS 420, ½ EW 100"])
def test_digits_other_than_0_to_9_are_not_numbers(text):
    with pytest.raises(ScoringError, match="is not a result|is not a part of a weighted score"):
        parse_result(text, 1)


_NOTATION_ALPHABET = "0123456789 /%=+-.,;*NSEWXAVEPTHCDWBY²١♠♥" + "NT NP W PASS"


@settings(max_examples=600, deadline=None)
@given(text=st.text(alphabet=_NOTATION_ALPHABET, max_size=40), board=st.integers(1, 36))
def test_any_text_is_read_or_refused_with_a_scoring_error(text, board):
    try:
        ns_score(parse_result(text, board), board)
    except ScoringError as error:
        assert str(error)


# --- opening leads -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "lead"),
    [
        ("HK", "HK"), ("hk", "HK"), ("KH", "HK"), ("♥K", "HK"), ("♥️k", "HK"), ("K♥", "HK"),
        ("S10", "ST"), ("10s", "ST"), ("st", "ST"), (" d 4 ", "D4"), ("♣A", "CA"), ("", ""), ("  ", ""),
    ],
)
def test_a_lead_is_read_in_either_order_in_letters_or_symbols(typed, lead):
    assert parse_lead(typed) == lead


@pytest.mark.parametrize("typed", ["Z9", "H1", "HKQ", "K", "H", "11H", "S0", "♥♠"])
def test_what_is_not_one_card_is_refused_as_a_lead(typed):
    with pytest.raises(ScoringError, match="is not a card: write the suit then the card"):
        parse_lead(typed)


@pytest.mark.parametrize(("score", "text"), [(420, "NS 420"), (0, "NS 0"), (-100, "EW 100")])
def test_an_assigned_score_is_written_from_the_side_that_scores(score, text):
    assert format_assigned(score) == text
