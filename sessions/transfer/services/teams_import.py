"""Importing a team-of-four results file as a new teams event.

File -> ParsedTeamEvent (sessions.formats.teams) -> the database, in one transaction:
the event, its teams (players found or added in the club list), its matches and
each room's line, written through the services' notation (the same checks as a
director's entry). The event gets the VP scale that reproduces the file's published
VPs (the first of the scales that does, else the WBF 2013 scale, with a note), and the
import then rescores the stored event and compares it with the file: every
difference is reported, nothing is trusted from the file but the lines.
"""

from __future__ import annotations

import datetime
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from sessions.formats import FormatError
from sessions.formats.teams import ParsedRoom, ParsedTeamEvent, score_parsed_teams
from sessions.formats.teams_pbn import parse_pbn_teams
from sessions.formats.teams_realbridge import is_realbridge_teams, parse_realbridge_teams
from sessions.formats.usebio import is_usebio_teams_file, parse_usebio_teams
from sessions.models import BamPoints, Club, Match, MatchLine, Room, TeamEvent, TeamEventForm, VpScale
from sessions.scoring.errors import ScoringError
from sessions.scoring.team_events import MatchScoring, MatchSettings
from sessions.teams.selectors.teams import team_event_score
from sessions.clubs.services.players import players_find_or_add
from sessions.pairs.services.results import fill_line
from sessions.core.services.unit_of_work import unit, write
from sessions.teams.services.teams import team_add, team_event_create, team_event_mark_final, team_event_publish
from sessions.core.text import clean_name

from sessions.transfer.services.importing import ImportRefused, check_publish

#: Scales tried, in this order, for the one that reproduces a file's published VPs.
SCALES_TRIED = (VpScale.WBF_2013, VpScale.TWENTY, VpScale.THIRTY, VpScale.THREE_BOARDS)


#: Match lengths tried for a Ruter PBN, which does not say how many boards a match had.
PBN_MATCH_LENGTHS = range(1, 65)


def is_teams_file(data: bytes) -> bool:
    """A USEBIO teams event, a PBN with a ScoreTable of team matches, or RealBridge's per-table PBN."""
    if is_usebio_teams_file(data) or is_realbridge_teams(data):
        return True
    head = data[:200_000]
    return b"[ScoreTable" in head and b"TeamId_Home" in head


def _read(data: bytes) -> tuple[ParsedTeamEvent, str, list[str]]:
    """The parsed event, the VP scale that reproduces it and notes (FormatError if unreadable)."""
    if is_usebio_teams_file(data):
        parsed = parse_usebio_teams(data)
        scale, notes = _reproducing_scale(parsed)
        return parsed, scale, notes
    if is_realbridge_teams(data):
        parsed = parse_realbridge_teams(data)
        scale, notes = _reproducing_scale(parsed)
        return parsed, scale, notes
    # Ruter's PBN: the first match length (and scale) that gives the file's VPs.
    for boards in PBN_MATCH_LENGTHS:
        parsed = parse_pbn_teams(data, boards_per_match=boards)
        scale, notes = _reproducing_scale(parsed)
        if not notes:
            return parsed, scale, [f"matches of {boards} boards: the length that gives the file's VPs"]
    return parsed, scale, notes


