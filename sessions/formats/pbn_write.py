"""A parsed event as a PBN 2.1 results file (export format).

The other direction of pbn.py, in the standard's export format (PBN 2.1): one game per
board number, opening with the 15 mandatory tags in the standard's order (Event, Site,
Date, Board; West, North, East and South empty, as many pairs played the board; Dealer,
Vulnerable; Deal, "" without a hand record; Scoring; the first line's Declarer,
Contract and Result, "Pass" for a board passed out); then a ScoreTable of every
traveller line of that board (all sections, with a Section column when the event has
named sections; contracts spelt as the Contract tag); and in the first game a
TotalScoreTable of the pairs (tables in tag-name order, as the standard sorts them). Column names are the standard's (PairId_NS,
MP_NS, IMP_NS, Percentage_NS, TotalMP, TotalIMP, TotalPercentage, NrBoards ...), with
Ruter's RankTie for shared places and Magic Contest's ButlerDatum.

Scores: a positive NS score goes in Score_NS and a negative one in Score_EW (as Ruter
writes them); a passed-out board scores 0; a board not played is "NP"; artificial
scores are "A+", "A=", "A-" for 60/40, 50/50, 40/60 and "A6040"-style otherwise. A line
of points the director assigned is its adjusted score with the points in the MP (or IMP)
columns, exactly as assigned, and no percentages (the line does not carry the board's top).

A phantom pair is "-" in the ScoreTables and absent from the TotalScoreTable (Magic
Contest's bye) when our reader will give it back its number (the one the section is
missing, a section's only phantom, in no direction); any other phantom is written as
an ordinary pair, so its key survives and only its phantom flag is lost.

Our settings travel in "% <META name=CLUBSCORE_SCORING content=...>" escape lines
(formats/conventions.py), as many as keep each within the standard's 255 characters;
the reader joins them again.

Encoding: ISO-8859-1, the standard's character set and what Ruter, Magic Contest and
Bridgewebs write (so what PBN programs read best), when every character fits it;
otherwise UTF-8 rather than losing names to "?". Either way the charset is declared
in a "% Content-type" escape line, as Bridgewebs does, and lines end in CRLF.

A procedural penalty is a Penalty column of the TotalScoreTable (not the standard's),
negative, as USEBIO ADJUSTMENT: percentage points when matchpointed, IMPs otherwise.

Not written: pair handicaps, the `extra` figures other programs published, and (one
game per board number) a second deal for the same board number in another section.
"""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction

from sessions.scoring.boards import dealer as dealer_of_board
from sessions.scoring.boards import vulnerability as vulnerability_of_board
from sessions.scoring.contracts import is_pass, parse_contract
from sessions.scoring.errors import ScoringError
from sessions.scoring.options import Method
from sessions.scoring.rounding import round_to_places

from sessions.formats.conventions import CONVENTIONS_KEY
from sessions.formats.common import PASSED_OUT_CONTRACTS, is_number
from sessions.formats.errors import FormatError
from sessions.formats.model import ParsedBoard, ParsedEvent, ParsedLine, ParsedPair
from sessions.formats.pbn import POINTS_COLUMNS
from sessions.formats.writing import (
    PROGRAM_NAME,
    SEATS,
    date_parts,
    hands_by_seat,
    points_text,
    sections_in_order,
    sections_need_names,
    two_decimals,
    without_control_characters,
)

#: Default Scoring tags: 2 matchpoints per result beaten (RULES 4), cross-IMPs summed,
#: Butler against a datum.
SCORING_TAGS = {"matchpoints": "MatchPoints;MP1", "cross_imps": "IMP;Cross", "butler": "IMP;Butler"}
#: Artificial scores with a name of their own: (NS percent, EW percent) -> (Score_NS, Score_EW).
NAMED_ARTIFICIAL = {(60, 40): ("A+", "A-"), (50, 50): ("A=", "A="), (40, 60): ("A-", "A+")}
EXPORT_VULNERABILITY = {"None": "None", "NS": "NS", "EW": "EW", "Both": "All"}
#: A table cell that needs no quotes: no spaces, quotes or PBN punctuation, and not
#: starting with "=" (a PBN note token, and a formula to a spreadsheet).
BARE_CELL = re.compile(r"[A-Za-z0-9+\-.*/^_][A-Za-z0-9+\-.*/^_=]*")
MISSING = "-"  # the standard's "irrelevant" table element
NEWLINE = "\r\n"
MAX_LINE = 255  # characters a line, its CRLF included (PBN 2.1, 2.3)
#: The contract of a passed-out board, as the standard spells it (3.4.14).
PASSED_OUT = "Pass"


