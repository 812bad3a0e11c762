"""A club competition's standings, built on the event's combined ranking (RULES 11).

The event's combined ranking (event_ranking: three queries whatever the number of
sessions) already knows who is who across the sessions (by pair or by player) and each
session's places; a competition hands each competitor's place in each field to the
engine (sessions.scoring.competitions), members only when the competition says so, and
keeps, for each competitor, what each session gave: the page's "why you are 3rd".
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet

from sessions.models import Competition, Event, Pair, Player
from sessions.scoring.competitions import (
    CompetitionRules,
    CompetitionSession,
    CompetitionStanding,
    Contribution,
    Finish,
    rank_competition,
)
from sessions.scoring.errors import ScoringError

from sessions.pairs.selectors.events import CombinedRanking, EventSessionView, event_ranking
from sessions.core.selectors.scored import ScoredSession

TIE_BREAK_NAMES = {
    "butler": "the higher total score (Butler IMPs, or percentage) over the sessions counted",
    "head_to_head": "finishing ahead more often when they met",
    "wins": "more sessions won",
}


@dataclass(frozen=True)
class WhyLine:
    """One session in a competitor's explanation."""

    view: EventSessionView
    contribution: Contribution


@dataclass(frozen=True)
class CompetitionRow:
    standing: CompetitionStanding
    name: str
    why: tuple[WhyLine, ...]

    @property
    def sessions_played(self) -> int:
        return len(self.why)

    @property
    def decided_by(self) -> str:
        return "; then ".join(TIE_BREAK_NAMES[name] for name in self.standing.decided_by.split(", ") if name)


@dataclass(frozen=True)
class CompetitionTable:
    competition: Competition
    ranking: CombinedRanking
    rows: tuple[CompetitionRow, ...] = ()
    error: str = ""

    @property
    def has_unranked(self) -> bool:
        return any(not row.standing.ranked for row in self.rows)


def competition_rules(competition: Competition) -> CompetitionRules:
    return CompetitionRules(points=competition.points, minimum=competition.minimum_sessions,
                            best=competition.best_sessions, tie_breaks=competition.tie_break_order)


def _is_member(player: Player | None) -> bool:
    return player is not None and not player.visitor


def _members_of(competitor: str, pair: Pair) -> bool:
    """A player competitor is a member; a pair competitor when both its players are."""
    if competitor.startswith("player:"):
        number = int(competitor.removeprefix("player:"))
        return any(_is_member(player) and player.pk == number for player in (pair.player_1, pair.player_2))
    return _is_member(pair.player_1) and _is_member(pair.player_2)


def _session_finishes(scored: ScoredSession, view: EventSessionView, competitors: dict[tuple[str, int], list[str]],
                      members_only: bool) -> CompetitionSession:
    finishes = []
    for field_name, ranked in scored.rankings():
        for item in ranked:
            score = item.standing.percentage if item.standing.percentage is not None else item.standing.total
            for competitor in competitors.get((view.key, item.pair.pk), []):
                if not members_only or _members_of(competitor, item.pair):
                    finishes.append(Finish(competitor, field_name, item.standing.rank, score))
    return CompetitionSession(view.key, tuple(finishes))


def competition_standings(*, competition: Competition) -> CompetitionTable:
    """The competition over the event's published sessions (those ranked once final, once final)."""
    ranking = event_ranking(event=competition.event)
    if ranking.error:
        return CompetitionTable(competition, ranking, error=ranking.error)
    competitors: dict[tuple[str, int], list[str]] = {}
    names: dict[str, str] = {}
    for row in ranking.rows:
        names[row.standing.competitor] = row.name
        for key, cell in row.cells.items():
            competitors.setdefault((key, cell.pair.pk), []).append(row.standing.competitor)
    views = ranking.counted_sessions
    sessions = [_session_finishes(scored, view, competitors, competition.members_only)
                for view, scored in zip(views, ranking.scored)]
    try:
        standings = rank_competition(sessions, competition_rules(competition))
    except ScoringError as error:
        return CompetitionTable(competition, ranking, error=str(error))
    by_key = {view.key: view for view in views}
    rows = tuple(
        CompetitionRow(standing, names[standing.competitor],
                       tuple(WhyLine(by_key[c.session], c) for c in standing.contributions))
        for standing in standings
    )
    return CompetitionTable(competition, ranking, rows)


def competitions_with_club() -> QuerySet[Competition]:
    """Competitions with their event and club, for a page that names them."""
    return Competition.objects.select_related("event__club")


def event_competitions(*, event: Event) -> list[Competition]:
    """The event's competitions (one query)."""
    return list(event.competitions.all())
