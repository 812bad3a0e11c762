"""PBN 2.1 results files and hand records into the parsed model.

A PBN file is a series of games (one per board here), each a list of tags
`[Name "value"]`, some followed by section data: tables whose columns the tag value
describes ("Rank\\2R;PairId\\2R;..."), with whitespace-separated cells, quoted when they
hold spaces. "%" in the first column starts an escape line (version, Ruter's META
header), ";" and "{...}" are commentary. A tag value "#" repeats the previous game's
value and "##text" sets a value for all later games (section 4.8 of the standard).

Results come from each board's ScoreTable (one row per traveller line) and the pairs
from a TotalScoreTable. Column names vary by program and all these are accepted:
the standard's (TotalMP, TotalIMP, MP_NS, IMP_NS ...), Ruter's (TotalScoreMP,
TotalScoreIMP, TotalPercentage, RankTie, Session* for one session of a longer event)
and Magic Contest's (ButlerDatum). A file whose ScoreTables carry no scores is a hand
record: boards with deals and no lines.

Hostile or damaged files are refused with a FormatError, never another exception: a
declared charset ClubScore cannot read, board, table and round numbers outside 1 to
the limits in common.py, a game's Contract tag that is no contract, a file cut off (a
short last row, a string or comment left open, a last board missing the tables the
others have, fewer boards than the header says), and files holding more games, lines
or cells than MAX_PBN_GAMES, MAX_PBN_LINES, MAX_TABLE_CELLS.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from sessions.scoring.contracts import is_pass, parse_contract

from sessions.formats.common import (
    adjustment_or_none,
    MAX_ROUND_NUMBER,
    MAX_TABLE_NUMBER,
    NOT_PLAYED_TEXTS,
    board_number,
    check_lines,
    decimal_or_none,
    int_or_none,
    is_number,
    negated,
    normalise_score,
    number_or_none,
    pair_key,
    settle_movements,
    shown,
    text_encoding,
)
from sessions.formats.conventions import CONVENTIONS_KEY
from sessions.formats.errors import FormatError
from sessions.formats.model import ParsedBoard, ParsedEvent, ParsedLine, ParsedPair, ParsedPlayer

# Strings are matched with possessive quantifiers (Python 3.11): a plain "(?:[^"\\]|\\.)*"
# keeps a backtracking state for every character, some 150 bytes each, so a 9 MB tag
# value took 1.9 GB. These keep none, and the tokenizer reads any file in memory a small
# multiple of its size (tests/formats/test_hostile_files.py measures it).
STRING = r'"((?:[^"\\]++|\\.)*+)"'
TAG = re.compile(r"\s*+\[\s*+([A-Za-z0-9_]++)\s*+" + STRING + r"\s*+\]")
CELL = re.compile(STRING + r'|([^\s"]\S*+)|(")')
#: Commentary scanning: runs of plain text, strings (closed or not), ";" and "{".
COMMENTARY_TOKEN = re.compile(r'[^";{]++|"(?:[^"\\]++|\\.)*+"?|\\|;|\{')
LINE_BREAK = re.compile(r"\r\n|\r|\n")
META = re.compile(r'<META\s+name=(\w+)\s+content="([^"]*)"', re.IGNORECASE)
#: "% Content-type: text/pbn; charset=ISO-8859-1" in an escape line near the start.
DECLARED_CHARSET = re.compile(rb'^%[^\r\n]*?charset\s*=\s*"?([^\s";]+)', re.IGNORECASE | re.MULTILINE)
DEFAULT_SECTION = "A"
#: Tags the model holds elsewhere; every other simple tag goes to ParsedBoard.extra.
MODELLED_TAGS = {
    "Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
    "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result", "ScoreTable",
    "TotalScoreTable", "Auction", "Play", "Note", "Application", "Annotator",
    "AnnotatorNA", "EventDate", "Competition",
}  # fmt: skip
VULNERABILITY = {"NONE": "None", "LOVE": "None", "-": "None", "NS": "NS", "EW": "EW", "ALL": "Both", "BOTH": "Both"}
#: Published pair figures: the first column present wins. Session columns first, so a
#: file holding one session of a longer event publishes that session's figures.
TOTAL_COLUMNS = (
    "SessionScoreMP", "SessionScoreIMP", "SessionScore",
    "TotalScoreMP", "TotalMP", "TotalScoreIMP", "TotalIMP", "TotalScore",
)  # fmt: skip
PERCENTAGE_COLUMNS = ("SessionPercentage", "TotalPercentage")
PLACE_COLUMNS = (("SessionRank", "SessionRankTie"), ("Rank", "RankTie"))
BOARDS_COLUMNS = ("NrBoardsSession", "NrBoards")
MODELLED_PAIR_COLUMNS = {"PairId", "Section", "Direction", "Names", "MemberID1", "MemberID2", "Handicap"}
POINTS_COLUMNS = {
    "matchpoints": ("MP_NS", "MP_EW"),
    "cross_imps": ("IMP_NS", "IMP_EW"),
    "butler": ("IMP_NS", "IMP_EW"),
}
#: Other published per-line figures kept in ParsedLine.extra.
LINE_EXTRA_COLUMNS = ("Percentage_NS", "Percentage_EW", "Rank", "Multiplicity")
#: "A+" and friends written from NS's side: NS percent, EW percent.
AVERAGE_SCORES = {"A+": (60, 40), "A=": (50, 50), "A": (50, 50), "A-": (40, 60)}


def parse_pbn(data: bytes) -> ParsedEvent:
    """Read a PBN results file (or hand record); FormatError says what is wrong."""
    document = _Document.read(data)
    return _EventBuilder(document).build()


def parse_pbn_deals(data: bytes) -> dict[int, str]:
    """Board number -> PBN deal string, for every board of the file that has a deal."""
    document = _Document.read(data)
    deals: dict[int, str] = {}
    for game in document.games:
        number = game.board_number()
        deal = game.value("Deal")
        if number is not None and deal:
            deals[number] = deal
    return deals


# -- the document: games and tags ------------------------------------------------------


@dataclass(slots=True)
class _Tag:
    name: str
    value: str
    line: int
    data: list[tuple[int, str]] = field(default_factory=list)  # (line number, text)


@dataclass(slots=True)
class _Game:
    first_line: int
    tags: dict[str, _Tag] = field(default_factory=dict)

    def value(self, name: str) -> str:
        tag = self.tags.get(name)
        return tag.value if tag else ""

    def board_number(self) -> int | None:
        tag = self.tags.get("Board")
        if tag is None or not tag.value.strip():
            return None
        return board_number(tag.value, f"line {tag.line}", label="Board")

    def number(self) -> int:
        """The board number of a game the reader kept (it keeps only games that have one)."""
        number = self.board_number()
        if number is None:
            raise FormatError("a game without a Board tag reached the scores")
        return number


@dataclass
class _Document:
    games: list[_Game]
    escapes: list[str]  # "%" lines, for the META header and the creator
    cells_read: int = 0  # table cells read so far, against MAX_TABLE_CELLS

    @classmethod
    def read(cls, data: bytes) -> _Document:
        text = _decode(data)
        if not text.strip():
            raise FormatError("the file is empty")
        games, escapes = _split_games(text)
        if not any(game.tags for game in games):
            raise FormatError("no PBN tag found: not a PBN file")
        _inherit_tag_values(games)
        return cls(games, escapes)

    def meta(self) -> dict[str, str]:
        """The META values by name; ClubScore's settings, which a file may split over
        several META lines to keep each within PBN's 255 characters, joined by ";"."""
        values: dict[str, str] = {}
        for line in self.escapes:
            for name, value in META.findall(line):
                if name == CONVENTIONS_KEY and values.get(name):
                    value = f"{values[name]};{value}"
                values[name] = value
        return values

    def table(self, tag: _Tag, where: str) -> list[_Row]:
        """The rows of a table section: cells matched to the column names of the tag value.

        Refused: a quoted cell left open, a last row short of cells (the file is cut
        off), and more than MAX_TABLE_CELLS cells in the file.
        """
        columns = [_column_name(spec) for spec in tag.value.split(";")]
        rows: list[_Row] = []
        row: list[str] = []
        row_line = tag.line
        for line, text in tag.data:
            for match in CELL.finditer(text):
                quoted, bare, open_quote = match.groups()
                if open_quote is not None:
                    raise FormatError(f"line {line}: {where} {tag.name}: a quoted value is never closed{_CUT_OFF}")
                if not row:
                    row_line = line
                row.append(_unescape(quoted) if quoted is not None else bare)
                self.cells_read += 1
                if self.cells_read > MAX_TABLE_CELLS:
                    raise FormatError(
                        f"line {line}: the file holds more than {MAX_TABLE_CELLS:,} table cells: "
                        "ClubScore reads the results of one session, not more"
                    )
                if len(row) == len(columns):
                    rows.append(_Row(row_line, dict(zip(columns, row))))
                    row = []
        if row:
            cells = len(rows) * len(columns) + len(row)
            raise FormatError(
                f"line {tag.line}: {where} {tag.name} has {cells} cells, not a whole number of rows of "
                f"{len(columns)} columns: its last row (line {row_line}) has {len(row)}{_CUT_OFF}"
            )
        return rows


