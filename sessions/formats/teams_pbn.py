"""Ruter's PBN team results: the ScoreTable of matches and the TotalScoreTable of teams.

Ruter writes a Swiss or round robin teams event as one game with two tables (no
traveller lines): ScoreTable has a row per match (Round, TeamId_Home, TeamId_Away,
MatchDetails "segment,IMPs home,IMPs away|...|200,total home,total away" with "-"
for a segment not played, VP_Home, VP_Away; a league file in progress lists the whole
schedule, its rounds not played yet "-" in every column but the teams), and TotalScoreTable a row per team
(Rank, TeamId, TotalScoreVP, TeamName, the roster as "name - name - ..."). The file
does not say how many boards a match had: the caller says (the VPs depend on it).

write_pbn_teams writes a full PBN 2.1 teams file in the standard's export format: one
game per board per room played, with the 15 mandatory tags in the standard's order
(the players "?" unless the event knows who sat where; Deal from the hand record, ""
without one; Scoring "IMP" or "BAM"; Declarer, Contract and Result of that room's
line, "?" for an adjusted score, "Pass" with the other two empty for a board passed
out), then the supplemental tags sorted by name: Competition "Teams", HomeTeam and
VisitTeam (the match's teams: the home team sits North-South in Room "Open" and
East-West in "Closed"), Round, Score ("NS 420" / "EW 50") and ScoreIMP (both sides'
IMPs on the board). The standard's Table is left out: a match has no table number
here (and Table with HomeTeam is what marks RealBridge's per-table files). The first
game also carries Ruter's two tables (the match totals and VPs, the teams' totals,
places and rosters; tables in tag-name order, no column widths, which would ask for
padded cells), so our reader reads the file back from them (not tried in Ruter
itself). Lines are at most 255 characters with their CRLF (a roster too long for
its row keeps the names that fit), Latin-1 when every character fits.
"""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

from sessions.scoring.boards import dealer as dealer_of_board
from sessions.scoring.boards import vulnerability as vulnerability_of_board

from sessions.formats.common import decimal_or_none, int_or_none, shown
from sessions.formats.errors import FormatError
from sessions.formats.model import ParsedPlayer
from sessions.formats.pbn import _Document, _place, _Row
from sessions.formats.pbn_write import _cell as _key_cell
from sessions.formats.pbn_write import (
    EXPORT_VULNERABILITY,
    MAX_LINE,
    NEWLINE,
    _string_cell,
    contract_tags,
    deal_from,
    mandatory_tags,
    pbn_document,
    pbn_tag,
)
from sessions.formats.teams import ParsedMatch, ParsedRoom, ParsedTeam, ParsedTeamBoard, ParsedTeamEvent
from sessions.formats.writing import two_decimals

#: MatchDetails' segment number for the match total.
TOTAL_SEGMENT = "200"


def parse_pbn_teams(data: bytes, *, boards_per_match: int) -> ParsedTeamEvent:
    """A Ruter teams PBN (ScoreTable of matches); FormatError when the file has none."""
    document = _Document.read(data)
    game = next((g for g in document.games if "ScoreTable" in g.tags and "TeamId_Home" in g.value("ScoreTable")), None)
    if game is None:
        raise FormatError("the PBN file has no ScoreTable of team matches (TeamId_Home, TeamId_Away)")
    teams = [_team(row) for row in document.table(game.tags["TotalScoreTable"], "the game")] \
        if "TotalScoreTable" in game.tags else []
    matches = [_match(row, boards_per_match) for row in document.table(game.tags["ScoreTable"], "the game")]
    known = {team.key for team in teams}
    for match in matches:
        for key in (match.team, match.opponents):
            if key not in known:
                teams.append(ParsedTeam(key, f"Team {key}", [], None, None))
                known.add(key)
    meta = document.meta()
    return ParsedTeamEvent(
        source_format="pbn",
        program=" ".join(filter(None, (meta.get("Generator", ""), meta.get("Version", "")))),
        scoring="imps",
        title=game.value("Event"),
        date=game.value("Date"),
        club=game.value("Site"),
        teams=teams,
        matches=matches,
    )


