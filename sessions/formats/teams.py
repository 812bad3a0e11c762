"""Team-of-four results files: the parsed model and the USEBIO 1.2 teams reader.

A USEBIO teams file (EVENT_TYPE="TEAMS", written by TeamsScorer) holds, in a SESSION,
the PARTICIPANTS (teams with their pairs numbered "team-player-player") and then the
MATCH elements directly. A MATCH names TEAM and OPPOSING_TEAM, the boards, each side's
published score (VPs, or board-a-match points) and each BOARD's IMPs from TEAM's side
with two TRAVELLER_LINEs, whose DIRECTION says where TEAM's pair sat. The parsed match
is seen from TEAM: the line where TEAM sat NS is the open room, the other the closed
room (the engine's home team convention, sessions.scoring.team_events).

Published figures are kept exactly as printed (Decimals), never recomputed here.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from sessions.scoring.scores import NOT_PLAYED, Artificial, LineScore
from sessions.scoring.team_events import (
    BoardRooms,
    MatchOutcome,
    MatchSettings,
    StandingInput,
    TeamScore,
    score_match,
    score_match_totals,
    standings,
)

from sessions.formats.common import board_number, decimal_or_none, int_or_none, normalise_score, shown
from sessions.formats.errors import FormatError
from sessions.formats.model import ParsedPlayer

#: USEBIO BOARD_SCORING_METHOD / MATCH_SCORING_METHOD spellings, by the engine's scoring.
BOARD_SCORING = {"IMPS": "imps", "IMP": "imps", "PAB": "bam", "BAM": "bam"}
MATCH_SCORING = {"VPS": "imps", "VP": "imps", "PAB": "bam", "BAM": "bam"}


@dataclass
class ParsedTeam:
    key: str  # TEAM_ID as written
    name: str
    players: list[ParsedPlayer]
    published_total: Decimal | None
    published_place: str | None
    published_wins: int | None = None


@dataclass
class ParsedRoom:
    """One room's line: the contract as written and the NS score normalised (ParsedLine.score)."""

    contract: str
    declarer: str
    tricks: int | None
    score: str
    lead: str = ""
    players: tuple[str, ...] = ()  # West, North, East, South, when the file names who sat where


@dataclass
class ParsedTeamBoard:
    number: int
    open_room: ParsedRoom | None  # the match's first team sat NS
    closed_room: ParsedRoom | None  # the match's first team sat EW
    published_imps: Decimal | None  # from the first team's side (or its board points)
    deal: str = ""  # the hand record, a PBN deal ("N:<hand> <hand> <hand> <hand>"), when the file has one


@dataclass
class ParsedMatch:
    round: int
    team: str  # the first team (home): a team key
    opponents: str
    first_board: int
    last_board: int
    published_team_score: Decimal | None  # VPs, or board-a-match points
    published_opponents_score: Decimal | None
    boards: list[ParsedTeamBoard]
    # The match's IMP totals when the file gives only those (Ruter's ScoreTable).
    published_team_imps: Decimal | None = None
    published_opponents_imps: Decimal | None = None

    @property
    def board_count(self) -> int:
        return self.last_board - self.first_board + 1


@dataclass
class ParsedTeamEvent:
    source_format: str
    program: str
    scoring: str  # "imps" (IMPs to VPs) | "bam"
    title: str
    date: str
    club: str
    teams: list[ParsedTeam]
    matches: list[ParsedMatch]
    notes: list[str] = field(default_factory=list)


def is_usebio_teams(event: ET.Element) -> bool:
    return "TEAM" in event.get("EVENT_TYPE", "").upper()


def _text(element: ET.Element, path: str) -> str:
    found = element.find(path)
    return (found.text or "").strip() if found is not None else ""


def read_usebio_teams(root: ET.Element, event: ET.Element) -> ParsedTeamEvent:
    """The teams event of a USEBIO file (root USEBIO, its EVENT); FormatError if malformed."""
    scoring = _scoring(event)
    sessions = event.findall("SESSION") or [event]
    teams: dict[str, ParsedTeam] = {}
    matches: list[ParsedMatch] = []
    for session in sessions:
        for participants in session.findall("PARTICIPANTS"):
            for element in participants.findall("TEAM"):
                team = _team(element)
                if team.key in teams:
                    raise FormatError(f"team {shown(team.key)} is listed twice")
                teams[team.key] = team
        matches.extend(_match(element, teams) for element in session.findall("MATCH"))
    if not teams:
        raise FormatError("the USEBIO teams file lists no TEAM")
    if not matches:
        raise FormatError("the USEBIO teams file has no MATCH")
    return ParsedTeamEvent(
        source_format="usebio",
        program=" ".join(filter(None, (_text(event, "PROGRAM_NAME"), _text(event, "PROGRAM_VERSION")))),
        scoring=scoring,
        title=_text(event, "EVENT_DESCRIPTION"),
        date=_text(event, "DATE"),
        club=_text(root, "CLUB/CLUB_NAME"),
        teams=list(teams.values()),
        matches=matches,
    )


def _scoring(event: ET.Element) -> str:
    board = _text(event, "BOARD_SCORING_METHOD").upper() or "IMPS"
    match = _text(event, "MATCH_SCORING_METHOD").upper() or ("PAB" if board == "PAB" else "VPS")
    if board not in BOARD_SCORING or match not in MATCH_SCORING:
        raise FormatError(
            f"USEBIO teams scoring {shown(board)} / {shown(match)} is not supported: "
            "IMPs to VPs (IMPS / VPS) or board-a-match (PAB)"
        )
    if BOARD_SCORING[board] != MATCH_SCORING[match]:
        raise FormatError(f"USEBIO teams board scoring {board} does not go with match scoring {match}")
    return BOARD_SCORING[board]


