"""What a player's results mail says, and the mails a director sees on a session's page.

``player_results`` reads one player's evening off the same selectors as the pages (the
pair's score card, its boards against par), so a mail never gives a figure the pages do
not. ``mail_figures`` is the short version an amended mail compares: place and
percentage (or IMPs), as the ranking prints them.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from django.conf import settings
from django.db.models import Q, QuerySet
from django.urls import reverse

from sessions.models import ChangeAction, Pair, Player, ResultChange, ResultMail, Session, Team, TeamEvent
from sessions.scoring.rounding import round_to_places

from sessions.analysis.selectors.analysis import PairBoard, pair_par_summary
from sessions.pairs.selectors.public import Scorecard, ScorecardRow, scorecard_sheet
from sessions.teams.selectors.teams import ScoredMatch, team_event_score, team_matches

#: How many boards each "cost most" list names.
COSTLY_BOARDS = 3


def absolute_url(path: str) -> str:
    """A page's address for a mail: the SITE_URL setting and the path."""
    return f"{settings.SITE_URL}{path}"


def _figure(value: Fraction | None) -> str:
    return "" if value is None else str(round_to_places(value, 2))


@dataclass(frozen=True)
class PlayerResults:
    session: Session
    player: Player
    pair: Pair
    card: Scorecard
    costly_field: tuple[ScorecardRow, ...]  # the boards that scored least against the field, worst first
    costly_par: tuple[PairBoard, ...]  # the boards furthest below par, worst first (empty until analysed)
    analysed: bool  # every board the pair played has its analysis

    @property
    def partner(self) -> Player | None:
        return self.pair.player_2 if self.pair.player_1_id == self.player.pk else self.pair.player_1

    @property
    def figures(self) -> dict[str, str]:
        """What an amended mail compares: the ranking's figures and the partner."""
        partner = self.partner
        return {**mail_figures(self.card), "partner": partner.name if partner else ""}

    @property
    def session_url(self) -> str:
        return absolute_url(reverse("sessions:session_results", args=[self.session.pk]))

    @property
    def scorecard_url(self) -> str:
        return absolute_url(reverse("sessions:scorecard", args=[self.session.pk, self.pair.pk]))

    def board_url(self, number: int) -> str:
        return absolute_url(reverse("sessions:board", args=[self.session.pk, number]))


def mail_figures(card: Scorecard) -> dict[str, str]:
    """The pair's place and percentage (matchpoints) or IMP total, as printed."""
    standing = card.standing
    if standing is None:
        return {}
    figures = {"place": standing.place}
    if card.is_matchpoints:
        figures["percent"] = _figure(standing.percentage)
    else:
        figures["imps"] = _figure(standing.total)
    return figures


def player_pair(*, session: Session, player: Player) -> Pair | None:
    """The pair the player played in (their first, should a record play twice)."""
    return (
        Pair.objects.filter(section__session=session)
        .filter(Q(player_1=player) | Q(player_2=player))
        .select_related("section__session__event", "player_1", "player_2")
        .first()
    )


def _costly_field(rows: Sequence[ScorecardRow], is_matchpoints: bool) -> tuple[ScorecardRow, ...]:
    scored = [row for row in rows if row.points is not None]
    if is_matchpoints:
        scored = [row for row in scored if row.percent is not None and row.percent < 50]
        scored.sort(key=lambda row: (row.percent, row.board))
    else:
        scored = [row for row in scored if row.points is not None and row.points < 0]
        scored.sort(key=lambda row: (row.points, row.board))
    return tuple(scored[:COSTLY_BOARDS])


def player_results(*, session: Session, player: Player) -> PlayerResults | None:
    """The player's evening in ``session``, or None when they did not play in it."""
    pair = player_pair(session=session, player=player)
    if pair is None:
        return None
    card = scorecard_sheet(pair=pair)
    par = pair_par_summary(pair=pair, results=[row.line.result for row in card.rows])
    below = sorted(par.below_par, key=lambda board: (board.against_par, board.board))
    return PlayerResults(
        session=session,
        player=player,
        pair=pair,
        card=card,
        costly_field=_costly_field(card.rows, card.is_matchpoints),
        costly_par=tuple(below[:COSTLY_BOARDS]),
        analysed=bool(par.boards) and par.pending == 0,
    )


#: The change log's entries an amended mail does not name: they change no figure.
_NOT_CORRECTIONS = (ChangeAction.PUBLISHED, ChangeAction.UNPUBLISHED, ChangeAction.MASTERPOINTS)
#: An amended mail names at most this many corrections (then "and N more").
CORRECTIONS_NAMED = 8


