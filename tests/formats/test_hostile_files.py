"""Hostile and damaged files are refused by the readers with a plain FormatError, never
another exception, and in memory a small multiple of their size; every real file still reads."""

from __future__ import annotations

import tracemalloc

import pytest

from sessions.formats import FormatError, parse_pbn, parse_pbn_deals, parse_results_file, parse_usebio
from sessions.formats import pbn as pbn_reader
from sessions.formats.common import MAX_BOARD_NUMBER, text_encoding
from sessions.handrecords import read_hand_records
from tests.formats.data_files import DATA_DIR, PAIRS_FILES, UNSUPPORTED_USEBIO, pbn_bytes, usebio_bytes
from tests.formats.hostile import (
    FIVE_THOUSAND_DIGITS,
    REFUSED,
    once,
    pbn,
    pbn_board,
    pbn_event_of,
    pbn_utf8,
    usebio,
    usebio_board,
    usebio_declaring,
    usebio_first_line,
)

WELWYN = "bridgewebs_hands_welwyn.pbn"  # a Bridgewebs hand record, 24 boards


@pytest.mark.parametrize("name", REFUSED)
def test_a_hostile_file_is_refused_with_a_plain_reason(name):
    build, reason = REFUSED[name]
    with pytest.raises(FormatError) as refused:
        parse_results_file(build())
    assert reason in str(refused.value)


@pytest.mark.parametrize("name", [name for name in PAIRS_FILES if not name.endswith(UNSUPPORTED_USEBIO)])
def test_every_real_file_still_reads(name):
    assert parse_results_file((DATA_DIR / name).read_bytes()).boards


# -- encodings ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["undefined", "utf-7", "UTF-16", "unicode_escape", "idna", "rot13", "zlib", "nonsense"])
def test_a_character_set_that_does_not_read_ascii_as_ascii_is_an_unsupported_encoding(name):
    with pytest.raises(FormatError, match="unsupported encoding"):
        text_encoding(name)


@pytest.mark.parametrize("name", ["UTF-8", "iso-8859-1", "latin1", "windows-1252", "ISO-8859-15", "ascii"])
def test_the_usual_character_sets_are_read(name):
    assert text_encoding(name)


def test_a_pbn_declaring_windows_1252_reads_its_names_in_it():
    data = b"% Content-type: text/pbn; charset=windows-1252\r\n" + pbn_utf8().decode("utf-8").encode("cp1252")
    assert parse_pbn(data).club == parse_pbn(pbn()).club


def test_charset_in_a_tag_value_is_not_a_declaration():
    data = b'[Event "charset=undefined"]\r\n' + pbn()
    assert parse_pbn(data).title == "charset=undefined"


def test_a_byte_order_mark_on_a_file_that_is_not_utf8_is_refused():
    with pytest.raises(FormatError, match="byte order mark"):
        parse_pbn(b"\xef\xbb\xbf" + pbn())  # the file is ISO-8859-1: "\xc5bo" is no UTF-8


def test_usebio_declaring_an_encoding_the_parser_reads_still_reads():
    assert parse_usebio(usebio_declaring("windows-1252")).boards
    assert parse_usebio(usebio_declaring("UTF-8")).boards


@pytest.mark.parametrize("read", [read_hand_records, parse_pbn_deals])
def test_the_hand_record_reader_refuses_an_unknown_charset(read):
    with pytest.raises(FormatError, match="unsupported encoding"):
        read(b"% charset=undefined\r\n" + pbn_bytes(WELWYN))


# -- numbers ---------------------------------------------------------------------------------------


def test_board_numbers_run_to_one_limit_for_results_and_hand_records():
    assert MAX_BOARD_NUMBER == 999
    hand_record = pbn_bytes(WELWYN)
    last = once(hand_record, b'[Board "1"]', b'[Board "999"]')
    assert 999 in read_hand_records(last)
    assert [board.number for board in parse_pbn(pbn_board("999")).boards][0] == 999
    beyond = once(hand_record, b'[Board "1"]', b'[Board "1000"]')
    for read in (read_hand_records, parse_pbn_deals, parse_results_file):
        with pytest.raises(FormatError, match="board 1000: boards are numbered from 1 to 999"):
            read(beyond)


@pytest.mark.parametrize("number", ["²", "٣", FIVE_THOUSAND_DIGITS, "40000", "0", "-1"])
def test_the_hand_record_reader_refuses_what_is_no_board_number(number):
    utf8 = pbn_bytes(WELWYN).decode("iso-8859-1").encode("utf-8").replace(b"charset=ISO-8859-1", b"charset=UTF-8")
    data = once(utf8, b'[Board "1"]', f'[Board "{number}"]'.encode())
    with pytest.raises(FormatError, match=r"(is not a number|boards are numbered from 1 to 999)$"):
        read_hand_records(data)


