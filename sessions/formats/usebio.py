"""USEBIO 1.2 XML results files (EBU interchange format) into the parsed model.

Written by Compscore3, EBUScore, ScoreBridge, RealBridge, BBO Extractor, BriAn,
PairsScorer, Pianola and NZ Scorer, each with its own habits:

- PARTICIPANTS and BOARD sit directly in EVENT, in EVENT/SECTION (NZ Scorer, one per
  section) or in EVENT/SESSION/SECTION (EBUScore, PairsScorer).
- Pair numbers come as "1NS", "1 NS", "(B) 3 NS" (section in brackets) or plain "7";
  DIRECTION, when given, says which field.
- The event type is EVENT_TYPE (see EVENT_TYPE_SPELLINGS: MP_PAIRS, CROSS_IMP,
  CROSS_IMP_PAIRS, BUTLER_PAIRS ...) or PAIRS with BOARD_SCORING_METHOD, which NZ Scorer
  leaves out (its lines carry matchpoints). Both are matched whatever their case and
  whether words are joined by "_", "-" or a space.
- Deals, when present, are in a HANDSET (under USEBIO or EVENT/SESSION).
- ClubScore's own files carry its settings in a <?CLUBSCORE_SCORING ...?> processing
  instruction in EVENT (files written before 2026: a CLUBSCORE_SCORING element) and
  each line not played as a <?CLUBSCORE_NOT_PLAYED ...?> in its BOARD, and a line of
  points the director assigned with a <?CLUBSCORE_ASSIGNED_POINTS?> in its
  TRAVELLER_LINE; other programs skip instructions that are not theirs.

XML is parsed with defusedxml: the DOCTYPE these files carry (a SYSTEM id pointing at
the EBU's DTD) is accepted and never fetched; any entity declaration or external
reference is refused, and attribute defaults a DTD declares are not applied. A declared
encoding must be one the parser reads (UTF-8, UTF-16, ISO-8859-x, a Windows code page
...): "undefined" or "UTF-7" is refused as an unsupported encoding. No file may nest
elements deeper, or hold more elements or attributes, than MAX_XML_DEPTH,
MAX_XML_ELEMENTS (or one per BYTES_PER_ELEMENT of a larger file) and MAX_XML_ATTRIBUTES:
far beyond any results file, and what keeps
reading one bounded in time and memory (and ElementTree's recursive iter() safe).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from xml.parsers.expat import XMLParserType

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser

from sessions.formats.common import (
    MAX_PAIR_NUMBER,
    adjustment_or_none,
    board_number,
    check_lines,
    decimal_or_none,
    in_range,
    int_or_none,
    is_number,
    normalise_score,
    pair_key,
    settle_movements,
    shown,
    text_encoding,
    unsupported_encoding,
)
from sessions.formats.conventions import CONVENTIONS_KEY
from sessions.formats.errors import FormatError
from sessions.formats.model import ParsedBoard, ParsedEvent, ParsedLine, ParsedPair, ParsedPlayer
from sessions.formats.teams import ParsedTeamEvent, is_usebio_teams, read_usebio_teams

#: The pairs event types real programs write, by scoring, the one ClubScore writes first.
#: The USEBIO 1.2 DTD lists MP_PAIRS, BUTLER_PAIRS and CROSS_IMP, which Compscore3
#: writes; the EBU's sample file (Pianola) writes CROSS_IMP_PAIRS; CROSS_IMPS is the
#: BOARD_SCORING_METHOD spelling, also met as an event type. Matched by event_type_key:
#: case, "_", "-" and spaces do not matter ("Cross-IMP", "cross imp pairs").
EVENT_TYPE_SPELLINGS = {
    "matchpoints": ("MP_PAIRS", "MATCHPOINT_PAIRS", "MATCH_POINT_PAIRS", "MATCHPOINTS_PAIRS"),
    "cross_imps": ("CROSS_IMP", "CROSS_IMP_PAIRS", "CROSS_IMPS", "CROSS_IMPS_PAIRS"),
    "butler": ("BUTLER_PAIRS", "BUTLER_IMP_PAIRS", "BUTLER_IMPS_PAIRS"),
}
#: BOARD_SCORING_METHOD of an EVENT_TYPE="PAIRS" file, matched the same way.
METHOD_SPELLINGS = {
    "matchpoints": ("MATCH_POINTS", "MATCHPOINTS", "MP", "MPS"),
    "cross_imps": ("CROSS_IMPS", "CROSS_IMP"),
    "butler": ("BUTLER_IMPS", "BUTLER", "BUTLER_IMP"),
}


def event_type_key(text: str) -> str:
    """ "Cross-IMP pairs", "CROSS_IMP_PAIRS" and "cross imp pairs" all give "CROSSIMPPAIRS"."""
    return re.sub(r"[\s_\-]+", "", text).upper()


SCORING_BY_EVENT_TYPE = {
    event_type_key(spelling): scoring for scoring, spellings in EVENT_TYPE_SPELLINGS.items() for spelling in spellings
}
SCORING_BY_METHOD = {
    event_type_key(spelling): scoring for scoring, spellings in METHOD_SPELLINGS.items() for spelling in spellings
}
#: Per-line published points, by scoring: (NS element, EW element).
POINTS_ELEMENTS = {
    "matchpoints": ("NS_MATCH_POINTS", "EW_MATCH_POINTS"),
    "cross_imps": ("NS_CROSS_IMP_POINTS", "EW_CROSS_IMP_POINTS"),
    "butler": ("NS_BUTLER_POINTS", "EW_BUTLER_POINTS"),
}
NOT_PAIRS_EVENT_TYPES = re.compile(r"TEAM|INDIVIDUAL|KNOCKOUT", re.IGNORECASE)
SUPPORTED_TYPES_TEXT = (
    "MP_PAIRS, CROSS_IMP (or CROSS_IMP_PAIRS), BUTLER_PAIRS, or PAIRS scored by "
    "MATCH_POINTS, CROSS_IMPS or BUTLER_IMPS"
)
PAIR_NUMBER = re.compile(
    r"\s*(?:\(\s*(?P<section>[A-Za-z0-9]+)\s*\)\s*)?(?P<number>[0-9]+)\s*(?P<direction>NS|EW|N-S|E-W)?\s*",
    re.IGNORECASE,
)
#: The XML declaration's encoding, read before the parser is given the file.
XML_DECLARED_ENCODING = re.compile(rb"""\s*<\?xml[^>]*?encoding\s*=\s*["']([^"']*)["']""")
#: Encodings the XML parser reads itself; any other must give one character per byte.
EXPAT_ENCODINGS = {"utf-8", "utf-16", "iso8859-1", "ascii"}
MAX_XML_DEPTH = 64
MAX_XML_ELEMENTS = 100_000
#: A larger file may hold one element for this many of its bytes: a real file's elements
#: are this large or more (a national simultaneous pairs of 72,000 traveller lines: 21 MB,
#: 570,000 elements), so reading one stays within a few times its size in memory, where
#: a file of tiny elements ("<B/>" four bytes each) is refused.
BYTES_PER_ELEMENT = 25
#: Attributes ("=" signs) a file may hold: a real one has a few dozen. Counted before
#: parsing, since the parser builds each element's attributes before anyone sees them.
MAX_XML_ATTRIBUTES = 20_000
HAND_ORDER = ("NORTH", "EAST", "SOUTH", "WEST")
#: ClubScore's processing instructions: its settings (formats/conventions.py) in EVENT,
#: and in a BOARD each line not played (a reader expects a number in every SCORE, and
#: NZ Scorer leaves such lines out).
NOT_PLAYED = "CLUBSCORE_NOT_PLAYED"
#: In a TRAVELLER_LINE: its published points are the director's own (ParsedLine.assigned);
#: other readers see an adjusted SCORE with its points, as Compscore3 writes one.
ASSIGNED_POINTS = "CLUBSCORE_ASSIGNED_POINTS"
CLUBSCORE_INSTRUCTIONS = (CONVENTIONS_KEY, NOT_PLAYED, ASSIGNED_POINTS)
NOT_PLAYED_FIELDS = {
    "NS_PAIR_NUMBER", "EW_PAIR_NUMBER", "CONTRACT", "PLAYED_BY", "LEAD", "TRICKS", *(name for pair in POINTS_ELEMENTS.values() for name in pair)
}
PSEUDO_ATTRIBUTE = re.compile(r'([A-Z_]+)="([^"<>&]*)"')
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
    root, builder = _parse_xml(data)
    if root.tag != "USEBIO":
        raise FormatError(f"the root element is <{root.tag}>, not <USEBIO>: not a USEBIO file")
    event_element = root.find("EVENT")
    if event_element is None:
        raise FormatError("the USEBIO file has no EVENT element")
    return _Reader(root, event_element, builder.lines, builder.instructions).read()


def parse_usebio_teams(data: bytes) -> ParsedTeamEvent:
    """Read a USEBIO 1.2 teams results file (EVENT_TYPE TEAMS); FormatError otherwise."""
    root, _ = _parse_xml(data)
    event_element = root.find("EVENT") if root.tag == "USEBIO" else None
    if event_element is None:
        raise FormatError("not a USEBIO file with an EVENT")
    if not is_usebio_teams(event_element):
        raise FormatError(f"USEBIO event type {shown(event_element.get('EVENT_TYPE', ''))} is not a teams event")
    return read_usebio_teams(root, event_element)


def is_usebio_teams_file(data: bytes) -> bool:
    """Whether this USEBIO file is a teams event (False for anything unreadable: the pairs reader says why)."""
    try:
        root, _ = _parse_xml(data)
    except FormatError:
        return False
    event_element = root.find("EVENT")
    return root.tag == "USEBIO" and event_element is not None and is_usebio_teams(event_element)


def _parse_xml(data: bytes) -> tuple[ET.Element, _LineRecordingTreeBuilder]:
    """The element tree, and the builder that read it: each element's source line (by
    id) for error messages, and ClubScore's processing instructions."""
    if not data.strip():
        raise FormatError("the file is empty")
    encoding = _check_declared_encoding(data)
    if data.count(b"=") > MAX_XML_ATTRIBUTES:
        raise FormatError(
            f"the file holds more than {MAX_XML_ATTRIBUTES:,} attributes: ClubScore reads the results "
            "of one session, not more"
        )
    builder = _LineRecordingTreeBuilder(max(MAX_XML_ELEMENTS, len(data) // BYTES_PER_ELEMENT))
    parser = DefusedXMLParser(
        target=builder, forbid_dtd=False, forbid_entities=True, forbid_external=True
    )
    # Only the attributes the file writes: defaults a DTD declares (<!ATTLIST B a1 CDATA
    # "x" ...>) would be added to every <B>, a thousand attributes for a few bytes each.
    parser.parser.specified_attributes = True
    builder.expat = parser.parser
    try:
        parser.feed(data)
        root = parser.close()
    except FormatError:
        raise
    except (UnicodeError, LookupError):
        raise unsupported_encoding(encoding or "unknown") from None
    except ET.ParseError as error:
        line, column = error.position
        raise FormatError(f"line {line}, column {column}: not well-formed XML ({error.msg})") from None
    except DefusedXmlException as error:
        raise FormatError(
            f"refused XML: {error} (entity declarations and external references are not allowed)"
        ) from None
    return root, builder


def _check_declared_encoding(data: bytes) -> str | None:
    """The encoding the XML declaration names; FormatError when the parser cannot read it."""
    body = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    declared = XML_DECLARED_ENCODING.match(body[:1024])
    if declared is None:
        return None
    name = declared.group(1).decode("ascii", errors="replace")
    codec = text_encoding(name)
    if codec not in EXPAT_ENCODINGS and len(bytes(range(256)).decode(codec, errors="replace")) != 256:
        raise unsupported_encoding(name)  # multi-byte (Shift-JIS, Big5 ...): the parser refuses them
    return name


class _LineRecordingTreeBuilder(ET.TreeBuilder):
    """Records each element's line; refuses nesting or element counts no results file has."""

    def __init__(self, max_elements: int) -> None:
        super().__init__()
        self.max_elements = max_elements
        self.expat: XMLParserType | None = None  # set by the reader once its parser exists
        self.lines: dict[int, int] = {}
        self.depth = 0
        self.open: list[ET.Element] = []
        #: ClubScore's processing instructions (target, data, the element they sit in,
        #: and how many children it had before them).
        self.instructions: list[tuple[str, str, ET.Element | None, int]] = []

    def start(self, tag, attrs):
        line = self.expat.CurrentLineNumber if self.expat else 0
        self.depth += 1
        if self.depth > MAX_XML_DEPTH:
            raise FormatError(f"line {line}: elements are nested more than {MAX_XML_DEPTH} deep: not a USEBIO file")
        if len(self.lines) >= self.max_elements:
            raise FormatError(
                f"line {line}: the file holds more than {self.max_elements:,} elements: "
                "ClubScore reads the results of one session, not more"
            )
        element = super().start(tag, attrs)
        self.lines[id(element)] = line
        self.open.append(element)
        return element

    def end(self, tag):
        self.depth -= 1
        if self.open:
            self.open.pop()
        return super().end(tag)

    def pi(self, target: str, data: str | None = None, /) -> ET.Element:
        """Keep ClubScore's own instructions (other programs' are not ours to read), at
        most one per element the file may hold."""
        if target in CLUBSCORE_INSTRUCTIONS and len(self.instructions) < self.max_elements:
            parent = self.open[-1] if self.open else None
            self.instructions.append((target, data or "", parent, 0 if parent is None else len(parent)))
        return super().pi(target, data)


@dataclass
class _RawPair:
    element: ET.Element
    section: str
    number: str
    direction: str


class _Reader:
    def __init__(
        self, root: ET.Element, event: ET.Element, lines: dict[int, int],
        instructions: list[tuple[str, str, ET.Element | None, int]],
    ) -> None:
        self.root = root
        self.event_element = event
        self.lines = lines
        self.instructions = instructions
        self.assigned_lines = {id(parent) for target, _, parent, _ in instructions if target == ASSIGNED_POINTS}
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
        carried = [data.strip() for target, data, _, _ in self.instructions if target == CONVENTIONS_KEY]
        if carried:  # our settings; a file of before 2026 has them in an element (read above)
            event.extra[CONVENTIONS_KEY] = ";".join(carried)
        event.boards = self.read_boards(board_elements, pairs, scoring)
        self.attach_deals(event.boards)
        check_lines(event)
        settle_movements(event)
        return event

    # -- event type -------------------------------------------------------------------

    def event_type_and_scoring(self) -> tuple[str, str]:
        event_type = self.event_element.get("EVENT_TYPE", "").strip()
        key = event_type_key(event_type)
        if key in SCORING_BY_EVENT_TYPE:
            return event_type, SCORING_BY_EVENT_TYPE[key]
        if NOT_PAIRS_EVENT_TYPES.search(event_type):
            raise FormatError(
                f"USEBIO event type {shown(event_type)} is a teams or individual event: "
                f"only pairs events are supported ({SUPPORTED_TYPES_TEXT})"
            )
        if key != "PAIRS":
            raise FormatError(
                f"USEBIO event type {shown(event_type)} is not supported: supported are {SUPPORTED_TYPES_TEXT}"
            )
        method = _text(self.event_element, "BOARD_SCORING_METHOD")
        if method:
            if event_type_key(method) not in SCORING_BY_METHOD:
                raise FormatError(
                    f"USEBIO board scoring method {shown(method.upper())} is not supported: "
                    f"supported are {SUPPORTED_TYPES_TEXT}"
                )
            return event_type, SCORING_BY_METHOD[event_type_key(method)]
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

        def walk(element: ET.Element, section: str) -> None:  # no deeper than MAX_XML_DEPTH
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
        number = in_range(match["number"], "pair", MAX_PAIR_NUMBER, self.where(element))
        return match["section"] or "", str(number), _direction(match["direction"] or "")

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
            adjustment=adjustment_or_none(decimal_or_none(_text(element, "ADJUSTMENT"), f"{where} ADJUSTMENT")),
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
            number = board_number(_text(element, "BOARD_NUMBER"), self.where(element), label="BOARD_NUMBER")
            if (section, number) in seen:
                raise FormatError(f"{self.where(element)}: board {number} of section {section} appears twice")
            seen.add((section, number))
            lines = [
                self.read_line(line, section, number, resolver, scoring)
                for line in self.traveller_lines(element)
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

    def traveller_lines(self, board: ET.Element) -> list[ET.Element]:
        """The board's TRAVELLER_LINEs and, in their places among them, its lines not
        played, which ClubScore writes as instructions (<?CLUBSCORE_NOT_PLAYED
        NS_PAIR_NUMBER="2NS" EW_PAIR_NUMBER="5EW"?>, with whatever else the line held)
        since a reader expects a number in every SCORE: as TRAVELLER_LINEs with SCORE NP."""
        placed = [(index, 1, child) for index, child in enumerate(board) if child.tag == "TRAVELLER_LINE"]
        for target, data, parent, before in self.instructions:
            if target != NOT_PLAYED or parent is not board:
                continue
            line = ET.Element("TRAVELLER_LINE")
            for name, value in PSEUDO_ATTRIBUTE.findall(data):
                if name in NOT_PLAYED_FIELDS:
                    ET.SubElement(line, name).text = value
            ET.SubElement(line, "SCORE").text = "NP"
            self.lines[id(line)] = self.lines.get(id(board), 0)
            placed.append((before, 0, line))
        return [line for _, _, line in sorted(placed, key=lambda item: item[:2])]

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
            assigned=id(element) in self.assigned_lines,
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

    def line_points(self, element: ET.Element, scoring: str, where: str):
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
        """Deals from the HANDSETs: a SECTION's own HANDSET (sections on different deals,
        as ClubScore writes them) for its boards, else the event's."""
        own: dict[str, dict[int, str]] = {}
        in_sections: set[int] = set()
        for section in self.root.iter("SECTION"):
            name = (section.get("SECTION_ID") or "").strip()
            for handset in section.findall("HANDSET"):
                in_sections.add(id(handset))
                own.setdefault(name, {}).update(self.read_handset(handset))
        shared: dict[int, str] = {}
        for handset in self.root.iter("HANDSET"):
            if id(handset) not in in_sections:
                shared.update(self.read_handset(handset))
        for board in boards:
            board.deal = own.get(board.section, {}).get(board.number) or shared.get(board.number)

    def read_handset(self, handset: ET.Element) -> dict[int, str]:
        deals: dict[int, str] = {}
        for element in handset.findall("BOARD"):
            number_text = _text(element, "BOARD_NUMBER")
            deal = _deal_from_hands(element)
            if is_number(number_text) and deal:
                deals[board_number(number_text, self.where(element), label="BOARD_NUMBER")] = deal
        return deals


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
