"""Scoring a teams event: matches from both tables' lines, VPs, standings (RULES.md 7).

The pure half of the teams feature: the web app hands in what was entered (each
room's line score, or a match's IMP totals, or a match not played) and gets back the
figures, exactly (Fractions and Decimals, rounded only where the scale rounds).

A match is seen from the home team: the home team sits NS in the open room and EW in
the closed room, so the home team's swing on a board is the open room's NS score
minus the closed room's (as ``teams.team_match`` has it).

Adjusted scores in a team match (Laws 12C1c and 12C2):

- an artificial score (A60/40) in a room gives each side its average: +3 IMPs for
  Ave+, 0 for Ave, -3 for Ave- (RULES 6's default), or 1 / 0.5 / 0 board-a-match;
  the other room's line is then not compared;
- a weighted score is compared part by part with the other room, the IMPs weighted;
- a board not played in either room scores nothing for either team.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from sessions.scoring.errors import ScoringError
from sessions.scoring.imps import DEFAULT_IMP_TABLE, imps
from sessions.scoring.ranking import place_labels
from sessions.scoring.scores import Artificial, LineScore, NotPlayed, Weighted
from sessions.scoring.teams import BAM_WIN_POINTS, VP_SCALES, victory_points, wbf_vp

Exact = Fraction | Decimal


class MatchScoring(enum.Enum):
    """How a match is won: IMPs converted to VPs, or board-a-match points."""

    IMPS_TO_VPS = "imps"
    BOARD_A_MATCH = "bam"


#: The VP scales a teams event may use: the seeds' discrete scales and WBF 2013.
WBF_2013 = "wbf2013"
VP_SCALE_NAMES = (*VP_SCALES, WBF_2013)

#: IMPs for an artificial Ave+ / Ave / Ave- (RULES 6 default), by the side's percentage.
ARTIFICIAL_IMPS = {70: 3, 60: 3, 50: 0, 40: -3, 30: -3}
ARTIFICIAL_BAM = {70: Fraction(1), 60: Fraction(1), 50: Fraction(1, 2), 40: Fraction(0), 30: Fraction(0)}


@dataclass(frozen=True)
class BoardRooms:
    """One board of a match: each room's NS score (None while the room has no line)."""

    number: int
    open_room: LineScore | None
    closed_room: LineScore | None


@dataclass(frozen=True)
class BoardOutcome:
    """The home team's IMPs (or board-a-match points) on one board; None: not scored yet."""

    number: int
    home: Fraction | None
    away: Fraction | None


@dataclass(frozen=True)
class MatchOutcome:
    """A scored match from both sides: IMPs (or board points) and VPs."""

    home_points: Fraction
    away_points: Fraction
    home_vp: Exact
    away_vp: Exact
    boards: tuple[BoardOutcome, ...] = ()

    @property
    def margin(self) -> Fraction:
        return self.home_points - self.away_points


@dataclass(frozen=True)
class MatchSettings:
    """The event's scoring settings that a match needs."""

    scoring: MatchScoring = MatchScoring.IMPS_TO_VPS
    vp_scale: str = "20"
    imp_table: str = DEFAULT_IMP_TABLE
    # Board-a-match: points for a won board, a tie scoring half (1 / 1/2 / 0 by RULES 7,
    # or 2 / 1 / 0 as EBUScoreTeams publishes it).
    bam_win: int = 1

    def __post_init__(self) -> None:
        if self.vp_scale not in VP_SCALE_NAMES:
            raise ScoringError(f"unknown VP scale {self.vp_scale!r}: use one of {', '.join(VP_SCALE_NAMES)}")
        if isinstance(self.bam_win, bool) or self.bam_win not in BAM_WIN_POINTS:
            raise ScoringError(f"a board-a-match board is worth 1 or 2 points, not {self.bam_win!r}")

    @property
    def vp_total(self) -> int:
        """The VPs a match shares out (20 or 30)."""
        if self.vp_scale == WBF_2013:
            return 20
        return 2 * VP_SCALES[self.vp_scale][0][1]


# --- one board --------------------------------------------------------------------------


def _artificial_for_home(score: Artificial, home_sits_ns: bool) -> int:
    return score.ns_percent if home_sits_ns else score.ew_percent


def _parts(room: LineScore) -> tuple[tuple[Fraction, int], ...]:
    """A comparable room as weighted parts: a plain score is one part of weight 1."""
    if isinstance(room, Weighted):
        return tuple((Fraction(weight), score) for weight, score in room.parts)
    if isinstance(room, int):
        return ((Fraction(1), room),)
    raise ScoringError(f"{room!r} cannot be compared with the other room")