def _correction_text(change: ResultChange) -> str:
    what = change.get_action_display()
    if change.board_id is not None:
        where = f"board {change.board.number} ({change.ns_pair.label} v {change.ew_pair.label})" if change.ns_pair_id and change.ew_pair_id else f"board {change.board.number}"
    else:
        where = change.subject
    before, after = change.before_text or "-", change.after_text or "-"
    return f"{what}: {where}: {before} -> {after}" if where else f"{what}: {before} -> {after}"


def corrections_since(*, session: Session, since: datetime.datetime | None) -> list[str]:
    """The corrections to ``session`` logged after ``since``, oldest first, each in a line (one query)."""
    changes = (
        session.changes.exclude(action__in=_NOT_CORRECTIONS).select_related("board", "ns_pair", "ew_pair")
        .order_by("changed_at", "pk")
    )
    if since is not None:
        changes = changes.filter(changed_at__gt=since)
    found = [_correction_text(change) for change in changes[: CORRECTIONS_NAMED + 1]]
    if len(found) > CORRECTIONS_NAMED:
        more = changes.count() - CORRECTIONS_NAMED
        found = [*found[:CORRECTIONS_NAMED], f"and {more} more (the session's change log has them all)"]
    return found


def session_mails(*, session: Session) -> QuerySet[ResultMail]:
    """The results mails of a session, for its director's page (one query)."""
    return session.result_mails.select_related("player").order_by("player__name", "created_at", "pk")


# --- teams events ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class TeamMatchLine:
    """One of the team's matches as a mail gives it: the round, the opponents, the IMPs and VPs each side."""

    round: int
    opponents: str
    imps: str
    vps: str


@dataclass(frozen=True)
class TeamPlayerResults:
    """A player's team in a teams event, after ``round`` (None: every round played)."""

    event: TeamEvent
    player: Player
    team: Team
    round: int | None
    place: str
    vp: Fraction
    matches: tuple[TeamMatchLine, ...]
    standings: tuple[tuple[str, str, str], ...]  # (place, team, VPs), first first

    @property
    def figures(self) -> dict[str, str]:
        """What an amended teams mail compares: the team's place and VPs."""
        return {"place": self.place, "vp": _figure(self.vp)}

    @property
    def event_url(self) -> str:
        return absolute_url(reverse("sessions:team_event", args=[self.event.pk]))

    @property
    def team_url(self) -> str:
        return absolute_url(reverse("sessions:team_page", args=[self.event.pk, self.team.pk]))


def _team_match_line(scored: ScoredMatch, team: Team) -> TeamMatchLine:
    match, home = scored.match, scored.match.home_id == team.pk
    other = match.away if home else match.home
    opponents = other.name if other is not None else "a bye"
    outcome = scored.outcome
    if outcome is None:
        imps = ""
    else:
        own, theirs = (outcome.home_points, outcome.away_points) if home else (outcome.away_points, outcome.home_points)
        imps = f"{_figure(Fraction(own))}-{_figure(Fraction(theirs))}"
    own_vp, their_vp = (scored.home_vp, scored.away_vp) if home else (scored.away_vp, scored.home_vp)
    vps = "" if own_vp is None else f"{_figure(own_vp)}-{_figure(their_vp)}" if their_vp is not None else _figure(own_vp)
    return TeamMatchLine(match.round, opponents, imps, vps)


def team_players_results(*, event: TeamEvent, round: int | None = None) -> dict[int, TeamPlayerResults]:
    """Every player's team after ``round`` (None: the current standings), by player id: the
    event scored once (team_event_score's four queries, and one for the rosters)."""
    score = team_event_score(event)
    upto = round if round is not None else (max(score.by_round) if score.by_round else None)
    lines = score.by_round.get(upto, score.standings) if upto is not None else score.standings
    teams = {team.pk: team for team in score.teams}
    standings = tuple((line.place, teams[line.team].name, _figure(line.vp)) for line in lines)
    by_team = {line.team: line for line in lines}
    rosters = Team.players.through.objects.filter(team__event=event).select_related("player")
    found = {}
    for roster in rosters:
        team, line = teams[roster.team_id], by_team.get(roster.team_id)
        if line is None:
            continue
        matches = tuple(
            _team_match_line(scored, team) for scored in team_matches(score, team)
            if upto is None or scored.match.round <= upto
        )
        found[roster.player_id] = TeamPlayerResults(
            event=event, player=roster.player, team=team, round=round, place=line.place, vp=line.vp,
            matches=matches, standings=standings,
        )
    return found


def team_event_mails(*, event: TeamEvent) -> QuerySet[ResultMail]:
    """The mails of a teams event, for its director's page (one query)."""
    return event.result_mails.select_related("player").order_by("player__name", "created_at", "pk")
