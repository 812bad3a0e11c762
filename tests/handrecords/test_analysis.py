"""Double-dummy analysis: tables and par checked against Bridgewebs' published tables,
an independent par calculation, and deals built by hand so the answer is known."""

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sessions.handrecords.analysis import Analysis, analyse, analyse_many, dd_tricks_for, result_against_par
from sessions.handrecords.deals import parse_deal
from sessions.handrecords.pbn_handrecords import read_hand_records
from sessions.scoring.boards import Seat, Vulnerability, dealer, is_vulnerable, vulnerability
from sessions.scoring.contracts import Strain
from sessions.scoring.deal_score import deal_score
from sessions.scoring.errors import ScoringError
from tests.handrecords.bridgewebs import WELWYN, published_boards
from tests.handrecords.par_oracle import par_score
from tests.solver_memo import real_solver

ROOT = Path(__file__).resolve().parents[2]
PUBLISHED = {board.number: board for board in published_boards()}
STRAIN_NAMES = ("C", "D", "H", "S", "NT")

# Built by hand: NS hold exactly ten top tricks (AKQ in the majors, AK in the minors)
# and no length winner: each NS 4-card suit faces an opponent with four, the minors
# are 3-3. So NS take exactly 10 tricks in notrump and no more in a suit, while EW,
# with no ace or king, make too few tricks for a sacrifice to cost less than 500.
# Par: 3NT+1 by North or South.
TEN_TRICKS_IN_NOTRUMP = "N:AKQ2.543.AK2.543 JT98.76.QJT.QJT9 543.AKQ2.543.AK2 76.JT98.9876.876"
# North holds every top card, and in each suit at least as many cards as either
# opponent, so N or S as declarer wins all 13 tricks in any strain; EW win none.
NORTH_HOLDS_EVERYTHING = "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6.5432.5432.5432 5432.876.876.876"
PAR_CONTRACT = re.compile(r"(?P<level>[1-7])(?P<strain>NT|[CDHS])(?P<doubling>X{0,2})(?P<result>=|[+-]\d+) (?P<seat>[NESW])")


@pytest.fixture(scope="module", autouse=True)
def the_solver_itself():
    """These are the solver's own tests: DDS answers each call, none kept (tests/solver_memo.py)."""
    with real_solver():
        yield


@pytest.fixture(scope="module")
def welwyn_analyses():
    """All 24 boards in one batch (the slow part of this file: a few seconds of DDS)."""
    return analyse_many(read_hand_records(WELWYN.read_bytes()))


def _all_tricks(analysis):
    return {(seat.value, strain): analysis.tricks_for(strain, seat) for seat in Seat for strain in STRAIN_NAMES}


# -- Bridgewebs' own double-dummy figures, board by board --------------------------------


def test_bridgewebs_writes_the_same_table_in_both_of_its_forms():
    # Guards the test reader: the hex string and the table must agree before either is an oracle.
    for board in PUBLISHED.values():
        assert board.hex_tricks == board.table_tricks, board.number
        assert len(board.table_tricks) == 20


@pytest.mark.parametrize("number", sorted(PUBLISHED))
def test_table_matches_bridgewebs_published_tricks(welwyn_analyses, number):
    assert _all_tricks(welwyn_analyses[number]) == PUBLISHED[number].table_tricks


@pytest.mark.parametrize("number", sorted(PUBLISHED))
def test_dealer_and_vulnerability_follow_the_board_number_as_in_the_file(welwyn_analyses, number):
    analysis = welwyn_analyses[number]
    assert analysis.dealer.value == PUBLISHED[number].dealer
    pbn_names = {"None": Vulnerability.NONE, "NS": Vulnerability.NS, "EW": Vulnerability.EW, "All": Vulnerability.BOTH}
    assert analysis.vulnerability is pbn_names[PUBLISHED[number].vulnerable]


@pytest.mark.parametrize("number", sorted(PUBLISHED))
def test_par_score_matches_an_independent_par_calculation(welwyn_analyses, number):
    analysis = welwyn_analyses[number]
    tricks = {(Seat(seat), strain): value for (seat, strain), value in PUBLISHED[number].table_tricks.items()}
    assert analysis.par_score == par_score(tricks, analysis.dealer, analysis.vulnerability)