def pbn_scoring_tag(scoring: str, *, cross_imps_averaged: bool = False, half_matchpoints: bool = False) -> str:
    """The Scoring tag for an event's scoring and options.

    Averaged cross-IMPs are the standard's "Cross2" (divided by the number of
    comparisons); matchpoints on the 1-per-result-beaten scale are "MP2".
    """
    if scoring not in SCORING_TAGS:
        raise FormatError(f"cannot write PBN for scoring {scoring!r}: PBN Scoring tags exist for {', '.join(SCORING_TAGS)}")
    if scoring == Method.CROSS_IMPS and cross_imps_averaged:
        return "IMP;Cross2"
    if scoring == Method.MATCHPOINTS and half_matchpoints:
        return "MatchPoints;MP2"
    return SCORING_TAGS[scoring]


def write_pbn(event: ParsedEvent, *, scoring_tag: str | None = None) -> bytes:
    """The event as PBN 2.1 bytes (see the module docstring for encoding and conventions).

    ``scoring_tag`` overrides the default Scoring tag (see pbn_scoring_tag).
    """
    tag = scoring_tag or pbn_scoring_tag(event.scoring)
    # Every setting the figures were scored with, for ClubScore reading the file back
    # (formats/conventions.py), in a META line as Ruter writes its own.
    return pbn_document(_GameWriter(event, tag).games(), meta_lines(CONVENTIONS_KEY, event.extra.get(CONVENTIONS_KEY, "")))


def meta_lines(name: str, text: str) -> list[str]:
    """``text`` ("a=1;b=2;...") as META escape lines of that name, as many as keep each
    line within MAX_LINE: the reader joins the values of one name again with ";"."""
    lines: list[str] = []
    parts: list[str] = []
    for part in (part for part in text.split(";") if part):
        if parts and len(_meta_line(name, [*parts, part])) + len(NEWLINE) > MAX_LINE:
            lines.append(_meta_line(name, parts))
            parts = []
        parts.append(part)
    if parts:
        lines.append(_meta_line(name, parts))
    return lines


def _meta_line(name: str, parts: list[str]) -> str:
    return f'% <META name={name} content="{";".join(parts)}">'


def pbn_document(games: list[list[str]], meta: list[str] | None = None) -> bytes:
    """PBN file bytes for ``games`` (each a list of lines): the header (with any ``meta``
    escape lines), CRLF line ends, ISO-8859-1 when every character fits (what other
    programs read), else UTF-8."""
    body = NEWLINE.join(NEWLINE.join(game) + NEWLINE for game in games)
    charset = "ISO-8859-1" if _fits_latin1(body) else "UTF-8"
    header = ["% PBN 2.1", "% EXPORT", f"% Content-type: text/pbn; charset={charset}", f"% Creator: {PROGRAM_NAME}"]
    return (NEWLINE.join([*header, *(meta or [])]) + NEWLINE + body).encode(charset)


def _fits_latin1(text: str) -> bool:
    try:
        text.encode("iso-8859-1")
    except UnicodeEncodeError:
        return False
    return True


