"""A file's traveller line becomes the same stored fields as a typed line: one lead
reader, one form for assigned and artificial scores (sessions.scoring.notation)."""

from __future__ import annotations

import pytest

from sessions.formats.model import ParsedLine
from sessions.models import ResultKind
from sessions.scoring.errors import ScoringError
from sessions.transfer.importing import result_values


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
