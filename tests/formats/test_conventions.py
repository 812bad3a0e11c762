"""Conventions that must survive our own export and re-import: the ranking fields
(USEBIO WINNER_TYPE) and summed versus averaged cross-IMPs (PBN Scoring tag)."""

from dataclasses import replace

import pytest

from sessions.formats.pbn import parse_pbn
from sessions.formats.pbn_write import pbn_scoring_tag, write_pbn
from sessions.formats.to_engine import options_for, ranking_fields
from sessions.formats.usebio import parse_usebio
from sessions.formats.usebio_write import write_usebio
from tests.formats.data_files import pbn_bytes, usebio_bytes

RUTER_CROSS_IMPS = "ruter_cross_imp_league.pbn"


def as_ours(event):
    return replace(event, program="ClubScore")


def test_ruter_cross2_lines_are_summed():
    assert options_for(parse_pbn(pbn_bytes(RUTER_CROSS_IMPS))).cross_imps == "sum"


@pytest.mark.parametrize(("averaged", "expected"), [(True, "average"), (False, "sum")])
def test_our_pbn_export_keeps_summed_or_averaged_cross_imps(averaged, expected):
    event = as_ours(parse_pbn(pbn_bytes(RUTER_CROSS_IMPS)))
    tag = pbn_scoring_tag("cross_imps", cross_imps_averaged=averaged)
    again = parse_pbn(write_pbn(event, scoring_tag=tag))
    assert again.program == "ClubScore"
    assert options_for(again).cross_imps == expected


@pytest.mark.parametrize("winner_type", ["1", "2"])
def test_usebio_export_keeps_one_ranking_or_two(winner_type):
    event = parse_usebio(usebio_bytes("cobalt_mp_pairs_mitchell_03.xml"))
    event = replace(as_ours(event), extra={**event.extra, "WINNER_TYPE": winner_type})
    fields = set(ranking_fields(parse_usebio(write_usebio(event))).values())
    assert fields == ({""} if winner_type == "1" else {"NS", "EW"})
