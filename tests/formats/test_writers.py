"""USEBIO and PBN writers: every real results file survives parse -> write -> parse in
both formats, awkward text survives, and what each format cannot carry is named.

The round trip compares everything the readers model (pairs, boards, lines, published
figures to the hundredth) except what a format has no place for, listed per format
in WHAT_SURVIVES and in the writers' docstrings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

import pytest
from defusedxml.ElementTree import fromstring as safe_xml

from sessions.formats import (
    FormatError,
    ParsedBoard,
    ParsedEvent,
    ParsedLine,
    ParsedPair,
    ParsedPlayer,
    parse_pbn,
    parse_results_file,
    parse_usebio,
    pbn_scoring_tag,
    write_pbn,
    write_usebio,
)
from sessions.formats.writing import date_parts, hands_by_seat
from sessions.formats.common import PASSED_OUT_CONTRACTS
from sessions.scoring.contracts import parse_contract
from sessions.scoring.errors import ScoringError
from sessions.scoring.rounding import round_to_places
from tests.formats.data_files import DATA_DIR, PBN_FILES, UNSUPPORTED_USEBIO, USEBIO_FILES

HAND_RECORD_ONLY = "bridgewebs_hands_welwyn.pbn"
RESULT_FILES = [f"usebio/{name}" for name in USEBIO_FILES if name != UNSUPPORTED_USEBIO] + [
    f"pbn/{name}" for name in PBN_FILES if name != HAND_RECORD_ONLY
]


@dataclass(frozen=True)
class Survives:
    """What a format carries beyond the pairs, lines and figures every format keeps."""

    phantom_flag: bool  # ParsedPair.is_phantom
    handicap: bool
    line_note: bool
    dealer_and_vulnerability: bool
    round_and_table: bool


WHAT_SURVIVES = {
    write_usebio: Survives(phantom_flag=False, handicap=True, line_note=True, dealer_and_vulnerability=False, round_and_table=False),
    write_pbn: Survives(phantom_flag=True, handicap=False, line_note=False, dealer_and_vulnerability=True, round_and_table=True),
}
WRITERS = list(WHAT_SURVIVES)
#: Facts compared only where the first reading has them: the other format may add them
#: (PBN gives every board a dealer; USEBIO's one datum per board covers a bye line too).
FILLED_IN_BY_THE_WRITER = (" deal", " dealer", " vulnerability", " datum")


def hundredth(value: Decimal | None) -> Decimal | None:
    return None if value is None else round_to_places(value, 2)


def north_first(deal: str | None) -> tuple[str, ...] | None:
    if not deal:
        return None
    hands = hands_by_seat(deal, "test")
    return tuple(hands.get(seat, "-") for seat in "NESW")


def contract_meaning(contract: str) -> str:
    """A contract as its meaning, not its spelling: the PBN writer writes the standard's
    ("3NTX" for "3Nx", "Pass" for "PASS")."""
    if contract.strip().upper() in PASSED_OUT_CONTRACTS:
        return "PASS"
    try:
        return str(parse_contract(contract))
    except ScoringError:
        return contract


def facts(event: ParsedEvent, survives: Survives) -> dict[str, object]:
    """Everything a round trip must keep, by a name that says where it is."""
    found: dict[str, object] = {
        "event": (event.scoring, event.title, event.club, date_parts(event.date) or event.date),
    }
    for pair in event.pairs:
        found[f"pair {pair.key}"] = (
            pair.section,
            pair.number,
            pair.direction,
            [(player.name, player.national_id) for player in pair.players],
            hundredth(pair.published_total),
            hundredth(pair.published_percentage),
            pair.published_place,
            pair.boards_played,
            pair.is_phantom if survives.phantom_flag else None,
            hundredth(pair.handicap) if survives.handicap else None,
        )
    for board in event.boards:
        where = f"board {board.section}:{board.number}"
        found[f"{where} lines"] = len(board.lines)
        found[f"{where} deal"] = north_first(board.deal)
        if survives.dealer_and_vulnerability:
            found[f"{where} dealer"] = board.dealer or None
            found[f"{where} vulnerability"] = board.vulnerability or None
        for index, line in enumerate(board.lines, start=1):
            found[f"{where} line {index}"] = (
                line.ns_pair,
                line.ew_pair,
                {"PASS": "PASS", "NP": ""}.get(line.score, contract_meaning(line.contract)),
                line.declarer,
                line.tricks,
                line.lead,
                line.score,
                hundredth(line.published_ns_points),
                hundredth(line.published_ew_points),
                (line.round, line.table) if survives.round_and_table else None,
                line.note if survives.line_note else None,
            )
            found[f"{where} line {index} datum"] = line.published_datum
    return found


def round_trip_differences(first: ParsedEvent, second: ParsedEvent, survives: Survives) -> list[str]:
    before, after = facts(first, survives), facts(second, survives)
    differences = []
    for name in sorted(before.keys() | after.keys()):
        if name.endswith(FILLED_IN_BY_THE_WRITER) and before.get(name) is None:
            continue
        if before.get(name) != after.get(name):
            differences.append(f"{name}: {before.get(name)!r} became {after.get(name)!r}")
    return differences


def read(path: str) -> ParsedEvent:
    return parse_results_file((DATA_DIR / path).read_bytes())


# -- every real results file, both formats --------------------------------------------


@pytest.mark.parametrize("writer", WRITERS, ids=lambda writer: writer.__name__)
@pytest.mark.parametrize("path", RESULT_FILES)
def test_real_file_survives_writing_and_reading_back(path, writer):
    first = read(path)
    second = parse_results_file(writer(first))
    assert round_trip_differences(first, second, WHAT_SURVIVES[writer]) == []


def test_comparison_notices_a_changed_figure():
    """The helper the round trips rely on can fail."""
    first = read("usebio/cobalt_mp_pairs_mitchell_03.xml")
    second = parse_results_file(write_usebio(first))
    second.boards[0].lines[0].published_ns_points += Decimal("0.01")
    second.pairs[0].players[0].name += "x"
    assert len(round_trip_differences(first, second, WHAT_SURVIVES[write_usebio])) == 2


# -- a small event of our own ---------------------------------------------------------


def small_event(names: tuple[str, str] = ("Ann Smith", "Bob Jones"), **changes) -> ParsedEvent:
    """Two tables of a Mitchell, two boards; ``names`` are pair 1NS's players."""

    def pair(number: str, direction: str, players: list[str], total: str, place: str) -> ParsedPair:
        return ParsedPair(
            key=f"A:{number}{direction}",
            section="A",
            number=number,
            direction=direction,
            players=[ParsedPlayer(name, f"10{index}{number}") for index, name in enumerate(players)],
            published_total=Decimal(total),
            published_percentage=Decimal(total) * 25,
            published_place=place,
        )

    def line(ns: str, ew: str, contract: str, declarer: str, tricks: int, score: str, ns_points: str) -> ParsedLine:
        return ParsedLine(
            f"A:{ns}NS", f"A:{ew}EW", contract, declarer, tricks, "SK", score, Decimal(ns_points), 2 - Decimal(ns_points)
        )

    event = ParsedEvent(
        source_format="",
        program="ClubScore",
        event_type="",
        scoring="matchpoints",
        title="Monday Pairs",
        date="2025-04-07",
        club="Welwyn",
        pairs=[
            pair("1", "NS", list(names), "3", "1"),
            pair("2", "NS", ["Cy Brown", "Di Green"], "1", "2"),
            pair("1", "EW", ["Ed White", "Flo Black"], "1", "1="),
            pair("2", "EW", ["Gus Grey", "Hal Pink"], "1", "1="),
        ],
        boards=[
            ParsedBoard(1, "A", [line("1", "1", "4S", "N", 10, "420", "2"), line("2", "2", "4S", "N", 9, "-50", "0")]),
            ParsedBoard(2, "A", [line("1", "2", "3NT", "E", 8, "100", "1"), line("2", "1", "3NT", "E", 8, "100", "1")]),
        ],
    )
    for name, value in changes.items():
        setattr(event, name, value)
    return event


