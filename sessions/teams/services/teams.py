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

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from sessions.models import (
    AdjustmentKind,
    ChangeAction,
    Club,
    Match,
    MatchLine,
    MatchLineChange,
    MatchStatus,
    MatchTableLink,
    Player,
    Room,
    Team,
    TeamAdjustment,
    TeamEvent,
    TeamEventForm,
    TeamScoring,
    WebhookEvent,
)
from sessions.movements import MovementError
from sessions.movements.teams import round_robin, swiss_draw
from sessions.scoring.imps import IMP_TABLES
from sessions.teams.selectors.teams import team_event_score
from sessions.core.text import clean_name

from sessions.core.services.errors import ResultConflict
from sessions.pairs.services.results import declarer_swap, fill_line, log_text
from sessions.core.services.unit_of_work import unit, write
from sessions.api.services.webhooks import notify_on_commit

MIN_PLAYERS, MAX_PLAYERS = 4, 6

TEAM_EVENT_SETTINGS = ("name", "date", "form", "scoring", "vp_scale", "bam_points", "imp_table", "boards_per_match", "bye_vp",
                       "tie_break", "table_confirmation", "table_shows_imps")


@dataclass(frozen=True)
class LineOutcome:
    line: MatchLine
    warnings: tuple[str, ...] = ()


# --- the event and its teams -------------------------------------------------------------


def _check_event(event: TeamEvent) -> None:
    event.full_clean()
    if event.imp_table not in IMP_TABLES:
        raise ValidationError({"imp_table": f"unknown IMP table {event.imp_table!r}: use one of {', '.join(IMP_TABLES)}"})


@write
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


@write
def team_add(
    *, event: TeamEvent, name: str, players: Sequence[Player], captain: Player | None = None,
    number: int | None = None,
) -> Team:
    """A team of four to six of the club's players; numbered next if no number is given."""
    unit().lock(team_events=[event])
    _check_players(event, players, captain, None)
    if number is None:
        number = max(event.teams.values_list("number", flat=True), default=0) + 1
    team = Team(event=event, number=number, name=clean_name(name), captain=captain)
    team.full_clean()
    team.save()
    team.players.set(players)
    unit().touch(team_events=[event])
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
    # Each room's phone link, made with the round as a pairs session's are with the session
    # (services.team_tables.match_table_links_ensure makes any that go missing later).
    MatchTableLink.objects.bulk_create([
        MatchTableLink(match=match, room=room) for match in created if match.away_id is not None
        for room in Room.values
    ])
    return created


@write
def round_robin_schedule(*, event: TeamEvent) -> list[Match]:
    """Every round of the round robin at once: each team plays each other (a bye if odd)."""
    unit().lock(team_events=[event])
    _refuse_changed_draw(event, TeamEventForm.ROUND_ROBIN)
    if event.matches.exists():
        raise ValidationError("the round robin is already scheduled")
    teams = list(event.teams.values_list("pk", flat=True))
    try:
        rounds = round_robin(teams)
    except MovementError as error:
        raise ValidationError(str(error)) from None
    matches = [match for number, pairings in enumerate(rounds, 1) for match in _create_round(event, number, pairings)]
    unit().touch(team_events=[event])
    return matches


def _incomplete(event: TeamEvent) -> str | None:
    """The first match of the event that has no result yet, named for the director."""
    for scored in team_event_score(event).matches:
        if not scored.complete:
            match = scored.match
            return f"round {match.round} is not complete: {match.home} v {match.away} has no result yet"
    return None


