"""A checker for PBN 2.1 *export format*, written from the standard (doc/pbn_v21.txt).

``export_problems(data)`` lists every rule of the export format a file breaks, each
naming the line; an empty list is a file any PBN program should read. It checks what
the standard asks of a file written under program control:

- 2.2 / 2.3: ISO 8859-1, no control characters but the CRLF that ends every line
  (no tabs), at most 255 characters a line counting the CRLF;
- 3: games apart by one empty line (none before the first);
- 3.3: each tag alone on its line, ``[Name "value"]`` with one space;
- 3.4: the 15 mandatory tags first, in the standard's order, each once; then the
  supplemental tags sorted by name, then the auction and play sections, then the
  supplemental sections (tables) sorted by name (3.1);
- 3.4.3-3.4.15: Date ``YYYY.MM.DD`` (``?`` for unknown digits), Board a positive
  integer (never ``?`` or ``""``: endplay, for one, stops at them), Dealer, Vulnerable (export spelling: None, NS, EW, All), Deal from the
  dealer with each suit's ranks in descending order, Declarer, Contract (``Pass`` or
  ``<k><denomination><risk>``, upper case) and Result (tricks 0-13; all three empty
  for a passed-out board); ``?`` for an unknown value, ``""`` for one that does not apply;
- 5.1 / 5.2: table column names (``[+-]name[\\width[L|R]]``, none empty or twice),
  one row a line with one element a column, elements apart by single spaces (unless a
  column sets a width), each a string or a section token; Contract, Declarer and
  Result columns as in the tags, ``-`` (irrelevant) and ``?`` (unknown) allowed.

It does not check what the standard leaves to the program (the Scoring tag's value,
user-defined columns, the meaning of the figures).
"""

from __future__ import annotations

import re

MANDATORY = (
    "Event", "Site", "Date", "Board", "West", "North", "East", "South",
    "Dealer", "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result",
)  # fmt: skip
MAX_LINE = 255  # characters, the CRLF included (2.3)
TAG = re.compile(r'\[([A-Z][A-Za-z0-9_]*) "((?:[^"\\]|\\.)*)"\]')
DATE = re.compile(r"[0-9?]{4}\.[0-9?]{2}\.[0-9?]{2}")
SEAT = re.compile(r"[WNES]")
CONTRACT = re.compile(r"Pass|[1-7](?:S|H|D|C|NT)(?:X|XX)?")
DECLARER = re.compile(r"\^?[WNES]")
RESULT = re.compile(r"\^?(?:[0-9]|1[0-3])")
HAND = re.compile(r"-|(?:A?K?Q?J?T?9?8?7?6?5?4?3?2?\.){3}A?K?Q?J?T?9?8?7?6?5?4?3?2?")
VULNERABLE = ("None", "NS", "EW", "All")
COLUMN = re.compile(r"[+-]?([^;\\]+)(?:\\[0-9]+[LR]?)?")
SECTION_TOKEN = re.compile(r'[!#$&\'()*+,\-./0-9:<=>?@A-Z\\^_`a-z|~]+')  # ASCII 33-126 but [ ] { } ; " %
STRING_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"')
ELEMENT = re.compile(rf'{STRING_TOKEN.pattern}|{SECTION_TOKEN.pattern}')
SEATS = "NESW"


def export_problems(data: bytes) -> list[str]:
    """Every export-format rule the file breaks, each with its line number."""
    problems: list[str] = []
    try:
        text = data.decode("iso-8859-1")
    except UnicodeDecodeError:  # pragma: no cover - every byte is Latin-1
        return ["not ISO 8859-1"]
    if "charset=UTF-8" in text[:300]:
        problems.append("declares UTF-8: the standard's character set is ISO 8859-1")
    if not text.endswith("\r\n"):
        problems.append("the last line does not end in CRLF")
    lines = text.split("\r\n")[:-1] if text.endswith("\r\n") else text.split("\r\n")
    for number, line in enumerate(lines, start=1):
        if "\r" in line or "\n" in line:
            problems.append(f"line {number}: a line end that is not CRLF")
        if len(line) + 2 > MAX_LINE:
            problems.append(f"line {number}: {len(line) + 2} characters with its CRLF (at most {MAX_LINE})")
        if re.search("[\x00-\x1f\x7f-\x9f]", line.replace("\r", "").replace("\n", "")):
            problems.append(f"line {number}: a control character (a tab, or a byte 127-159)")
    games = _games(lines, problems)
    for game in games:
        problems.extend(_game_problems(game))
    if not games:
        problems.append("no game")
    return problems


def _games(lines: list[str], problems: list[str]) -> list[list[tuple[int, str]]]:
    """The games as (line number, line) lists, escape lines left out."""
    games: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] = []
    blank_before = False
    for number, line in enumerate(lines, start=1):
        if line.startswith("%"):
            continue
        if line == "":
            if not current:
                problems.append(f"line {number}: an empty line that ends no game")
            else:
                games.append(current)
                current = []
            blank_before = True
            continue
        if line.strip() == "":
            problems.append(f"line {number}: a line of spaces (export format ends a game with an empty line)")
        if not current and games and not blank_before:  # pragma: no cover - a game cannot start otherwise
            problems.append(f"line {number}: a game not preceded by an empty line")
        current.append((number, line))
        blank_before = False
    if current:
        games.append(current)
    return games