def _team(row: _Row) -> ParsedTeam:
    key = row.get("TeamId")
    if not key:
        raise FormatError(f"line {row.line}: a TotalScoreTable row has no TeamId")
    roster = [name.strip() for name in row.get("Roster").split(" - ") if name.strip()]
    return ParsedTeam(
        key=key,
        name=row.get("TeamName") or f"Team {key}",
        players=[ParsedPlayer(name) for name in roster],
        published_total=decimal_or_none(row.get("TotalScoreVP"), f"line {row.line}"),
        published_place=_place(row),
    )


def _match(row: _Row, boards: int) -> ParsedMatch:
    where = f"line {row.line}"
    home, away = row.get("TeamId_Home"), row.get("TeamId_Away")
    if not home or not away:
        raise FormatError(f"{where}: a ScoreTable row needs TeamId_Home and TeamId_Away")
    home_imps, away_imps = _total(row.get("MatchDetails"), where)
    return ParsedMatch(
        round=int_or_none(row.get("Round"), where) or 1,
        team=home, opponents=away, first_board=1, last_board=boards,
        published_team_score=decimal_or_none(row.get("VP_Home"), where),
        published_opponents_score=decimal_or_none(row.get("VP_Away"), where),
        boards=[], published_team_imps=home_imps, published_opponents_imps=away_imps,
    )


def _total(details: str, where: str) -> tuple[Decimal | None, Decimal | None]:
    """The match's IMP totals from MatchDetails (None, None for a match not played: a
    segment of "-", or a league file's round not played yet, "-" in every column)."""
    if details.strip() in ("", "-"):
        return None, None
    for segment in details.split("|"):
        parts = segment.split(",")
        if len(parts) == 3 and parts[0].strip() == TOTAL_SEGMENT:
            if "-" in (parts[1].strip(), parts[2].strip()):
                return None, None
            return decimal_or_none(parts[1], where), decimal_or_none(parts[2], where)
    raise FormatError(f"{where}: MatchDetails {shown(details)} has no total (segment {TOTAL_SEGMENT})")


# --- writing ---------------------------------------------------------------------------------

#: The Scoring tag of a teams game (PBN 2.1, 3.4.12), by the event's scoring.
TEAMS_SCORING_TAGS = {"imps": "IMP", "bam": "BAM"}
#: Who sits where in a room, from the match's home team: North-South in the open room.
ROOMS = (("Open", "home"), ("Closed", "away"))


def write_pbn_teams(event: ParsedTeamEvent) -> bytes:
    """The teams event as a PBN 2.1 file in export format: one game per board per room
    played (its 15 mandatory tags, then Competition, HomeTeam, Room, Round, Score,
    ScoreIMP and VisitTeam, sorted as the standard asks), Ruter's two tables (matches,
    then teams) in the first game. A room not played (NP) has no game; an event of
    matches known only by their totals has one game, the first board's, for the tables."""
    scoring = TEAMS_SCORING_TAGS.get(event.scoring)
    if scoring is None:
        raise FormatError(f"cannot write PBN teams for scoring {event.scoring!r}: IMPs or board-a-match")
    names = {team.key: team.name for team in event.teams}
    games = [
        _room_game(event, scoring, names, match, board, room, ns_team)
        for match in event.matches
        for board in sorted(match.boards, key=lambda board: board.number)
        for room, ns_team in ROOMS
        if _played(board.open_room if room == "Open" else board.closed_room)
    ]
    tables = _score_table(event) + _total_score_table(event)
    if games:
        games[0].extend(tables)
    else:
        first_board = min((match.first_board for match in event.matches), default=1)
        games = [[*_board_tags(event, scoring, first_board), pbn_tag("Competition", "Teams"), *tables]]
    return pbn_document(games)


def _played(room: ParsedRoom | None) -> bool:
    return room is not None and room.score != "NP"


def _board_tags(event: ParsedTeamEvent, scoring: str, number: int, *, deal: str = "", room: ParsedRoom | None = None,
                ) -> list[str]:
    """The mandatory tags of one board (of one room: its players, contract and result)."""
    dealer = dealer_of_board(number).value
    if room is None:
        players = ("", "", "", "")  # the tables' game: no one room's players
    else:  # unknown ("?") unless the file said who sat where
        players = room.players if len(room.players) == 4 else ("?", "?", "?", "?")
    return mandatory_tags(
        event.title, event.club, event.date, number, scoring,
        dealer=dealer, vulnerable=EXPORT_VULNERABILITY[vulnerability_of_board(number).value],
        deal=deal_from(deal, dealer, number) if deal else "",
        contract=contract_tags(room.contract, room.declarer, room.tricks) if room is not None else ("", "", ""),
        players=players,
    )