@write
def swiss_draw_next_round(*, event: TeamEvent) -> list[Match]:
    """Draw the next Swiss round from the standings: no repeat while avoidable, top v top."""
    _refuse_changed_draw(event, TeamEventForm.SWISS)
    unit().touch(team_events=[event])  # locked: one draw at a time
    missing = _incomplete(event)
    if missing:
        raise ValidationError(missing)
    score = team_event_score(event)
    ranked = [line.team for line in score.standings] if score.by_round else [team.pk for team in score.teams]
    played = [(m.match.home_id, m.match.away_id) for m in score.matches if m.match.away_id is not None]
    had_bye = [m.match.home_id for m in score.matches if m.match.status == MatchStatus.BYE]
    try:
        pairings = swiss_draw(ranked, played, had_bye)  # type: ignore[arg-type]
    except MovementError as error:
        raise ValidationError(str(error)) from None
    matches = _create_round(event, max(score.rounds, default=0) + 1, pairings)
    unit().touch(team_events=[event])
    return matches


@write
def match_create(
    *, event: TeamEvent, round: int, home: Team, away: Team, boards: int | None = None, first_board: int = 1,
    carry_over: Decimal = Decimal(0),
) -> Match:
    """One match set by the director: a single match, or a knockout tie with its carry-over."""
    unit().lock(team_events=[event])
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
    unit().touch(team_events=[event])
    return match


# --- entering a match -------------------------------------------------------------------


def _check_board(match: Match, board: int) -> None:
    if match.status == MatchStatus.BYE:
        raise ValidationError("a bye has no boards to enter")
    if board not in match.board_numbers:
        numbers = match.board_numbers
        raise ValidationError({"board": f"this match plays boards {numbers.start} to {numbers.stop - 1}, not {board}"})


def _current_line(match: Match, board: int, room: str) -> MatchLine | None:
    """The room's line as stored now, held until the transaction ends (PostgreSQL), so a
    correction and a deletion of the same line wait for each other and then see it anew."""
    return unit().lock_rows(
        MatchLine.objects.select_related("updated_by").filter(match=match, board=board, room=room)
    ).first()


def _log_line(
    match: Match, board: int, room: str, action: str, before: str, after: str,
    by: AbstractBaseUser | None, via_room: str,
) -> None:
    change = MatchLineChange(
        match=match, board=board, room=room, action=action, before_text=before, after_text=after,
        changed_by=by, via_room=via_room,
    )
    change.full_clean(exclude=["match", "changed_by"])
    change.save()


_LINE_FIELDS = (
    "kind", "level", "strain", "doubling", "declarer", "tricks", "lead", "ns_score",
    "artificial_ns_percent", "artificial_ew_percent", "weighted_parts", "entered_text", "text",
)


#: A line's own checks; the one-line-a-room rule is left to the database (and the version
#: check), so a line stored meanwhile is a conflict, never a "correct it instead" refusal.
_LINE_CHECKS = {"exclude": ["match"], "validate_unique": False}


def _check_room(room: str) -> None:
    if room not in Room.values:
        raise ValidationError({"room": f"a room is open or closed, not {room!r}"})


def _insert_line(line: MatchLine, version: int | None) -> None:
    """A new line; one stored meanwhile by another writer is a conflict, never a second line."""
    try:
        with transaction.atomic():
            line.save()
    except IntegrityError:
        raise ResultConflict(_current_line(line.match, line.board, line.room), version or 0) from None


def _update_line(line: MatchLine, seen: int, by: AbstractBaseUser | None) -> None:
    """The corrected line, if still at the version read: the check and the write in one step."""
    changed = MatchLine.objects.filter(pk=line.pk, version=seen).update(
        **{name: getattr(line, name) for name in _LINE_FIELDS},
        version=F("version") + 1, updated_by=by, updated_at=timezone.now(),
    )
    if not changed:
        raise ResultConflict(_current_line(line.match, line.board, line.room), seen)
    line.refresh_from_db()


def _check_seen(line: MatchLine | None, version: int | None, line_id: int | None) -> None:
    """ResultConflict unless ``line`` (as stored now, locked) is the one the writer saw: the
    same version (0: none) and, when the writer names it, the same line. A line deleted and
    entered again starts at version 1 again: only its id tells it from the one seen."""
    if version is None:
        return
    if (line.version if line else 0) != version:
        raise ResultConflict(line, version)
    if line is not None and line_id is not None and line.pk != line_id:
        raise ResultConflict(line, version, replaced=True)