#: Said of a file that stops short, where that is the likely reason.
_CUT_OFF = " (is the file cut off?)"
#: The most games, the most tags, table lines and escape lines, and the most table cells
#: a file may hold. The largest real files have some 600 games (RealBridge, a game per
#: table), 18,000 lines and 12,000 cells (Ruter, 702 traveller lines): a file holds one
#: session, and these keep what reading it builds to some 50 MB whatever the file.
MAX_PBN_GAMES = 10_000
MAX_PBN_LINES = 100_000
MAX_TABLE_CELLS = 200_000


def _decode(data: bytes) -> str:
    """UTF-8 unless the file declares another charset or is not valid UTF-8 (then Latin-1).

    A declared character set ClubScore cannot read ("undefined", "UTF-7") is refused;
    one the bytes do not fit is ignored, as before.
    """
    if data.startswith(b"\xef\xbb\xbf"):
        try:
            return data[3:].decode("utf-8")
        except UnicodeDecodeError as error:
            raise FormatError(
                f"the file starts with a UTF-8 byte order mark, but byte {error.start + 3} is not UTF-8: "
                "save it again as UTF-8"
            ) from None
    declared = DECLARED_CHARSET.search(data[:4096])
    if declared:
        codec = text_encoding(declared.group(1).decode("ascii", errors="replace"))
        try:
            return data.decode(codec)
        except UnicodeError:
            pass
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("iso-8859-1")


