"""Real files' master points, reproduced: each file's MASTER_POINTS stripped, its
ranking given to the federation its program follows, at the scale it names, must give
the same points to the same pairs (tests/data/README.md; docs/RULES.md "Master points")."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from sessions.formats import masterpoints as adapter
from sessions.formats.model import ParsedEvent, ParsedPair
from sessions.formats.usebio import parse_usebio
from sessions.scoring.masterpoints import FEDERATIONS, session_awards
from tests.formats.data_files import DATA_DIR, UNSUPPORTED_USEBIO, USEBIO_FILES

#: Every real file carrying awards (MPS_AWARDED_FLAG Y and MASTER_POINTS_AWARDED).
AWARD_FILES = {
    "cobalt_butler_howell.xml": "abf",
    "cobalt_mp_pairs_mitchell_03.xml": "abf",
    "cobalt_mp_pairs_mitchell_04.xml": "abf",
    UNSUPPORTED_USEBIO: "abf",
    "mp-pairs-pairsscorer.xml": "ebu",
    "nzscorer_handicap_pairs.xml": "nzb",
    "nzscorer_multi-section-multi-movement-pairs.xml": "nzb",
    "nzscorer_pairs-with-np-passed.xml": "nzb",
    "nzscorer_three_quarter_howell_with_phantom.xml": "nzb",
    "uk_00201789+001571.xml": "ebu",
    "uk_00202131+001686.xml": "ebu",
    "uk_00202217+001532.xml": "ebu",
    "uk_00202711+000827.xml": "ebu",
    "uk_00210009+002061.xml": "ebu",
    "uk_00210009+002061_assigned.xml": "ebu",  # (derived: a director's assigned points on one line)
    "uk_brian_welwyn_20250409.xml": "ebu",
}


#: The one award no rule the project found reproduces (sessions/scoring/masterpoints/nzb.py):
#: NZ Scorer's two pairs 4= of 13 in section B's EW, with 4 awards: ours, then the file's.
UNPINNED = {
    ("nzscorer_multi-section-multi-movement-pairs.xml", "B:2EW"): (500, 600),
    ("nzscorer_multi-section-multi-movement-pairs.xml", "B:6EW"): (500, 600),
}


def stripped(event: ParsedEvent) -> dict[str, int]:
    """The file's awards by pair (no award written: 0), removed from the event."""
    published = {}
    for pair in event.pairs:
        published[pair.key] = int(pair.extra.pop("MASTER_POINTS_AWARDED", "") or 0)
        pair.extra.pop("MASTER_POINT_TYPE", None)
    return published


def unsupported_event(data: bytes) -> ParsedEvent:
    """Compscore3's Butler file in an event type ClubScore does not read: its ranking
    only, straight from the XML (one section, NS and EW)."""
    root = ET.fromstring(data)
    event_element = root.find("EVENT")
    assert event_element is not None
    pairs = []
    for element in root.iter("PAIR"):
        number, direction = element.findtext("PAIR_NUMBER", "")[:-2], element.findtext("DIRECTION", "")
        extra = {tag: element.findtext(tag, "") for tag in ("MASTER_POINTS_AWARDED", "MASTER_POINT_TYPE")}
        pairs.append(ParsedPair(f"A:{number}{direction}", "A", number, direction, [], None, None,
                                element.findtext("PLACE"), extra=extra))
    extra = {"MASTER_POINT_SCALE": event_element.findtext("MASTER_POINT_SCALE", "")}
    return ParsedEvent("usebio", event_element.findtext("PROGRAM_NAME", ""), "NOTSUP", "butler", "", "", "",
                       pairs, [], extra=extra)


def read(name: str) -> ParsedEvent:
    data = (DATA_DIR / "usebio" / name).read_bytes()
    return unsupported_event(data) if name == UNSUPPORTED_USEBIO else parse_usebio(data)


@pytest.mark.parametrize("name", sorted(AWARD_FILES))
def test_file_awards_reproduce_with_the_figures_stripped(name):
    event = read(name)
    published = stripped(event)
    assert any(published.values()), "the file carries awards"
    federation = adapter.file_federation(event)
    assert federation == AWARD_FILES[name]
    boards = adapter.session_boards(event) or 24  # the unsupported file: its 35 boards are not read
    awards = session_awards(federation=federation, scale=adapter.file_scale(event),
                            fields=adapter.award_fields(event), boards=boards)
    computed = {pair: award.points for pair, award in awards.items()}
    for (file_name, pair), (ours, theirs) in UNPINNED.items():
        if file_name == name:
            assert (computed[pair], published[pair]) == (ours, theirs)
            computed[pair] = published[pair]
    assert computed == published
    assert {award.point_type for award in awards.values()} == {FEDERATIONS[federation].POINT_TYPE}


@pytest.mark.parametrize("name", sorted(set(USEBIO_FILES) - set(AWARD_FILES)))
def test_the_files_left_out_carry_no_award(name):
    data = (DATA_DIR / "usebio" / name).read_bytes()
    assert re.search(rb"<MASTER_POINTS_AWARDED>\s*[1-9]", data) is None