@pytest.mark.parametrize("writer", WRITERS, ids=lambda writer: writer.__name__)
@pytest.mark.parametrize(
    "names",
    [
        ("O'Brien & <Sons>", 'Zoë "Zed" Ünal'),  # fits ISO-8859-1
        ("Łukasz Żółw", "Ольга Петрова"),  # does not
        ("=SUM(A1:A9)", "=1= \\ {not a comment} [x] %"),  # spreadsheet formula, PBN note token and punctuation
    ],
)
def test_awkward_names_and_titles_survive(writer, names):
    event = small_event(names, title=f"{names[0]} & {names[1]}", club="Club <Ünal>")
    second = parse_results_file(writer(event))
    assert round_trip_differences(event, second, WHAT_SURVIVES[writer]) == []


def test_a_text_starting_with_equals_is_a_quoted_pbn_string():
    event = small_event(("=HYPERLINK(1)", "Bob"))
    text = write_pbn(event).decode("iso-8859-1")
    assert '"=HYPERLINK(1);Bob"' in text


def test_pbn_is_iso_8859_1_when_every_name_fits_and_utf8_otherwise():
    latin = write_pbn(small_event(("Zoë Ünal", "Bob")))
    wider = write_pbn(small_event(("Łukasz", "Bob")))
    assert b"charset=ISO-8859-1" in latin and "Zoë Ünal".encode("iso-8859-1") in latin
    assert b"charset=UTF-8" in wider and "Łukasz".encode("utf-8") in wider