def test_a_five_thousand_digit_number_is_shown_short():
    with pytest.raises(FormatError) as refused:
        parse_usebio(usebio_board(FIVE_THOUSAND_DIGITS))
    assert len(str(refused.value)) < 120


@pytest.mark.parametrize(
    ("column", "value", "reason"),
    [
        ("Round", "²", "round '²' is not a number"),
        ("Round", "1000", "round 1000: rounds are numbered from 1 to 999"),
        ("Table", FIVE_THOUSAND_DIGITS, "tables are numbered from 1 to 999"),
    ],
)
def test_pbn_rounds_and_tables_are_numbers_within_the_limit(column, value, reason):
    row = b'1 1 8 1 2H W 7 SA "50"'  # Table Round PairId_NS PairId_EW ... on board 1
    table, round_ = (value, "1") if column == "Table" else ("1", value)
    data = once(pbn_utf8(), row, f'{table} {round_} 8 1 2H W 7 SA "50"'.encode())
    with pytest.raises(FormatError, match=reason):
        parse_pbn(data)


def test_usebio_pair_numbers_are_ascii_digits():
    data = once(usebio(), b"<PAIR_NUMBER>1NS</PAIR_NUMBER>", "<PAIR_NUMBER>١NS</PAIR_NUMBER>".encode())
    with pytest.raises(FormatError, match="is not a pair number"):
        parse_usebio(data)


@pytest.mark.parametrize("figure", ["NaN", "sNaN", "Infinity", "1E+999999", "١٢", "9" * 40])
def test_a_published_figure_must_be_a_plain_number(figure):
    data = once(usebio(), b"<NS_MATCH_POINTS>7</NS_MATCH_POINTS>", f"<NS_MATCH_POINTS>{figure}</NS_MATCH_POINTS>".encode())
    with pytest.raises(FormatError, match="is not a number"):
        parse_usebio(data)


# -- event types ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("event_type", "scoring"),
    [
        ("CROSS_IMP", "cross_imps"),  # Compscore3, and the USEBIO 1.2 DTD
        ("CROSS_IMP_PAIRS", "cross_imps"),
        ("CROSS_IMPS", "cross_imps"),
        ("Cross-IMP", "cross_imps"),
        ("cross imp pairs", "cross_imps"),
        ("MP_PAIRS", "matchpoints"),
        ("mp-pairs", "matchpoints"),
        ("BUTLER_PAIRS", "butler"),
        ("Butler Pairs", "butler"),
    ],
)
def test_every_spelling_of_a_pairs_event_type_is_read(event_type, scoring):
    data = once(usebio(), b'<EVENT EVENT_TYPE="MP_PAIRS">', f'<EVENT EVENT_TYPE="{event_type}">'.encode())
    event = parse_usebio(data)
    assert (event.scoring, event.event_type) == (scoring, event_type)


@pytest.mark.parametrize("event_type", ["SWISS_PAIRS_CROSS_IMPS", "AGGREGATE", "CROSS"])
def test_pairs_events_scored_otherwise_are_still_refused(event_type):
    data = once(usebio(), b'<EVENT EVENT_TYPE="MP_PAIRS">', f'<EVENT EVENT_TYPE="{event_type}">'.encode())
    with pytest.raises(FormatError, match=f"event type '{event_type}' is not supported"):
        parse_usebio(data)


def test_a_scoring_method_is_matched_the_same_way():
    data = usebio_bytes("cross-imp-pairs.xml").replace(b">CROSS_IMPS<", b">Cross-IMPs<")
    assert parse_usebio(data).scoring == "cross_imps"


# -- traveller lines: tricks and scores ------------------------------------------------------------------


def test_the_score_that_follows_from_the_contract_is_read_without_a_note():
    event = parse_usebio(usebio())
    assert not any("assigned score" in note for note in event.notes)


def test_a_score_some_contract_can_produce_stands_as_the_directors_with_a_note():
    event = parse_usebio(usebio_first_line("SCORE", "130"))  # 3D N 9 tricks is NS 110; 130 is 3D+1
    assert event.boards[0].lines[0].score == "130"
    assert "board 1, 2NS v 3EW: the score NS 130 does not follow from 3D N 9 tricks (which scores NS 110): " \
        "it stands as an assigned score" in event.notes