@dataclass(frozen=True)
class TeamsImportReport:
    event: TeamEvent
    program: str
    teams: int
    matches: int
    lines: int
    differences: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: What the file publishes, all of which was compared (RealBridge's PBN gives IMPs only).
    agreement: str = "every match's VPs, every team's total and place are the file's"

    def summary(self) -> list[str]:
        lines = [
            f"program: {self.program or 'unknown'}",
            f"teams event {self.event.name!r}: {self.event.get_scoring_display()}"
            + (f", {self.event.get_vp_scale_display()}" if self.event.scoring == MatchScoring.IMPS_TO_VPS.value else ""),
            f"teams: {self.teams}, matches: {self.matches}, room lines: {self.lines}",
        ]
        if self.differences:
            lines += [f"differs from the file: {difference}" for difference in self.differences]
        else:
            lines.append(self.agreement)
        return lines + [f"note: {note}" for note in self.notes]


def _room_text(room: ParsedRoom) -> str:
    """The room's line in the pairs notation ("3NT E +2", "P", "NP", "A60/40")."""
    if room.score == "PASS":
        return "P"
    if room.score == "NP":
        return "NP"
    if room.score.startswith("A"):
        return f"A{int(room.score[1:3])}/{int(room.score[3:5])}"
    contract = room.contract.upper().replace(" ", "")
    level = int(contract[0]) if contract[:1].isdigit() else None
    if level is None or room.tricks is None or not room.declarer:
        return f"NS {room.score}"  # no contract to show: the score as assigned
    made = room.tricks - 6 - level
    return f"{contract} {room.declarer} {'=' if made == 0 else f'{made:+d}'}"


def _vps_match(ours, theirs) -> bool:
    """Two (home, away) VP (or IMP) pairs are the same figures (Fractions, Decimals or None)."""
    return all(a is not None and b is not None and Fraction(a) == Fraction(b) for a, b in zip(ours, theirs))


def _reproducing_scale(parsed: ParsedTeamEvent) -> tuple[str, list[str]]:
    """The first scale whose VPs are the file's for every match (else WBF 2013, noted)."""
    if parsed.scoring == MatchScoring.BOARD_A_MATCH.value:
        return VpScale.WBF_2013, []
    published = [(m.published_team_score, m.published_opponents_score) for m in parsed.matches]
    if all(None in vps for vps in published):
        return VpScale.WBF_2013, ["the file gives no VPs: scored on the WBF 2013 scale"]
    for scale in SCALES_TRIED:
        scored = score_parsed_teams(parsed, MatchSettings(vp_scale=scale))
        if all(_vps_match((o.home_vp, o.away_vp), p) for o, p in zip(scored.outcomes, published) if None not in p):
            return scale, []
    return VpScale.WBF_2013, ["no VP scale reproduces the file's VPs: scored on the WBF 2013 scale"]


def _reproducing_bam_points(parsed: ParsedTeamEvent) -> tuple[int, list[str]]:
    """A board-a-match file's points for a won board: the first of 1 / ½ / 0 and 2 / 1 / 0
    (EBUScoreTeams' scale) that gives the file's published match scores (else 1, noted)."""
    if parsed.scoring != MatchScoring.BOARD_A_MATCH.value:
        return BamPoints.ONE, []
    published = [(m.published_team_score, m.published_opponents_score) for m in parsed.matches]
    if all(None in points for points in published):
        return BamPoints.ONE, []
    for points in BamPoints:
        scored = score_parsed_teams(parsed, MatchSettings(scoring=MatchScoring.BOARD_A_MATCH, bam_win=points.value))
        if all(_vps_match((o.home_vp, o.away_vp), p) for o, p in zip(scored.outcomes, published) if None not in p):
            return points, []
    return BamPoints.ONE, ["no board-a-match scale gives the file's match scores: scored 1 / ½ / 0 a board"]


def _date(text: str) -> datetime.date:
    for pattern in ("%d/%m/%Y", "%Y-%m-%d", "%Y.%m.%d", "%d.%m.%Y"):
        try:
            return datetime.datetime.strptime(text.strip(), pattern).date()
        except ValueError:
            continue
    return datetime.date.today()


def _event_name(club: Club, parsed: ParsedTeamEvent, filename: str) -> str:
    base = clean_name(parsed.title) or filename
    name, copy = base[:110], 1
    while TeamEvent.objects.filter(club=club, name=name).exists():
        copy += 1
        name = f"{base[:110]} ({copy})"
    return name


def _form(parsed: ParsedTeamEvent) -> str:
    meetings = {frozenset((m.team, m.opponents)) for m in parsed.matches}
    count = len(parsed.teams)
    complete = len(meetings) == len(parsed.matches) == count * (count - 1) // 2
    return TeamEventForm.ROUND_ROBIN if complete else TeamEventForm.SWISS


@dataclass(frozen=True)
class TeamsFile:
    """A teams file read: the parsed event, the VP scale that reproduces it, and notes."""

    parsed: ParsedTeamEvent
    scale: str
    notes: list[str]
    bam_points: int = BamPoints.ONE

    @property
    def lines(self) -> int:
        return sum(
            (board.open_room is not None) + (board.closed_room is not None)
            for match in self.parsed.matches for board in match.boards
        )


def teams_read(*, data: bytes) -> TeamsFile:
    """Read a teams results file (nothing stored); ImportRefused when it cannot be read."""
    try:
        parsed, scale, notes = _read(data)
        bam_points, bam_notes = _reproducing_bam_points(parsed)
    except (FormatError, ScoringError) as error:
        raise ImportRefused(str(error)) from None
    return TeamsFile(parsed, scale, [*notes, *bam_notes], bam_points)


@write
def teams_store(
    *, club: Club, read: TeamsFile, filename: str, user: AbstractBaseUser | None = None, publish: str = "",
) -> TeamsImportReport:
    """Store a teams file read by teams_read as a new teams event of ``club``, all or nothing;
    published (and marked final) as ``publish`` says (importing.PUBLISH_CHOICES): an event
    that cannot be (a match with no result, to be marked final) is refused whole."""
    check_publish(publish)
    parsed = read.parsed
    try:
        with transaction.atomic():
            event, lines = _store(club, read, filename, user)
            if publish:
                event = team_event_publish(event=event)
            if publish == "final":
                event = team_event_mark_final(event=event)
    except ValidationError as error:
        raise ImportRefused("; ".join(error.messages)) from None
    except IntegrityError as error:  # a line the constraints refuse (two lines for one room, say)
        raise ImportRefused(f"the file holds a line the database refuses ({error}): nothing was imported") from None
    return TeamsImportReport(
        event=event, program=parsed.program, teams=len(parsed.teams), matches=len(parsed.matches), lines=lines,
        differences=_compare(event, parsed), notes=[*parsed.notes, *read.notes, *_unplayed(parsed)],
        **_agreement(parsed),
    )


def teams_import(
    *, club: Club, data: bytes, filename: str, user: AbstractBaseUser | None = None, publish: str = "",
) -> TeamsImportReport:
    """Import a teams results file as a new teams event of ``club``; ImportRefused stores nothing."""
    check_publish(publish)
    return teams_store(club=club, read=teams_read(data=data), filename=filename, user=user, publish=publish)


def _unplayed(parsed: ParsedTeamEvent) -> list[str]:
    """A league file in progress lists its whole schedule: the matches with no score yet
    are stored as scheduled (no IMPs, no lines), and said."""
    waiting = [m for m in parsed.matches if not m.boards and m.published_team_imps is None
               and m.published_team_score is None]
    if not waiting:
        return []
    rounds = ", ".join(str(number) for number in sorted({m.round for m in waiting}))
    count = len(waiting)
    return [f"{count} match{'es' if count != 1 else ''} not played yet (round{'s' if ',' in rounds else ''} "
            f"{rounds}): kept as the schedule"]


def _agreement(parsed: ParsedTeamEvent) -> dict[str, str]:
    """The summary's line when nothing differs, for a file that publishes IMPs alone."""
    if any(m.published_team_score is not None for m in parsed.matches) or any(
            t.published_total is not None for t in parsed.teams):
        return {}
    return {"agreement": "every match's IMPs are the file's (it publishes no VPs, totals or places)"}


def _store(club: Club, read: TeamsFile, filename: str, user) -> tuple[TeamEvent, int]:
    parsed = read.parsed
    boards = Counter(match.board_count for match in parsed.matches).most_common(1)[0][0]
    event = team_event_create(
        club=club, name=_event_name(club, parsed, filename), date=_date(parsed.date), form=_form(parsed),
        scoring=parsed.scoring, vp_scale=read.scale, bam_points=read.bam_points, boards_per_match=boards,
    )
    # Every team's players found or added at once (the club's list read once, one insert).
    typed = [(p.name, p.national_id) for team in parsed.teams for p in team.players]
    found = iter(players_find_or_add(club=club, typed=typed))
    teams = {}
    for team in parsed.teams:
        players = [player for player in (next(found) for _ in team.players) if player is not None]
        try:
            teams[team.key] = team_add(event=event, name=team.name, players=players,
                                       number=int(team.key) if team.key.isdigit() else None)
        except ValidationError as error:
            raise ValidationError(f"team {team.key} ({team.name}): {'; '.join(error.messages)}") from None
    lines: list[MatchLine] = []
    for parsed_match in parsed.matches:
        match = Match(event=event, round=parsed_match.round, home=teams[parsed_match.team],
                      away=teams[parsed_match.opponents], first_board=parsed_match.first_board,
                      boards=parsed_match.board_count)
        if not parsed_match.boards and parsed_match.published_team_imps is not None:
            match.home_imps, match.away_imps = parsed_match.published_team_imps, parsed_match.published_opponents_imps
        # As a line's: its own fields here, its constraints the database's on insert.
        match.full_clean(exclude=["event", "home", "away"], validate_constraints=False)
        match.save()
        for board in parsed_match.boards:
            for room, parsed_room in ((Room.OPEN, board.open_room), (Room.CLOSED, board.closed_room)):
                if parsed_room is not None:
                    lines.append(_room_line(match, board.number, room, parsed_room, user))
    # Many rows a statement: the database's constraints check them (an IntegrityError
    # rolls the whole import back), each line's own fields were checked above.
    MatchLine.objects.bulk_create(lines, batch_size=500)
    unit().touch(team_events=[event])  # its matches and lines are written here, not by the services
    return event, len(lines)


def _room_line(match: Match, number: int, room: str, parsed: ParsedRoom, user) -> MatchLine:
    """One room's line, read and checked (not saved): the notation's checks and the file's score."""
    line = MatchLine(match=match, board=number, room=room, updated_by=user)
    where = f"round {match.round} {match.home} v {match.away}, board {number} {room} room"
    try:
        fill_line(line, _room_text(parsed), "", number)
    except ValidationError as error:
        raise ValidationError(f"{where}: {'; '.join(error.messages)}") from None
    expected = parsed.score if parsed.score not in ("PASS",) else "0"
    if line.ns_score is not None and expected.lstrip("-").isdigit() and line.ns_score != int(expected):
        raise ValidationError(
            f"{where}: {line.text} scores {line.ns_score}, but the file says {parsed.score}"
        )
    # Its own fields only: the match and the user were just stored, and the uniqueness and
    # check constraints (a query each, most of the import's time) are the database's on insert.
    line.full_clean(exclude=["match", "updated_by"], validate_unique=False, validate_constraints=False)
    return line


def _compare(event: TeamEvent, parsed: ParsedTeamEvent) -> list[str]:
    """Where the stored event, rescored, differs from the file's published figures."""
    score = team_event_score(event)
    differences = []
    # Keyed on the round as the file wrote it, the two teams and the first board (the same
    # teams may meet twice in a Swiss).
    stored = {(m.match.round, m.match.home.name, m.match.away.name if m.match.away else "", m.match.first_board): m
              for m in score.matches}
    names = {team.key: clean_name(team.name) for team in parsed.teams}
    for published in parsed.matches:
        scored = stored[published.round, names[published.team], names[published.opponents], published.first_board]
        where = f"round {published.round} team {published.team} v {published.opponents}"
        ours = (scored.home_vp, scored.away_vp)
        theirs = (published.published_team_score, published.published_opponents_score)
        if None not in theirs and not _vps_match(ours, theirs):
            differences.append(f"{where}: ours {ours[0]}-{ours[1]}, the file's {theirs[0]}-{theirs[1]}")
        imps = (published.published_team_imps, published.published_opponents_imps)
        our_imps = (scored.outcome.home_points, scored.outcome.away_points) if scored.outcome else (None, None)
        if None not in imps and not _vps_match(our_imps, imps):
            differences.append(f"{where}: IMPs ours {our_imps[0]}-{our_imps[1]}, the file's {imps[0]}-{imps[1]}")
    places = {line.team: line for line in score.standings}
    for team in parsed.teams:
        stored_team = next(t for t in score.teams if t.name == names[team.key])
        line = places[stored_team.pk]
        if team.published_total is not None and line.vp != Fraction(team.published_total):
            differences.append(f"team {team.key} total: ours {line.vp}, the file's {team.published_total}")
        if team.published_place is not None and line.place != team.published_place:
            differences.append(f"team {team.key} place: ours {line.place}, the file's {team.published_place}")
    return differences
