"""USEBIO 1.2 XML results files (EBU interchange format) into the parsed model.

Written by Compscore3, EBUScore, ScoreBridge, RealBridge, BBO Extractor, BriAn,
PairsScorer, Pianola and NZ Scorer, each with its own habits:

- PARTICIPANTS and BOARD sit directly in EVENT, in EVENT/SECTION (NZ Scorer, one per
  section) or in EVENT/SESSION/SECTION (EBUScore, PairsScorer).
- Pair numbers come as "1NS", "1 NS", "(B) 3 NS" (section in brackets) or plain "7";
  DIRECTION, when given, says which field.
- The event type is EVENT_TYPE (MP_PAIRS, CROSS_IMP_PAIRS, BUTLER_PAIRS) or PAIRS with
  BOARD_SCORING_METHOD, which NZ Scorer leaves out (its lines carry matchpoints).
- Deals, when present, are in a HANDSET (under USEBIO or EVENT/SESSION).

XML is parsed with defusedxml: the DOCTYPE these files carry (a SYSTEM id pointing at
the EBU's DTD) is accepted and never fetched; any entity declaration or external
reference is refused.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser

from .common import (
    decimal_or_none,
    int_or_none,
    normalise_score,
    pair_key,
    settle_movements,
)
from .errors import FormatError
from .model import ParsedBoard, ParsedEvent, ParsedLine, ParsedPair, ParsedPlayer

SCORING_BY_EVENT_TYPE = {
    "MP_PAIRS": "matchpoints",
    "CROSS_IMP_PAIRS": "cross_imps",
    "BUTLER_PAIRS": "butler",
}
SCORING_BY_METHOD = {
    "MATCH_POINTS": "matchpoints",
    "MATCHPOINTS": "matchpoints",
    "CROSS_IMPS": "cross_imps",
    "CROSS_IMP": "cross_imps",
    "BUTLER_IMPS": "butler",
    "BUTLER": "butler",
}
#: Per-line published points, by scoring: (NS element, EW element).
POINTS_ELEMENTS = {
    "matchpoints": ("NS_MATCH_POINTS", "EW_MATCH_POINTS"),
    "cross_imps": ("NS_CROSS_IMP_POINTS", "EW_CROSS_IMP_POINTS"),
    "butler": ("NS_BUTLER_POINTS", "EW_BUTLER_POINTS"),
}
NOT_PAIRS_EVENT_TYPES = re.compile(r"TEAM|INDIVIDUAL|KNOCKOUT", re.IGNORECASE)
SUPPORTED_TYPES_TEXT = (
    "MP_PAIRS, CROSS_IMP_PAIRS, BUTLER_PAIRS, or PAIRS scored by "
    "MATCH_POINTS, CROSS_IMPS or BUTLER_IMPS"
)
PAIR_NUMBER = re.compile(
    r"\s*(?:\(\s*(?P<section>[A-Za-z0-9]+)\s*\)\s*)?(?P<number>\d+)\s*(?P<direction>NS|EW|N-S|E-W)?\s*",
    re.IGNORECASE,
)
HAND_ORDER = ("NORTH", "EAST", "SOUTH", "WEST")
SUIT_ELEMENTS = ("SPADES", "HEARTS", "DIAMONDS", "CLUBS")
MODELLED_PAIR_ELEMENTS = {
    "PAIR_NUMBER", "DIRECTION", "PLAYER", "TOTAL_SCORE", "PERCENTAGE", "PLACE",
    "HANDICAP", "BOARDS_PLAYED",
}  # fmt: skip
MODELLED_EVENT_ELEMENTS = {"PROGRAM_NAME", "EVENT_DESCRIPTION", "DATE"}
#: Containers read elsewhere, contact details, and BBO play records (LIN_DATA).
NEVER_EXTRA_ELEMENTS = {
    "PARTICIPANTS", "BOARD", "SESSION", "SECTION", "TRAVELLER_LINE", "CONTACT", "LIN_DATA",
}  # fmt: skip
DEFAULT_SECTION = "A"


def parse_usebio(data: bytes) -> ParsedEvent:
    """Read a USEBIO 1.2 pairs results file; FormatError says what is wrong or unsupported."""
    root, lines = _parse_xml(data)
    if root.tag != "USEBIO":
        raise FormatError(f"the root element is <{root.tag}>, not <USEBIO>: not a USEBIO file")
    event_element = root.find("EVENT")
    if event_element is None:
        raise FormatError("the USEBIO file has no EVENT element")
    return _Reader(root, event_element, lines).read()


def _parse_xml(data: bytes) -> tuple[ET.Element, dict[int, int]]:
    """The element tree, and each element's source line (by id) for error messages."""
    if not data.strip():
        raise FormatError("the file is empty")
    builder = _LineRecordingTreeBuilder()
    parser = DefusedXMLParser(
        target=builder, forbid_dtd=False, forbid_entities=True, forbid_external=True
    )
    builder.expat = parser.parser
    try:
        parser.feed(data)
        root = parser.close()
    except ET.ParseError as error:
        line, column = error.position
        raise FormatError(f"line {line}, column {column}: not well-formed XML ({error.msg})") from None
    except DefusedXmlException as error:
        raise FormatError(
            f"refused XML: {error} (entity declarations and external references are not allowed)"
        ) from None
    return root, builder.lines


