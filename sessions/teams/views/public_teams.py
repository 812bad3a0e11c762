"""The players' teams pages: no login, published teams events only.

Standings with the VPs after each round, the round robin cross-table, the latest
round's draw, each match's scorecard (both rooms, IMPs each way) and a team's page.
Every page reads the whole event once (team_event_score: four queries) plus the
event itself, whatever the number of teams, and is served from the cache by the
event's revision (sessions.core.views.caching) until a write bumps it.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from sessions.models import Room, TeamEvent, TeamEventForm
from sessions.core.selectors.revisions import published_team_event_stamp
from sessions.pairs.tables import CrossTable, TeamMatchesTable, TeamScorecardTable, TeamStandingsTable
from sessions.teams.selectors.teams import (
    cross_table,
    knockout_verdicts,
    players_of_team,
    published_team_events,
    standing_rows,
    team_event_score,
    team_matches,
)
from sessions.core.views.caching import cached_page
from sessions.pairs.views.unpublished import not_published_yet


@not_published_yet(TeamEvent, "teams event", "event_id")
@cached_page(published_team_event_stamp)
def team_event(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(published_team_events(), pk=event_id)
    score = team_event_score(event)
    latest = max(score.rounds, default=None)
    verdicts = knockout_verdicts(score) if event.form == TeamEventForm.KNOCKOUT else {}

    def matches_of(round: int | None) -> TeamMatchesTable:
        return TeamMatchesTable([m for m in score.matches if m.match.round == round], event=event, verdicts=verdicts)

    return render(request, "teams/public/event.html", {
        "club": event.club, "event": event, "score": score,
        "standings": TeamStandingsTable(standing_rows(score), event=event, rounds=score.rounds),
        "cross": CrossTable(cross_table(score), event=event, teams=score.teams)
        if event.form == TeamEventForm.ROUND_ROBIN else None,
        "latest_round": latest,
        "latest_matches": matches_of(latest),
        "rounds": [(round, matches_of(round)) for round in score.rounds],
    })


@not_published_yet(TeamEvent, "teams event", "event_id")
@cached_page(published_team_event_stamp)
def team_match(request: HttpRequest, event_id: int, match_id: int) -> HttpResponse:
    event = get_object_or_404(published_team_events(), pk=event_id)
    score = team_event_score(event)
    scored = next((m for m in score.matches if m.match.pk == match_id and m.match.away_id), None)
    if scored is None:
        raise Http404("no such match")
    outcomes = {board.number: board for board in (scored.outcome.boards if scored.outcome else ())}
    rows = [
        {"number": number, "open": scored.lines.get((number, Room.OPEN)),
         "closed": scored.lines.get((number, Room.CLOSED)), "outcome": outcomes.get(number)}
        for number in scored.match.board_numbers
    ]
    return render(request, "teams/public/match.html", {
        "club": event.club, "event": event, "scored": scored, "match": scored.match,
        "table": TeamScorecardTable(rows, scored=scored),
    })


@not_published_yet(TeamEvent, "teams event", "event_id")
@cached_page(published_team_event_stamp)
def team_page(request: HttpRequest, event_id: int, team_id: int) -> HttpResponse:
    event = get_object_or_404(published_team_events(), pk=event_id)
    score = team_event_score(event)
    team = next((team for team in score.teams if team.pk == team_id), None)
    if team is None:
        raise Http404("no such team")
    line = next(line for line, ranked in score.ranked if ranked.pk == team.pk)
    return render(request, "teams/public/team.html", {
        "club": event.club, "event": event, "team": team, "line": line,
        "players": list(players_of_team(team=team)),
        "table": TeamMatchesTable(team_matches(score, team), event=event, with_round=True),
    })
