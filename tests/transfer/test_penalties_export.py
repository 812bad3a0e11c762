"""Procedural penalties (RULES 13) in the exports: USEBIO carries a penalised pair's
ADJUSTMENT where RealBridge writes it (after PERCENTAGE, before MASTER_POINTS and the
players); PBN a Penalty column in the TotalScoreTable; both with the figures after it."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from decimal import Decimal

import pytest

from sessions.formats.pbn import parse_pbn
from sessions.formats.usebio import parse_usebio
from sessions.models import Pair, ProceduralPenalty
from sessions.pairs.services.penalties import penalty_give
from sessions.pairs.services.results import result_record
from sessions.transfer.exporters import EXPORTERS
from sessions.transfer.services.importing import results_import
from tests.factories import make_event, make_session
from tests.formats.data_files import usebio_bytes
from tests.formats.usebio_checker import usebio_problems

REALBRIDGE = "uk_00202217+001532.xml"  # RealBridge: ADJUSTMENT 0.00 in every PAIR


@pytest.fixture
def penalised(event):
    """Board 1 at every table; 1NS had a top (4 of 4) and a penalty of 25% of a top: 75%."""
    labels = ("1NS", "2NS", "3NS", "1EW", "2EW", "3EW")
    session = make_session(event, pair_players={label: [f"{label} North", f"{label} South"] for label in labels})
    for ns, ew, text in (("1NS", "1EW", "4S N +1"), ("3NS", "2EW", "4S N ="), ("2NS", "3EW", "4S N -1")):
        result_record(board=session.boards.get(number=1), section=session.sections.get(), ns_pair=ns, ew_pair=ew,
                      text=text)
    pair = Pair.objects.get(section__session=session, number=1, direction="NS")
    penalty_give(pair=pair, amount=Decimal("25"), penalty_unit="TOP", reason="slow play", board=1)
    return session


def child_order(pair: ET.Element) -> list[str]:
    return [child.tag for child in pair]


def test_usebio_writes_the_adjustment_where_realbridge_does(penalised):
    content = EXPORTERS["usebio"].render(penalised)[2]
    assert usebio_problems(content) == []
    pairs = {pair.findtext("PAIR_NUMBER"): pair for pair in ET.fromstring(content).iter("PAIR")}
    assert pairs["1NS"].findtext("ADJUSTMENT") == "-25.00"
    assert pairs["1NS"].findtext("PERCENTAGE") == "75.00"
    assert pairs["2NS"].find("ADJUSTMENT") is None  # no penalty, no element

    real = next(ET.fromstring(usebio_bytes(REALBRIDGE)).iter("PAIR"))
    ours = child_order(pairs["1NS"])
    shared = [tag for tag in child_order(real) if tag in ours and tag in ("PERCENTAGE", "ADJUSTMENT", "PLAYER")]
    assert [tag for tag in ours if tag in shared] == shared
    assert ours.index("ADJUSTMENT") == ours.index("PLACE") + 1 and ours.index("ADJUSTMENT") < ours.index("PLAYER")
    # Our own reader keeps it among the pair's published figures.
    parsed = {f"{p.number}{p.direction}": p for p in parse_usebio(content).pairs}
    assert parsed["1NS"].extra["ADJUSTMENT"] == "-25.00"


def test_pbn_writes_a_penalty_column(penalised):
    content = EXPORTERS["pbn"].render(penalised)[2]
    text = content.decode("iso-8859-1")
    header = next(line for line in text.splitlines() if line.startswith("[TotalScoreTable"))
    assert "Penalty" in header.split('"')[1].split(";")
    columns = header.split('"')[1].split(";")
    rows = text.split(header, 1)[1].strip().splitlines()
    row_1ns = next(row for row in rows if '"1NS North;1NS South"' in row)
    assert columns[-1] == "Penalty" and row_1ns.split()[-1] == "-25.00"
    assert '75.00 "1NS North;1NS South"' in row_1ns  # the percentage after the penalty
    assert parse_pbn(content).pairs  # our reader still reads the file


def test_the_spreadsheet_ranking_carries_the_penalty(penalised):
    assert "xlsx" in EXPORTERS
    EXPORTERS["xlsx"].render(penalised)  # (the ranking table's Penalty column: value_penalty)


@pytest.mark.parametrize("fmt", ["usebio", "pbn"])
def test_an_exported_penalty_is_imported_back_as_a_penalty_and_the_figures_agree(penalised, club, fmt):
    """Our own export read back: the adjustment becomes the penalty that gives it, so the
    file's percentages and places reproduce (before: "1 of 6 pairs differ")."""
    filename, _, content = EXPORTERS[fmt].render(penalised)
    report = results_import(club=club, data=content if isinstance(content, bytes) else content.encode(),
                            filename=filename)

    assert (report.comparison.pairs_compared, report.comparison.pair_differences) == (6, ())
    penalty = ProceduralPenalty.objects.get(pair__section__session=report.session)
    assert (penalty.pair.label, penalty.unit, penalty.amount, penalty.board) == ("1NS", "TOP", Decimal("25.00"), None)
    assert "the file's adjustment of -25.00" in penalty.reason
    assert any("given as procedural penalties" in note for note in report.notes)


def test_a_zero_or_positive_adjustment_is_no_penalty(club):
    """RealBridge writes ADJUSTMENT 0.00 for every pair: nothing is given."""
    report = results_import(club=club, data=usebio_bytes(REALBRIDGE), filename=REALBRIDGE)
    assert not ProceduralPenalty.objects.exists()
    assert not any("procedural penalties" in note for note in report.notes)


def test_an_imp_penalty_is_imported_back_in_imps(club):
    session = make_session(make_event(club, method="butler"),
                           pair_players={label: [f"{label} North", f"{label} South"]
                                         for label in ("1NS", "2NS", "3NS", "1EW", "2EW", "3EW")})
    for ns, ew, text in (("1NS", "1EW", "4S N +1"), ("3NS", "2EW", "4S N ="), ("2NS", "3EW", "4S N -1")):
        result_record(board=session.boards.get(number=1), section=session.sections.get(), ns_pair=ns, ew_pair=ew,
                      text=text)
    penalty_give(pair=Pair.objects.get(section__session=session, number=2, direction="NS"), amount=Decimal("3"),
                 penalty_unit="IMP", reason="mobile phone")
    filename, _, content = EXPORTERS["usebio"].render(session)

    report = results_import(club=club, data=content, filename=filename)

    assert report.comparison.pair_differences == ()
    penalty = ProceduralPenalty.objects.get(pair__section__session=report.session)
    assert (penalty.pair.label, penalty.unit, penalty.amount) == ("2NS", "IMP", Decimal("3.00"))