def match_check_line(*, match: Match, board: int, room: str, text: str, lead: str = "") -> LineOutcome:
    """The line ``match_record_line`` would store for a new room's line and its warnings,
    storing nothing: a table's phone asks for a second look before sending."""
    _check_board(match, board)
    _check_room(room)
    line = MatchLine(match=match, board=board, room=room)
    fill_line(line, text, lead, board)
    line.full_clean(**_LINE_CHECKS)
    other = MatchLine.objects.filter(match=match, board=board).exclude(room=room)
    warning = declarer_swap(line, list(other))
    return LineOutcome(line, (warning,) if warning else ())


@write
def match_record_line(
    *, match: Match, board: int, room: str, text: str, lead: str = "", by: AbstractBaseUser | None = None,
    version: int | None = None, line_id: int | None = None, via_room: str = "",
) -> LineOutcome:
    """Record (or correct) one room's line on a board, in the notation of pairs entry.

    ``version`` is the version of the line the writer saw, 0 when it saw none, and
    ``line_id`` its id (a page passes both): a line stored, changed, or deleted and entered
    again since is never overwritten (ResultConflict, with the line as it is now). None
    skips the check (an import, a script). Every change is logged, by the director
    (``by``) or by a room's phone (``via_room``).
    """
    _check_board(match, board)
    _check_room(room)
    unit().lock(team_events=[match.event_id])
    line = _current_line(match, board, room)
    _check_seen(line, version, line_id)
    new = line is None
    if line is None:
        line = MatchLine(match=match, board=board, room=room)
    before = "" if new else log_text(line)
    fill_line(line, text, lead, board)
    if not new and log_text(line) == before:
        return LineOutcome(line)  # nothing changed: no new version, no log entry
    line.updated_by = by
    line.full_clean(**_LINE_CHECKS)
    if new:
        _insert_line(line, version)
    else:
        _update_line(line, line.version, by)
    _log_line(match, board, room, ChangeAction.RECORDED if new else ChangeAction.CORRECTED, before,
              log_text(line), by, via_room)
    if match.home_imps is not None:  # lines now say more than the totals did
        Match.objects.filter(pk=match.pk).update(home_imps=None, away_imps=None)
        match.home_imps = match.away_imps = None
    unit().touch(team_events=[match.event_id])
    other = MatchLine.objects.filter(match=match, board=board).exclude(room=room)
    warning = declarer_swap(line, list(other))
    return LineOutcome(line, (warning,) if warning else ())


@write
def match_delete_line(
    *, match: Match, board: int, room: str, version: int | None = None, line_id: int | None = None,
    by: AbstractBaseUser | None = None,
) -> None:
    """Delete a room's line, if it is still the line ``line_id`` at ``version`` (None: whatever
    it is); logged."""
    unit().lock(team_events=[match.event_id])
    line = _current_line(match, board, room)
    if line is None:
        if version is not None:
            raise ResultConflict(None, version)
        raise ValidationError(f"board {board} has no {room} room line to delete")
    _check_seen(line, version, line_id)
    deleted, _ = MatchLine.objects.filter(pk=line.pk, version=line.version).delete()
    if not deleted:
        raise ResultConflict(_current_line(match, board, room), line.version)
    _log_line(match, board, room, ChangeAction.DELETED, log_text(line), "", by, "")
    unit().touch(team_events=[match.event_id])


@write
def match_set_totals(*, match: Match, home_imps: Decimal, away_imps: Decimal) -> Match:
    """The match's IMP totals (or board-a-match points) when the boards are not known."""
    unit().lock(team_events=[match.event_id])
    if match.status == MatchStatus.BYE:
        raise ValidationError("a bye has no score")
    if match.lines.exists():
        raise ValidationError("this match has board lines: its totals come from them (delete them first)")
    match.home_imps, match.away_imps = home_imps, away_imps
    match.status, match.home_vp_awarded, match.away_vp_awarded = MatchStatus.PLAYED, None, None
    match.full_clean()
    event = match.event
    if event.scoring == TeamScoring.BOARD_A_MATCH and home_imps + away_imps != match.boards * event.bam_points:
        raise ValidationError(
            f"board-a-match points must add up to {event.bam_points} a board "
            f"({match.boards * event.bam_points} for {match.boards} boards), not {home_imps + away_imps}"
        )
    match.save()
    unit().touch(team_events=[match.event_id])
    return match


