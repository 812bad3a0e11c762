"""USEBIO reader: every real file reads, its published facts come through exactly, bad input is refused."""

from __future__ import annotations

from decimal import Decimal

import pytest

from sessions.formats.errors import FormatError
from sessions.formats.usebio import parse_usebio
from tests.formats.data_files import UNSUPPORTED_USEBIO, USEBIO_FILES, line_between, usebio_bytes

READABLE_FILES = [name for name in USEBIO_FILES if name != UNSUPPORTED_USEBIO]


def read(name: str):
    return parse_usebio(usebio_bytes(name))


@pytest.mark.parametrize("name", READABLE_FILES)
def test_every_supported_file_reads_with_lines_naming_known_pairs(name):
    event = read(name)
    keys = [pair.key for pair in event.pairs]
    assert len(keys) == len(set(keys))
    assert event.source_format == "usebio"
    assert event.scoring in ("matchpoints", "cross_imps", "butler")
    assert event.boards and all(board.lines for board in event.boards)
    for board in event.boards:
        for line in board.lines:
            assert {line.ns_pair, line.ew_pair} <= set(keys)


@pytest.mark.parametrize(
    "name, program, scoring, movement, pairs, boards, lines",
    [
        ("cobalt_butler_howell.xml", "Compscore3", "butler", "howell", 8, 35, 140),
        ("cobalt_mp_pairs_mitchell_03.xml", "Compscore3", "matchpoints", "mitchell", 13, 21, 126),
        ("cobalt_mp_pairs_mitchell_04.xml", "Compscore3", "matchpoints", "mitchell", 16, 24, 134),
        ("cross-imp-pairs.xml", "Pianola", "cross_imps", "howell", 17, 24, 192),
        ("mp-pairs-pairsscorer.xml", "PairsScorer", "matchpoints", "mitchell", 22, 22, 242),
        ("nzscorer_handicap_pairs.xml", "Scorer", "matchpoints", "mitchell", 18, 22, 198),
        ("nzscorer_multi-section-multi-movement-pairs.xml", "Scorer", "matchpoints", "", 66, 78, 858),
        ("nzscorer_pairs-with-np-passed.xml", "Scorer", "matchpoints", "mitchell", 26, 26, 338),
        ("nzscorer_three_quarter_howell_with_phantom.xml", "Scorer", "matchpoints", "howell", 11, 27, 135),
        ("uk_00201789+001571.xml", "BBO Extractor", "matchpoints", "howell", 17, 18, 144),
        ("uk_00202131+001686.xml", "ScoreBridge", "matchpoints", "howell", 17, 24, 176),
        ("uk_00202217+001532.xml", "RealBridge", "matchpoints", "howell", 19, 20, 180),
        ("uk_00202711+000827.xml", "EBUScore Pairs", "matchpoints", "howell", 19, 26, 234),
        ("uk_00210009+002061.xml", "EBUScore Pairs", "matchpoints", "mitchell", 18, 27, 216),
        ("uk_brian_welwyn_20250409.xml", "BriAn", "matchpoints", "howell", 13, 24, 144),
        ("uk_realbridge_20250407.xml", "RealBridge", "matchpoints", "mitchell", 16, 21, 168),
    ],
)
def test_file_shape_matches_what_the_file_holds(name, program, scoring, movement, pairs, boards, lines):
    event = read(name)
    assert event.program == program
    assert event.scoring == scoring
    assert event.movement == movement
    assert len(event.pairs) == pairs
    assert len(event.boards) == boards
    assert sum(len(board.lines) for board in event.boards) == lines