def test_pbn_has_the_standard_header_and_crlf_line_ends():
    data = write_pbn(small_event())
    assert data.startswith(b"% PBN 2.1\r\n% EXPORT\r\n")
    assert data.count(b"\n") == data.count(b"\r\n") and data.endswith(b"\r\n")


def test_usebio_is_utf8_with_the_ebu_doctype():
    data = write_usebio(small_event(("Zoë", "Bob")))
    declaration, doctype = data.decode("utf-8").splitlines()[:2]
    assert declaration == '<?xml version="1.0" encoding="UTF-8"?>'
    assert doctype == '<!DOCTYPE USEBIO SYSTEM "http://www.ebu.co.uk/usebio/usebio_v1_2.dtd">'
    event_element = safe_xml(data).find("EVENT")
    assert (event_element.get("EVENT_TYPE"), event_element.findtext("PROGRAM_NAME")) == ("MP_PAIRS", "ClubScore")


@pytest.mark.parametrize(
    "scoring, usebio_event_type, pbn_points_column",
    [("matchpoints", "MP_PAIRS", "MP_NS"), ("cross_imps", "CROSS_IMP", "IMP_NS"), ("butler", "BUTLER_PAIRS", "IMP_NS")],
)
def test_event_type_and_points_follow_the_scoring(scoring, usebio_event_type, pbn_points_column):
    event = small_event(scoring=scoring)
    assert safe_xml(write_usebio(event)).find("EVENT").get("EVENT_TYPE") == usebio_event_type
    assert pbn_points_column in write_pbn(event).decode("iso-8859-1")
    for writer in WRITERS:
        assert parse_results_file(writer(event)).scoring == scoring


@pytest.mark.parametrize(
    "scoring, options, tag",
    [
        ("matchpoints", {}, "MatchPoints;MP1"),
        ("matchpoints", {"half_matchpoints": True}, "MatchPoints;MP2"),
        ("cross_imps", {}, "IMP;Cross"),
        ("cross_imps", {"cross_imps_averaged": True}, "IMP;Cross2"),
        ("butler", {}, "IMP;Butler"),
    ],
)
def test_pbn_scoring_tag_names_the_scoring_and_reads_back(scoring, options, tag):
    assert pbn_scoring_tag(scoring, **options) == tag
    event = small_event(scoring=scoring)
    assert parse_pbn(write_pbn(event, scoring_tag=tag)).scoring == scoring


def test_matchpoint_lines_carry_percentages_of_the_line_top():
    text = write_pbn(small_event()).decode("iso-8859-1")
    # Board 1: 2 and 0 matchpoints of a top of 2; board 2: 1 and 1.
    assert " 2.00 0.00 100.00 0.00\r\n" in text and " 1.00 1.00 50.00 50.00\r\n" in text


def test_shared_places_keep_their_tie_in_pbn():
    pairs = parse_pbn(write_pbn(small_event())).pairs_by_key()
    assert [pairs[key].published_place for key in ("A:1NS", "A:1EW", "A:2EW")] == ["1", "1=", "1="]


# Board 1 to 16 (brief and RULES section 1): dealer N E S W in turn, vulnerability cycle.
DEALER_AND_VULNERABILITY = dict(
    enumerate(
        zip(
            "NESW" * 4,
            "None NS EW All NS EW All None EW All None NS All None NS EW".split(),
        ),
        start=1,
    )
)


def test_pbn_gives_boards_without_dealer_and_vulnerability_those_of_their_number():
    event = read("usebio/cobalt_butler_howell.xml")  # USEBIO says neither
    text = write_pbn(event).decode("iso-8859-1")
    games = re.findall(r'\[Board "(\d+)"\]\r\n(?:\[\w+ ""\]\r\n){4}\[Dealer "(\w)"\]\r\n\[Vulnerable "(\w+)"\]', text)
    assert len(games) == len(event.boards) == 35
    for board, dealer, vulnerable in games:
        assert (dealer, vulnerable) == DEALER_AND_VULNERABILITY[(int(board) - 1) % 16 + 1]