def _room_game(event: ParsedTeamEvent, scoring: str, names: dict[str, str], match: ParsedMatch,
               board: ParsedTeamBoard, room_name: str, ns_team: str) -> list[str]:
    room = board.open_room if room_name == "Open" else board.closed_room
    assert room is not None
    lines = _board_tags(event, scoring, board.number, deal=board.deal, room=room)
    lines.append(pbn_tag("Competition", "Teams"))
    lines.append(pbn_tag("HomeTeam", names.get(match.team, match.team)))
    lines.append(pbn_tag("Room", room_name))
    lines.append(pbn_tag("Round", str(match.round)))
    score = _score_tag(room.score)
    if score:
        lines.append(pbn_tag("Score", score))
    if scoring == "IMP" and board.published_imps is not None and board.open_room and board.closed_room:
        home = board.published_imps + 0  # -0 is 0
        ns, ew = (home, -home) if ns_team == "home" else (-home, home)
        lines.append(pbn_tag("ScoreIMP", f"NS {_figure(ns)} EW {_figure(ew)}"))
    lines.append(pbn_tag("VisitTeam", names.get(match.opponents, match.opponents)))
    return lines


def _score_tag(score: str) -> str:
    """The Score tag (4.2.1) from the side that scored, as RealBridge writes it ("NS 420",
    "EW 50"); a passed-out board "NS 0"; none for an adjusted score."""
    if score == "PASS":
        return "NS 0"
    if not score.lstrip("-").isdigit():
        return ""
    value = int(score)
    return f"NS {value}" if value >= 0 else f"EW {-value}"


def _figure(value: Decimal) -> str:
    """IMPs as the standard writes them: a whole number, or a decimal with a dot."""
    return str(int(value)) if value == value.to_integral_value() else str(value.normalize())


def _cell(value: str | None) -> str:
    return "-" if not value else _string_cell(value) if not value.replace(".", "").isdigit() else value


def _score_table(event: ParsedTeamEvent) -> list[str]:
    lines = [pbn_tag("ScoreTable", "Round;TeamId_Home;TeamId_Away;MatchDetails;VP_Home;VP_Away")]
    for match in event.matches:
        home, away = two_decimals(match.published_team_imps), two_decimals(match.published_opponents_imps)
        details = f"{TOTAL_SEGMENT},{home or '-'},{away or '-'}"
        lines.append(" ".join((str(match.round), _key_cell(match.team), _key_cell(match.opponents), _string_cell(details),
                               _cell(two_decimals(match.published_team_score)),
                               _cell(two_decimals(match.published_opponents_score)))))
    return lines


def _total_score_table(event: ParsedTeamEvent) -> list[str]:
    """The teams; a shared place ("3=") is its Rank with Ruter's RankTie, the last place
    of the tie (as the pairs export writes it), so "3=" reads back as "3="."""
    tied = any((team.published_place or "").endswith("=") for team in event.teams)
    columns = "Rank;RankTie;TeamId;TotalScoreVP;TeamName;Roster" if tied else "Rank;TeamId;TotalScoreVP;TeamName;Roster"
    sharing = Counter(team.published_place for team in event.teams)
    lines = [pbn_tag("TotalScoreTable", columns)]
    for team in event.teams:
        place = team.published_place or ""
        rank = place.removesuffix("=")
        cells = [_cell(rank)]
        if tied:
            shared = place.endswith("=") and rank.isdigit() and len(rank) <= 6
            cells.append(str(int(rank) + sharing[place] - 1) if shared else "-")
        cells += [_key_cell(team.key), _cell(two_decimals(team.published_total)), _string_cell(team.name)]
        start = " ".join(cells)
        lines.append(f"{start} {_roster_cell(start, [player.name for player in team.players])}")
    return lines


def _roster_cell(start: str, names: list[str]) -> str:
    """Ruter's roster ("name - name - ..."), as many names as keep the row within the
    standard's 255 characters (a team of six with long names would not fit)."""
    for count in range(len(names), -1, -1):
        cell = _string_cell(" - ".join(names[:count]))
        if len(start) + 1 + len(cell) + len(NEWLINE) <= MAX_LINE:
            return cell
    return '""'
