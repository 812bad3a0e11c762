"""Teams events: creating the event and its teams, drawing rounds, entering matches.

Every write checks what a director could get wrong and says so, storing nothing:
a team of fewer than four or more than six players, a player of another club or
already in another team, a round drawn before the last one is complete, a line in
the notation of pairs entry that cannot be (the same messages, from the same
parser), a board outside the match, totals for board-a-match that do not add up.

A line that is possible but odd (the contract declared by the other side in the
other room) is stored with a warning, as in pairs entry.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from sessions.models import (
    AdjustmentKind,
    Club,
    Match,
    MatchBoard,
    MatchStatus,
    Player,
    Room,
    Team,
    TeamAdjustment,
    TeamEvent,
    TeamEventForm,
    TeamScoring,
)
from sessions.movements.teams import round_robin, swiss_draw
from sessions.scoring.errors import ScoringError
from sessions.scoring.imps import IMP_TABLES
from sessions.selectors.teams import team_event_score
from sessions.text import clean_name

from .results import declarer_swap, fill_line
from .revisions import club_revise

MIN_PLAYERS, MAX_PLAYERS = 4, 6

TEAM_EVENT_SETTINGS = ("name", "date", "form", "scoring", "vp_scale", "imp_table", "boards_per_match", "bye_vp",
                       "tie_break")


@dataclass(frozen=True)
class LineOutcome:
    line: MatchBoard
    warnings: tuple[str, ...] = ()


# --- the event and its teams -------------------------------------------------------------


def _check_event(event: TeamEvent) -> None:
    event.full_clean()
    if event.imp_table not in IMP_TABLES:
        raise ValidationError({"imp_table": f"unknown IMP table {event.imp_table!r}: use one of {', '.join(IMP_TABLES)}"})


@transaction.atomic
def team_event_create(*, club: Club, name: str, date: date, **settings: Any) -> TeamEvent:
    """A new teams event of the club; settings not given keep the defaults (Swiss, WBF 2013 VPs)."""
    unknown = set(settings) - set(TEAM_EVENT_SETTINGS)
    if unknown:
        raise ValidationError(f"not a teams event setting: {', '.join(sorted(unknown))}")
    event = TeamEvent(club=club, name=clean_name(name), date=date, **settings)
    _check_event(event)
    event.save()
    return event


def _check_players(event: TeamEvent, players: Sequence[Player], captain: Player | None, team: Team | None) -> None:
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ValidationError({"players": f"a team has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}"})
    if len({player.pk for player in players}) != len(players):
        raise ValidationError({"players": "a player is named twice in the team"})
    strangers = [player.name for player in players if player.club_id != event.club_id]
    if strangers:
        raise ValidationError({"players": f"not a player of this club: {', '.join(strangers)}"})
    if captain is not None and captain.pk not in {player.pk for player in players}:
        raise ValidationError({"captain": f"the captain ({captain.name}) must be one of the team's players"})
    memberships = Team.players.through.objects.filter(team__event=event, player__in=players)
    if team is not None:
        memberships = memberships.exclude(team=team)
    taken = list(memberships.values_list("player__name", "team__name"))
    if taken:
        who = ", ".join(f"{player} (in {other})" for player, other in taken)
        raise ValidationError({"players": f"already in another team of this event: {who}"})


@transaction.atomic
def team_add(
    *, event: TeamEvent, name: str, players: Sequence[Player], captain: Player | None = None,
    number: int | None = None,
) -> Team:
    """A team of four to six of the club's players; numbered next if no number is given."""
    _check_players(event, players, captain, None)
    if number is None:
        number = max(event.teams.values_list("number", flat=True), default=0) + 1
    team = Team(event=event, number=number, name=clean_name(name), captain=captain)
    team.full_clean()
    team.save()
    team.players.set(players)
    return team


# --- drawing rounds ----------------------------------------------------------------------


def _refuse_changed_draw(event: TeamEvent, form: str) -> None:
    if event.form != form:
        raise ValidationError(f"this event is a {event.get_form_display().lower()}, not that")


