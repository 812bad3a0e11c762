"""Scoring a teams event from the database: the one path from stored lines to the engine.

``team_event_score`` reads the event's teams, matches, lines and adjustments (four
queries, whatever the event's size), scores every match through the engine
(sessions.scoring.team_events) and builds the standings after each round. Nothing
scored is stored, so a corrected line or a changed scale shows at once.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

from django.db.models import Q, QuerySet

from sessions.models import Club, Match, MatchLine, MatchLineChange, MatchStatus, Player, Room, Team, TeamAdjustment, TeamEvent
from sessions.scoring import team_events as engine
from sessions.scoring.scores import LineScore

from sessions.core.selectors.engine_input import line_score


@dataclass(frozen=True)
class ScoredMatch:
    """A match with its lines and, once anything is entered, its figures."""

    match: Match
    outcome: engine.MatchOutcome | None
    lines: dict[tuple[int, str], MatchLine]
    #: Every board has both rooms (or the match is known by totals, or not played).
    complete: bool

    @property
    def home_vp(self) -> Fraction | None:
        return self._vp(self.match.home_vp_awarded, "home_vp")

    @property
    def away_vp(self) -> Fraction | None:
        return self._vp(self.match.away_vp_awarded, "away_vp")

    def _vp(self, awarded: object, name: str) -> Fraction | None:
        if self.match.status != MatchStatus.PLAYED:
            return None if awarded is None else Fraction(str(awarded))
        return None if self.outcome is None else Fraction(getattr(self.outcome, name))


@dataclass(frozen=True)
class TeamEventScore:
    event: TeamEvent
    teams: tuple[Team, ...]
    matches: tuple[ScoredMatch, ...]
    adjustments: tuple[TeamAdjustment, ...]
    #: Standings after each round (1, 2, ...); the last is the current standings.
    by_round: dict[int, tuple[engine.TeamScore, ...]]

    @property
    def rounds(self) -> list[int]:
        return sorted({scored.match.round for scored in self.matches})

    @property
    def standings(self) -> tuple[engine.TeamScore, ...]:
        if not self.by_round:  # nothing drawn yet: only the adjustments (a penalty given early)
            every_round = _standing_input([], list(self.adjustments), upto=2**15)
            return engine.standings([team.pk for team in self.teams], every_round)
        return self.by_round[max(self.by_round)]

    @property
    def ranked(self) -> list[tuple[engine.TeamScore, Team]]:
        """The current standings with each line's team, for the pages."""
        by_pk = {team.pk: team for team in self.teams}
        return [(line, by_pk[line.team]) for line in self.standings]


def _room_scores(lines: dict[tuple[int, str], MatchLine], number: int) -> tuple[LineScore | None, ...]:
    return tuple(
        line_score(lines[number, room]) if (number, room) in lines else None  # type: ignore[arg-type]
        for room in (Room.OPEN, Room.CLOSED)
    )


def score_match(match: Match, lines: dict[tuple[int, str], MatchLine], settings: engine.MatchSettings) -> ScoredMatch:
    """One match's figures: from its totals, from its boards, or none yet."""
    if match.status != MatchStatus.PLAYED:
        return ScoredMatch(match, None, lines, complete=True)
    carry = Fraction(str(match.carry_over))
    if match.home_imps is not None and match.away_imps is not None:
        home = Fraction(str(match.home_imps)) + max(carry, Fraction(0))
        away = Fraction(str(match.away_imps)) + max(-carry, Fraction(0))
        outcome = engine.score_match_totals(home, away, match.boards, settings)
        return ScoredMatch(match, outcome, lines, complete=True)
    if not lines and not carry:
        return ScoredMatch(match, None, lines, complete=False)
    boards = [
        engine.BoardRooms(number, *_room_scores(lines, number)) for number in match.board_numbers
    ]
    outcome = engine.score_match(boards, settings, carry_over=carry)
    complete = all(board.home is not None for board in outcome.boards)
    return ScoredMatch(match, outcome, lines, complete=complete)


def _standing_input(matches: list[ScoredMatch], adjustments: list[TeamAdjustment], upto: int) -> engine.StandingInput:
    scored = [
        (m.match.home_id, m.match.away_id, m.outcome)
        for m in matches
        if m.match.round <= upto and m.outcome is not None and m.match.away_id is not None
    ]
    awarded: list[tuple[int, Fraction]] = []
    for m in matches:
        if m.match.round > upto or m.match.status == MatchStatus.PLAYED:
            continue
        if m.home_vp is not None:
            awarded.append((m.match.home_id, m.home_vp))
        if m.match.away_id is not None and m.away_vp is not None:
            awarded.append((m.match.away_id, m.away_vp))
    adjusted = [
        (adj.team_id, Fraction(str(adj.vp))) for adj in adjustments if adj.round is None or adj.round <= upto
    ]
    return engine.StandingInput(scored, adjusted, awarded)  # type: ignore[arg-type]


def team_event_score(event: TeamEvent) -> TeamEventScore:
    """The whole event scored: four queries (teams, matches, lines, adjustments)."""
    teams = tuple(event.teams.all())  # query: the teams
    matches = list(Match.objects.filter(event=event))  # query: the matches
    lines_by_match: dict[int, dict[tuple[int, str], MatchLine]] = defaultdict(dict)
    for line in MatchLine.objects.filter(match__event=event):  # query: every room's line
        lines_by_match[line.match_id][line.board, line.room] = line
    adjustments = list(TeamAdjustment.objects.filter(event=event))  # query: the adjustments
    by_pk = {team.pk: team for team in teams}
    for match in matches:  # the teams come from the first query, not one query a match
        match.home = by_pk[match.home_id]
        match.away = by_pk.get(match.away_id) if match.away_id else None
    settings = event.match_settings
    scored = [score_match(match, lines_by_match[match.pk], settings) for match in matches]
    team_ids = [team.pk for team in teams]
    by_round = {
        upto: engine.standings(team_ids, _standing_input(scored, adjustments, upto))
        for upto in sorted({match.round for match in matches})
    }
    return TeamEventScore(event, teams, tuple(scored), tuple(adjustments), by_round)