@write
def match_set_not_played(*, match: Match, status: str, home_vp: Decimal, away_vp: Decimal) -> Match:
    """A match not played: an average or a forfeit, with the VPs the director gives each side."""
    unit().lock(team_events=[match.event_id])
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
    unit().touch(team_events=[match.event_id])
    return match


@write
def adjustment_add(
    *, event: TeamEvent, team: Team, kind: str, vp: Decimal, reason: str = "", round: int | None = None,
) -> TeamAdjustment:
    """A VP penalty or fine (taken off: give it as a negative number) or another award."""
    unit().lock(team_events=[event])
    if team.event_id != event.pk:
        raise ValidationError({"team": "that team is not in this event"})
    if kind in (AdjustmentKind.PENALTY, AdjustmentKind.FINE) and vp > 0:
        vp = -vp  # a director types "3" for a 3-VP penalty: it is taken off
    adjustment = TeamAdjustment(event=event, team=team, kind=kind, vp=vp, reason=clean_name(reason), round=round)
    adjustment.full_clean()
    adjustment.save()
    unit().touch(team_events=[adjustment.event_id])
    return adjustment


@write
def team_event_publish(*, event: TeamEvent) -> TeamEvent:
    unit().lock(team_events=[event])
    if not event.matches.exists():
        raise ValidationError("no match is drawn yet: there is nothing to publish")
    if not event.published:
        event.published, event.published_at, event.told_figures = True, timezone.now(), ""
        event.full_clean()
        event.save(update_fields=["published", "published_at", "told_figures"])
        notify_on_commit(event=WebhookEvent.PUBLISHED, teams_event=event)
    unit().touch(team_events=[event])
    unit().touch(clubs=[event.club_id])  # the club's page lists its published teams events
    return event


@write
def team_event_unpublish(*, event: TeamEvent) -> TeamEvent:
    """Hidden from the players; it is no longer final either (as a pairs session)."""
    unit().lock(team_events=[event])
    event.published, event.published_at, event.final_at = False, None, None
    event.save(update_fields=["published", "published_at", "final_at"])
    unit().touch(team_events=[event])
    unit().touch(clubs=[event.club_id])
    return event


@write
def team_event_mark_final(*, event: TeamEvent) -> TeamEvent:
    """Every drawn match has its result and the director has checked them: the players may
    download the files. Marking a final event again keeps its time."""
    unit().lock(team_events=[event])
    if event.final:
        return event
    if not event.published:
        raise ValidationError("publish the event before marking it final")
    missing = _incomplete(event)
    if missing:
        raise ValidationError(missing)
    event.final_at = timezone.now()
    event.told_figures = ""  # "final" tells the figures as they are: amendments count from here
    event.save(update_fields=["final_at", "told_figures"])
    unit().touch(team_events=[event])  # the event page offers its downloads
    notify_on_commit(event=WebhookEvent.FINAL, teams_event=event)
    return event


@write
def team_event_reopen(*, event: TeamEvent) -> TeamEvent:
    """Undo team_event_mark_final: the results are provisional again, the downloads wait."""
    unit().lock(team_events=[event])
    event.final_at = None
    event.save(update_fields=["final_at"])
    unit().touch(team_events=[event])  # the event page withdraws its downloads
    return event


# --- correcting what was entered ----------------------------------------------------------
#
# An edit form carries the state the director saw (edit_token); a write whose object has
# changed since (another director, another tab) is refused with STALE rather than
# overwriting what the other one stored.

STALE = "{what} was changed since this form was opened: reload the page and check it again"