@pytest.mark.parametrize(
    "name, key, total, percentage, place",
    [
        ("cobalt_butler_howell.xml", "A:3", "25.00", None, "2"),
        ("cobalt_mp_pairs_mitchell_03.xml", "A:1NS", "97.00", "53.89", "3"),
        ("cobalt_mp_pairs_mitchell_03.xml", "A:2EW", "109.00", "51.90", "2"),
        ("cobalt_mp_pairs_mitchell_04.xml", "A:2NS", "121.40", "71.41", "1"),
        ("cross-imp-pairs.xml", "A:16", "53.57", None, "1"),
        ("mp-pairs-pairsscorer.xml", "Sect1:12EW", None, "57.73", "2"),
        ("nzscorer_handicap_pairs.xml", "A:1NS", "45.74", "45.74", "7"),
        ("nzscorer_multi-section-multi-movement-pairs.xml", "B:3NS", "56.13", "56.13", "12"),
        ("nzscorer_multi-section-multi-movement-pairs.xml", "C:4", "62.86", "62.86", "2"),
        ("nzscorer_three_quarter_howell_with_phantom.xml", "A:10", "49.54", "49.54", "6"),
        ("uk_00201789+001571.xml", "A:5", None, "59.13", "1"),
        ("uk_00202131+001686.xml", "A:9", None, "51.29", "8="),
        ("uk_00202131+001686.xml", "A:10", None, "51.29", "8="),
        ("uk_00202217+001532.xml", "A:11", None, "47.19", "14="),
        ("uk_00202711+000827.xml", "A:1", None, "53.13", "8="),
        ("uk_00210009+002061.xml", "A:8NS", None, "59.52", "3"),
        ("uk_brian_welwyn_20250409.xml", "A:1", None, "62.01923", "1"),
        ("uk_realbridge_20250407.xml", "A:14EW", None, "47.96", "5="),
    ],
)
def test_pair_published_figures_come_through_exactly(name, key, total, percentage, place):
    pair = read(name).pairs_by_key()[key]
    assert pair.published_total == (Decimal(total) if total else None)
    assert pair.published_percentage == (Decimal(percentage) if percentage else None)
    assert pair.published_place == place


@pytest.mark.parametrize(
    "name, board, ns, ew, contract, declarer, tricks, score, ns_points, ew_points",
    [
        ("cobalt_butler_howell.xml", 1, "A:3", "A:6", "3S", "S", 9, "140", "-1", "1"),
        ("cobalt_mp_pairs_mitchell_04.xml", 5, "A:1NS", "A:8EW", "4S", "W", 11, "-450", "0", "10"),
        ("nzscorer_handicap_pairs.xml", 1, "A:1NS", "A:1EW", "2H", "S", 9, "140", "4", "12"),
        ("uk_00202131+001686.xml", 3, "A:1", "A:12", "3NT", "E", 12, "-690", "2", "12"),
        ("cross-imp-pairs.xml", 1, "A:9", "A:4", "42", "S", 12, "480", "-1.14", "1.14"),
    ],
)
def test_traveller_line_comes_through_as_written(
    name, board, ns, ew, contract, declarer, tricks, score, ns_points, ew_points
):
    line = line_between(read(name), board, ns, ew)
    assert (line.contract, line.declarer, line.tricks, line.score) == (contract, declarer, tricks, score)
    assert (line.published_ns_points, line.published_ew_points) == (Decimal(ns_points), Decimal(ew_points))


def test_artificial_scores_keep_ns_percentage_first_across_sections():
    event = read("nzscorer_multi-section-multi-movement-pairs.xml")
    line = line_between(event, 17, "C:9", "C:11", section="C")
    assert (line.score, line.raw_score) == ("A6040", "A6040")
    assert (line.published_ns_points, line.published_ew_points) == (Decimal("38.4"), Decimal("25.6"))
    assert line_between(event, 17, "C:10", "C:1", section="C").score == "A6060"


def test_sections_come_from_bracketed_numbers_and_movements_are_per_section():
    event = read("nzscorer_multi-section-multi-movement-pairs.xml")
    assert event.section_movements == {"A": "mitchell", "B": "mitchell", "C": "howell"}
    assert {board.section for board in event.boards} == {"A", "B", "C"}
    assert [board.number for board in event.boards if board.section == "C"] == list(range(1, 27))
    assert any("sections differ" in note for note in event.notes)


def test_passed_out_and_not_played_lines_are_named_so():
    event = read("nzscorer_pairs-with-np-passed.xml")
    not_played = line_between(event, 19, "A:1NS", "A:5EW")
    assert (not_played.contract, not_played.score, not_played.raw_score) == ("NP", "NP", "0")
    assert (not_played.published_ns_points, not_played.published_ew_points) == (Decimal("20"), Decimal("4"))
    scores = [line.score for board in event.boards for line in board.lines]
    assert scores.count("PASS") == 2 and scores.count("NP") == 1


def test_adjusted_score_keeps_the_line_note():
    line = line_between(read("uk_brian_welwyn_20250409.xml"), 21, "A:3", "A:14")
    assert (line.score, line.note) == ("A5050", "Adjusted score")
    assert line.published_ns_points == Decimal("4.0")


