"""What a teams event's exports hold: the event as a parsed teams file (USEBIO, PBN) and as tables.

Every figure is ours (team_event_score through the engine), never a file's. The
workbook has a Standings sheet and one sheet per round's matches; the CSV is a zip of
standings.csv and matches.csv. The formats are the pairs exports' renderers
(renderers.py, formula-looking text kept as text), paired with these in exporters.py.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from sessions.formats.errors import FormatError
from sessions.formats.model import ParsedPlayer
from sessions.formats.teams import ParsedMatch, ParsedRoom, ParsedTeam, ParsedTeamBoard, ParsedTeamEvent
from sessions.models import MatchLine, MatchStatus, ResultKind, Room
from sessions.scoring.rounding import round_to_places
from sessions.teams.selectors.teams import ScoredMatch, TeamEventScore

from sessions.transfer import report


def _decimal(value: Fraction | Decimal | None) -> Decimal | None:
    return None if value is None else round_to_places(Fraction(value), 2)


def _room(line: MatchLine | None) -> ParsedRoom | None:
    if line is None:
        return None
    if line.kind == ResultKind.PLAYED:
        contract = f"{line.level}{line.strain}{line.doubling}"
        return ParsedRoom(contract, line.declarer, line.tricks, str(line.ns_score), line.lead)
    if line.kind == ResultKind.PASSED:
        return ParsedRoom("PASS", "", None, "PASS")
    if line.kind == ResultKind.ARTIFICIAL:
        return ParsedRoom("", "", None, f"A{line.artificial_ns_percent:02d}{line.artificial_ew_percent:02d}")
    if line.kind == ResultKind.NOT_PLAYED:
        return ParsedRoom("", "", None, "NP")
    if line.ns_score is None:  # a weighted score: USEBIO has no form for it
        raise FormatError(f"board {line.board}: the weighted score {line.text} cannot be written to a results file")
    return ParsedRoom("", "", None, str(line.ns_score))  # an assigned score


def _match(scored: ScoredMatch) -> ParsedMatch:
    match = scored.match
    outcomes = {board.number: board for board in (scored.outcome.boards if scored.outcome else ())}
    boards = []
    for number in match.board_numbers:
        open_room, closed_room = scored.lines.get((number, Room.OPEN)), scored.lines.get((number, Room.CLOSED))
        if open_room is None and closed_room is None:
            continue
        outcome = outcomes.get(number)
        imps = None if outcome is None or outcome.home is None else _decimal(outcome.home - outcome.away)
        boards.append(ParsedTeamBoard(number, _room(open_room), _room(closed_room), imps))
    return ParsedMatch(
        published_team_imps=_decimal(outcome_total(scored, "home")),
        published_opponents_imps=_decimal(outcome_total(scored, "away")),
        round=match.round, team=str(match.home.number), opponents=str(match.away.number),
        first_board=match.first_board, last_board=match.board_numbers[-1],
        published_team_score=_decimal(scored.home_vp), published_opponents_score=_decimal(scored.away_vp),
        boards=boards,
    )


def outcome_total(scored: ScoredMatch, side: str) -> Fraction | None:
    if scored.outcome is None:
        return None
    return scored.outcome.home_points if side == "home" else scored.outcome.away_points


def team_event_to_parsed(score: TeamEventScore) -> ParsedTeamEvent:
    """The event with our figures in the published fields, ready for a writer."""
    event = score.event
    lines = {line.team: line for line in score.standings}
    teams = [
        ParsedTeam(
            key=str(team.number), name=team.name,
            players=[ParsedPlayer(p.name, p.national_number) for p in team.players.all()],
            published_total=_decimal(lines[team.pk].vp), published_place=lines[team.pk].place,
        )
        for team in score.teams
    ]
    matches = [_match(scored) for scored in score.matches if scored.match.away_id is not None]
    return ParsedTeamEvent(
        source_format="usebio", program="ClubScore", scoring=event.scoring, title=event.name,
        date=event.date.isoformat(), club=event.club.name, teams=teams, matches=matches,
    )


# --- tables ---------------------------------------------------------------------------------


def standings_table(score: TeamEventScore) -> report.Table:
    columns = (
        report.Column("Place", 7), report.Column("Team", 6), report.Column("Name", 30),
        *(report.Column(f"After round {r}", 10, report.POINTS) for r in score.rounds),
        report.Column("IMPs for", 10, report.POINTS), report.Column("IMPs against", 10, report.POINTS),
        report.Column("VPs" if score.event.scoring == "imps" else "Points", 10, report.POINTS),
    )
    totals = {upto: {line.team: line.vp for line in lines} for upto, lines in score.by_round.items()}
    rows = tuple(
        (line.place, team.number, team.name,
         *(_decimal(totals[r].get(team.pk)) for r in score.rounds),
         _decimal(line.imps_for), _decimal(line.imps_against), _decimal(line.vp))
        for line, team in score.ranked
    )
    return report.Table("Standings", columns, rows)


MATCH_COLUMNS = (
    report.Column("Round", 7), report.Column("Home", 24), report.Column("Away", 24), report.Column("Boards", 9),
    report.Column("Home IMPs", 10, report.POINTS), report.Column("Away IMPs", 10, report.POINTS),
    report.Column("Home VPs", 10, report.POINTS), report.Column("Away VPs", 10, report.POINTS),
    report.Column("Status", 12),
)


def _match_row(scored: ScoredMatch) -> tuple[report.Value, ...]:
    match, outcome = scored.match, scored.outcome
    return (
        match.round, match.home.name, match.away.name if match.away else "bye",
        f"{match.first_board}-{match.board_numbers[-1]}",
        _decimal(outcome.home_points) if outcome else None, _decimal(outcome.away_points) if outcome else None,
        _decimal(scored.home_vp), _decimal(scored.away_vp),
        match.status if match.status != MatchStatus.PLAYED or scored.complete else "incomplete",
    )


def matches_table(score: TeamEventScore, round: int | None = None) -> report.Table:
    rows = tuple(_match_row(m) for m in score.matches if round is None or m.match.round == round)
    return report.Table(f"Round {round}" if round else "Matches", MATCH_COLUMNS, rows)


def sheets(score: TeamEventScore) -> list[report.Table]:
    """The workbook's: the standings, then each round's matches."""
    return [standings_table(score), *(matches_table(score, round) for round in score.rounds)]


def csv_tables(score: TeamEventScore) -> list[report.Table]:
    """The CSV's: the standings and every match."""
    return [standings_table(score), matches_table(score)]