def edit_token(obj: Team | Match | TeamAdjustment) -> str:
    """A short fingerprint of what an edit form shows of the object (hidden in the form).

    Decimals are written with two places: a value just saved (Decimal("3")) and the same
    value read back (Decimal("3.00")) are the same state, as are a choice and its string."""
    if isinstance(obj, Team):
        values: tuple[Any, ...] = (obj.name, obj.captain_id, sorted(obj.players.values_list("pk", flat=True)))
    elif isinstance(obj, Match):
        values = (obj.round, obj.home_id, obj.away_id, obj.first_board, obj.boards, f"{Decimal(obj.carry_over):.2f}", obj.status,
                  obj.lines.count())
    else:
        values = (obj.team_id, obj.kind, f"{Decimal(obj.vp):.2f}", obj.reason, obj.round)
    return hashlib.sha256("|".join(map(str, values)).encode()).hexdigest()[:16]


def _locked(obj: Team | Match | TeamAdjustment, seen: str | None, what: str):
    """The object as stored now, locked for this transaction; STALE if ``seen`` is not its state."""
    unit().lock(team_events=[obj.event_id])
    current = unit().lock_rows(type(obj).objects.filter(pk=obj.pk)).first()
    if current is None:
        raise ValidationError(f"{what} was deleted since this page was opened")
    if seen is not None and seen != edit_token(current):
        raise ValidationError(STALE.format(what=what.capitalize()))
    return current


@write
def team_edit(
    *, team: Team, name: str, players: Sequence[Player], captain: Player | None = None, seen: str | None = None,
) -> Team:
    """A team's name, players (four to six of the club's) and captain corrected."""
    team = _locked(team, seen, "the team")
    _check_players(team.event, players, captain, team)
    team.name, team.captain = clean_name(name), captain
    team.full_clean()
    team.save()
    team.players.set(players)
    unit().touch(team_events=[team.event_id])
    return team


def _matches_of(team: Team):
    return Match.objects.filter(event_id=team.event_id).filter(Q(home=team) | Q(away=team))


@write
def team_delete(*, team: Team) -> None:
    """A team entered by mistake; one that has a match (even a bye) stays: its results count."""
    team = _locked(team, None, "the team")
    matches = _matches_of(team).count()
    if matches:
        raise ValidationError(
            f"{team.name} has {matches} match{'es' if matches > 1 else ''}: "
            "delete or undo them first (a team that has played stays in the event)"
        )
    team.delete()
    unit().touch(team_events=[team.event_id])


def _has_result(match: Match) -> str | None:
    """Why a match's result would be lost by changing or deleting it (None: nothing entered)."""
    lines = match.lines.count()
    if lines:
        return f"it has {lines} line{'s' if lines > 1 else ''} entered"
    if match.home_imps is not None:
        return "its IMP totals are entered"
    if match.status in (MatchStatus.AVERAGE, MatchStatus.FORFEIT):
        return f"it is marked {match.get_status_display().split(':')[0].lower()}"
    return None


@write
def match_edit(
    *, match: Match, round: int, home: Team, away: Team, boards: int, first_board: int = 1,
    carry_over: Decimal = Decimal(0), seen: str | None = None,
) -> Match:
    """A match's round, teams, boards or carry-over corrected.

    Once anything is entered the teams stay (the rooms' lines are seen from the home
    team) and the boards must still hold every board that has a line.
    """
    match = _locked(match, seen, "the match")
    event = match.event
    if match.status == MatchStatus.BYE:
        raise ValidationError("a bye is not edited: undo its round instead")
    if home.event_id != event.pk or away.event_id != event.pk:
        raise ValidationError("both teams must be in this event")
    if carry_over and event.scoring == TeamScoring.BOARD_A_MATCH:
        raise ValidationError({"carry_over": "a carry-over is in IMPs: board-a-match has none"})
    entered = _has_result(match)
    if entered and (home.pk, away.pk) != (match.home_id, match.away_id):
        raise ValidationError(f"the teams of this match cannot change: {entered} (clear it first)")
    outside = sorted(set(match.lines.exclude(board__range=(first_board, first_board + boards - 1))
                         .values_list("board", flat=True)))
    if outside:
        raise ValidationError({"boards": f"board {outside[0]} has a line and would be outside the match: "
                                         "delete its lines first"})
    match.round, match.home, match.away = round, home, away
    match.boards, match.first_board, match.carry_over = boards, first_board, carry_over
    match.full_clean()
    match.save()
    unit().touch(team_events=[match.event_id])
    return match