class _LineRecordingTreeBuilder(ET.TreeBuilder):
    def __init__(self) -> None:
        super().__init__()
        self.expat = None
        self.lines: dict[int, int] = {}

    def start(self, tag, attrs):  # type: ignore[no-untyped-def]
        element = super().start(tag, attrs)
        self.lines[id(element)] = self.expat.CurrentLineNumber
        return element


@dataclass
class _RawPair:
    element: ET.Element
    section: str
    number: str
    direction: str


class _Reader:
    def __init__(self, root: ET.Element, event: ET.Element, lines: dict[int, int]) -> None:
        self.root = root
        self.event_element = event
        self.lines = lines
        self.notes: list[str] = []

    def where(self, element: ET.Element) -> str:
        line = self.lines.get(id(element))
        return f"line {line}" if line else f"<{element.tag}>"

    def read(self) -> ParsedEvent:
        event_type, scoring = self.event_type_and_scoring()
        participants, board_elements = self.collect_containers()
        pairs = self.read_pairs(participants)
        event = ParsedEvent(
            source_format="usebio",
            program=_text(self.event_element, "PROGRAM_NAME"),
            event_type=event_type,
            scoring=scoring,
            title=_text(self.event_element, "EVENT_DESCRIPTION") or _text(self.event_element, "TITLE"),
            date=_text(self.event_element, "DATE"),
            club=_text(self.root, "CLUB/CLUB_NAME"),
            pairs=pairs,
            boards=[],
            notes=self.notes,
            extra=_leaf_texts(self.event_element, skip=MODELLED_EVENT_ELEMENTS),
        )
        event.boards = self.read_boards(board_elements, pairs, scoring)
        self.attach_deals(event.boards)
        settle_movements(event)
        return event

    # -- event type -------------------------------------------------------------------

    def event_type_and_scoring(self) -> tuple[str, str]:
        event_type = self.event_element.get("EVENT_TYPE", "").strip()
        upper = event_type.upper()
        if upper in SCORING_BY_EVENT_TYPE:
            return event_type, SCORING_BY_EVENT_TYPE[upper]
        if NOT_PAIRS_EVENT_TYPES.search(upper):
            raise FormatError(
                f"USEBIO event type {event_type!r} is a teams or individual event: "
                f"only pairs events are supported ({SUPPORTED_TYPES_TEXT})"
            )
        if upper != "PAIRS":
            raise FormatError(
                f"USEBIO event type {event_type!r} is not supported: supported are {SUPPORTED_TYPES_TEXT}"
            )
        method = _text(self.event_element, "BOARD_SCORING_METHOD").upper()
        if method:
            if method not in SCORING_BY_METHOD:
                raise FormatError(
                    f"USEBIO board scoring method {method!r} is not supported: supported are {SUPPORTED_TYPES_TEXT}"
                )
            return event_type, SCORING_BY_METHOD[method]
        return event_type, self.scoring_from_line_points()

    def scoring_from_line_points(self) -> str:
        """PAIRS without a scoring method (NZ Scorer): the lines' point elements say."""
        for line in self.event_element.iter("TRAVELLER_LINE"):
            for scoring, (ns_element, _) in POINTS_ELEMENTS.items():
                if line.find(ns_element) is not None:
                    self.notes.append(f"no BOARD_SCORING_METHOD: scoring taken from the lines' {ns_element}")
                    return scoring
        self.notes.append("no BOARD_SCORING_METHOD and no published line points: matchpoints assumed")
        return "matchpoints"

    # -- structure --------------------------------------------------------------------

    def collect_containers(self) -> tuple[list[tuple[ET.Element, str]], list[tuple[ET.Element, str]]]:
        """PARTICIPANTS and result BOARD elements with their section, wherever they sit."""
        participants: list[tuple[ET.Element, str]] = []
        boards: list[tuple[ET.Element, str]] = []

        def walk(element: ET.Element, section: str) -> None:
            for child in element:
                if child.tag == "PARTICIPANTS":
                    participants.append((child, section))
                elif child.tag == "BOARD":
                    boards.append((child, section))
                elif child.tag in ("SESSION", "SECTION"):
                    name = (child.get("SECTION_ID") or "").strip() if child.tag == "SECTION" else ""
                    walk(child, name or section)

        walk(self.event_element, DEFAULT_SECTION)
        if not participants or not any(p.findall("PAIR") for p, _ in participants):
            raise FormatError("the USEBIO event has no PARTICIPANTS with a PAIR")
        return participants, boards

    # -- pairs ------------------------------------------------------------------------

    def read_pairs(self, participants: list[tuple[ET.Element, str]]) -> list[ParsedPair]:
        raw_pairs = [
            self.raw_pair(pair_element, section)
            for container, section in participants
            for pair_element in container.findall("PAIR")
        ]
        self.one_field_where_directions_are_partial(raw_pairs)
        pairs: list[ParsedPair] = []
        seen: dict[str, ET.Element] = {}
        for raw in raw_pairs:
            key = pair_key(raw.section, raw.number, raw.direction)
            if key in seen:
                raise FormatError(
                    f"{self.where(raw.element)}: pair {key} appears twice in PARTICIPANTS "
                    f"(first at {self.where(seen[key])})"
                )
            seen[key] = raw.element
            pairs.append(self.parsed_pair(raw, key))
        return pairs

    def raw_pair(self, element: ET.Element, section: str) -> _RawPair:
        number_text = _text(element, "PAIR_NUMBER")
        parsed = self.parse_pair_number(number_text, element, "PAIR_NUMBER")
        direction = _direction(_text(element, "DIRECTION")) or parsed[2]
        return _RawPair(element, parsed[0] or section, parsed[1], direction)

    def parse_pair_number(self, text: str, element: ET.Element, what: str) -> tuple[str, str, str]:
        """(section or "", number, direction or "") from "1NS", "1 NS", "(B) 3 NS" or "7"."""
        match = PAIR_NUMBER.fullmatch(text)
        if not match:
            raise FormatError(f"{self.where(element)}: {what} {text!r} is not a pair number")
        return match["section"] or "", str(int(match["number"])), _direction(match["direction"] or "")

    def one_field_where_directions_are_partial(self, raw_pairs: list[_RawPair]) -> None:
        """A section where only some pairs carry a direction is one field (a Howell).

        Pianola's cross-IMP file marks the stationary pairs of its Howell NS or EW:
        those directions say where they sat, not which field they are ranked in.
        """
        by_section: dict[str, list[_RawPair]] = {}
        for raw in raw_pairs:
            by_section.setdefault(raw.section, []).append(raw)
        for section, members in by_section.items():
            with_direction = [raw for raw in members if raw.direction]
            if with_direction and len(with_direction) < len(members):
                numbers = ", ".join(f"{raw.number}{raw.direction}" for raw in with_direction)
                self.notes.append(
                    f"section {section}: only pairs {numbers} carry a DIRECTION: "
                    "read as one field (Howell), directions kept in the pair's extra"
                )
                for raw in with_direction:
                    raw.direction = ""

    def parsed_pair(self, raw: _RawPair, key: str) -> ParsedPair:
        element = raw.element
        where = f"{self.where(element)}: pair {key}"
        extra = _leaf_texts(element, skip=MODELLED_PAIR_ELEMENTS)
        written_direction = _direction(_text(element, "DIRECTION"))
        if written_direction and not raw.direction:
            extra["DIRECTION"] = written_direction
        return ParsedPair(
            key=key,
            section=raw.section,
            number=raw.number,
            direction=raw.direction,
            players=[
                ParsedPlayer(_text(player, "PLAYER_NAME"), _text(player, "NATIONAL_ID_NUMBER"))
                for player in element.findall("PLAYER")
            ],
            published_total=decimal_or_none(_text(element, "TOTAL_SCORE"), f"{where} TOTAL_SCORE"),
            published_percentage=decimal_or_none(_text(element, "PERCENTAGE"), f"{where} PERCENTAGE"),
            published_place=_text(element, "PLACE") or None,
            handicap=decimal_or_none(_text(element, "HANDICAP"), f"{where} HANDICAP"),
            boards_played=int_or_none(_text(element, "BOARDS_PLAYED"), f"{where} BOARDS_PLAYED"),
            extra=extra,
        )

    # -- boards -----------------------------------------------------------------------

    def read_boards(
        self, board_elements: list[tuple[ET.Element, str]], pairs: list[ParsedPair], scoring: str
    ) -> list[ParsedBoard]:
        resolver = _PairResolver(pairs)
        boards: list[ParsedBoard] = []
        seen: set[tuple[str, int]] = set()
        for element, section in board_elements:
            number_text = _text(element, "BOARD_NUMBER")
            if not number_text.isdigit():
                raise FormatError(f"{self.where(element)}: BOARD_NUMBER {number_text!r} is not a number")
            number = int(number_text)
            if (section, number) in seen:
                raise FormatError(f"{self.where(element)}: board {number} of section {section} appears twice")
            seen.add((section, number))
            lines = [
                self.read_line(line, section, number, resolver, scoring)
                for line in element.findall("TRAVELLER_LINE")
            ]
            average = _text(element, "BOARD_AVERAGE")
            if average:
                # Compscore3's Butler datum for the board: the same for every line.
                datum = int_or_none(average, f"{self.where(element)}: BOARD_AVERAGE")
                for line in lines:
                    line.published_datum = datum
            boards.append(
                ParsedBoard(
                    number=number,
                    section=section,
                    lines=lines,
                    extra=_leaf_texts(element, skip={"BOARD_NUMBER"}),
                )
            )
        if not any(board.lines for board in boards):
            raise FormatError("the USEBIO event has no BOARD with a TRAVELLER_LINE: no results to read")
        return boards

    def read_line(
        self,
        element: ET.Element,
        section: str,
        board: int,
        resolver: _PairResolver,
        scoring: str,
    ) -> ParsedLine:
        where = f"{self.where(element)}: board {board} TRAVELLER_LINE"
        ns_pair, ew_pair = (
            self.resolve_pair(element, role, section, resolver, where) for role in ("NS", "EW")
        )
        contract = _text(element, "CONTRACT")
        raw_score = _text(element, "SCORE")
        ns_points, ew_points = self.line_points(element, scoring, where)
        return ParsedLine(
            ns_pair=ns_pair,
            ew_pair=ew_pair,
            contract=contract,
            declarer=_text(element, "PLAYED_BY").upper()[:1],
            tricks=int_or_none(_text(element, "TRICKS"), f"{where} TRICKS"),
            lead=_text(element, "LEAD"),
            score=normalise_score(raw_score, contract, where),
            published_ns_points=ns_points,
            published_ew_points=ew_points,
            raw_score=raw_score,
            note=_text(element, "NOTES"),
        )

    def resolve_pair(
        self, element: ET.Element, role: str, section: str, resolver: _PairResolver, where: str
    ) -> str:
        tag = f"{role}_PAIR_NUMBER"
        text = _text(element, tag)
        if not text:
            raise FormatError(f"{where} has no {tag}")
        written_section, number, direction = self.parse_pair_number(text, element, tag)
        key = resolver.resolve(written_section or section, number, direction, role)
        if key is None:
            raise FormatError(f"{where} names pair {text.strip()} as {role}, who is not in the event")
        return key

    def line_points(self, element: ET.Element, scoring: str, where: str):  # type: ignore[no-untyped-def]
        for kind in (scoring, *POINTS_ELEMENTS):
            ns_element, ew_element = POINTS_ELEMENTS[kind]
            if element.find(ns_element) is not None or element.find(ew_element) is not None:
                if kind != scoring:
                    self.note_once(f"lines carry {ns_element} although the event is scored by {scoring}")
                return (
                    decimal_or_none(_text(element, ns_element), f"{where} {ns_element}"),
                    decimal_or_none(_text(element, ew_element), f"{where} {ew_element}"),
                )
        return None, None

    def note_once(self, note: str) -> None:
        if note not in self.notes:
            self.notes.append(note)

    # -- deals ------------------------------------------------------------------------

    def attach_deals(self, boards: list[ParsedBoard]) -> None:
        deals: dict[int, str] = {}
        for handset in self.root.iter("HANDSET"):
            for board in handset.findall("BOARD"):
                number_text = _text(board, "BOARD_NUMBER")
                deal = _deal_from_hands(board)
                if number_text.isdigit() and deal:
                    deals[int(number_text)] = deal
        for board in boards:
            board.deal = deals.get(board.number)