@pytest.mark.parametrize(
    ("name", "note"),
    [
        ("usebio/cross-imp-pairs.xml", "board 1, 9 v 4: the score NS 480 does not follow from 42 S 12 tricks"),
        (
            "usebio/nzscorer_multi-section-multi-movement-pairs.xml",
            "board 16 section B, 3NS v 11EW: the score NS -250 does not follow from 6NT W 7 tricks (which scores NS 500)",
        ),
        (
            "usebio/nzscorer_multi-section-multi-movement-pairs.xml",
            "board 18 section C, 14 v 6: the score NS -170 does not follow from 6NT N 0 tricks (which scores NS -1200)",
        ),
    ],
)
def test_the_real_files_directors_scores_stand_and_are_noted(name, note):
    # The only lines of the real files whose score does not follow from the contract.
    event = parse_results_file((DATA_DIR / name).read_bytes())
    assert any(text.startswith(note) for text in event.notes)


def test_a_bare_score_no_contract_can_produce_is_refused():
    data = usebio()
    for element in (b"<CONTRACT>3D</CONTRACT>", b"<PLAYED_BY>N</PLAYED_BY>", b"<TRICKS>9</TRICKS>"):
        data = once(data, element, b"")
    data = once(data, b"<SCORE>110</SCORE>", b"<SCORE>-15</SCORE>")
    with pytest.raises(FormatError, match=r"board 1, 2NS v 3EW: the score NS -15 is not a score any contract can produce"):
        parse_usebio(data)


@pytest.mark.parametrize("tricks", ["0", "13"])
def test_zero_and_thirteen_tricks_are_possible(tricks):
    score = {"0": "-450", "13": "190"}[tricks]  # 3D by N, neither side vulnerable
    data = usebio_first_line("TRICKS", tricks).replace(b"<SCORE>110</SCORE>", f"<SCORE>{score}</SCORE>".encode(), 1)
    assert parse_usebio(data).boards[0].lines[0].tricks == int(tricks)


@pytest.mark.parametrize("tricks", ["14", "-1"])
def test_pbn_lines_with_impossible_tricks_are_refused_naming_board_and_pairs(tricks):
    data = once(pbn(), b'1 1 8 1 2H W 7 SA "50"', f'1 1 8 1 2H W {tricks} SA "50"'.encode())
    with pytest.raises(FormatError, match=f"board 1, 8 v 1: {tricks} tricks cannot be"):
        parse_pbn(data)


def test_pbn_score_no_contract_can_produce_is_refused():
    data = once(pbn(), b'1 1 8 1 2H W 7 SA "50"', b'1 1 8 1 2H W 7 SA "55"')
    with pytest.raises(FormatError, match=r"board 1, 8 v 1: the score NS 55 does not follow from 2H W 7 tricks"):
        parse_pbn(data)


# -- cut off --------------------------------------------------------------------------------------------


def test_a_ruter_file_whose_last_board_lost_its_optimum_table_is_refused():
    data = pbn_bytes("ruter_cross_imp_league.pbn")
    cut = data[: data.rindex(b"[OptimumResultTable")]
    with pytest.raises(FormatError, match=r"board \d+ has no OptimumResultTable, though every board before it has"):
        parse_pbn(cut)


def test_a_file_whose_last_board_has_no_score_table_is_refused():
    data = pbn()
    with pytest.raises(FormatError, match="board 28 has no ScoreTable, though the boards before it have"):
        parse_pbn(data[: data.rindex(b"[ScoreTable")])


@pytest.mark.parametrize("contract", ["4S", "7NTXX", "Pass", "?", ""])
def test_a_games_own_contract_tag_may_be_a_contract_or_unknown(contract):
    data = pbn()
    at = data.rindex(b'[Contract ""]')
    assert parse_pbn(data[:at] + f'[Contract "{contract}"]'.encode() + data[at + 13:]).boards


# -- memory and size ------------------------------------------------------------------------------------


def peak_memory(read, data: bytes):
    """(what read(data) returns or the FormatError it raises, the peak memory it took)."""
    tracemalloc.start()
    try:
        result = read(data)
    except FormatError as error:
        result = error
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return result, peak


SIZE = 2_500_000  # bytes of tag value: big enough to show a quadratic step, quick to read