class _GameWriter:
    def __init__(self, event: ParsedEvent, scoring_tag: str) -> None:
        self.event = event
        self.scoring_tag = scoring_tag
        self.pairs = event.pairs_by_key()
        self.byes = _phantoms_written_as_byes(event.pairs)
        self.named_sections = sections_need_names(sections_in_order(event))

    def games(self) -> list[list[str]]:
        numbers = list(dict.fromkeys(board.number for board in self.event.boards))
        games = [self.game(number, boards) for number in numbers for boards in self.deals_of(number)]
        pairs_table = self.total_score_table()
        if pairs_table:
            if games:
                games[0].extend(pairs_table)
            else:  # pairs but no boards: the pairs still need a game to live in
                games = [mandatory_tags(self.event.title, self.event.club, self.event.date, 1, self.scoring_tag)
                         + pairs_table]
        return games

    # -- one game per board number ----------------------------------------------------

    def deals_of(self, number: int) -> list[list[ParsedBoard]]:
        """The sections' boards of one number, grouped by deal: one game per deal, so
        sections that played different deals keep each their own (boards without a deal
        go with the first)."""
        groups: dict[str | None, list[ParsedBoard]] = {}
        for board in self.event.boards:
            if board.number == number:
                groups.setdefault(board.deal or None, []).append(board)
        dealt = [boards for deal, boards in groups.items() if deal is not None]
        if not dealt:
            return list(groups.values())
        dealt[0].extend(groups.get(None, []))
        return dealt

    def game(self, number: int, boards: list[ParsedBoard]) -> list[str]:
        dealer = next((board.dealer for board in boards if board.dealer), "") or dealer_of_board(number).value
        vulnerability = next((board.vulnerability for board in boards if board.vulnerability), "")
        vulnerability = vulnerability or vulnerability_of_board(number).value
        deal = next((board.deal for board in boards if board.deal), None)
        first_line = next((line for board in boards for line in board.lines), None)
        lines = mandatory_tags(
            self.event.title, self.event.club, self.event.date, number, self.scoring_tag,
            dealer=dealer, vulnerable=EXPORT_VULNERABILITY.get(vulnerability, vulnerability),
            deal=deal_from(deal, dealer, number) if deal else "", contract=_contract_tags(first_line),
        )
        lines.extend(self.score_table(boards))
        return lines

    def score_table(self, boards: list[ParsedBoard]) -> list[str]:
        lines = [line for board in boards for line in board.lines]
        ns_points, ew_points = POINTS_COLUMNS[self.event.scoring]
        columns = ["Section"] if self.named_sections else []
        if any(line.table is not None for line in lines):
            columns.append("Table")
        if any(line.round is not None for line in lines):
            columns.append("Round")
        columns += ["PairId_NS", "PairId_EW", "Contract", "Declarer", "Result", "Lead", "Score_NS", "Score_EW"]
        columns += [ns_points, ew_points]
        if self.event.scoring == Method.MATCHPOINTS:
            columns += ["Percentage_NS", "Percentage_EW"]
        if any(line.published_datum is not None for line in lines):
            columns.append("ButlerDatum")
        rows = [
            self.score_row(board, line, columns)
            for board in boards
            for line in board.lines
        ]
        return [pbn_tag("ScoreTable", ";".join(columns)), *rows]

    def score_row(self, board: ParsedBoard, line: ParsedLine, columns: list[str]) -> str:
        where = f"board {board.number} of section {board.section}"
        score_ns, score_ew = _score_cells(line.score, line.contract)
        # Assigned points need not add up to the board's top: their share of it is not in the line.
        percentages = (None, None) if line.assigned else _percentages(line.published_ns_points, line.published_ew_points)
        percentage_ns, percentage_ew = percentages
        ns_points, ew_points = POINTS_COLUMNS[self.event.scoring]
        values = {
            "Section": _string_cell(board.section),
            "Table": _whole_number_cell(line.table),
            "Round": _whole_number_cell(line.round),
            "PairId_NS": self.pair_id(line.ns_pair, where),
            "PairId_EW": self.pair_id(line.ew_pair, where),
            "Contract": _cell(_contract_cell(line.contract)),
            "Declarer": _cell(line.declarer if line.declarer in SEATS else None),
            "Result": _whole_number_cell(line.tricks),
            "Lead": _cell(line.lead),
            "Score_NS": _cell(score_ns),
            "Score_EW": _cell(score_ew),
            ns_points: _cell(points_text(line.published_ns_points, line.assigned)),
            ew_points: _cell(points_text(line.published_ew_points, line.assigned)),
            "Percentage_NS": _cell(percentage_ns),
            "Percentage_EW": _cell(percentage_ew),
            "ButlerDatum": _whole_number_cell(line.published_datum),
        }
        return " ".join(values[column] for column in columns)

    def pair_id(self, key: str, where: str) -> str:
        pair = self.pairs.get(key)
        if pair is None:
            raise FormatError(f"{where}: a traveller line names pair {key}, who is not in the event")
        return MISSING if pair.key in self.byes else _cell(pair.number)

    # -- the pairs --------------------------------------------------------------------

    def total_score_table(self) -> list[str]:
        pairs = [pair for pair in self.event.pairs if pair.key not in self.byes]
        if not pairs:
            return []
        matchpoints = self.event.scoring == Method.MATCHPOINTS
        columns = ["Section"] if self.named_sections else []
        columns += ["Rank"]
        if any((pair.published_place or "").endswith("=") for pair in pairs):
            columns.append("RankTie")
        columns.append("PairId")
        if any(pair.direction for pair in pairs):
            columns.append("Direction")
        columns.append("TotalMP" if matchpoints else "TotalIMP")
        if matchpoints or any(pair.published_percentage is not None for pair in pairs):
            columns.append("TotalPercentage")
        columns.append("Names")
        if any(pair.boards_played is not None for pair in pairs):
            columns.append("NrBoards")
        if any(pair.handicap is not None for pair in pairs):
            columns.append("Handicap")  # not the standard's: a handicap event's figure, as USEBIO HANDICAP
        if any(pair.adjustment is not None for pair in pairs):
            columns.append("Penalty")  # not the standard's: a procedural penalty, as USEBIO ADJUSTMENT
        if any(player.national_id for pair in pairs for player in pair.players):
            columns += ["MemberID1", "MemberID2"]
        tie_ends = _tie_ends(pairs)
        rows = [self.pair_row(pair, columns, tie_ends) for pair in pairs]
        return [pbn_tag("TotalScoreTable", ";".join(columns)), *rows]

    def pair_row(self, pair: ParsedPair, columns: list[str], tie_ends: dict[str, int]) -> str:
        rank, tied = _rank(pair.published_place)
        ids = [player.national_id for player in pair.players[:2]] + ["", ""]
        total = _cell(two_decimals(pair.published_total))
        values = {
            "Section": _string_cell(pair.section),
            "Rank": _cell(rank),
            "RankTie": _cell(str(tie_ends[pair.key]) if tied else None),
            "PairId": _cell(pair.number),
            "Direction": _cell(pair.direction),
            "TotalMP": total,
            "TotalIMP": total,
            "TotalPercentage": _cell(two_decimals(pair.published_percentage)),
            # The standard's <names>: the players separated by ";".
            "Names": _string_cell(";".join(player.name for player in pair.players)) if pair.players else MISSING,
            "NrBoards": _whole_number_cell(pair.boards_played),
            "Handicap": _cell(two_decimals(pair.handicap)),
            "Penalty": _cell(two_decimals(pair.adjustment)),
            "MemberID1": _string_cell(ids[0]) if ids[0] else MISSING,
            "MemberID2": _string_cell(ids[1]) if ids[1] else MISSING,
        }
        return " ".join(values[column] for column in columns)


