"""A file's traveller line becomes the same stored fields as a typed line: one lead
reader, one form for assigned and artificial scores (sessions.scoring.notation)."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest

from sessions.formats.model import ParsedLine
from sessions.models import ResultKind
from sessions.scoring.errors import ScoringError
from sessions.transfer.services.importing import RESULT_PARTS, result_values


def line(score: str, contract: str = "", declarer: str = "", tricks: int | None = None, lead: str = "") -> ParsedLine:
    return ParsedLine("1", "2", contract, declarer, tricks, lead, score, None, None)


@pytest.mark.parametrize(("lead", "stored"), [("♥K", "HK"), ("KH", "HK"), ("s10", "ST"), ("", "")])
def test_a_files_lead_is_stored_as_a_typed_lead_would_be(lead, stored):
    values = result_values(line("420", "4S", "N", 10, lead), board=1, vulnerability="None")
    assert (values["kind"], values["text"], values["lead"]) == (ResultKind.PLAYED, "4S N =", stored)


def test_a_files_lead_that_is_not_a_card_is_dropped_and_the_line_kept():
    values = result_values(line("420", "4S", "N", 10, "Z9"), board=1, vulnerability="None")
    assert (values["kind"], values["lead"]) == (ResultKind.PLAYED, "")


@pytest.mark.parametrize(("score", "text"), [("-100", "EW 100"), ("620", "NS 620")])
def test_a_score_without_its_contract_is_stored_as_assigned_in_the_typed_form(score, text):
    values = result_values(line(score), board=1, vulnerability="Both")
    assert (values["kind"], values["text"]) == (ResultKind.ASSIGNED, text)


def test_an_artificial_score_is_stored_in_the_typed_form():
    values = result_values(line("A6040"), board=3, vulnerability="None")
    assert (values["kind"], values["text"], values["artificial_ns_percent"], values["artificial_ew_percent"]) == (
        ResultKind.ARTIFICIAL, "A60/40", 60, 40,
    )


def test_an_artificial_score_no_director_gives_is_refused_naming_the_board():
    with pytest.raises(ScoringError, match=r"^board 3: 45% is not an artificial adjusted score for NS"):
        result_values(line("A4555"), board=3, vulnerability="None")


@pytest.mark.parametrize("score", ["420", "450", "-50", "A6040", "NP", "PASS"])
def test_a_lines_values_follow_from_its_result_parts_alone(score):
    """The import works out the values once per RESULT_PARTS and vulnerability: the pairs,
    round, table, published figures, notes and board number change nothing."""
    first = ParsedLine("A:1NS", "A:1EW", "4S", "N", 10, "HK", score, None, None, raw_score=score)
    other = replace(first, ns_pair="B:7NS", ew_pair="B:3EW", published_ns_points=Decimal(3), published_ew_points=Decimal(1),
                    published_datum=430, round=4, table=2, note="Adjusted score", extra={"Percentage_NS": "75"})
    assert [getattr(first, part) for part in RESULT_PARTS] == [getattr(other, part) for part in RESULT_PARTS]
    assert result_values(first, board=1, vulnerability="None") == result_values(other, board=17, vulnerability="None")
