"""Random bytes and mutations of real files: the readers either read them or raise their
own FormatError, never another exception (which the upload pages would turn into a 500)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sessions.formats import FormatError, parse_results_file
from sessions.handrecords import read_hand_records
from tests.formats.data_files import pbn_bytes
from tests.formats.hostile import mutations, pbn

RANDOM_BYTES = st.one_of(
    st.binary(max_size=2000),
    st.binary(max_size=2000).map(lambda tail: b'% PBN 2.1\r\n[Board "1"]\r\n' + tail),
    st.binary(max_size=2000).map(lambda tail: b'<?xml version="1.0"?><USEBIO><EVENT EVENT_TYPE="MP_PAIRS">' + tail),
)


def read_or_refuse(read, data: bytes):
    try:
        return read(data)
    except FormatError as error:
        assert str(error)
        return None


@settings(max_examples=150, deadline=None)
@given(data=mutations(st))
def test_the_results_reader_reads_a_mutated_real_file_or_says_what_is_wrong(data):
    event = read_or_refuse(parse_results_file, data)
    assert event is None or event.boards


@settings(max_examples=100, deadline=None)
@given(data=RANDOM_BYTES)
def test_the_results_reader_reads_random_bytes_or_says_what_is_wrong(data):
    event = read_or_refuse(parse_results_file, data)
    assert event is None or event.boards


@settings(max_examples=100, deadline=None)
@given(data=st.one_of(mutations(st, [pbn_bytes("bridgewebs_hands_welwyn.pbn"), pbn()]), RANDOM_BYTES))
def test_the_hand_record_reader_reads_a_file_or_says_what_is_wrong(data):
    deals = read_or_refuse(read_hand_records, data)
    assert deals is None or deals