def _phantoms_written_as_byes(pairs: list[ParsedPair]) -> set[str]:
    """Keys of the phantoms to write as "-": a section's only phantom, in no direction,
    numbered as the reader numbers a bye (the one number missing from the section's
    other pairs, or the next number when none is missing)."""
    byes: set[str] = set()
    for section in dict.fromkeys(pair.section for pair in pairs):
        members = [pair for pair in pairs if pair.section == section]
        phantoms = [pair for pair in members if pair.is_phantom]
        if len(phantoms) != 1 or phantoms[0].direction:
            continue
        numbers = {  # as the reader counts them: pair numbers of three ASCII digits at most
            int(pair.number) for pair in members if not pair.is_phantom and is_number(pair.number) and len(pair.number) <= 3
        }
        missing = sorted(set(range(1, max(numbers, default=0) + 1)) - numbers)
        if len(missing) > 1:
            continue  # the reader could not tell which number the bye is
        bye_number = missing[0] if missing else max(numbers, default=0) + 1
        if phantoms[0].number == str(bye_number):
            byes.add(phantoms[0].key)
    return byes


def _rank(place: str | None) -> tuple[str | None, bool]:
    """ "3=" -> ("3", True); "3" -> ("3", False)."""
    if not place:
        return None, False
    return place.removesuffix("="), place.endswith("=")


def _tie_ends(pairs: list[ParsedPair]) -> dict[str, int]:
    """Ruter's RankTie for a shared place: the last place of the tie (3= for three pairs: 5).

    Counted among the pairs of the same section and direction (one ranking).
    """
    shared: dict[tuple[str, str, str], list[str]] = {}
    for pair in pairs:
        place = pair.published_place or ""
        if place.endswith("=") and is_number(place[:-1]) and len(place) <= 10:
            shared.setdefault((pair.section, pair.direction, place), []).append(pair.key)
    return {
        key: int(place[:-1]) + len(keys) - 1
        for (_, _, place), keys in shared.items()
        for key in keys
    }


def _score_cells(score: str, contract: str) -> tuple[str, str]:
    """(Score_NS, Score_EW) for the model's NS score."""
    if score == "NP":
        return "NP", "NP"
    if score == "PASS":
        # 0 beside a passed-out contract; "PASS" where the contract does not say so.
        passed = contract.strip().upper() in PASSED_OUT_CONTRACTS
        return ("0", "0") if passed else ("PASS", "PASS")
    if score.startswith("A"):
        percents = (int(score[1:3]), int(score[3:5]))
        return NAMED_ARTIFICIAL.get(percents, (score, f"A{score[3:5]}{score[1:3]}"))
    value = int(score)
    return (str(value), MISSING) if value >= 0 else (MISSING, str(-value))