@pytest.mark.parametrize("number", sorted(PUBLISHED))
def test_each_par_contract_takes_its_table_tricks_and_scores_par(welwyn_analyses, number):
    analysis = welwyn_analyses[number]
    assert analysis.par_contracts
    for text in analysis.par_contracts:
        match = PAR_CONTRACT.fullmatch(text)
        assert match, text
        seat = Seat(match["seat"])
        result = 0 if match["result"] == "=" else int(match["result"])
        taken = int(match["level"]) + 6 + result
        assert taken == PUBLISHED[number].table_tricks[seat.value, match["strain"]], text
        contract = f"{match['level']}{match['strain']}{match['doubling']}"
        score = deal_score(contract, taken, is_vulnerable(analysis.vulnerability, seat))
        assert (score if seat.side.value == "NS" else -score) == analysis.par_score, text


# -- deals built by hand ---------------------------------------------------------------------


def test_ten_top_tricks_make_3nt_plus_one_the_par():
    analysis = analyse(parse_deal(TEN_TRICKS_IN_NOTRUMP), "N", "None")
    for seat in (Seat.N, Seat.S):
        assert analysis.tricks_for("NT", seat) == 10
        assert all(analysis.tricks_for(strain, seat) <= 10 for strain in "CDHS")
    for seat in (Seat.E, Seat.W):
        assert all(analysis.tricks_for(strain, seat) <= 7 for strain in STRAIN_NAMES)
    assert analysis.par_score == deal_score("3NT", 10, vulnerable=False) == 430
    assert analysis.par_contracts == ("3NT+1 N", "3NT+1 S")
    assert analysis.par_text == "NS +430: 3NT+1 NS"


def test_par_follows_the_vulnerability():
    analysis = analyse(parse_deal(TEN_TRICKS_IN_NOTRUMP), "E", Vulnerability.BOTH)
    assert analysis.par_score == deal_score("3NT", 10, vulnerable=True) == 630


@pytest.mark.parametrize("board", [1, 2, 4])
def test_a_hand_with_every_top_card_makes_everything(board):
    analysis = analyse(parse_deal(NORTH_HOLDS_EVERYTHING), dealer(board), vulnerability(board))
    assert analysis.rows() == [
        (Seat.N, (13,) * 5), (Seat.E, (0,) * 5), (Seat.S, (13,) * 5), (Seat.W, (0,) * 5),
    ]  # fmt: skip
    assert analysis.par_score == deal_score("7NT", 13, is_vulnerable(vulnerability(board), Seat.N))
    assert analysis.par_contracts == ("7NT= N", "7NT= S")


def test_par_is_from_ns_side_when_ew_hold_the_cards():
    # The same deal turned a quarter: East now holds every top card.
    deal = parse_deal(NORTH_HOLDS_EVERYTHING.replace("N:", "E:"))
    analysis = analyse(deal, "N", "None")
    assert analysis.par_score == -1520
    assert analysis.par_text == "EW +1520: 7NT= EW"


# -- batch and single analysis agree; batches are split where DDS needs it ----------------


def test_single_and_batch_analysis_agree(welwyn_analyses):
    deal = read_hand_records(WELWYN.read_bytes())[7]
    assert analyse(deal, dealer(7), vulnerability(7)) == welwyn_analyses[7]


def test_a_session_larger_than_one_dds_batch_is_analysed_in_chunks(monkeypatch):
    import endplay._dds

    # Hand-built deals solve in milliseconds; three of them in batches of two.
    deals = {1: parse_deal(TEN_TRICKS_IN_NOTRUMP), 2: parse_deal(NORTH_HOLDS_EVERYTHING),
             3: parse_deal(NORTH_HOLDS_EVERYTHING.replace("N:", "E:"))}  # fmt: skip
    singles = {number: analyse(deal, dealer(number), vulnerability(number)) for number, deal in deals.items()}
    monkeypatch.setattr(endplay._dds, "MAXNOOFTABLES", 2)
    assert analyse_many(deals) == singles


def test_no_deals_no_analysis():
    assert analyse_many({}) == {}


# -- what the traveller and the board page ask of an analysis -------------------------------


def test_dd_tricks_for_the_contract_played(welwyn_analyses):
    board_1 = welwyn_analyses[1]  # OptimumResultTable: "S H 9", "N H 10", "E NT 4"
    assert dd_tricks_for(board_1, Strain.H, Seat.S) == 9
    assert dd_tricks_for(board_1, "h", "n") == 10
    assert dd_tricks_for(board_1, "NT", "E") == 4