@write
def match_delete(*, match: Match) -> None:
    """A match set by mistake, while nothing is entered for it (a bye: undo its round)."""
    match = _locked(match, None, "the match")
    if match.status == MatchStatus.BYE:
        raise ValidationError("a bye is part of its round's draw: undo the round instead")
    entered = _has_result(match)
    if entered:
        raise ValidationError(f"this match cannot be deleted: {entered} (clear it first)")
    match.delete()
    unit().touch(team_events=[match.event_id])


@write
def match_set_played(*, match: Match) -> Match:
    """An average or forfeit withdrawn: the match is scored from its boards again."""
    match = _locked(match, None, "the match")
    if match.status not in (MatchStatus.AVERAGE, MatchStatus.FORFEIT):
        raise ValidationError("this match is not marked as an average or a forfeit")
    match.status, match.home_vp_awarded, match.away_vp_awarded = MatchStatus.PLAYED, None, None
    match.full_clean()
    match.save()
    unit().touch(team_events=[match.event_id])
    return match


@write
def adjustment_edit(
    *, adjustment: TeamAdjustment, team: Team, kind: str, vp: Decimal, reason: str = "", round: int | None = None,
    seen: str | None = None,
) -> TeamAdjustment:
    """A VP penalty, fine or award corrected (a penalty or fine typed positive is taken off)."""
    adjustment = _locked(adjustment, seen, "the adjustment")
    if team.event_id != adjustment.event_id:
        raise ValidationError({"team": "that team is not in this event"})
    if kind in (AdjustmentKind.PENALTY, AdjustmentKind.FINE) and vp > 0:
        vp = -vp
    adjustment.team, adjustment.kind, adjustment.vp = team, kind, vp
    adjustment.reason, adjustment.round = clean_name(reason), round
    adjustment.full_clean()
    adjustment.save()
    unit().touch(team_events=[adjustment.event_id])
    return adjustment


@write
def adjustment_delete(*, adjustment: TeamAdjustment) -> None:
    unit().lock(team_events=[adjustment.event_id])
    deleted, _ = TeamAdjustment.objects.filter(pk=adjustment.pk).delete()
    if not deleted:
        raise ValidationError("the adjustment was deleted since this page was opened")
    unit().touch(team_events=[adjustment.event_id])


@write
def round_undo(*, event: TeamEvent, round: int) -> int:
    """Take back the last drawn round while nothing is entered in it; the number of matches removed.

    Only the last round: a Swiss round is drawn from the standings before it, so undoing
    an earlier one would leave later draws made from results that no longer exist.
    """
    # The event, then its matches (not while a draw is made, nor a line written).
    unit().touch(team_events=[event])
    list(unit().lock_rows(Match.objects.filter(event=event)).values_list("pk", flat=True))
    rounds = sorted(set(event.matches.values_list("round", flat=True)))
    if round not in rounds:
        raise ValidationError(f"round {round} is not drawn")
    if round != rounds[-1]:
        raise ValidationError(f"only the last round (round {rounds[-1]}) can be undone, not round {round}")
    matches = list(event.matches.filter(round=round).select_related("home", "away"))
    for match in matches:
        entered = _has_result(match)
        if entered:
            raise ValidationError(
                f"round {round} cannot be undone: {match.home} v {match.away or 'bye'}: {entered}"
            )
    Match.objects.filter(pk__in=[match.pk for match in matches]).delete()
    unit().touch(team_events=[event])
    return len(matches)
