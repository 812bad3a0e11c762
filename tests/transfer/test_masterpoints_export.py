"""A final session's master points in the USEBIO export, as EBUScore and NZ Scorer write
them: each PAIR's MASTER_POINTS (MASTER_POINTS_AWARDED in the federation's unit,
MASTER_POINT_TYPE), EVENT's MASTER_POINT_SCALE and MPS_AWARDED_FLAG (RULES 12)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from sessions.formats.usebio import parse_usebio
from sessions.pairs.services.sessions import session_mark_final
from sessions.transfer.exporters import EXPORTERS
from sessions.transfer.services.importing import results_import
from tests.factories import make_club
from tests.formats.data_files import usebio_bytes
from tests.formats.usebio_checker import usebio_problems

FILES = [
    ("uk_00202711+000827.xml", "ebu", "BLACK"),  # EBUScore: 36 for a win
    ("nzscorer_pairs-with-np-passed.xml", "", "c"),  # NZ Scorer's own scale (no club federation): 4000
]


def file_awards(name: str) -> dict[str, int]:
    event = parse_usebio(usebio_bytes(name))
    return {f"{pair.number}{pair.direction}": int(pair.extra["MASTER_POINTS_AWARDED"])
            for pair in event.pairs if pair.extra.get("MASTER_POINTS_AWARDED")}


def exported_awards(content: bytes) -> tuple[ET.Element, dict[str, tuple[int, str]]]:
    root = ET.fromstring(content)
    awards = {}
    for pair in root.iter("PAIR"):
        element = pair.find("MASTER_POINTS")
        if element is not None and int(element.findtext("MASTER_POINTS_AWARDED", "0")):
            awards[pair.findtext("PAIR_NUMBER", "")] = (
                int(element.findtext("MASTER_POINTS_AWARDED", "")), element.findtext("MASTER_POINT_TYPE", ""))
    event = root.find("EVENT")
    assert event is not None
    return event, awards


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "federation", "point_type"), FILES)
def test_the_export_of_a_final_session_carries_each_pairs_award(tmp_path: Path, name, federation, point_type):
    club = make_club()
    club.masterpoint_federation = federation
    club.save()
    session = results_import(club=club, data=usebio_bytes(name), filename=name).session
    session_mark_final(session=session)
    path = tmp_path / "export.xml"
    call_command("export_results", str(session.pk), "--format", "usebio", "--output", str(path), stdout=StringIO())
    content = path.read_bytes()

    event, awards = exported_awards(content)
    assert {number: points for number, (points, _) in awards.items()} == file_awards(name)
    assert {kind for _, kind in awards.values()} == {point_type}
    assert event.findtext("MPS_AWARDED_FLAG") == "Y"
    assert event.findtext("MASTER_POINT_SCALE") == "Club"
    assert usebio_problems(content) == []


@pytest.mark.django_db
def test_a_session_not_final_exports_no_award():
    club = make_club()
    club.masterpoint_federation = "ebu"
    club.save()
    session = results_import(club=club, data=usebio_bytes(FILES[0][0]), filename=FILES[0][0]).session
    _, _, content = EXPORTERS["usebio"].render(session)
    event, awards = exported_awards(content)
    root = ET.fromstring(content)
    assert awards == {} and not list(root.iter("MASTER_POINTS"))
    assert event.findtext("MPS_AWARDED_FLAG") == "N" and event.find("MASTER_POINT_SCALE") is None
