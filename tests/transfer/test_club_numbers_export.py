"""The club's number with its national body and the P2P charge rate in the USEBIO export,
where the real files carry them: CLUB_ID_NUMBER after CLUB_NAME in CLUB, P2P_CHARGE_RATE
between MASTER_POINT_SCALE and MPS_AWARDED_FLAG in EVENT, as EBUScore, ScoreBridge, BriAn,
BBO Extractor, PairsScorer and Pianola write them (Compscore3 writes it after the flag,
RealBridge before the scale: not the EBU's own program's order)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from sessions.models import Club
from sessions.clubs.services.clubs import club_update
from sessions.pairs.services.sessions import session_mark_final
from sessions.transfer.exporters import EXPORTERS
from sessions.transfer.services.importing import results_import
from tests.formats.data_files import usebio_bytes
from tests.formats.usebio_checker import usebio_problems

#: The files written in EBUScore's order (each has all three EVENT elements and CLUB_ID_NUMBER).
EBU_ORDER_FILES = [
    "uk_00202711+000827.xml", "uk_00210009+002061.xml",  # EBUScore
    "uk_00202131+001686.xml",  # ScoreBridge
    "uk_brian_welwyn_20250409.xml",  # BriAn
    "uk_00201789+001571.xml",  # BBO Extractor
    "mp-pairs-pairsscorer.xml", "cross-imp-pairs.xml",  # PairsScorer, Pianola
]
EVENT_TAGS = ("MASTER_POINT_SCALE", "P2P_CHARGE_RATE", "MPS_AWARDED_FLAG")


def order(element: ET.Element, tags: tuple[str, ...]) -> list[str]:
    return [child.tag for child in element if child.tag in tags]


@pytest.fixture
def exported(club: Club) -> ET.Element:
    club_update(club=club, name=club.name, masterpoint_federation="ebu", national_club_number="202711",
                p2p_charge_rate=10)
    name = "uk_00202711+000827.xml"
    session = results_import(club=Club.objects.get(pk=club.pk), data=usebio_bytes(name), filename=name).session
    session_mark_final(session=session)
    content = EXPORTERS["usebio"].render(session)[2]
    assert usebio_problems(content) == []
    return ET.fromstring(content)


def test_the_export_carries_the_clubs_number_and_charge_rate(exported):
    assert exported.findtext("CLUB/CLUB_ID_NUMBER") == "202711"
    assert exported.findtext("EVENT/P2P_CHARGE_RATE") == "10"


@pytest.mark.parametrize("name", EBU_ORDER_FILES)
def test_the_elements_come_in_the_real_files_order(exported, name):
    real = ET.fromstring(usebio_bytes(name))
    assert order(exported.find("CLUB"), ("CLUB_NAME", "CLUB_ID_NUMBER")) == order(
        real.find("CLUB"), ("CLUB_NAME", "CLUB_ID_NUMBER")) == ["CLUB_NAME", "CLUB_ID_NUMBER"]
    assert order(exported.find("EVENT"), EVENT_TAGS) == order(real.find("EVENT"), EVENT_TAGS) == list(EVENT_TAGS)


def test_a_club_without_them_writes_neither(club):
    name = "uk_00202711+000827.xml"
    session = results_import(club=club, data=usebio_bytes(name), filename=name).session
    root = ET.fromstring(EXPORTERS["usebio"].render(session)[2])
    assert root.find("CLUB/CLUB_ID_NUMBER") is None and root.find("EVENT/P2P_CHARGE_RATE") is None


@pytest.mark.parametrize("number", ["12 34", "x" * 21])
def test_a_bad_club_number_is_refused(club, number):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        club_update(club=club, name=club.name, national_club_number=number)
    assert Club.objects.get(pk=club.pk).national_club_number == ""
