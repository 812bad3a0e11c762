"""USEBIO files checked against what the real files in tests/data write.

USEBIO 1.2 readers (cobalt, the EBU's, club websites) are written against the files
programs produce, so an export is held to those files rather than to the DTD alone.
Everything here is derived from the real files (``REFERENCE``), never listed by hand:

- order: for each element, two children that every real file writes in one order
  (never the other) must come in that order;
- children: an element may hold only children some real file puts in it, and must
  hold those every real file puts in every one of them (but NOT_HELD);
- values: a leaf's value must have a shape (a number, or digits as 9, capitals as A,
  small letters as a) some real file gives it, and an EVENT_TYPE or Version attribute
  a value some real file gives it; free text (names, titles) is not compared;
- ``unlinked_pair_numbers``: every NS_PAIR_NUMBER / EW_PAIR_NUMBER of a line is the
  PAIR_NUMBER of a pair, as a reader that links them by that string (cobalt) needs;
- processing instructions and comments are not elements: readers skip them.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import defaultdict
from functools import cache

from tests.formats.data_files import DATA_DIR, UNSUPPORTED_USEBIO, USEBIO_FILES

REFERENCE = [DATA_DIR / "usebio" / name for name in USEBIO_FILES if name != UNSUPPORTED_USEBIO] + [
    DATA_DIR / "teams" / "ebu_example_multiple_teams_teamsscorer.xml"
]
#: What every real file writes but ClubScore does not hold: the national body's number
#: for the club, and a program version (ClubScore has no release numbers).
NOT_HELD = {"CLUB_ID_NUMBER", "PROGRAM_VERSION"}
FREE_TEXT = {"PLAYER_NAME", "CLUB_NAME", "EVENT_DESCRIPTION", "TITLE", "PROGRAM_NAME", "PROGRAM_VERSION", "NOTES"}


def shape(value: str) -> str:
    """Any number -> "number"; "2NS" -> "9A", "A6040" -> "A9", "21/07/2022" -> "9/9/9"."""
    if re.fullmatch(r"-?[0-9]+(?:\.[0-9]+)?", value.strip()):
        return "number"
    value = re.sub(r"[0-9]+", "9", value.strip())
    value = re.sub(r"[A-Z]+", "A", value)
    return re.sub(r"[a-z]+", "a", value)


class Reference:
    """What the real files write: orders, children, value shapes and attribute values."""

    def __init__(self, roots: list[ET.Element]) -> None:
        self.before: dict[str, set[tuple[str, str]]] = defaultdict(set)
        self.children: dict[str, set[str]] = defaultdict(set)
        self.always: dict[str, set[str]] = {}
        self.shapes: dict[str, set[str]] = defaultdict(set)
        self.attributes: dict[tuple[str, str], set[str]] = defaultdict(set)
        for root in roots:
            for element in root.iter():
                kids = [child.tag for child in element]
                for index, first in enumerate(kids):
                    for second in kids[index + 1:]:
                        if first != second:
                            self.before[element.tag].add((first, second))
                self.children[element.tag].update(kids)
                self.always[element.tag] = self.always.get(element.tag, set(kids)) & set(kids)
                if not kids:
                    self.shapes[element.tag].add(shape(element.text or ""))
                for name, value in element.attrib.items():
                    self.attributes[(element.tag, name)].add(value)

    def attribute_values(self, name: str) -> set[str]:
        """Every value the real files give an attribute, on whichever element (Pianola
        writes its event type on PARTICIPANTS and BOARD, Compscore3 on EVENT)."""
        return {value for (_, attribute), values in self.attributes.items() if attribute == name for value in values}

    def problems(self, root: ET.Element) -> list[str]:
        found: list[str] = []
        for element in root.iter():
            tag = element.tag
            kids = [child.tag for child in element]
            for kid in sorted(set(kids) - self.children.get(tag, set())):
                found.append(f"{tag} holds {kid}, which no real file puts there")
            for kid in sorted(self.always.get(tag, set()) - set(kids) - NOT_HELD):
                found.append(f"{tag} without {kid}, which every real file writes")
            for index, first in enumerate(kids):
                for second in kids[index + 1:]:
                    if (first, second) not in self.before[tag] and (second, first) in self.before[tag]:
                        found.append(f"{tag}: {first} before {second}, where the real files write {second} first")
            if not kids and tag not in FREE_TEXT and tag in self.shapes:
                if shape(element.text or "") not in self.shapes[tag]:
                    found.append(f"{tag} {element.text!r}: no real file writes a value of that shape")
            for name, value in element.attrib.items():
                known = self.attributes.get((tag, name))
                if known is None:
                    found.append(f"{tag} has attribute {name}, which no real file writes")
                elif name in ("EVENT_TYPE", "Version") and value not in self.attribute_values(name):
                    found.append(f"{tag} {name}={value!r}: the real files write {sorted(self.attribute_values(name))}")
        return sorted(set(found))


@cache
def reference() -> Reference:
    return Reference([ET.fromstring(path.read_bytes()) for path in REFERENCE])


def usebio_problems(data: bytes) -> list[str]:
    """How the file differs from what the real files write (empty: it reads as theirs)."""
    return reference().problems(ET.fromstring(data)) + unlinked_pair_numbers(data)


def unlinked_pair_numbers(data: bytes) -> list[str]:
    """Traveller lines naming a PAIR_NUMBER no pair of their section has (pairs events)."""
    root = ET.fromstring(data)
    problems = []
    for container in root.iter():
        participants = container.find("PARTICIPANTS")
        if participants is None or participants.find("PAIR") is None:
            continue
        numbers = {pair.findtext("PAIR_NUMBER", "") for pair in participants.iter("PAIR")}
        for board in container.findall("BOARD"):
            for line in board.findall("TRAVELLER_LINE"):
                for element in ("NS_PAIR_NUMBER", "EW_PAIR_NUMBER"):
                    number = line.findtext(element, "")
                    if number not in numbers and not number.startswith("("):
                        problems.append(f"board {board.findtext('BOARD_NUMBER')}: {element} {number!r} is no PAIR_NUMBER")
    return sorted(set(problems))