@pytest.mark.parametrize(("strain", "seat"), [("N", "S"), ("SPADES", "S"), ("H", "X")])
def test_dd_tricks_refuse_an_unknown_strain_or_seat(welwyn_analyses, strain, seat):
    with pytest.raises(ScoringError, match="is not a (strain|seat)"):
        dd_tricks_for(welwyn_analyses[1], strain, seat)


def test_result_against_par_is_the_ns_score_less_par():
    analysis = analyse(parse_deal(TEN_TRICKS_IN_NOTRUMP), "N", "None")  # par 430
    assert result_against_par(analysis, deal_score("3NT", 11, False)) == 460 - 430
    assert result_against_par(analysis, deal_score("4S", 10, False)) == 420 - 430
    assert result_against_par(analysis, deal_score("6NT", 10, False)) == -100 - 430
    assert result_against_par(analysis, -deal_score("2SX", 5, False)) == 500 - 430  # EW down 3 doubled


def test_is_for_notices_a_corrected_deal_or_a_different_board(welwyn_analyses):
    analysis = welwyn_analyses[1]
    deals = read_hand_records(WELWYN.read_bytes())
    assert analysis.is_for(deals[1], "N", "None")
    assert not analysis.is_for(deals[2], "N", "None")
    assert not analysis.is_for(deals[1], "E", "None")
    assert not analysis.is_for(deals[1], "N", "Both")


def test_rows_give_the_table_by_declarer_for_the_page(welwyn_analyses):
    # Board 1's published table, C D H S NT for N E S W.
    assert welwyn_analyses[1].rows() == [
        (Seat.N, (9, 7, 10, 8, 9)), (Seat.E, (4, 6, 3, 5, 4)),
        (Seat.S, (9, 7, 9, 8, 9)), (Seat.W, (4, 6, 3, 5, 4)),
    ]  # fmt: skip


# -- storage ----------------------------------------------------------------------------------


def test_an_analysis_survives_a_trip_through_json(welwyn_analyses):
    for analysis in welwyn_analyses.values():
        stored = json.loads(json.dumps(analysis.to_dict()))
        assert Analysis.from_dict(stored) == analysis


def test_stored_data_is_small_and_readable(welwyn_analyses):
    stored = welwyn_analyses[1].to_dict()
    assert stored["tricks"]["N"] == [9, 7, 10, 8, 9]
    assert stored["par_score"] == 420
    assert stored["dealer"] == "N" and stored["vulnerability"] == "None"
    assert len(json.dumps(stored)) < 400


def test_stored_data_of_another_version_is_refused(welwyn_analyses):
    stored = welwyn_analyses[1].to_dict() | {"version": 99}
    with pytest.raises(ScoringError, match="version 99"):
        Analysis.from_dict(stored)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda data: data.pop("par_score"), "incomplete or malformed"),
        (lambda data: data["tricks"].pop("W"), "incomplete or malformed"),
        (lambda data: data["tricks"].update(N=[9, 7, 14, 8, 9]), "14 tricks for N in H"),
        (lambda data: data["tricks"].update(N=[9, 7, 10, 8]), "4 rows"),
        (lambda data: data.update(dealer="Q"), "'Q' is not a seat"),
        (lambda data: data.update(vulnerability="Red"), "'Red' is not a vulnerability"),
        (lambda data: data.update(par_score="420"), "not a whole number"),
    ],
)
def test_damaged_stored_data_is_refused(welwyn_analyses, change, message):
    stored = json.loads(json.dumps(welwyn_analyses[1].to_dict()))
    change(stored)
    with pytest.raises(ScoringError, match=message):
        Analysis.from_dict(stored)


# -- pure Python, and the solver only loaded when needed --------------------------------------


def test_the_package_imports_without_django_or_the_solver():
    code = (
        "import sys\n"
        "import sessions.handrecords as records\n"
        "deal = records.random_deals(1, seed=1)[0]\n"
        "records.score_distribution_svg([420, 450])\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'django', 'endplay'}))\n"
    )
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_no_handrecords_module_imports_django():
    for path in (ROOT / "sessions" / "handrecords").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            assert not any(name.split(".")[0] == "django" for name in names), path.name