def _round_boards(event: TeamEvent, round: int) -> tuple[int, int]:
    """(first board, boards) of a round: each round plays its own set of boards."""
    return (round - 1) * event.boards_per_match + 1, event.boards_per_match


def _create_round(event: TeamEvent, round: int, pairings: Sequence[tuple[int, int | None]]) -> list[Match]:
    first, count = _round_boards(event, round)
    created = []
    for home, away in pairings:
        match = Match(event=event, round=round, home_id=home, away_id=away, first_board=first, boards=count)
        if away is None:
            match.status, match.home_vp_awarded = MatchStatus.BYE, event.bye_vp
        match.full_clean(exclude=["home", "away"])
        match.save()
        created.append(match)
    return created


@transaction.atomic
def round_robin_schedule(*, event: TeamEvent) -> list[Match]:
    """Every round of the round robin at once: each team plays each other (a bye if odd)."""
    _refuse_changed_draw(event, TeamEventForm.ROUND_ROBIN)
    if event.matches.exists():
        raise ValidationError("the round robin is already scheduled")
    teams = list(event.teams.values_list("pk", flat=True))
    try:
        rounds = round_robin(teams)
    except ScoringError as error:
        raise ValidationError(str(error)) from None
    return [match for number, pairings in enumerate(rounds, 1) for match in _create_round(event, number, pairings)]


def _incomplete(event: TeamEvent) -> str | None:
    """The first match of the event that has no result yet, named for the director."""
    for scored in team_event_score(event).matches:
        if not scored.complete:
            match = scored.match
            return f"round {match.round} is not complete: {match.home} v {match.away} has no result yet"
    return None


@transaction.atomic
def swiss_draw_next_round(*, event: TeamEvent) -> list[Match]:
    """Draw the next Swiss round from the standings: no repeat while avoidable, top v top."""
    _refuse_changed_draw(event, TeamEventForm.SWISS)
    TeamEvent.objects.select_for_update().filter(pk=event.pk).first()  # one draw at a time
    missing = _incomplete(event)
    if missing:
        raise ValidationError(missing)
    score = team_event_score(event)
    ranked = [line.team for line in score.standings] if score.by_round else [team.pk for team in score.teams]
    played = [(m.match.home_id, m.match.away_id) for m in score.matches if m.match.away_id is not None]
    had_bye = [m.match.home_id for m in score.matches if m.match.status == MatchStatus.BYE]
    try:
        pairings = swiss_draw(ranked, played, had_bye)  # type: ignore[arg-type]
    except ScoringError as error:
        raise ValidationError(str(error)) from None
    return _create_round(event, max(score.rounds, default=0) + 1, pairings)


@transaction.atomic
def match_create(
    *, event: TeamEvent, round: int, home: Team, away: Team, boards: int | None = None, first_board: int = 1,
    carry_over: Decimal = Decimal(0),
) -> Match:
    """One match set by the director: a single match, or a knockout tie with its carry-over."""
    if home.event_id != event.pk or away.event_id != event.pk:
        raise ValidationError("both teams must be in this event")
    if carry_over and event.scoring == TeamScoring.BOARD_A_MATCH:
        raise ValidationError({"carry_over": "a carry-over is in IMPs: board-a-match has none"})
    match = Match(
        event=event, round=round, home=home, away=away, boards=boards or event.boards_per_match,
        first_board=first_board, carry_over=carry_over,
    )
    match.full_clean()
    match.save()
    return match


# --- entering a match -------------------------------------------------------------------


def _check_board(match: Match, board: int) -> None:
    if match.status == MatchStatus.BYE:
        raise ValidationError("a bye has no boards to enter")
    if board not in match.board_numbers:
        numbers = match.board_numbers
        raise ValidationError({"board": f"this match plays boards {numbers.start} to {numbers.stop - 1}, not {board}"})