def _numbered_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, line) for each line, CR LF, CR or LF ended, one at a time."""
    start = 0
    number = 0
    for number, match in enumerate(LINE_BREAK.finditer(text), start=1):
        yield number, text[start : match.start()]
        start = match.end()
    if start < len(text):
        yield number + 1, text[start:]


def _split_games(text: str) -> tuple[list[_Game], list[str]]:
    """Games (separated by semi-empty lines) of tags with their section data."""
    games: list[_Game] = []
    escapes: list[str] = []
    game: _Game | None = None
    last_tag: _Tag | None = None
    in_commentary = False
    commentary_line = 0
    read = 0
    for number, line in _numbered_lines(text):
        if in_commentary:
            if "}" not in line:
                continue
            in_commentary = False
            line = line[line.index("}") + 1 :]
            if not line.strip():
                continue  # the end of a comment is not a semi-empty line
        elif line.startswith("%"):
            escapes.append(line)
            read += 1
            if read > MAX_PBN_LINES:
                raise FormatError(_too_long(number))
            continue
        if not line.strip():
            game, last_tag = None, None
            continue
        line, in_commentary = _strip_commentary(line)
        if in_commentary:
            commentary_line = number
        position = 0
        while True:
            match = TAG.match(line, position)
            if not match:
                break
            if game is None:
                game = _Game(first_line=number)
                games.append(game)
                if len(games) > MAX_PBN_GAMES:
                    raise FormatError(
                        f"line {number}: the file holds more than {MAX_PBN_GAMES:,} games: "
                        "ClubScore reads the results of one session, not more"
                    )
            name, value = match.group(1), _unescape(match.group(2))
            last_tag = _Tag(name, value, number)
            read += 1
            if read > MAX_PBN_LINES:
                raise FormatError(_too_long(number))
            # In import format a tag that already occurred in the game is ignored.
            game.tags.setdefault(name, last_tag)
            position = match.end()
        rest = line[position:].strip()
        if not rest:
            continue
        if rest.startswith("["):
            raise FormatError(f"line {number}: malformed tag {shown(rest, 60)}{_where_in(games, game)}")
        if last_tag is None:
            raise FormatError(f"line {number}: text outside any tag ({shown(rest, 60)})")
        last_tag.data.append((number, rest))
        read += 1
        if read > MAX_PBN_LINES:
            raise FormatError(_too_long(number))
    if in_commentary:
        raise FormatError(
            f"line {commentary_line}: a {{ comment }} is never closed{_where_in(games, game)}{_CUT_OFF}"
        )
    return games, escapes


def _too_long(number: int) -> str:
    return (
        f"line {number}: the file holds more than {MAX_PBN_LINES:,} tags and table lines: "
        "ClubScore reads the results of one session, not more"
    )


def _where_in(games: list[_Game], game: _Game | None) -> str:
    """ " in board 7" (the game being read), or " after board 6" (the last one read)."""
    for candidate, word in ((game, "in"), (games[-1] if games else None, "after")):
        tag = candidate.tags.get("Board") if candidate is not None else None
        if tag is not None:
            number = tag.value.strip()
            return f" {word} board {number if len(number) <= 12 else number[:12] + '...'}"
    return ""


def _strip_commentary(line: str) -> tuple[str, bool]:
    """The line without ";" and "{...}" commentary (outside strings); True if a "{" stays open."""
    if ";" not in line and "{" not in line:
        return line, False
    kept: list[str] = []
    position = 0
    while position < len(line):
        token = COMMENTARY_TOKEN.match(line, position)
        assert token is not None  # every character starts one of the alternatives
        text = token.group()
        if text == ";":
            break
        if text == "{":
            close = line.find("}", position)
            if close < 0:
                return "".join(kept), True
            position = close + 1
            continue
        kept.append(text)
        position = token.end()
    return "".join(kept), False


def _unescape(value: str) -> str:
    """\\" and \\\\ inside a string; other backslashes (column widths "\\2R") stay.

    Left to right, as the string was read: each "\\\\" is one backslash, then each "\\"" a
    quote. Three replaces rather than a regular expression: a value of a million escapes
    costs two copies of it, not a list of a million pieces.
    """
    if "\\" not in value:
        return value
    placeholder = next((c for c in ("\x00", "\x01", "\ufffe") if c not in value), None)
    if placeholder is None:
        return re.sub(r'\\(["\\])', r"\1", value)
    return value.replace("\\\\", placeholder).replace('\\"', '"').replace(placeholder, "\\")


def _inherit_tag_values(games: list[_Game]) -> None:
    """Resolve "#" (previous game's value) and "##text" (this and every later game).

    The tags "##" hands on to later games count with the file's own against
    MAX_PBN_LINES: a few thousand of them in the first game of ten thousand games would
    otherwise make tens of millions of tags.
    """
    previous: dict[str, str] = {}
    standing: dict[str, _Tag] = {}
    room = MAX_PBN_LINES - sum(len(game.tags) for game in games)
    for game in games:
        for name, tag in game.tags.items():
            if tag.value == "#":
                tag.value = previous.get(name, "")
            elif tag.value.startswith("##"):
                tag.value = tag.value[2:]
                standing[name] = tag
        room -= len(standing)
        if room < 0:
            raise FormatError(
                f"line {game.first_line}: with the values its \"##\" tags hand on, the file holds more than "
                f"{MAX_PBN_LINES:,} tags: ClubScore reads the results of one session, not more"
            )
        for name, tag in standing.items():
            game.tags.setdefault(name, _Tag(name, tag.value, tag.line))
        previous = {name: tag.value for name, tag in game.tags.items()}


# -- tables ----------------------------------------------------------------------------


@dataclass(slots=True)
class _Row:
    line: int
    cells: dict[str, str]  # column name -> cell ("-" irrelevant, "?" unknown)

    def get(self, column: str) -> str:
        cell = self.cells.get(column, "").strip()
        return "" if cell in ("-", "?") else cell


def _column_name(spec: str) -> str:
    """ "+Rank\\2R" -> "Rank": drop the order sign and the width/alignment."""
    return spec.split("\\", 1)[0].strip().lstrip("+-").strip()


# -- from tags to the parsed model -----------------------------------------------------


@dataclass
class _RawPair:
    section: str
    number: str
    direction: str  # from the Direction column, "" when none
    row: _Row | None  # None for a pair only the ScoreTables name
    is_phantom: bool = False


@dataclass
class _RawLine:
    board: int
    section: str
    row: _Row
    ns_number: str  # "" where the phantom sits ("-")
    ew_number: str


class _EventBuilder:
    def __init__(self, document: _Document) -> None:
        self.document = document
        self.games = [game for game in document.games if game.board_number() is not None]
        self.notes: list[str] = []
        self.meta = document.meta()
        self.extras: dict[int, dict[str, str]] = {}  # each game's extra, read once (by id)
        self.game_of: dict[tuple[int, str], _Game] = {}  # (board, section) -> the game holding its lines

    def build(self) -> ParsedEvent:
        if not self.games:
            raise FormatError("the PBN file has no game with a Board tag")
        first = self.games[0]
        score_tables = [(game, game.tags["ScoreTable"]) for game in self.games if "ScoreTable" in game.tags]
        has_results = any(
            {"Score_NS", "Score_EW"} & {_column_name(spec) for spec in tag.value.split(";")}
            for _, tag in score_tables
        )
        event_type = first.value("Scoring") or self.meta.get("ScoringType", "")
        event = ParsedEvent(
            source_format="pbn",
            program=self.program(),
            event_type=event_type,
            scoring=self.scoring(event_type) if has_results else "",
            title=first.value("Event"),
            date=first.value("Date"),
            club=first.value("Site"),
            pairs=[],
            boards=[],
            notes=self.notes,
            extra=dict(self.meta),
        )
        self.check_contract_tags()
        if has_results:
            self.refuse_non_pairs(first)
            self.refuse_cut_off(score_tables)
            self.read_results(event)
        else:
            event.boards = [self.board(game, DEFAULT_SECTION, []) for game in self.games]
            if score_tables:
                self.notes.append(
                    "hand record: the ScoreTables have no scores, so no traveller lines were read "
                    "(each kept as written in the board's extra['ScoreTable'])"
                )
        return event

    def program(self) -> str:
        if self.meta.get("Generator"):
            return self.meta["Generator"]
        application = self.games[0].value("Application")
        if application:
            return application.split(" - ")[0].strip()
        for line in self.document.escapes:
            creator = re.match(r"%\s*Creator:\s*(.+)", line, re.IGNORECASE)
            if creator:
                return creator.group(1).strip()
        return ""

    def scoring(self, event_type: str) -> str:
        fields = [part.strip().lower() for part in event_type.split(";") if part.strip()]
        base, modifiers = (fields[0], fields[1:]) if fields else ("", [])
        if base in ("mp", "matchpoints", "matchpoint"):
            return "matchpoints"
        if base in ("imp", "imps"):
            if any(modifier.startswith(("butler", "experts")) for modifier in modifiers):
                return "butler"
            if any(modifier.startswith("cross") for modifier in modifiers):
                return "cross_imps"
        raise FormatError(
            f"PBN scoring {event_type!r} is not supported: supported are MatchPoints/MP, "
            "IMP;Cross... (cross-IMPs) and IMP;Butler... (Butler)"
        )

    def check_contract_tags(self) -> None:
        """A game's own Contract tag, when it gives one, must be a contract ("9Q" is not)."""
        for game in self.games:
            tag = game.tags.get("Contract")
            if tag is None:
                continue
            value = tag.value.strip()
            if value in ("", "?", "-") or is_pass(value):
                continue
            try:
                parse_contract(value if len(value) <= 12 else "?")
            except ValueError:
                raise FormatError(
                    f"line {tag.line}: board {game.board_number()}: Contract {shown(value)} is not a contract"
                ) from None

    def refuse_cut_off(self, score_tables: list[tuple[_Game, _Tag]]) -> None:
        """A results file that stops short: a table row short of cells or a string left
        open (see _Document.table), its last board without a table every board before it
        has (its ScoreTable, Ruter's OptimumResultTable), or fewer boards than its header
        says (Ruter's and Magic Contest's META BoardCount). A file cut exactly between two
        rows of its last table cannot be told from a board played fewer times."""
        last = self.games[-1]
        if "ScoreTable" not in last.tags:
            raise FormatError(
                f"line {last.first_line}: board {last.board_number()} has no ScoreTable, "
                f"though the boards before it have{_CUT_OFF}"
            )
        earlier = self.games[:-1]
        if len(earlier) >= 2:
            sections = set.intersection(*({name for name, tag in game.tags.items() if tag.data} for game in earlier))
            missing = sorted(sections - {name for name, tag in last.tags.items() if tag.data})
            if missing:
                raise FormatError(
                    f"line {last.first_line}: board {last.board_number()} has no {' or '.join(missing)}, "
                    f"though every board before it has{_CUT_OFF}"
                )
        announced = self.meta.get("BoardCountSession") or self.meta.get("BoardCount") or ""
        numbers = {game.board_number() for game, _ in score_tables}
        if is_number(announced) and len(announced) <= 4 and len(numbers) < int(announced):
            raise FormatError(
                f"the file's header says the session has {int(announced)} boards, but it holds "
                f"{len(numbers)} and ends with board {last.board_number()}{_CUT_OFF}"
            )

    def refuse_non_pairs(self, game: _Game) -> None:
        competition = game.value("Competition")
        if competition and competition.lower() != "pairs":
            raise FormatError(f"PBN competition {competition!r} is not supported: only pairs events are")

    # -- results -----------------------------------------------------------------------

    def read_results(self, event: ParsedEvent) -> None:
        raw_pairs = self.raw_pairs()
        raw_lines = self.raw_lines(raw_pairs)
        self.add_phantoms(raw_pairs, raw_lines)
        self.settle_directions(raw_pairs, raw_lines)
        keys = _Keys(raw_pairs)
        event.pairs = [self.parsed_pair(raw, keys.key_of(raw)) for raw in raw_pairs]
        lines_by_board: dict[tuple[int, str], list[ParsedLine]] = {}
        for raw in raw_lines:
            line = self.parsed_line(raw, keys, event.scoring)
            lines_by_board.setdefault((raw.board, raw.section), []).append(line)
        sections_of: dict[int, list[str]] = {}
        for board, section in lines_by_board:
            sections_of.setdefault(board, []).append(section)
        for game in self.games:
            number = game.number()
            # Sections that played different deals as this number have a game each.
            played_here = [
                section for section in sections_of.get(number, [DEFAULT_SECTION])
                if self.game_of.get((number, section), game) is game
            ]
            for section in played_here:
                event.boards.append(self.board(game, section, lines_by_board.get((number, section), [])))
        check_lines(event)
        settle_movements(event)

    def raw_pairs(self) -> list[_RawPair]:
        tables = [
            (game.tags["TotalScoreTable"], game.board_number()) for game in self.games if "TotalScoreTable" in game.tags
        ]
        pairs: list[_RawPair] = []
        for tag, board in tables:
            for row in self.document.table(tag, f"board {board}"):
                number = row.get("PairId")
                if not number:
                    raise FormatError(f"line {row.line}: TotalScoreTable row has no PairId")
                section = row.get("Section") or DEFAULT_SECTION
                pairs.append(_RawPair(section, number, _direction(row.get("Direction")), row))
        if len(tables) > 1:
            self.notes.append(f"{len(tables)} TotalScoreTables read together")
        if any(pair.row and pair.row.get("SessionRank") for pair in pairs):
            self.notes.append(
                "the TotalScoreTable holds this session's and the whole event's figures: "
                "published total, percentage and place are the session's (SessionScore*, "
                "SessionPercentage, SessionRank); the event's stay in the pair's extra"
            )
        return pairs

    def raw_lines(self, raw_pairs: list[_RawPair]) -> list[_RawLine]:
        """Every ScoreTable row; adds the pairs they name when there is no TotalScoreTable."""
        known = {(pair.section, pair.number) for pair in raw_pairs}
        sections_by_number: dict[str, set[str]] = {}
        for pair in raw_pairs:
            sections_by_number.setdefault(pair.number, set()).add(pair.section)
        derive_pairs = not raw_pairs
        if derive_pairs:
            self.notes.append("no TotalScoreTable: pairs taken from the ScoreTables, no published totals")
        lines: list[_RawLine] = []
        for game in self.games:
            tag = game.tags.get("ScoreTable")
            if tag is None:
                continue
            board = game.number()
            for row in self.document.table(tag, f"board {board}"):
                written_section = row.get("Section")
                numbers = [row.get("PairId_NS"), row.get("PairId_EW")]
                section = written_section or self.section_of(numbers, sections_by_number, row)
                for role, number in zip(("NS", "EW"), numbers):
                    if not number:
                        continue
                    if derive_pairs and (section, number) not in known:
                        raw_pairs.append(_RawPair(section, number, "", None))
                        known.add((section, number))
                    elif (section, number) not in known:
                        raise FormatError(
                            f"line {row.line}: board {board} ScoreTable names pair {number} as {role}, "
                            "who is not in the TotalScoreTable"
                        )
                lines.append(_RawLine(board, section, row, *numbers))
                self.game_of.setdefault((board, section), game)
        return lines

    def section_of(self, numbers: list[str], sections_by_number: dict[str, set[str]], row: _Row) -> str:
        """A row without a Section column: the section of the pairs it names."""
        candidates = set.union(set(), *(sections_by_number.get(n, set()) for n in numbers if n))
        if len(candidates) > 1:
            raise FormatError(
                f"line {row.line}: ScoreTable row has no Section and its pair numbers are in sections "
                f"{', '.join(sorted(candidates))}"
            )
        return candidates.pop() if candidates else DEFAULT_SECTION

    def add_phantoms(self, raw_pairs: list[_RawPair], raw_lines: list[_RawLine]) -> None:
        """A "-" pair on a line facing a real pair is the phantom (Magic Contest's "Bye")."""
        lines_of: dict[str, list[_RawLine]] = {}
        for line in raw_lines:
            lines_of.setdefault(line.section, []).append(line)
        numbers_of: dict[str, set[int]] = {}
        for pair in raw_pairs:
            if is_number(pair.number) and len(pair.number) <= 3:  # longer ones the importer refuses
                numbers_of.setdefault(pair.section, set()).add(int(pair.number))
        sections = sorted({line.section for line in raw_lines if not line.ns_number or not line.ew_number})
        for section in sections:
            numbers = numbers_of.get(section, set())
            highest = max(numbers, default=0)
            gaps = highest - len(numbers - {0})
            if gaps > 1:
                number = "phantom"
            elif gaps == 1:
                number = str(next(n for n in range(1, highest) if n not in numbers))
            else:
                number = str(highest + 1)
            raw_pairs.append(_RawPair(section, number, "", None, is_phantom=True))
            self.notes.append(
                f"section {section}: lines with pair '-' are against a phantom, "
                f"added as pair {number} (the number missing from the pairs), is_phantom=True"
            )
            for line in lines_of[section]:
                line.ns_number = line.ns_number or number
                line.ew_number = line.ew_number or number

    def settle_directions(self, raw_pairs: list[_RawPair], raw_lines: list[_RawLine]) -> None:
        """Keep the Direction column only where every pair sits in it all session (Mitchell).

        Magic Contest's Howell lists each pair's starting direction; a pair that plays
        both ways makes its section one field. Where the Direction column is missing, a
        section whose pairs each keep one direction is read as a Mitchell.
        """
        roles: dict[tuple[str, str], set[str]] = {}
        for line in raw_lines:
            roles.setdefault((line.section, line.ns_number), set()).add("NS")
            roles.setdefault((line.section, line.ew_number), set()).add("EW")
        members_of: dict[str, list[_RawPair]] = {}
        for pair in raw_pairs:
            members_of.setdefault(pair.section, [])
            if not pair.is_phantom:
                members_of[pair.section].append(pair)
        for section in sorted(members_of):
            members = members_of[section]
            numbers = [pair.number for pair in members]
            if len(numbers) != len(set(numbers)):
                continue  # the same number in both fields: a Mitchell, directions must stay
            fixed = all(len(roles.get((section, pair.number), set())) <= 1 for pair in members)
            if not fixed:
                if any(pair.direction for pair in members):
                    self.notes.append(
                        f"section {section}: pairs play both directions, so the Direction column "
                        "(starting direction) is kept in the pair's extra and the section is one field"
                    )
                for pair in members:
                    pair.direction = ""
                continue
            for pair in members:
                played = roles.get((section, pair.number), set())
                if played and pair.direction and played != {pair.direction}:
                    raise FormatError(
                        f"pair {pair.number} of section {section} is listed {pair.direction} "
                        f"but plays {played.pop()} on the ScoreTables"
                    )
                if not pair.direction and played:
                    pair.direction = next(iter(played))

    def parsed_pair(self, raw: _RawPair, key: str) -> ParsedPair:
        if raw.row is None:
            return ParsedPair(key, raw.section, raw.number, raw.direction, [], None, None, None, raw.is_phantom)
        row = raw.row
        where = f"line {row.line}: TotalScoreTable pair {raw.number}"
        extra = {
            column: cell
            for column, cell in row.cells.items()
            if column not in MODELLED_PAIR_COLUMNS and cell not in ("-", "")
        }
        if row.get("Direction") and not raw.direction:
            extra["Direction"] = row.get("Direction")
        return ParsedPair(
            key=key,
            section=raw.section,
            number=raw.number,
            direction=raw.direction,
            players=_players(row),
            published_total=decimal_or_none(_first(row, TOTAL_COLUMNS), f"{where} total"),
            published_percentage=decimal_or_none(_first(row, PERCENTAGE_COLUMNS), f"{where} percentage"),
            published_place=_place(row),
            boards_played=int_or_none(_first(row, BOARDS_COLUMNS), f"{where} NrBoards"),
            handicap=decimal_or_none(row.get("Handicap"), f"{where} Handicap"),  # ClubScore's column (USEBIO HANDICAP)
            # ClubScore's column (USEBIO ADJUSTMENT): a procedural penalty's effect, negative.
            adjustment=adjustment_or_none(decimal_or_none(row.get("Penalty"), f"{where} Penalty")),
            extra=extra,
        )

    def parsed_line(self, raw: _RawLine, keys: _Keys, scoring: str) -> ParsedLine:
        row = raw.row
        where = f"line {row.line}: board {raw.board} ScoreTable"
        contract = row.get("Contract")
        ns_column, ew_column = POINTS_COLUMNS[scoring]
        return ParsedLine(
            ns_pair=keys.resolve(raw.section, raw.ns_number, "NS"),
            ew_pair=keys.resolve(raw.section, raw.ew_number, "EW"),
            contract=contract,
            declarer=row.get("Declarer").lstrip("^").upper(),
            tricks=int_or_none(row.get("Result").lstrip("^"), f"{where} Result"),
            lead=row.get("Lead"),
            score=_ns_score(row, contract, where),
            published_ns_points=decimal_or_none(row.get(ns_column), f"{where} {ns_column}"),
            published_ew_points=decimal_or_none(row.get(ew_column), f"{where} {ew_column}"),
            published_datum=int_or_none(row.get("ButlerDatum"), f"{where} ButlerDatum"),
            round=number_or_none(row.get("Round"), "round", MAX_ROUND_NUMBER, where),
            table=number_or_none(row.get("Table"), "table", MAX_TABLE_NUMBER, where),
            raw_score=_raw_score(row),
            extra={column: row.get(column) for column in LINE_EXTRA_COLUMNS if row.get(column)},
        )

    # -- boards ------------------------------------------------------------------------

    def board(self, game: _Game, section: str, lines: list[ParsedLine]) -> ParsedBoard:
        number = game.board_number()
        assert number is not None
        return ParsedBoard(
            number=number,
            section=section,
            lines=lines,
            dealer=game.value("Dealer").strip().upper()[:1],
            vulnerability=VULNERABILITY.get(game.value("Vulnerable").strip().upper(), ""),
            deal=game.value("Deal").strip() or None,
            extra=dict(self.extra(game)),
        )


    def extra(self, game: _Game) -> dict[str, str]:
        if id(game) not in self.extras:
            self.extras[id(game)] = _board_extra(game, self.document)
        return self.extras[id(game)]


class _Keys:
    """Pair keys, and the key a ScoreTable pair number (in a role) stands for."""

    def __init__(self, raw_pairs: list[_RawPair]) -> None:
        self.by_number: dict[tuple[str, str], list[_RawPair]] = {}
        for raw in raw_pairs:
            self.by_number.setdefault((raw.section, raw.number), []).append(raw)
        seen: set[str] = set()
        for raw in raw_pairs:
            key = self.key_of(raw)
            if key in seen:
                raise FormatError(f"pair {raw.number} of section {raw.section} appears twice")
            seen.add(key)

    @staticmethod
    def key_of(raw: _RawPair) -> str:
        return pair_key(raw.section, raw.number, raw.direction)

    def resolve(self, section: str, number: str, role: str) -> str:
        candidates = self.by_number.get((section, number), [])
        if len(candidates) > 1:
            candidates = [raw for raw in candidates if raw.direction == role]
        if len(candidates) != 1:
            raise FormatError(f"pair {number} of section {section} cannot be told apart as {role}")
        return self.key_of(candidates[0])


def _ns_score(row: _Row, contract: str, where: str) -> str:
    """NS's score: Score_NS, else Score_EW with the sides swapped."""
    ns_text, ew_text = row.get("Score_NS").lstrip("^"), row.get("Score_EW").lstrip("^")
    if ns_text:
        return _normalise_side(ns_text, contract, where)
    if not ew_text:
        if contract.upper() in ("PASS", "P", "AP"):
            return "PASS"
        raise FormatError(f"{where}: the row has neither Score_NS nor Score_EW")
    return negated(_normalise_side(ew_text, contract, where))


def _normalise_side(text: str, contract: str, where: str) -> str:
    upper = text.upper()
    if upper == "BYE":
        return "NP"
    if upper in AVERAGE_SCORES:
        ns_percent, ew_percent = AVERAGE_SCORES[upper]
        return f"A{ns_percent:02d}{ew_percent:02d}"
    if upper in NOT_PLAYED_TEXTS:
        return "NP"
    return normalise_score(text, contract, where)


def _raw_score(row: _Row) -> str:
    if row.get("Score_NS"):
        return row.get("Score_NS")
    return f"EW {row.get('Score_EW')}" if row.get("Score_EW") else ""


def _players(row: _Row) -> list[ParsedPlayer]:
    names_text = row.get("Names")
    separator = ";" if ";" in names_text else " - "
    names = [name.strip() for name in names_text.split(separator)] if names_text else []
    ids = [row.get("MemberID1"), row.get("MemberID2")]
    players = [ParsedPlayer(name, ids[index] if index < 2 else "") for index, name in enumerate(names)]
    if not players and any(ids):
        players = [ParsedPlayer("", member_id) for member_id in ids if member_id]
    return players


def _place(row: _Row) -> str | None:
    for rank_column, tie_column in PLACE_COLUMNS:
        rank = row.get(rank_column)
        if rank:
            return f"{rank}=" if row.get(tie_column) else rank
    return None


def _first(row: _Row, columns: tuple[str, ...]) -> str:
    for column in columns:
        if row.get(column):
            return row.get(column)
    return ""


def _direction(text: str) -> str:
    """ "N-S" -> "NS"; "E-W", "Ö-V", "O-W", "Ø-V" -> "EW" (Nordic and Dutch spellings)."""
    compact = text.strip().upper().replace("-", "").replace("/", "")
    if compact in ("NS", "NZ"):
        return "NS"
    if compact in ("EW", "ÖV", "OV", "OW", "ØV", "EO"):
        return "EW"
    return ""


def _board_extra(game: _Game, document: _Document) -> dict[str, str]:
    """The board's other tags as written; tables as rows, OptimumResultTable as "N S 8" rows."""
    extra: dict[str, str] = {}
    for name, tag in game.tags.items():
        if name in MODELLED_TAGS and name != "ScoreTable":
            continue
        if name == "ScoreTable":
            if not any(_column_name(spec) in ("Score_NS", "Score_EW") for spec in tag.value.split(";")):
                extra[name] = "\n".join([tag.value, *(text for _, text in tag.data)])
            continue
        if name == "OptimumResultTable":
            extra[name] = "\n".join(
                f"{row.get('Declarer')} {row.get('Denomination')} {row.get('Result')}"
                for row in document.table(tag, f"board {game.board_number()}")
            )
        elif tag.data:
            extra[name] = "\n".join([tag.value, *(text for _, text in tag.data)])
        else:
            extra[name] = tag.value
    return extra