def test_butler_board_average_is_every_line_datum():
    board = read("cobalt_butler_howell.xml").boards[0]
    assert board.extra["BOARD_AVERAGE"] == "160"
    assert {line.published_datum for line in board.lines} == {160}


@pytest.mark.parametrize("name", ["cobalt_butler_howell.xml", "uk_00202711+000827.xml"])
def test_handset_deals_are_attached_wherever_the_handset_sits(name):
    event = read(name)
    assert all(board.deal for board in event.boards)
    for board in event.boards:
        hands = board.deal.removeprefix("N:").split()
        assert sorted("".join(hands).replace(".", "")) == sorted("AKQJT98765432" * 4)


def test_handset_hand_is_placed_by_its_direction():
    deal = read("cobalt_butler_howell.xml").boards[0].deal
    # Board 1's HAND with DIRECTION East: SPADES 84, HEARTS QT865, DIAMONDS 963, CLUBS 862.
    assert deal.split()[1] == "84.QT865.963.862"


def test_stationary_pair_directions_in_a_howell_do_not_split_the_field():
    event = read("cross-imp-pairs.xml")
    assert all(pair.direction == "" for pair in event.pairs)
    assert event.pairs_by_key()["A:4"].extra["DIRECTION"] == "EW"
    assert any("only pairs 4EW, 11NS, 16EW, 17NS" in note for note in event.notes)


def test_phantom_of_a_howell_is_simply_absent():
    event = read("nzscorer_three_quarter_howell_with_phantom.xml")
    numbers = {pair.number for pair in event.pairs}
    assert "11" not in numbers and len(numbers) == 11
    assert not any(pair.is_phantom for pair in event.pairs)


def test_handicaps_are_read():
    pairs = read("nzscorer_handicap_pairs.xml").pairs_by_key()
    assert (pairs["A:1NS"].handicap, pairs["A:2NS"].handicap) == (Decimal("0.01"), Decimal("-6.65"))


def test_scoring_is_taken_from_the_line_points_when_the_method_is_missing():
    event = read("nzscorer_handicap_pairs.xml")
    assert event.event_type == "PAIRS"
    assert any("NS_MATCH_POINTS" in note for note in event.notes)


def test_event_type_not_supported_is_refused_by_name():
    with pytest.raises(FormatError, match="event type 'NOTSUP' is not supported"):
        read(UNSUPPORTED_USEBIO)


# -- bad input --------------------------------------------------------------------------


def usebio(event_type="MP_PAIRS", pairs=None, boards=None, doctype="", extra_root="") -> bytes:
    pairs = pairs if pairs is not None else "".join(
        f"<PAIR><PAIR_NUMBER>{n}</PAIR_NUMBER><PLAYER><PLAYER_NAME>P{n}</PLAYER_NAME></PLAYER></PAIR>"
        for n in (1, 2)
    )
    boards = boards if boards is not None else (
        "<BOARD><BOARD_NUMBER>1</BOARD_NUMBER>\n<TRAVELLER_LINE>"
        "<NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><EW_PAIR_NUMBER>2</EW_PAIR_NUMBER>"
        "<CONTRACT>4S</CONTRACT><PLAYED_BY>N</PLAYED_BY><TRICKS>10</TRICKS><SCORE>420</SCORE>"
        "</TRAVELLER_LINE></BOARD>"
    )
    return (
        f'<?xml version="1.0"?>\n{doctype}\n<USEBIO Version="1.2">{extra_root}\n'
        f'<EVENT EVENT_TYPE="{event_type}">\n<PARTICIPANTS>{pairs}</PARTICIPANTS>\n{boards}\n</EVENT>\n</USEBIO>\n'
    ).encode()


def test_a_minimal_file_reads():
    event = parse_usebio(usebio())
    (line,) = event.boards[0].lines
    assert (line.ns_pair, line.ew_pair, line.score, line.tricks) == ("A:1", "A:2", "420", 10)


def test_doctype_with_system_id_is_accepted_without_fetching():
    doctype = '<!DOCTYPE USEBIO SYSTEM "http://127.0.0.1:9/usebio_v1_2.dtd">'
    assert parse_usebio(usebio(doctype=doctype)).boards