@pytest.mark.parametrize(
    ("fill", "value"),
    [(b"x", "x"), (b"\\\\", "\\"), (b'\\"', '"'), (b"\xe5", "\xe5")],
    ids=["letters", "backslashes", "escaped quotes", "latin-1 letters"],
)
def test_a_huge_tag_value_is_read_in_a_small_multiple_of_the_files_size(fill, value):
    data = pbn_event_of(SIZE, fill)
    event, peak = peak_memory(parse_pbn, data)
    assert event.title == value * (SIZE // len(fill))
    assert peak < 10 * len(data), f"{peak / len(data):.1f} times the file"


def test_a_huge_xml_text_is_read_in_a_small_multiple_of_the_files_size():
    data = once(usebio(), b"<CLUB_NAME>", b"<CLUB_NAME>" + b"x" * SIZE)
    event, peak = peak_memory(parse_usebio, data)
    assert event.club.startswith("x" * SIZE)
    assert peak < 10 * len(data), f"{peak / len(data):.1f} times the file"


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b'[Board "1"]\r\n[Note "x"]\r\n' + b"1\r\n" * (SIZE // 3), "more than 100,000 tags and table lines"),
        (b'[Board "1"]\r\n\r\n' * (SIZE // 14), "more than 10,000 games"),
        (b"".join(b'[Board "1"]\r\n[T%d ""]\r\n' % n for n in range(SIZE // 24)), "more than 100,000 tags"),
        (
            b'[Board "1"]\r\n[Scoring "MP"]\r\n[ScoreTable "PairId_NS;PairId_EW;Score_NS"]\r\n' + b"1 2 3 4 5 6\r\n" * (SIZE // 13),
            "more than 100,000 tags and table lines",
        ),
    ],
    ids=["tiny lines", "tiny games", "distinct tags", "many table lines"],
)
def test_a_file_of_too_many_small_things_is_refused_in_a_small_multiple_of_its_size(data, reason):
    refused, peak = peak_memory(parse_pbn, data)
    assert isinstance(refused, FormatError) and reason in str(refused)
    assert peak < 10 * len(data), f"{peak / len(data):.1f} times the file"


def test_tags_handed_on_by_double_hash_count_against_the_limit():
    # 5,000 "##" tags in the first game, handed on to each of 1,000 games: five million
    # tags from 100 KB. Refused within the budget every file has, some 20 MB.
    first = b'[Board "1"]\r\n' + b"".join(b'[T%d "##x"]\r\n' % n for n in range(5000))
    data = first + b"".join(b'\r\n[Board "%d"]\r\n' % n for n in range(2, 1002))
    refused, peak = peak_memory(parse_pbn, data)
    assert isinstance(refused, FormatError) and "with the values its \"##\" tags hand on" in str(refused)
    assert peak < 30_000_000


def test_too_many_table_cells_are_refused(monkeypatch):
    monkeypatch.setattr(pbn_reader, "MAX_TABLE_CELLS", 500)
    with pytest.raises(FormatError, match="more than 500 table cells"):
        parse_pbn(pbn())


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"<USEBIO>" + b"<B/>" * (SIZE // 4) + b"</USEBIO>", "more than 100,000 elements"),
        (b"<USEBIO>" + b"<SECTION>" * 1000 + b"</SECTION>" * 1000 + b"</USEBIO>", "nested more than 64 deep"),
        (b"<USEBIO " + b" ".join(b'a%d=""' % n for n in range(SIZE // 10)) + b"/>", "more than 20,000 attributes"),
    ],
    ids=["tiny elements", "deep nesting", "many attributes"],
)
def test_xml_of_too_many_small_things_is_refused_in_a_small_multiple_of_its_size(data, reason):
    refused, peak = peak_memory(parse_usebio, data)
    assert isinstance(refused, FormatError) and reason in str(refused)
    assert peak < 10 * len(data), f"{peak / len(data):.1f} times the file"


def test_attribute_defaults_a_dtd_declares_are_not_added_to_every_element():
    # <!ATTLIST> defaults would put 200 attributes on each of the file's 126 lines.
    defaults = "".join(f' a{n} CDATA "x"' for n in range(200))
    doctype = f"<!DOCTYPE USEBIO [<!ATTLIST TRAVELLER_LINE{defaults}>]>".encode()
    data = usebio()
    with_defaults = once(data, b'<!DOCTYPE USEBIO SYSTEM "http://www.ebu.co.uk/usebio/usebio_v1_2.dtd">', doctype)
    _, plain_peak = peak_memory(parse_usebio, data)
    event, peak = peak_memory(parse_usebio, with_defaults)
    assert event.boards
    assert peak < 1.5 * plain_peak


def test_a_large_file_of_real_sized_elements_is_read_where_tiny_ones_are_refused():
    """A national simultaneous pairs has more than MAX_XML_ELEMENTS elements, each many
    bytes long: the limit grows with the file, one element per BYTES_PER_ELEMENT bytes."""
    from sessions.formats.usebio import BYTES_PER_ELEMENT, MAX_XML_ELEMENTS, _parse_xml

    count = MAX_XML_ELEMENTS + 20_000
    element = b"<TRAVELLER_LINE_NOTE>" + b"x" * BYTES_PER_ELEMENT + b"</TRAVELLER_LINE_NOTE>"
    root, _ = _parse_xml(b"<USEBIO>" + element * count + b"</USEBIO>")
    assert len(root) == count

    with pytest.raises(FormatError, match=f"more than {MAX_XML_ELEMENTS:,} elements"):
        _parse_xml(b"<USEBIO>" + b"<B/>" * count + b"</USEBIO>")
