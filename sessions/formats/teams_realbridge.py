"""RealBridge's per-table PBN of a teams round: one game per board per table.

Each game names the table's HomeTeam (sitting NS at that table) and VisitTeam, its
Table, the contract (doubles in lower case: "2Dx"), Declarer, Result (tricks), the
Score from one side ("NS 120", "EW 50") and ScoreIMP from that side ("NS 4 EW -4",
"-0" for a push). A match is the two tables where the same two teams meet, each team
home at one of them. The match is seen from the home team of the lower-numbered table:
that table is the open room (home NS), the other the closed room (home EW).

A game without a Score was not played: a match with no Score at all has no boards. A
board's published IMPs are kept only where both tables have a score (RealBridge writes
a ScoreIMP for a board whose other table is missing too, but it does not come from the
match). The file has no totals and no VPs: the match's published IMPs are the sums of
its boards' IMPs, each side's share.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

from sessions.formats.common import board_number, decimal_or_none, int_or_none, normalise_score, shown
from sessions.formats.errors import FormatError
from sessions.formats.model import ParsedPlayer
from sessions.formats.pbn import _Document, _Game
from sessions.formats.teams import ParsedMatch, ParsedRoom, ParsedTeam, ParsedTeamBoard, ParsedTeamEvent

#: Tags that make a PBN RealBridge's per-table teams file.
TABLE_TAGS = ("HomeTeam", "VisitTeam", "Table")


def is_realbridge_teams(data: bytes) -> bool:
    head = data[:200_000]
    return all(f"[{tag} ".encode() in head for tag in TABLE_TAGS)


def parse_realbridge_teams(data: bytes) -> ParsedTeamEvent:
    """The teams round of a RealBridge PBN; FormatError if a table or match does not hold together."""
    document = _Document.read(data)
    games = [game for game in document.games if game.board_number() is not None]
    if not games or not all(game.value(tag) for game in games for tag in TABLE_TAGS):
        raise FormatError("the PBN file is not a RealBridge teams file: every board needs HomeTeam, VisitTeam and Table")
    tables: dict[int, list[_Game]] = defaultdict(list)
    for game in games:
        tables[_table(game)].append(game)
    matches, notes = _matches(tables)
    first = games[0]
    return ParsedTeamEvent(
        source_format="pbn", program=first.value("Site") or "RealBridge", scoring="imps",
        title=first.value("Event"), date=first.value("Date"), club=first.value("Site"),
        teams=_teams(tables), matches=matches, notes=notes,
    )


def _table(game: _Game) -> int:
    number = int_or_none(game.value("Table"), f"line {game.first_line}")
    if number is None:
        raise FormatError(f"line {game.first_line}: Table {shown(game.value('Table'))} is not a number")
    return number


def _home_and_visitors(games: list[_Game]) -> tuple[str, str]:
    teams = {(game.value("HomeTeam"), game.value("VisitTeam")) for game in games}
    if len(teams) != 1:
        raise FormatError(f"line {games[0].first_line}: one table holds the games of {len(teams)} matches")
    return teams.pop()


def _matches(tables: dict[int, list[_Game]]) -> tuple[list[ParsedMatch], list[str]]:
    """Pair the tables where the same two teams meet (the lower-numbered table is the open room)."""
    by_teams: dict[frozenset[str], list[int]] = defaultdict(list)
    for number in sorted(tables):
        by_teams[frozenset(_home_and_visitors(tables[number]))].append(number)
    matches, notes = [], []
    for numbers in by_teams.values():
        if len(numbers) != 2:
            home, visitors = _home_and_visitors(tables[numbers[0]])
            raise FormatError(f"{home} v {visitors} is played at {len(numbers)} tables, not two")
        open_table, closed_table = (tables[number] for number in numbers)
        if _home_and_visitors(open_table) == _home_and_visitors(closed_table):
            raise FormatError(f"tables {numbers[0]} and {numbers[1]}: the same team is home at both")
        match = _match(open_table, closed_table)
        matches.append(match)
        notes.extend(_match_notes(match, numbers))
    return matches, notes


def _match(open_table: list[_Game], closed_table: list[_Game]) -> ParsedMatch:
    home, visitors = _home_and_visitors(open_table)
    open_games = {_number(game): game for game in open_table}
    closed_games = {_number(game): game for game in closed_table}
    numbers = sorted(set(open_games) | set(closed_games))
    boards = [_board(number, open_games.get(number), closed_games.get(number)) for number in numbers]
    boards = [board for board in boards if board.open_room or board.closed_room]
    imps = [board.published_imps for board in boards if board.published_imps is not None]
    return ParsedMatch(
        round=1, team=home, opponents=visitors, first_board=numbers[0], last_board=numbers[-1],
        published_team_score=None, published_opponents_score=None, boards=boards,
        published_team_imps=sum((max(i, Decimal(0)) for i in imps), Decimal(0)) if boards else None,
        published_opponents_imps=sum((max(-i, Decimal(0)) for i in imps), Decimal(0)) if boards else None,
    )


def _number(game: _Game) -> int:
    return board_number(game.value("Board"), f"line {game.first_line}", label="Board")


def _board(number: int, open_game: _Game | None, closed_game: _Game | None) -> ParsedTeamBoard:
    open_room, closed_room = _room(open_game), _room(closed_game)
    imps = None
    if open_room and closed_room and open_game is not None:  # the home team's side: NS at the open table
        imps = _ns_imps(open_game)
    deal = next((game.value("Deal").strip() for game in (open_game, closed_game) if game and game.value("Deal").strip()), "")
    return ParsedTeamBoard(number, open_room, closed_room, imps, deal)


def _room(game: _Game | None) -> ParsedRoom | None:
    """The table's line with NS's score; None when the board was not played there (no Score)."""
    if game is None or not game.value("Score").strip():
        return None
    where = f"line {game.first_line}, board {game.value('Board')} at table {game.value('Table')}"
    contract = game.value("Contract").strip()
    score = normalise_score(_ns_figure(game.value("Score"), where), contract, where)
    declarer = game.value("Declarer").strip().upper()
    tricks = int_or_none(game.value("Result"), where) if score != "PASS" else None
    return ParsedRoom(contract=contract.upper(), declarer=declarer if score != "PASS" else "", tricks=tricks,
                      score=score, players=tuple(game.value(seat).strip() for seat in ("West", "North", "East", "South")))


def _ns_figure(text: str, where: str) -> str:
    """ "NS 120" -> "120", "EW 50" -> "-50" (a bare number is NS's)."""
    parts = text.split()
    if len(parts) == 1:
        return parts[0]
    if len(parts) != 2 or parts[0].upper() not in ("NS", "EW"):
        raise FormatError(f"{where}: Score {shown(text)} is not \"NS n\" or \"EW n\"")
    side, figure = parts[0].upper(), parts[1]
    if side == "NS":
        return figure
    return figure[1:] if figure.startswith("-") else f"-{figure}"


def _ns_imps(game: _Game) -> Decimal | None:
    """NS's IMPs from "NS 4 EW -4" ("-0" is a push)."""
    parts = game.value("ScoreIMP").split()
    where = f"line {game.first_line}"
    sides = dict(zip(parts[::2], parts[1::2]))
    if "NS" in sides:
        value = decimal_or_none(sides["NS"], where)
    elif "EW" in sides:
        value = decimal_or_none(sides["EW"], where)
        value = None if value is None else -value
    else:
        return None
    return None if value is None else value + 0  # -0 becomes 0


def _match_notes(match: ParsedMatch, tables: list[int]) -> list[str]:
    where = f"{match.team} v {match.opponents} (tables {tables[0]} and {tables[1]})"
    if not match.boards:
        return [f"{where}: no table has a score: not played, stored without a result"]
    return [
        f"{where}: board {board.number} has a score at one table only"
        for board in match.boards if board.open_room is None or board.closed_room is None
    ]


def _teams(tables: dict[int, list[_Game]]) -> list[ParsedTeam]:
    """Every team with the players who sat for it (NS at its own table, EW at the other)."""
    players: dict[str, dict[str, None]] = defaultdict(dict)  # ordered sets
    for games in tables.values():
        for game in games:
            for seat, team in (("North", "HomeTeam"), ("South", "HomeTeam"), ("East", "VisitTeam"),
                               ("West", "VisitTeam")):
                if game.value(seat).strip():
                    players[game.value(team)][game.value(seat).strip()] = None
    names = sorted({game.value(tag) for games in tables.values() for game in games for tag in TABLE_TAGS[:2]})
    return [ParsedTeam(name, name, [ParsedPlayer(player) for player in players[name]], None, None)
            for name in names]