def test_truncated_xml_names_the_line():
    data = usebio_bytes("cobalt_mp_pairs_mitchell_03.xml")
    with pytest.raises(FormatError, match=r"line \d+, column \d+: not well-formed XML"):
        parse_usebio(data[: len(data) // 2])


def test_wrong_root_is_refused():
    with pytest.raises(FormatError, match="root element is <RESULTS>, not <USEBIO>"):
        parse_usebio(b"<?xml version='1.0'?><RESULTS><EVENT/></RESULTS>")


def test_file_without_boards_is_refused():
    with pytest.raises(FormatError, match="no BOARD with a TRAVELLER_LINE"):
        parse_usebio(usebio(boards=""))


def test_file_without_pairs_is_refused():
    with pytest.raises(FormatError, match="no PARTICIPANTS with a PAIR"):
        parse_usebio(usebio(pairs=""))


def test_traveller_line_naming_an_unknown_pair_is_refused_with_its_line():
    boards = (
        "<BOARD><BOARD_NUMBER>3</BOARD_NUMBER>\n<TRAVELLER_LINE>"
        "<NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><EW_PAIR_NUMBER>14 EW</EW_PAIR_NUMBER><SCORE>420</SCORE>"
        "</TRAVELLER_LINE></BOARD>"
    )
    # Line 7 of the document is the <TRAVELLER_LINE> start tag.
    expected = r"line 7: board 3 TRAVELLER_LINE names pair 14 EW as EW, who is not in the event"
    with pytest.raises(FormatError, match=expected):
        parse_usebio(usebio(boards=boards))


def test_board_number_that_is_not_a_number_is_refused():
    boards = "<BOARD><BOARD_NUMBER>one</BOARD_NUMBER></BOARD>"
    with pytest.raises(FormatError, match="BOARD_NUMBER 'one' is not a number"):
        parse_usebio(usebio(boards=boards))


def test_unreadable_score_is_refused():
    boards = (
        "<BOARD><BOARD_NUMBER>1</BOARD_NUMBER><TRAVELLER_LINE><NS_PAIR_NUMBER>1</NS_PAIR_NUMBER>"
        "<EW_PAIR_NUMBER>2</EW_PAIR_NUMBER><SCORE>lots</SCORE></TRAVELLER_LINE></BOARD>"
    )
    with pytest.raises(FormatError, match="score 'lots'"):
        parse_usebio(usebio(boards=boards))


@pytest.mark.parametrize("event_type", ["TEAMS", "SWISS_TEAMS", "INDIVIDUAL"])
def test_teams_and_individual_events_are_refused(event_type):
    with pytest.raises(FormatError, match="teams or individual event"):
        parse_usebio(usebio(event_type=event_type))


@pytest.mark.parametrize(
    "raw, expected",
    [("A6040", "A6040"), ("A60A40", "A6040"), ("A40/60", "A4060"), ("NP", "NP"), ("+420", "420")],
)
def test_score_spellings_are_normalised(raw, expected):
    boards = (
        "<BOARD><BOARD_NUMBER>1</BOARD_NUMBER><TRAVELLER_LINE><NS_PAIR_NUMBER>1</NS_PAIR_NUMBER>"
        f"<EW_PAIR_NUMBER>2</EW_PAIR_NUMBER><SCORE>{raw}</SCORE></TRAVELLER_LINE></BOARD>"
    )
    assert parse_usebio(usebio(boards=boards)).boards[0].lines[0].score == expected


def test_entity_bomb_is_refused():
    doctype = (
        '<!DOCTYPE USEBIO [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;">'
        '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>'
    )
    with pytest.raises(FormatError, match="entity declarations and external references are not allowed"):
        parse_usebio(usebio(doctype=doctype, extra_root="<CLUB><CLUB_NAME>&lol3;</CLUB_NAME></CLUB>"))


def test_external_entity_is_refused():
    doctype = '<!DOCTYPE USEBIO [<!ENTITY secret SYSTEM "file:///etc/passwd">]>'
    with pytest.raises(FormatError, match="refused XML"):
        parse_usebio(usebio(doctype=doctype, extra_root="<CLUB><CLUB_NAME>&secret;</CLUB_NAME></CLUB>"))


@pytest.mark.parametrize("data", [b"", b"   \n", b"\x00\xff\xfe garbage \x89PNG"])
def test_empty_or_garbage_bytes_are_refused(data):
    with pytest.raises(FormatError):
        parse_usebio(data)