class _PairResolver:
    """Finds the pair a traveller line names, by section and number, then direction."""

    def __init__(self, pairs: list[ParsedPair]) -> None:
        self.by_number: dict[tuple[str, str], list[ParsedPair]] = {}
        for pair in pairs:
            self.by_number.setdefault((pair.section, pair.number), []).append(pair)

    def resolve(self, section: str, number: str, direction: str, role: str) -> str | None:
        candidates = self.by_number.get((section, number), [])
        if direction:
            candidates = [pair for pair in candidates if pair.direction in (direction, "")]
        if len(candidates) > 1:
            candidates = [pair for pair in candidates if pair.direction == role]
        return candidates[0].key if len(candidates) == 1 else None


def _deal_from_hands(board: ET.Element) -> str | None:
    """A HANDSET board's four hands as a PBN deal string "N:S.H.D.C E... S... W...", or None."""
    hands: dict[str, str] = {}
    for hand in board.findall("HAND"):
        direction = _text(hand, "DIRECTION").upper()
        suits = [_text(hand, suit).replace("10", "T").replace("-", "") for suit in SUIT_ELEMENTS]
        hands[direction] = ".".join(suits)
    if any(direction not in hands for direction in HAND_ORDER):
        return None
    return "N:" + " ".join(hands[direction] for direction in HAND_ORDER)


def _direction(text: str) -> str:
    compact = text.strip().upper().replace("-", "").replace("/", "")
    return compact if compact in ("NS", "EW") else ""


def _text(element: ET.Element, path: str) -> str:
    return (element.findtext(path) or "").strip()


def _leaf_texts(element: ET.Element, skip: set[str]) -> dict[str, str]:
    """Texts of the leaves under element (one level of nesting flattened), except skip."""
    texts: dict[str, str] = {}
    for child in element:
        if child.tag in skip or child.tag in NEVER_EXTRA_ELEMENTS:
            continue
        if len(child):
            for grandchild in child:
                if not len(grandchild):
                    texts[grandchild.tag] = (grandchild.text or "").strip()
        else:
            texts[child.tag] = (child.text or "").strip()
    return texts