def _imps_between(open_room: LineScore, closed_room: LineScore, table: str) -> Fraction:
    """Home's IMPs from two comparable rooms (scores or weighted scores)."""
    return sum(
        (w1 * w2 * imps(s1 - s2, table) for w1, s1 in _parts(open_room) for w2, s2 in _parts(closed_room)),
        Fraction(0),
    )


def _bam_between(open_room: LineScore, closed_room: LineScore) -> Fraction:
    """Home's board-a-match points from two comparable rooms."""
    return sum(
        (w1 * w2 * (1 if s1 > s2 else Fraction(1, 2) if s1 == s2 else 0)
         for w1, s1 in _parts(open_room) for w2, s2 in _parts(closed_room)),
        Fraction(0),
    )


def score_board(board: BoardRooms, settings: MatchSettings) -> BoardOutcome:
    """Home's and away's IMPs (or board points) on one board, None while a room is missing."""
    rooms = (board.open_room, board.closed_room)
    if any(room is None for room in rooms):
        return BoardOutcome(board.number, None, None)
    if any(isinstance(room, NotPlayed) for room in rooms):
        return BoardOutcome(board.number, Fraction(0), Fraction(0))
    bam = settings.scoring is MatchScoring.BOARD_A_MATCH
    artificial = [(room, index == 0) for index, room in enumerate(rooms) if isinstance(room, Artificial)]
    # An artificial score in either room: each side's average, the rooms not compared.
    if artificial:
        outcome = _artificial_board(board.number, artificial, bam)
        if bam and outcome.home is not None and outcome.away is not None:
            return BoardOutcome(board.number, outcome.home * settings.bam_win, outcome.away * settings.bam_win)
        return outcome
    assert board.open_room is not None and board.closed_room is not None
    if bam:
        home = _bam_between(board.open_room, board.closed_room)
        return BoardOutcome(board.number, home * settings.bam_win, (1 - home) * settings.bam_win)
    home = _imps_between(board.open_room, board.closed_room, settings.imp_table)
    return BoardOutcome(board.number, max(home, Fraction(0)), max(-home, Fraction(0)))


def _artificial_board(number: int, rooms: Sequence[tuple[Artificial, bool]], bam: bool) -> BoardOutcome:
    """A board with an artificial score: each side gets its average, the rooms not compared.

    IMPs: a room gives home half the difference of the two sides' average IMPs (A60/40
    with home NS is +3, A60/60 and A50/50 are 0), so the match stays zero-sum.
    Board-a-match: each side's average points (1, 1/2, 0), averaged over the rooms.
    """
    home = away = Fraction(0)
    for room, home_sits_ns in rooms:
        home_percent = _artificial_for_home(room, home_sits_ns)
        away_percent = room.ew_percent if home_sits_ns else room.ns_percent
        if bam:
            home += ARTIFICIAL_BAM[home_percent] / len(rooms)
            away += ARTIFICIAL_BAM[away_percent] / len(rooms)
        else:
            home += Fraction(ARTIFICIAL_IMPS[home_percent] - ARTIFICIAL_IMPS[away_percent], 2)
    if not bam:
        home, away = max(home, Fraction(0)), max(-home, Fraction(0))
    return BoardOutcome(number, home, away)


# --- one match --------------------------------------------------------------------------


def match_vps(margin: Fraction, boards: int, settings: MatchSettings) -> tuple[Exact, Exact]:
    """(home VP, away VP) for home's IMP margin over ``boards`` boards on the event's scale."""
    if settings.vp_scale == WBF_2013:
        return wbf_vp(margin, boards)
    # Discrete scales band whole IMPs: a fractional margin (carry-over, weighted score)
    # counts by its whole part towards zero, as the tables are read.
    whole = int(margin)
    home, away = victory_points(whole, settings.vp_scale)
    return Fraction(home), Fraction(away)


def score_match(
    boards: Sequence[BoardRooms],
    settings: MatchSettings,
    *,
    carry_over: Fraction = Fraction(0),
) -> MatchOutcome:
    """A match from its boards; ``carry_over`` is home's IMPs brought in (a knockout's)."""
    if not boards:
        raise ScoringError("a match needs at least one board to be scored from its boards")
    outcomes = tuple(score_board(board, settings) for board in boards)
    home = sum((o.home for o in outcomes if o.home is not None), Fraction(0))
    away = sum((o.away for o in outcomes if o.away is not None), Fraction(0))
    if carry_over > 0:
        home += carry_over
    elif carry_over < 0:
        away -= carry_over
    return _with_vps(home, away, len(boards), settings, outcomes)


