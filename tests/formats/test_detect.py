"""Format detection: a results file is read by the reader its content calls for."""

from __future__ import annotations

import pytest

from sessions.formats import FormatError, parse_results_file
from tests.formats.data_files import PBN_FILES, UNSUPPORTED_USEBIO, USEBIO_FILES, pbn_bytes, usebio_bytes


@pytest.mark.parametrize("name", [name for name in USEBIO_FILES if name != UNSUPPORTED_USEBIO])
def test_usebio_files_are_read_as_usebio(name):
    assert parse_results_file(usebio_bytes(name)).source_format == "usebio"


@pytest.mark.parametrize("name", PBN_FILES)
def test_pbn_files_are_read_as_pbn(name):
    assert parse_results_file(pbn_bytes(name)).source_format == "pbn"


def test_pbn_with_a_byte_order_mark_and_no_escape_header_is_read_as_pbn():
    data = b'\xef\xbb\xbf[Event "x"]\n[Board "1"]\n[Deal "N:AKQJ.AKQ.AKQ.AKQ - - -"]\n'
    event = parse_results_file(data)
    assert (event.source_format, event.boards[0].deal) == ("pbn", "N:AKQJ.AKQ.AKQ.AKQ - - -")


def test_unsupported_usebio_is_refused_by_the_usebio_reader():
    with pytest.raises(FormatError, match="not supported"):
        parse_results_file(usebio_bytes(UNSUPPORTED_USEBIO))


def test_other_xml_is_refused_as_not_usebio():
    with pytest.raises(FormatError, match="not a USEBIO file"):
        parse_results_file(b"<?xml version='1.0'?><html><body/></html>")


@pytest.mark.parametrize("data", [b"", b"PK\x03\x04\x14\x00binary zip", b"Board,Contract\n1,4S\n"])
def test_anything_else_is_not_a_results_file(data):
    with pytest.raises(FormatError, match="not a USEBIO or PBN results file"):
        parse_results_file(data)
