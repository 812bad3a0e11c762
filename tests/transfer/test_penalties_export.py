"""Procedural penalties (RULES 13) in the exports: USEBIO carries a penalised pair's
ADJUSTMENT where RealBridge writes it (after PERCENTAGE, before MASTER_POINTS and the
players); PBN a Penalty column in the TotalScoreTable; both with the figures after it."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from decimal import Decimal

import pytest

from sessions.formats.pbn import parse_pbn
from sessions.formats.usebio import parse_usebio
from sessions.models import Pair
from sessions.services.penalties import penalty_give
from sessions.services.results import result_record
from sessions.transfer import EXPORTERS
from tests.factories import make_session
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