def score_match_totals(home_imps: Fraction, away_imps: Fraction, boards: int, settings: MatchSettings) -> MatchOutcome:
    """A match known only by its IMP totals (or board-a-match points)."""
    for name, value in (("home", home_imps), ("away", away_imps)):
        if value < 0:
            raise ScoringError(f"the {name} team's total cannot be negative ({value})")
    if settings.scoring is MatchScoring.BOARD_A_MATCH and home_imps + away_imps != boards * settings.bam_win:
        raise ScoringError(
            f"board-a-match points must add up to {settings.bam_win} a board ({boards * settings.bam_win}), "
            f"not {home_imps + away_imps}"
        )
    return _with_vps(Fraction(home_imps), Fraction(away_imps), boards, settings, ())


def _with_vps(
    home: Fraction, away: Fraction, boards: int, settings: MatchSettings, outcomes: tuple[BoardOutcome, ...]
) -> MatchOutcome:
    if settings.scoring is MatchScoring.BOARD_A_MATCH:
        # Board-a-match: the board points are the match score (no VP conversion).
        return MatchOutcome(home, away, home, away, outcomes)
    home_vp, away_vp = match_vps(home - away, boards, settings)
    return MatchOutcome(home, away, home_vp, away_vp, outcomes)


# --- standings -------------------------------------------------------------------------


@dataclass(frozen=True)
class TeamScore:
    """One team's line in the standings after some rounds."""

    team: int
    vp: Fraction
    imps_for: Fraction
    imps_against: Fraction
    matches: int
    place: str = ""


@dataclass(frozen=True)
class StandingInput:
    """Scored matches and adjustments for the standings: team ids, figures each side."""

    matches: Sequence[tuple[int, int, MatchOutcome]] = ()
    #: (team, VPs) added to the total: a bye's VPs (positive), a penalty (negative).
    adjustments: Sequence[tuple[int, Exact]] = ()
    #: Matches not played for which the director gave VPs: (team, VPs).
    awarded: Sequence[tuple[int, Exact]] = field(default_factory=tuple)


def standings(teams: Iterable[int], data: StandingInput) -> tuple[TeamScore, ...]:
    """Teams ranked by VPs, ties sharing a place ("3="); ties listed by IMP difference."""
    vp: dict[int, Fraction] = {team: Fraction(0) for team in teams}
    imps_for = dict.fromkeys(vp, Fraction(0))
    imps_against = dict.fromkeys(vp, Fraction(0))
    played = dict.fromkeys(vp, 0)
    for home, away, outcome in data.matches:
        _add(vp, home, outcome.home_vp)
        _add(vp, away, outcome.away_vp)
        imps_for[home] += outcome.home_points
        imps_against[home] += outcome.away_points
        imps_for[away] += outcome.away_points
        imps_against[away] += outcome.home_points
        played[home] += 1
        played[away] += 1
    for team, value in (*data.adjustments, *data.awarded):
        _add(vp, team, value)
    order = sorted(vp, key=lambda team: (-vp[team], -(imps_for[team] - imps_against[team]), team))
    places = place_labels([vp[team] for team in order])
    return tuple(
        TeamScore(team, vp[team], imps_for[team], imps_against[team], played[team], place)
        for team, place in zip(order, places)
    )


def _add(totals: dict[int, Fraction], team: int, value: Exact) -> None:
    if team not in totals:
        raise ScoringError(f"team {team} is not in the event")
    totals[team] += Fraction(value)


# --- knockouts ---------------------------------------------------------------------------


class TieBreak(enum.Enum):
    """How a drawn knockout match is decided."""

    EXTRA_BOARDS = "extra_boards"  # play on: the winner of the extra boards goes through
    HIGHER_SEED = "higher_seed"  # the stated rule: the better-seeded team goes through


def knockout_winner(
    outcome: MatchOutcome, *, home_seed: int, away_seed: int, tie_break: TieBreak,
    extra_boards: MatchOutcome | None = None,
) -> str | None:
    """"home" or "away" for the team that goes through; None while extra boards are awaited."""
    if outcome.home_points != outcome.away_points:
        return "home" if outcome.home_points > outcome.away_points else "away"
    if tie_break is TieBreak.HIGHER_SEED:
        return "home" if home_seed < away_seed else "away"
    if extra_boards is None or extra_boards.home_points == extra_boards.away_points:
        return None
    return "home" if extra_boards.home_points > extra_boards.away_points else "away"