# --- the players' pages --------------------------------------------------------------------


def players_free_for(*, event: TeamEvent, team: Team | None = None):
    """The club's players a team of the event can take: none already in another of its
    teams (a team being edited keeps its own)."""
    taken = Team.players.through.objects.filter(team__event=event)
    if team is not None:
        taken = taken.exclude(team=team)
    return event.club.players.exclude(pk__in=taken.values("player"))


def published_team_events():
    """Teams events the players may see, with their club (one query with the lookup)."""
    return TeamEvent.objects.filter(published=True).select_related("club")


def visible_team_events(*, club_id: int | None = None):
    """The published teams events and, for the API key of club ``club_id``, its own."""
    if club_id is None:
        return published_team_events()
    return TeamEvent.objects.filter(Q(published=True) | Q(club_id=club_id)).select_related("club")


@dataclass(frozen=True)
class StandingRow:
    """A team's line on the standings page: its place, VPs after each round, total."""

    place: str
    team: Team
    after_round: tuple[Fraction | None, ...]
    total: Fraction
    imps_for: Fraction
    imps_against: Fraction


def standing_rows(score: TeamEventScore) -> list[StandingRow]:
    """The current standings with every team's running total after each round."""
    totals = {upto: {line.team: line.vp for line in lines} for upto, lines in score.by_round.items()}
    return [
        StandingRow(line.place, team, tuple(totals[upto].get(team.pk) for upto in score.rounds), line.vp,
                    line.imps_for, line.imps_against)
        for line, team in score.ranked
    ]


@dataclass(frozen=True)
class CrossCell:
    vp: Fraction | None
    match: Match | None
    own: bool = False


def cross_table(score: TeamEventScore) -> list[tuple[Team, list[CrossCell]]]:
    """Each team's VPs against each other (rows by team number); the diagonal is its own."""
    cells: dict[tuple[int, int], ScoredMatch] = {}
    for scored in score.matches:
        if scored.match.away_id is not None:
            cells[scored.match.home_id, scored.match.away_id] = scored
            cells[scored.match.away_id, scored.match.home_id] = scored
    rows = []
    for team in score.teams:
        row = []
        for other in score.teams:
            scored = cells.get((team.pk, other.pk))
            if other.pk == team.pk or scored is None:
                row.append(CrossCell(None, None, own=other.pk == team.pk))
                continue
            vp = scored.home_vp if scored.match.home_id == team.pk else scored.away_vp
            row.append(CrossCell(vp, scored.match))
        rows.append((team, row))
    return rows


def team_matches(score: TeamEventScore, team: Team) -> list[ScoredMatch]:
    """The team's matches, round by round."""
    return [m for m in score.matches if team.pk in (m.match.home_id, m.match.away_id)]


def knockout_verdicts(score: TeamEventScore) -> dict[int, str]:
    """For a knockout: each tie's verdict by its first match's id ("Team A goes through").

    Extra boards after a tie are entered as another match of the same round between the
    same teams; the event's tie-break rule decides a tie (engine.knockout_winner).
    """
    ties: dict[tuple[int, frozenset[int]], list[ScoredMatch]] = defaultdict(list)
    for scored in score.matches:
        if scored.match.away_id is not None:
            ties[scored.match.round, frozenset((scored.match.home_id, scored.match.away_id))].append(scored)
    rule = engine.TieBreak(score.event.tie_break)
    verdicts = {}
    for matches in ties.values():
        main, *extra = sorted(matches, key=lambda m: m.match.pk)
        if main.outcome is None or not main.complete:
            continue
        extra_outcome = next((m.outcome for m in extra if m.outcome is not None and m.complete), None)
        if extra_outcome is not None and main.match.home_id != extra[0].match.home_id:
            extra_outcome = engine.MatchOutcome(extra_outcome.away_points, extra_outcome.home_points,
                                                extra_outcome.away_vp, extra_outcome.home_vp)
        side = engine.knockout_winner(
            main.outcome, home_seed=main.match.home.number, away_seed=main.match.away.number,
            tie_break=rule, extra_boards=extra_outcome,
        )
        if side is None:
            verdicts[main.match.pk] = "tied: extra boards to play"
        else:
            verdicts[main.match.pk] = f"{(main.match.home if side == 'home' else main.match.away).name} goes through"
    return verdicts


def match_changes(match: Match) -> list[MatchLineChange]:
    """The match's change log, newest first, with who made each change (one query)."""
    return list(MatchLineChange.objects.filter(match=match).select_related("changed_by"))


def visible_club_team_events(*, club: Club, club_id: int | None = None) -> QuerySet[TeamEvent]:
    """The club's teams events the reader may see (``club_id``: the API key's club, as
    visible_team_events), newest first."""
    return visible_team_events(club_id=club_id).filter(club=club).order_by("-date", "name", "pk")


def teams_of_event(*, event: TeamEvent) -> QuerySet[Team]:
    """The teams event's teams, for the forms that pick one."""
    return event.teams.all()


def players_of_team(*, team: Team) -> QuerySet[Player]:
    """The team's players."""
    return team.players.all()