def _percentages(ns: Decimal | None, ew: Decimal | None) -> tuple[str | None, str | None]:
    """A line's matchpoints as percentages of the line's top (NS + EW points)."""
    if ns is None or ew is None or ns + ew <= 0:
        return None, None
    top = Fraction(ns) + Fraction(ew)
    return (
        str(round_to_places(Fraction(ns) * 100 / top, 2)),
        str(round_to_places(Fraction(ew) * 100 / top, 2)),
    )


def mandatory_tags(
    event: str, site: str, date: str, board: int, scoring: str, *, dealer: str = "", vulnerable: str = "",
    deal: str = "", contract: tuple[str, str, str] = ("", "", ""), players: tuple[str, ...] = ("", "", "", ""),
) -> list[str]:
    """The standard's 15 mandatory tags in its order (PBN 2.1, 3.4). The players' tags
    (``players``: West, North, East, South) are empty by default: a pairs game is played
    by many (the standard's "inappropriate" value), as is the Deal of a board without a
    hand record, which endplay reads as no cards where "?" stops it."""
    declarer, contract_text, result = contract
    return [
        pbn_tag("Event", event), pbn_tag("Site", site), pbn_tag("Date", _pbn_date(date)),
        pbn_tag("Board", str(board)),
        *(pbn_tag(seat, name) for seat, name in zip(("West", "North", "East", "South"), players, strict=True)),
        pbn_tag("Dealer", dealer), pbn_tag("Vulnerable", vulnerable), pbn_tag("Deal", deal),
        pbn_tag("Scoring", scoring),
        pbn_tag("Declarer", declarer), pbn_tag("Contract", contract_text), pbn_tag("Result", result),
    ]


def _contract_cell(contract: str) -> str | None:
    """A ScoreTable contract as the Contract tag writes it ("3NTX", "Pass"); None (-) for
    none. A file's text that is no contract (only a parsed file has one: a stored line's
    contract always is) is kept as written, so our reader gives it back."""
    if not contract.strip():
        return None
    if is_pass(contract) or contract.strip().upper() in PASSED_OUT_CONTRACTS:
        return PASSED_OUT
    try:
        return str(parse_contract(contract))
    except ScoringError:
        return contract.strip()


def _is_contract(text: str) -> bool:
    try:
        parse_contract(text)
    except ScoringError:
        return False
    return True


def _contract_tags(line: ParsedLine | None) -> tuple[str, str, str]:
    """Declarer, Contract and Result of the board's first line, in the standard's spelling."""
    if line is None:
        return ("?", "?", "?")
    return contract_tags(line.contract, line.declarer, line.tricks)


def contract_tags(contract_text: str, declarer: str, tricks: int | None) -> tuple[str, str, str]:
    """Declarer, Contract and Result tags of one line, in the standard's spelling ("?" for
    an adjusted score; a passed-out board's Declarer and Result empty)."""
    contract = _contract_cell(contract_text)
    if contract == PASSED_OUT:
        return "", PASSED_OUT, ""
    if contract is None or not _is_contract(contract):
        return ("?", "?", "?")  # an adjusted score, or a contract the director wrote freely
    return declarer if declarer in SEATS else "?", contract, "?" if tricks is None else str(tricks)


def deal_from(deal: str, dealer: str, number: int) -> str:
    """The deal starting from the dealer, as export format asks ("-" for an unknown hand)."""
    hands = hands_by_seat(deal, f"board {number}")
    start = SEATS.index(dealer) if dealer in SEATS else 0
    seats = [SEATS[(start + offset) % 4] for offset in range(4)]
    return f"{seats[0]}:" + " ".join(hands.get(seat, "-") for seat in seats)


def _pbn_date(text: str) -> str:
    """YYYY.MM.DD, with the standard's question marks when the date is unknown."""
    parts = date_parts(text)
    if parts is None:
        return text.strip() or "????.??.??"
    year, month, day = parts
    return f"{year:04d}.{month:02d}.{day:02d}"


def pbn_tag(name: str, value: str) -> str:
    """One tag line: [Name "value"], the value escaped onto one line."""
    return f'[{name} "{_escape(value)}"]'


def _cell(value: str | None) -> str:
    """A table cell: bare when it is a simple token, quoted otherwise, "-" when missing."""
    if value is None or value == "":
        return MISSING
    return value if BARE_CELL.fullmatch(value) else _string_cell(value)


def _whole_number_cell(value: int | None) -> str:
    return MISSING if value is None else str(value)


def _string_cell(value: str) -> str:
    return f'"{_escape(value)}"'


def _escape(value: str) -> str:
    """A PBN string's content: one line, no control characters, \\ and " escaped."""
    one_line = " ".join(without_control_characters(value).replace("\t", " ").splitlines())
    return one_line.replace("\\", "\\\\").replace('"', '\\"')