@transaction.atomic
def match_record_line(
    *, match: Match, board: int, room: str, text: str, lead: str = "", by: AbstractBaseUser | None = None,
) -> LineOutcome:
    """Record (or replace) one room's line on a board, in the notation of pairs entry."""
    _check_board(match, board)
    if room not in Room.values:
        raise ValidationError({"room": f"a room is open or closed, not {room!r}"})
    line = MatchBoard.objects.filter(match=match, board=board, room=room).first() or MatchBoard(
        match=match, board=board, room=room
    )
    fill_line(line, text, lead, board)
    line.updated_by = by
    line.full_clean()
    line.save()
    if match.home_imps is not None:  # lines now say more than the totals did
        Match.objects.filter(pk=match.pk).update(home_imps=None, away_imps=None)
        match.home_imps = match.away_imps = None
    other = MatchBoard.objects.filter(match=match, board=board).exclude(room=room)
    warning = declarer_swap(line, list(other))
    return LineOutcome(line, (warning,) if warning else ())


@transaction.atomic
def match_delete_line(*, match: Match, board: int, room: str) -> None:
    deleted, _ = MatchBoard.objects.filter(match=match, board=board, room=room).delete()
    if not deleted:
        raise ValidationError(f"board {board} has no {room} room line to delete")


@transaction.atomic
def match_set_totals(*, match: Match, home_imps: Decimal, away_imps: Decimal) -> Match:
    """The match's IMP totals (or board-a-match points) when the boards are not known."""
    if match.status == MatchStatus.BYE:
        raise ValidationError("a bye has no score")
    if match.lines.exists():
        raise ValidationError("this match has board lines: its totals come from them (delete them first)")
    match.home_imps, match.away_imps = home_imps, away_imps
    match.status, match.home_vp_awarded, match.away_vp_awarded = MatchStatus.PLAYED, None, None
    match.full_clean()
    if match.event.scoring == TeamScoring.BOARD_A_MATCH and home_imps + away_imps != match.boards:
        raise ValidationError(
            f"board-a-match points must add up to the {match.boards} boards, not {home_imps + away_imps}"
        )
    match.save()
    return match


@transaction.atomic
def match_set_not_played(*, match: Match, status: str, home_vp: Decimal, away_vp: Decimal) -> Match:
    """A match not played: an average or a forfeit, with the VPs the director gives each side."""
    if status not in (MatchStatus.AVERAGE, MatchStatus.FORFEIT):
        raise ValidationError({"status": "a match not played is an average or a forfeit"})
    if match.away_id is None:
        raise ValidationError("a bye is not a match to forfeit")
    total = match.event.match_settings.vp_total
    for side, value in (("home", home_vp), ("away", away_vp)):
        if not 0 <= value <= total:
            raise ValidationError({f"{side}_vp": f"VPs are between 0 and {total}, not {value}"})
    match.status, match.home_vp_awarded, match.away_vp_awarded = status, home_vp, away_vp
    match.home_imps = match.away_imps = None
    match.full_clean()
    match.save()
    return match


@transaction.atomic
def adjustment_add(
    *, event: TeamEvent, team: Team, kind: str, vp: Decimal, reason: str = "", round: int | None = None,
) -> TeamAdjustment:
    """A VP penalty or fine (taken off: give it as a negative number) or another award."""
    if team.event_id != event.pk:
        raise ValidationError({"team": "that team is not in this event"})
    if kind in (AdjustmentKind.PENALTY, AdjustmentKind.FINE) and vp > 0:
        vp = -vp  # a director types "3" for a 3-VP penalty: it is taken off
    adjustment = TeamAdjustment(event=event, team=team, kind=kind, vp=vp, reason=clean_name(reason), round=round)
    adjustment.full_clean()
    adjustment.save()
    return adjustment


@transaction.atomic
def team_event_publish(*, event: TeamEvent) -> TeamEvent:
    if not event.matches.exists():
        raise ValidationError("no match is drawn yet: there is nothing to publish")
    if not event.published:
        event.published, event.published_at = True, timezone.now()
        event.full_clean()
        event.save(update_fields=["published", "published_at"])
    club_revise(club=event.club_id)  # the club's page lists its published teams events
    return event


@transaction.atomic
def team_event_unpublish(*, event: TeamEvent) -> TeamEvent:
    event.published, event.published_at = False, None
    event.save(update_fields=["published", "published_at"])
    club_revise(club=event.club_id)
    return event