def _team(element: ET.Element) -> ParsedTeam:
    key = (element.get("TEAM_ID") or "").strip()
    if not key:
        raise FormatError("a TEAM has no TEAM_ID")
    where = f"team {key}"
    players = [
        ParsedPlayer(_text(player, "PLAYER_NAME"), _text(player, "NATIONAL_ID_NUMBER"))
        for pair in element.findall("PAIR") for player in pair.findall("PLAYER")
    ]
    return ParsedTeam(
        key=key,
        name=(element.get("TEAM_NAME") or "").strip() or f"Team {key}",
        players=players,
        published_total=decimal_or_none(_text(element, "TOTAL_SCORE"), where),
        published_place=_text(element, "PLACE") or None,
        published_wins=int_or_none(_text(element, "WINS_OR_DRAWS"), where),
    )


def _match(element: ET.Element, teams: dict[str, ParsedTeam]) -> ParsedMatch:
    team, opponents = _text(element, "TEAM"), _text(element, "OPPOSING_TEAM")
    where = f"match {shown(team)} v {shown(opponents)}"
    for key in (team, opponents):
        if key not in teams:
            raise FormatError(f"{where}: team {shown(key)} is not among the PARTICIPANTS")
    if team == opponents:
        raise FormatError(f"{where}: a team cannot play itself")
    first = board_number(_text(element, "START_BOARD_NUMBER"), where, "start board number")
    last = board_number(_text(element, "END_BOARD_NUMBER"), where, "end board number")
    if last < first:
        raise FormatError(f"{where}: boards {first} to {last} are the wrong way round")
    boards = [_board(board, where) for board in element.findall("BOARD")]
    outside = [board.number for board in boards if not first <= board.number <= last]
    if outside:
        raise FormatError(f"{where}: board {outside[0]} is outside boards {first} to {last}")
    return ParsedMatch(
        round=int_or_none(_text(element, "ROUND_NUMBER"), where) or 1,
        team=team,
        opponents=opponents,
        first_board=first,
        last_board=last,
        published_team_score=decimal_or_none(_text(element, "TEAM_SCORE"), where)
        if _text(element, "TEAM_SCORE") else decimal_or_none(_text(element, "TEAM_VICTORY_POINTS"), where),
        published_opponents_score=decimal_or_none(_text(element, "OPPOSING_TEAM_SCORE"), where)
        if _text(element, "OPPOSING_TEAM_SCORE") else decimal_or_none(_text(element, "OPPOSING_TEAM_VICTORY_POINTS"), where),
        boards=boards,
    )


def _board(element: ET.Element, match_where: str) -> ParsedTeamBoard:
    number = board_number(_text(element, "BOARD_NUMBER"), match_where)
    where = f"{match_where}, board {number}"
    rooms: dict[str, ParsedRoom] = {}
    for line in element.findall("TRAVELLER_LINE"):
        direction = _text(line, "DIRECTION").upper()
        if direction not in ("NS", "EW"):
            raise FormatError(f"{where}: a line's DIRECTION is {shown(direction)}, not NS or EW")
        if direction in rooms:
            raise FormatError(f"{where}: two lines where the team sat {direction}")
        contract = _text(line, "CONTRACT")
        rooms[direction] = ParsedRoom(
            contract=contract,
            declarer=_text(line, "PLAYED_BY").upper(),
            tricks=int_or_none(_text(line, "TRICKS"), where),
            score=normalise_score(_text(line, "SCORE"), contract, where),
            lead=_text(line, "LEAD"),
        )
    imps = _text(element, "IMPS") or _text(element, "TEAM_POINTS")
    return ParsedTeamBoard(number, rooms.get("NS"), rooms.get("EW"), decimal_or_none(imps, where))


# --- into the engine -----------------------------------------------------------------------


def room_score(room: ParsedRoom | None) -> LineScore | None:
    """A parsed room's NS score as the engine compares it (None: the room has no line)."""
    if room is None:
        return None
    if room.score == "PASS":
        return 0
    if room.score == "NP":
        return NOT_PLAYED
    if room.score.startswith("A"):
        return Artificial(int(room.score[1:3]), int(room.score[3:5]))
    return int(room.score)


def match_rooms(match: ParsedMatch) -> list[BoardRooms]:
    """Every board of the match (boards the file leaves out have no rooms)."""
    by_number = {board.number: board for board in match.boards}
    rooms = []
    for number in range(match.first_board, match.last_board + 1):
        board = by_number.get(number)
        rooms.append(BoardRooms(number, room_score(board.open_room if board else None),
                                room_score(board.closed_room if board else None)))
    return rooms


@dataclass(frozen=True)
class ScoredTeams:
    outcomes: tuple[MatchOutcome, ...]  # one per parsed match, in order
    standings: tuple[TeamScore, ...]  # team keys are the index of the team in the file


def score_parsed_teams(event: ParsedTeamEvent, settings: MatchSettings) -> ScoredTeams:
    """Every match of the file rescored from its lines, and the standings from those."""
    index = {team.key: number for number, team in enumerate(event.teams)}
    outcomes = tuple(_score(match, settings) for match in event.matches)
    played = [(index[match.team], index[match.opponents], outcome) for match, outcome in zip(event.matches, outcomes)]
    return ScoredTeams(outcomes, standings(list(index.values()), StandingInput(played)))


def _score(match: ParsedMatch, settings: MatchSettings) -> MatchOutcome:
    """From the boards; a match the file gives only by its IMP totals, from those."""
    if not match.boards and match.published_team_imps is not None and match.published_opponents_imps is not None:
        return score_match_totals(
            Fraction(match.published_team_imps), Fraction(match.published_opponents_imps), match.board_count, settings
        )
    return score_match(match_rooms(match), settings)
