"""Ruter's PBN team results: the ScoreTable of matches and the TotalScoreTable of teams.

Ruter writes a Swiss or round robin teams event as one game with two tables (no
traveller lines): ScoreTable has a row per match (Round, TeamId_Home, TeamId_Away,
MatchDetails "segment,IMPs home,IMPs away|...|200,total home,total away" with "-"
for a segment not played, VP_Home, VP_Away; a league file in progress lists the whole
schedule, its rounds not played yet "-" in every column but the teams), and TotalScoreTable a row per team
(Rank, TeamId, TotalScoreVP, TeamName, the roster as "name - name - ..."). The file
does not say how many boards a match had: the caller says (the VPs depend on it).

write_pbn_teams writes the same two tables (the match totals and VPs, the teams'
totals, places and rosters), so our reader reads it back (not tried in Ruter itself),
in the standard's export format where Ruter is not (its mandatory tags, the tables in
tag-name order, no column widths, which would ask for padded cells).
"""

from __future__ import annotations

from decimal import Decimal

from .common import decimal_or_none, int_or_none, shown
from .errors import FormatError
from .model import ParsedPlayer
from .pbn import _Document, _Row
from .pbn_write import _string_cell, mandatory_tags, pbn_document, pbn_tag
from .teams import ParsedMatch, ParsedTeam, ParsedTeamEvent
from .writing import two_decimals

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
        published_place=row.get("Rank") or None,
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


def write_pbn_teams(event: ParsedTeamEvent) -> bytes:
    """The teams event as one PBN game with Ruter's two tables (matches, then teams), in
    export format: the 15 mandatory tags (Board: the event's first board, so every
    reader finds the positive number the standard asks for; no deal, contract or
    players, which do not apply to a whole event), then the tables in tag-name order."""
    def cell(value: str | None) -> str:
        return "-" if not value else _string_cell(value) if not value.replace(".", "").isdigit() else value

    first_board = min((match.first_board for match in event.matches), default=1)
    lines = mandatory_tags(event.title, event.club, event.date, first_board, "Teams")
    lines.append(pbn_tag("Competition", "Teams"))
    lines.append(pbn_tag("ScoreTable", "Round;TeamId_Home;TeamId_Away;MatchDetails;VP_Home;VP_Away"))
    for match in event.matches:
        home, away = two_decimals(match.published_team_imps), two_decimals(match.published_opponents_imps)
        details = f"{TOTAL_SEGMENT},{home or '-'},{away or '-'}"
        lines.append(" ".join((str(match.round), match.team, match.opponents, _string_cell(details),
                               cell(two_decimals(match.published_team_score)),
                               cell(two_decimals(match.published_opponents_score)))))
    lines.append(pbn_tag("TotalScoreTable", "Rank;TeamId;TotalScoreVP;TeamName;Roster"))
    for team in event.teams:
        roster = " - ".join(player.name for player in team.players)
        lines.append(" ".join((cell((team.published_place or "").rstrip("=")), team.key,
                               cell(two_decimals(team.published_total)), _string_cell(team.name), _string_cell(roster))))
    return pbn_document([lines])
