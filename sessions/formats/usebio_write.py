"""A parsed event as a USEBIO 1.2 XML results file (the EBU interchange format).

The other direction of usebio.py, written the way the real files are: UTF-8 with the
EBU's DOCTYPE line, CLUB, EVENT with EVENT_TYPE MP_PAIRS / CROSS_IMP / BUTLER_PAIRS
(Compscore3's spellings, the 1.2 DTD's), PARTICIPANTS, BOARDs of TRAVELLER_LINEs and a
HANDSET of the deals. A single section named "A" sits directly in EVENT; otherwise
each section is an EVENT/SECTION with its SECTION_ID (as NZ Scorer writes them).
Children come in the order every real file agrees on (a PAIR's BOARDS_PLAYED before
its TOTAL_SCORE, a line's NOTES before its points; tests/formats/usebio_checker.py).

Pair numbers: in a Mitchell a PAIR_NUMBER is "7NS" / "7EW", the very text its
traveller lines name (as Compscore3 writes it: a reader such as cobalt links pairs to
lines by that text); in a Howell "7". A passed-out line is CONTRACT PASS with SCORE 0
(NZ Scorer); a line not played is left out (as NZ Scorer does: readers expect a number
in SCORE) and kept for ClubScore in a <?CLUBSCORE_NOT_PLAYED?> processing instruction
in its BOARD; a line of points the director assigned is written as Compscore3 writes
one, its adjusted SCORE (A5050) with the assigned points, and marked for ClubScore by a
<?CLUBSCORE_ASSIGNED_POINTS?> instruction in its TRAVELLER_LINE; our settings travel in
a <?CLUBSCORE_SCORING?> instruction in EVENT.
Readers skip instructions that are not theirs, and the file stays valid against the
1.2 DTD.

Published figures come from the model's published_* fields, two decimals. Scores
are the model's normalised NS scores: "420", "-100", "PASS", "NP", "A6040".

A final session's master points go in each PAIR's MASTER_POINTS (MASTER_POINTS_AWARDED
in the federation's unit, MASTER_POINT_TYPE), with EVENT's MASTER_POINT_SCALE and
MPS_AWARDED_FLAG Y, as EBUScore and NZ Scorer write them; the club's CLUB_ID_NUMBER (in
CLUB) and P2P_CHARGE_RATE (in EVENT, before MPS_AWARDED_FLAG) when the club has them. A pair's procedural penalty
goes in its ADJUSTMENT (RealBridge's element), negative, in percentage points when
matchpointed and in IMPs otherwise; PERCENTAGE and TOTAL_SCORE are after it.

What USEBIO cannot carry, and so does not survive a round trip through our reader:
a pair's phantom flag (it is written as a pair without players), dealer and
vulnerability, a line's round and table, per-line Butler datums that differ within a
board (one BOARD_AVERAGE per board), and the `extra` figures other programs published.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import cast

from sessions.formats.conventions import CONVENTIONS_KEY
from sessions.formats.errors import FormatError
from sessions.formats.model import ParsedBoard, ParsedEvent, ParsedLine, ParsedPair
from sessions.formats.usebio import ASSIGNED_POINTS, EVENT_TYPE_SPELLINGS, HAND_ORDER, NOT_PLAYED, POINTS_ELEMENTS, SUIT_ELEMENTS
from sessions.formats.writing import (
    PROGRAM_NAME,
    date_parts,
    hands_by_seat,
    points_text,
    sections_in_order,
    sections_need_names,
    two_decimals,
    without_control_characters,
)

EVENT_TYPE_BY_SCORING = {scoring: spellings[0] for scoring, spellings in EVENT_TYPE_SPELLINGS.items()}
#: Every real file says whether master points were awarded (Y when a pair holds an award).
NO_MASTER_POINTS = "N"
MASTER_POINTS_AWARDED = "Y"
XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>'
DOCTYPE = '<!DOCTYPE USEBIO SYSTEM "http://www.ebu.co.uk/usebio/usebio_v1_2.dtd">'


def write_usebio(event: ParsedEvent) -> bytes:
    """The event as USEBIO 1.2 XML bytes; FormatError if its scoring has no USEBIO event type."""
    event_type = EVENT_TYPE_BY_SCORING.get(event.scoring)
    if event_type is None:
        raise FormatError(
            f"cannot write USEBIO for scoring {event.scoring!r}: "
            f"USEBIO event types exist for {', '.join(EVENT_TYPE_BY_SCORING)}"
        )
    root = ET.Element("USEBIO", Version="1.2")
    club = ET.SubElement(root, "CLUB")
    _leaf(club, "CLUB_NAME", event.club)
    # The club's number with its national body, as every EBUScore and Compscore3 file has it.
    _optional(club, "CLUB_ID_NUMBER", event.extra.get("CLUB_ID_NUMBER", ""))
    event_element = ET.SubElement(root, "EVENT", EVENT_TYPE=event_type)
    _event_header(event_element, event)
    _Writer(event).write_sections(event_element)
    if not event.sections_play_different_deals():
        handset = _handset(event.boards)
        if len(handset):
            root.append(handset)
    ET.indent(root)
    body = ET.tostring(root, encoding="unicode")
    return "\n".join([XML_DECLARATION, DOCTYPE, body, ""]).encode("utf-8")


def _event_header(element: ET.Element, event: ParsedEvent) -> None:
    _leaf(element, "PROGRAM_NAME", PROGRAM_NAME)
    # One ranking (1) or NS and EW winners (2): without it a reader splits a one-field
    # Mitchell (arrow-switched, or ranked across the field) into two rankings.
    if event.extra.get("WINNER_TYPE") in ("1", "2"):
        _leaf(element, "WINNER_TYPE", event.extra["WINNER_TYPE"])
    # Every setting the figures were scored with, for ClubScore reading the file back
    # (formats/conventions.py), where other programs and the DTD ignore it.
    if event.extra.get(CONVENTIONS_KEY):
        element.append(_instruction(CONVENTIONS_KEY, event.extra[CONVENTIONS_KEY]))
    # The real files name the event in EVENT_DESCRIPTION (our reader's first choice);
    # Compscore3 and BriAn also write TITLE.
    _leaf(element, "EVENT_DESCRIPTION", event.title)
    _leaf(element, "TITLE", event.title)
    _leaf(element, "DATE", _usebio_date(event.date))
    awarded = any(pair.masterpoints is not None for pair in event.pairs)
    if awarded:
        _optional(element, "MASTER_POINT_SCALE", event.extra.get("MASTER_POINT_SCALE", ""))
    # The national body's per-player charge, just before MPS_AWARDED_FLAG as EBUScore writes it.
    _optional(element, "P2P_CHARGE_RATE", event.extra.get("P2P_CHARGE_RATE", ""))
    _leaf(element, "MPS_AWARDED_FLAG", MASTER_POINTS_AWARDED if awarded else NO_MASTER_POINTS)


def _usebio_date(text: str) -> str:
    """DD/MM/YYYY, as every real USEBIO file writes it; an unrecognised date as given."""
    parts = date_parts(text)
    if parts is None:
        return text
    year, month, day = parts
    return f"{day:02d}/{month:02d}/{year:04d}"


class _Writer:
    def __init__(self, event: ParsedEvent) -> None:
        self.event = event
        self.pairs = event.pairs_by_key()

    def write_sections(self, event_element: ET.Element) -> None:
        sections = sections_in_order(self.event)
        named = sections_need_names(sections)
        for section in sections:
            container = ET.SubElement(event_element, "SECTION", SECTION_ID=section) if named else event_element
            pairs = [pair for pair in self.event.pairs if pair.section == section]
            if pairs:
                participants = ET.SubElement(container, "PARTICIPANTS")
                for pair in pairs:
                    self.write_pair(participants, pair)
            for board in self.event.boards:
                if board.section == section:
                    self.write_board(container, board)
            if named and self.event.sections_play_different_deals():
                # USEBIO's HANDSET is one per event: sections on different deals carry
                # each their own in their SECTION (read back by ClubScore; others skip it).
                handset = _handset([board for board in self.event.boards if board.section == section])
                if len(handset):
                    container.append(handset)

    def write_pair(self, participants: ET.Element, pair: ParsedPair) -> None:
        element = ET.SubElement(participants, "PAIR")
        _leaf(element, "PAIR_NUMBER", f"{pair.number}{pair.direction}")
        _optional(element, "DIRECTION", pair.direction)
        _optional(element, "BOARDS_PLAYED", None if pair.boards_played is None else str(pair.boards_played))
        _optional(element, "TOTAL_SCORE", two_decimals(pair.published_total))
        _optional(element, "PERCENTAGE", two_decimals(pair.published_percentage))
        _optional(element, "PLACE", pair.published_place)
        # A procedural penalty, where RealBridge writes ADJUSTMENT: after the figures, before
        # the awards (RULES 13: percentage points, or IMPs; negative).
        _optional(element, "ADJUSTMENT", two_decimals(pair.adjustment))
        if pair.masterpoints is not None:
            # As EBUScore and NZ Scorer write it: the award in the federation's unit and its type.
            awarded = ET.SubElement(element, "MASTER_POINTS")
            _leaf(awarded, "MASTER_POINTS_AWARDED", str(pair.masterpoints))
            _leaf(awarded, "MASTER_POINT_TYPE", pair.masterpoint_type)
        _optional(element, "HANDICAP", two_decimals(pair.handicap))
        for player in pair.players:
            player_element = ET.SubElement(element, "PLAYER")
            _leaf(player_element, "PLAYER_NAME", player.name)
            _optional(player_element, "NATIONAL_ID_NUMBER", player.national_id)

    def write_board(self, container: ET.Element, board: ParsedBoard) -> None:
        element = ET.SubElement(container, "BOARD")
        _leaf(element, "BOARD_NUMBER", str(board.number))
        datums = {line.published_datum for line in board.lines} - {None}
        if len(datums) == 1:
            # USEBIO has one Butler datum per board (Compscore3's BOARD_AVERAGE).
            _leaf(element, "BOARD_AVERAGE", str(datums.pop()))
        for line in board.lines:
            self.write_line(element, board, line)

    def write_line(self, board_element: ET.Element, board: ParsedBoard, line: ParsedLine) -> None:
        where = f"board {board.number} of section {board.section}"
        ns_pair = self.pair_number(line.ns_pair, board.section, where)
        ew_pair = self.pair_number(line.ew_pair, board.section, where)
        ns_element, ew_element = POINTS_ELEMENTS[self.event.scoring]
        ns_points, ew_points = (points_text(value, line.assigned) for value in (line.published_ns_points, line.published_ew_points))
        if line.score == "NP":
            fields = {
                "NS_PAIR_NUMBER": ns_pair, "EW_PAIR_NUMBER": ew_pair, "CONTRACT": line.contract,
                "PLAYED_BY": line.declarer, "LEAD": line.lead, "TRICKS": None if line.tricks is None else str(line.tricks),
                ns_element: ns_points, ew_element: ew_points,
            }
            text = " ".join(f'{name}="{_pseudo_attribute(value)}"' for name, value in fields.items() if value)
            board_element.append(_instruction(NOT_PLAYED, text))
            return
        element = ET.SubElement(board_element, "TRAVELLER_LINE")
        _leaf(element, "NS_PAIR_NUMBER", ns_pair)
        _leaf(element, "EW_PAIR_NUMBER", ew_pair)
        passed = line.score == "PASS"
        _optional(element, "CONTRACT", "PASS" if passed else line.contract)
        _optional(element, "PLAYED_BY", line.declarer)
        _optional(element, "LEAD", line.lead)
        _optional(element, "TRICKS", None if line.tricks is None else str(line.tricks))
        _leaf(element, "SCORE", "0" if passed else line.score)
        _optional(element, "NOTES", line.note)
        _optional(element, ns_element, ns_points)
        _optional(element, ew_element, ew_points)
        if line.assigned:
            element.append(_instruction(ASSIGNED_POINTS, ""))

    def pair_number(self, key: str, section: str, where: str) -> str:
        """ "7" in a Howell, "7NS" in a Mitchell (as Compscore3 writes), "(B) 7NS" for a
        pair of another section than the board's."""
        pair = self.pairs.get(key)
        if pair is None:
            raise FormatError(f"{where}: a traveller line names pair {key}, who is not in the event")
        number = f"{pair.number}{pair.direction}"
        return number if pair.section == section else f"({pair.section}) {number}"


