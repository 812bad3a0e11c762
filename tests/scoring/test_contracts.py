"""Parsing contracts as directors type them (RULES.md section 2)."""

import pytest

from sessions.scoring.contracts import Contract, Doubling, Strain, check_tricks, is_pass, parse_contract
from sessions.scoring.errors import ScoringError


@pytest.mark.parametrize(
    ("text", "level", "strain", "doubling"),
    [
        ("4S", 4, Strain.S, Doubling.NONE),
        ("3NT", 3, Strain.NT, Doubling.NONE),
        ("3N", 3, Strain.NT, Doubling.NONE),
        ("6DX", 6, Strain.D, Doubling.DOUBLED),
        ("7NTXX", 7, Strain.NT, Doubling.REDOUBLED),
        ("1c", 1, Strain.C, Doubling.NONE),
        ("2hx", 2, Strain.H, Doubling.DOUBLED),
        ("3nt xx", 3, Strain.NT, Doubling.REDOUBLED),
        (" 4 S X ", 4, Strain.S, Doubling.DOUBLED),
        ("4♠", 4, Strain.S, Doubling.NONE),
        ("4♥X", 4, Strain.H, Doubling.DOUBLED),
        ("5♦", 5, Strain.D, Doubling.NONE),
        ("6♣XX", 6, Strain.C, Doubling.REDOUBLED),
        ("4♤", 4, Strain.S, Doubling.NONE),
        ("4♡", 4, Strain.H, Doubling.NONE),
        ("2♢", 2, Strain.D, Doubling.NONE),
        ("1♧", 1, Strain.C, Doubling.NONE),
        ("4\u2660\ufe0f", 4, Strain.S, Doubling.NONE),
        ("4H*", 4, Strain.H, Doubling.DOUBLED),
        ("4H**", 4, Strain.H, Doubling.REDOUBLED),
    ],
)
def test_parse_contract_accepts_the_usual_spellings(text, level, strain, doubling):
    assert parse_contract(text) == Contract(level, strain, doubling)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("8S", "8 is not a contract level"),
        ("0NT", "0 is not a contract level"),
        ("4Z", "'4Z' is not a contract: unknown strain Z"),
        ("4", "'4' is not a contract: the strain (C, D, H, S or NT) is missing"),
        ("4X", "'4X' is not a contract: the strain"),
        ("NT", "'NT' is not a contract: write the level first"),
        ("", "'' is not a contract"),
        ("4SXXX", "write X for doubled, XX for redoubled"),
        ("3NTT", "unknown strain NTT"),
    ],
)
def test_parse_contract_says_what_is_wrong(text, message):
    with pytest.raises(ScoringError) as error:
        parse_contract(text)
    assert message in str(error.value)


@pytest.mark.parametrize("contract", ["4S", "3NT", "6DX", "7NTXX", "1C"])
def test_contract_prints_in_its_short_form(contract):
    assert str(parse_contract(contract)) == contract


def test_contract_is_frozen_and_checks_its_level():
    contract = Contract(4, Strain.S)
    with pytest.raises(AttributeError):
        contract.level = 5
    with pytest.raises(ScoringError, match="8 is not a contract level"):
        Contract(8, Strain.S)


def test_tricks_needed_is_level_plus_book():
    assert [Contract(level, Strain.C).tricks_needed for level in range(1, 8)] == list(range(7, 14))


@pytest.mark.parametrize("text", ["P", "pass", "Passed out", "ALL PASS"])
def test_pass_words(text):
    assert is_pass(text)


def test_check_tricks_names_contract_and_declarer():
    with pytest.raises(ScoringError, match="4S by N cannot take 14 tricks"):
        check_tricks(parse_contract("4S"), 14, "N")
    with pytest.raises(ScoringError, match="3NT cannot take -1 tricks"):
        check_tricks(parse_contract("3NT"), -1)