def test_pbn_deal_starts_with_the_dealer():
    event = read("usebio/cobalt_butler_howell.xml")
    text = write_pbn(event).decode("iso-8859-1")
    deals = dict(re.findall(
        r'\[Board "(\d+)"\]\r\n(?:\[\w+ ""\]\r\n){4}\[Dealer "\w"\]\r\n\[Vulnerable "\w+"\]\r\n\[Deal "(.+?)"\]', text))
    assert deals["2"].startswith("E:") and deals["3"].startswith("S:")
    originals = {board.number: board.deal for board in event.boards}
    assert all(north_first(deal) == north_first(originals[int(number)]) for number, deal in deals.items())


def test_adjusted_passed_and_unplayed_scores_survive():
    event = small_event()
    event.boards[1].lines = [
        ParsedLine("A:1NS", "A:2EW", "", "", None, "", "A6040", Decimal("1.2"), Decimal("0.8")),
        ParsedLine("A:2NS", "A:1EW", "", "", None, "", "A5545", None, None),
        ParsedLine("A:1NS", "A:1EW", "PASS", "", None, "", "PASS", Decimal(1), Decimal(1)),
        ParsedLine("A:2NS", "A:2EW", "", "", None, "", "PASS", Decimal(1), Decimal(1)),
        ParsedLine("A:2NS", "A:1EW", "NP", "", None, "", "NP", None, None),
    ]
    for writer in WRITERS:
        second = parse_results_file(writer(event))
        assert round_trip_differences(event, second, WHAT_SURVIVES[writer]) == []


def test_sections_keep_their_names():
    event = small_event()
    for pair in event.pairs:
        pair.section, pair.key = "Red", pair.key.replace("A:", "Red:")
    for board in event.boards:
        board.section = "Red"
        for line in board.lines:
            line.ns_pair, line.ew_pair = (key.replace("A:", "Red:") for key in (line.ns_pair, line.ew_pair))
    for writer in WRITERS:
        second = parse_results_file(writer(event))
        assert round_trip_differences(event, second, WHAT_SURVIVES[writer]) == []
        assert {pair.key for pair in second.pairs} == {"Red:1NS", "Red:2NS", "Red:1EW", "Red:2EW"}


# -- empty and impossible events -------------------------------------------------------


def test_an_empty_event_writes_a_well_formed_usebio_file_our_reader_calls_empty():
    data = write_usebio(small_event(pairs=[], boards=[]))
    root = safe_xml(data)
    assert root.tag == "USEBIO" and root.find("EVENT").get("EVENT_TYPE") == "MP_PAIRS"
    with pytest.raises(FormatError, match="no PARTICIPANTS with a PAIR"):
        parse_usebio(data)


def test_an_empty_event_writes_a_pbn_header_our_reader_calls_empty():
    data = write_pbn(small_event(pairs=[], boards=[]))
    assert data.startswith(b"% PBN 2.1\r\n% EXPORT\r\n") and b"[" not in data
    with pytest.raises(FormatError, match="no PBN tag found"):
        parse_pbn(data)


@pytest.mark.parametrize("writer", WRITERS, ids=lambda writer: writer.__name__)
def test_an_event_without_scoring_is_refused(writer):
    with pytest.raises(FormatError, match="scoring ''"):
        writer(small_event(scoring=""))


@pytest.mark.parametrize("writer", WRITERS, ids=lambda writer: writer.__name__)
def test_a_line_naming_an_unknown_pair_is_refused(writer):
    event = small_event()
    event.boards[0].lines[0].ew_pair = "A:9EW"
    with pytest.raises(FormatError, match="board 1 of section A: .* pair A:9EW, who is not in the event"):
        writer(event)


def test_xml_special_characters_are_escaped_by_the_library():
    data = write_usebio(small_event(("A & B <c>", "D")))
    assert b"A &amp; B &lt;c&gt;" in data
    assert safe_xml(data).find(".//PLAYER_NAME").text == "A & B <c>"


def test_a_phantom_keeps_its_pair_key_in_pbn():
    """A Howell's phantom at the missing number is Magic Contest's "-" bye and stays a
    phantom; a Mitchell's phantom 3EW is written as a pair and keeps its key."""
    howell = read("pbn/magiccontest_butler_median.pbn")
    assert parse_pbn(write_pbn(howell)).pairs_by_key()["A:7"].is_phantom

    event = small_event()
    phantom = ParsedPair("A:3EW", "A", "3", "EW", [], None, None, None, is_phantom=True)
    event.pairs.append(phantom)
    event.boards[1].lines.append(ParsedLine("A:2NS", "A:3EW", "", "", None, "", "NP", None, None))
    second = parse_pbn(write_pbn(event))
    assert not second.pairs_by_key()["A:3EW"].is_phantom
    phantom.is_phantom = False
    assert round_trip_differences(event, second, WHAT_SURVIVES[write_pbn]) == []