def _handset(boards: list[ParsedBoard]) -> ET.Element:
    """The deals, one per board number (USEBIO's HANDSET is not per section)."""
    handset = ET.Element("HANDSET")
    written: set[int] = set()
    for board in boards:
        if not board.deal or board.number in written:
            continue
        hands = hands_by_seat(board.deal, f"board {board.number}")
        if len(hands) < 4:
            continue  # a partial deal: the reader takes only complete ones
        written.add(board.number)
        element = ET.SubElement(handset, "BOARD")
        _leaf(element, "BOARD_NUMBER", str(board.number))
        for direction in HAND_ORDER:
            hand = ET.SubElement(element, "HAND")
            _leaf(hand, "DIRECTION", direction.title())
            for suit_element, cards in zip(SUIT_ELEMENTS, hands[direction[0]].split(".")):
                _leaf(hand, suit_element, cards)
    return handset


def _pseudo_attribute(value: str) -> str:
    """A value between the instruction's quotes: no quote or markup characters."""
    return re.sub(r'["<>&]', "", value)


def _instruction(target: str, text: str) -> ET.Element:
    """A processing instruction: the text without "?>", which would end it early."""
    instruction = ET.ProcessingInstruction(target, without_control_characters(text).replace("?>", "? >"))
    return cast(ET.Element, instruction)  # an element to ElementTree, whatever its stubs say


def _leaf(parent: ET.Element, tag: str, text: str) -> ET.Element:
    element = ET.SubElement(parent, tag)
    element.text = without_control_characters(text)
    return element


def _optional(parent: ET.Element, tag: str, text: str | None) -> None:
    if text:
        _leaf(parent, tag, text)