def _game_problems(game: list[tuple[int, str]]) -> list[str]:
    problems: list[str] = []
    tags: list[tuple[int, str, str]] = []  # (line, name, value)
    tables: dict[str, list[tuple[int, str]]] = {}
    in_section: str | None = None
    for number, line in game:
        tag = TAG.fullmatch(line)
        if tag:
            name, value = tag.group(1), tag.group(2)
            tags.append((number, name, value))
            in_section = name if name in ("Auction", "Play") or (name.endswith("Table") and name != "Table") else None
            if in_section and in_section.endswith("Table"):
                tables[name] = []
            continue
        if line.startswith("["):
            problems.append(f"line {number}: a tag not written [Name \"value\"] alone on its line: {line[:40]!r}")
        elif in_section is None:
            problems.append(f"line {number}: data outside any section: {line[:40]!r}")
        elif in_section in tables:
            tables[in_section].append((number, line))
    names = [name for _, name, _ in tags]
    first = game[0][0]
    if tuple(names[: len(MANDATORY)]) != MANDATORY:
        problems.append(f"game at line {first}: the mandatory tags are {names[:len(MANDATORY)]}, not {list(MANDATORY)}")
    for name in sorted(set(names)):
        if names.count(name) > 1:
            problems.append(f"game at line {first}: tag {name} given {names.count(name)} times")
    rest = names[len(MANDATORY):]
    problems.extend(_order_problems(first, rest))
    values = {name: value for _, name, value in tags}
    problems.extend(_value_problems(first, values))
    for number, name, value in tags:
        if name in tables:
            problems.extend(_table_problems(number, name, value, tables[name]))
    return problems


def _order_problems(first: int, rest: list[str]) -> list[str]:
    """Supplemental tags (sorted), then Auction, then Play, then tables (sorted) (3.1, 3.4)."""
    def group(name: str) -> int:
        if name == "Auction":
            return 1
        if name == "Play":
            return 2
        if name == "Note":
            return -1  # belongs to the section it follows
        return 3 if name.endswith("Table") and name != "Table" else 0

    ordered = [name for name in rest if group(name) >= 0]
    expected = sorted(ordered, key=lambda name: (group(name), name if group(name) in (0, 3) else ""))
    if ordered != expected:
        return [f"game at line {first}: tags after the mandatory ones are {ordered}, the standard's order is {expected}"]
    return []


def _value_problems(first: int, values: dict[str, str]) -> list[str]:
    where = f"game at line {first}"
    problems: list[str] = []

    def check(name: str, ok: bool) -> None:
        if name in values and not ok:
            problems.append(f"{where}: {name} {values[name]!r} is not as the standard writes it")

    def allowed(name: str, pattern: re.Pattern[str]) -> bool:
        value = values.get(name, "")
        return value in ("", "?") or pattern.fullmatch(value) is not None

    check("Date", allowed("Date", DATE))
    board = values.get("Board", "")
    check("Board", board.isdigit() and int(board) > 0 and not board.startswith("0"))  # what readers need
    check("Dealer", allowed("Dealer", SEAT))
    check("Vulnerable", values.get("Vulnerable", "") in ("", "?", *VULNERABLE))
    check("Deal", _deal_ok(values.get("Deal", ""), values.get("Dealer", "")))
    check("Declarer", allowed("Declarer", DECLARER))
    check("Contract", allowed("Contract", CONTRACT))
    check("Result", allowed("Result", RESULT))
    if values.get("Contract") == "Pass" and (values.get("Declarer") or values.get("Result")):
        problems.append(f"{where}: a passed-out board has Declarer and Result empty")
    return problems


def _deal_ok(deal: str, dealer: str) -> bool:
    """"" or "?", or "<dealer>:<hand> <hand> <hand> <hand>" with ranks in descending order."""
    if deal in ("", "?"):
        return True
    first, sep, hands_text = deal.partition(":")
    hands = hands_text.split(" ")
    if not sep or first != dealer or len(hands) != 4 or not all(HAND.fullmatch(hand) for hand in hands):
        return False
    cards = [f"{suit}{rank}" for hand in hands if hand != "-" for suit, ranks in zip("SHDC", hand.split("."))
             for rank in ranks]
    return len(cards) == len(set(cards)) and all(len("".join(hand.split("."))) == 13 for hand in hands if hand != "-")


def _table_problems(number: int, name: str, header: str, rows: list[tuple[int, str]]) -> list[str]:
    problems: list[str] = []
    columns: list[str] = []
    widths = False
    for token in header.split(";"):
        match = COLUMN.fullmatch(token)
        if match is None or not match.group(1).strip():
            problems.append(f"line {number}: {name} column name {token!r} is not a column name token")
            continue
        widths = widths or "\\" in token
        columns.append(match.group(1))
    for column in sorted(set(columns)):
        if columns.count(column) > 1:
            problems.append(f"line {number}: {name} names column {column} twice")
    for row_number, line in rows:
        elements = ELEMENT.findall(line)
        if ELEMENT.sub("", line).strip(" ") or (not widths and " ".join(elements) != line):
            problems.append(f"line {row_number}: {name} row is not elements apart by single spaces: {line[:40]!r}")
            continue
        if len(elements) != len(columns):
            problems.append(f"line {row_number}: {name} row has {len(elements)} elements for {len(columns)} columns")
            continue
        row = dict(zip(columns, elements))
        for column, pattern in (("Contract", CONTRACT), ("Declarer", DECLARER), ("Result", RESULT)):
            value = row.get(column)
            if value is not None and value not in ("-", "?") and not pattern.fullmatch(value):
                problems.append(f"line {row_number}: {name} {column} {value!r} is not as the standard writes it")
    return problems
