"""Events of several sessions: the sessions' scores combined into one ranking (RULES 11).

The caller scores each session (score_session) and hands over, per session, each
competitor's figures: its percentage (matchpoint events) or its IMP total. A
competitor is whatever the caller decides is the same from one session to the next:
a pair of players (both the same people), or one player. The engine knows only keys.

How the sessions combine is the event's choice:

- ``scaled``: sum of matchpoints scaled to a common top. A session's score is the
  competitor's percentage of that session times the event's common top, which is the
  largest session's maximum (a board's full top x the boards of that session). With a
  24-board session of top 10 (240) and a 26-board session of top 12 (312), the common
  top is 312: 60 % then 50 % score 187.2 + 156 = 343.2.
- ``average``: the average of the session percentages.
- ``carry_forward``: the last session is the final; a pair's score is its final
  percentage plus the stated fraction of how far its average in the earlier sessions
  stood above (or below) 50 %. Only the final's pairs are ranked.
- ``imps``: IMP events add up the session IMP totals.

A series (league table) counts each competitor's best N sessions (by the session's
score; the others are shown, not counted) and ranks only those who played at least
the minimum number of sessions: the others are listed after them, unranked. Exact
fractions throughout; places with ties as in a session (RULES 8).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from sessions.scoring.errors import ScoringError
from sessions.scoring.ranking import place_labels, place_numbers

FIFTY = Fraction(50)
HUNDRED = Fraction(100)


class Combination(StrEnum):
    SCALED = "scaled"  # sum of matchpoints scaled to a common top
    AVERAGE = "average"  # average of the session percentages
    CARRY_FORWARD = "carry_forward"  # final's percentage plus a fraction of the earlier sessions'
    IMPS = "imps"  # IMP events: sum of the session IMP totals


PERCENTAGE_BASED = (Combination.SCALED, Combination.AVERAGE, Combination.CARRY_FORWARD)


@dataclass(frozen=True)
class SessionEntry:
    """One competitor's result in one session."""

    competitor: str
    percentage: Fraction | None = None  # matchpoint events
    imps: Fraction | None = None  # IMP events: the session's IMP total


@dataclass(frozen=True)
class EventSession:
    """One session of the event, in the order of play."""

    key: str
    entries: tuple[SessionEntry, ...]
    top: Fraction | None = None  # scaled matchpoints: the most a pair could score (top x boards)


@dataclass(frozen=True)
class EventOptions:
    combination: str = Combination.SCALED
    best: int | None = None  # count each competitor's best N sessions; None: all
    minimum: int = 1  # sessions played to be ranked
    carry_forward: Fraction = Fraction(1, 2)  # carry-forward: the share of the earlier sessions' margin

    def __post_init__(self) -> None:
        if self.combination not in tuple(Combination):
            raise ScoringError(
                f"unknown way to combine sessions {self.combination!r}: use one of {', '.join(Combination)}"
            )
        if self.best is not None and self.best < 1:
            raise ScoringError("the number of sessions counted must be at least 1")
        if self.minimum < 1:
            raise ScoringError("the minimum attendance must be at least 1 session")
        if self.best is not None and self.minimum > self.best:
            raise ScoringError(
                f"a minimum attendance of {self.minimum} sessions cannot exceed the {self.best} sessions counted"
            )
        if not 0 <= self.carry_forward <= 1:
            raise ScoringError("the carry-forward fraction must be between 0 and 1")
        if self.combination == Combination.CARRY_FORWARD and self.best is not None:
            raise ScoringError("carry-forward counts every earlier session: best N does not apply")


@dataclass(frozen=True)
class CombinedScore:
    """A competitor's figure for one session as the event counts it."""

    session: str
    score: Fraction  # scaled matchpoints, a percentage or IMPs, as the combination has it
    counted: bool  # False: outside the best N (shown, not counted)


@dataclass(frozen=True)
class CombinedStanding:
    competitor: str
    scores: tuple[CombinedScore, ...]  # the sessions played, in the order of play
    total: Fraction  # what the competitor is ranked by
    played: int
    ranked: bool  # False: too few sessions (or, carry-forward, not in the final)
    place: str  # "1", "3="; "" when unranked
    rank: int  # 0 when unranked
    carried: Fraction | None = None  # carry-forward: what the earlier sessions added

    def score(self, session: str) -> CombinedScore | None:
        return next((score for score in self.scores if score.session == session), None)


@dataclass(frozen=True)
class EventResult:
    standings: tuple[CombinedStanding, ...]  # ranked best first, then the unranked by total
    sessions: tuple[str, ...]
    common_top: Fraction | None = None  # scaled matchpoints
    _by_competitor: dict[str, CombinedStanding] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        for standing in self.standings:
            self._by_competitor[standing.competitor] = standing

    def standing(self, competitor: str) -> CombinedStanding:
        try:
            return self._by_competitor[competitor]
        except KeyError:
            raise ScoringError(f"{competitor!r} played no session of this event") from None


def combine_sessions(sessions: Sequence[EventSession], options: EventOptions) -> EventResult:
    """Rank the event's competitors over its sessions (in the order given)."""
    _check(sessions, options)
    common_top = _common_top(sessions) if options.combination == Combination.SCALED else None
    figures = _session_figures(sessions, options, common_top)
    if options.combination == Combination.CARRY_FORWARD:
        standings = _carry_forward(sessions, figures, options)
    else:
        keys = [session.key for session in sessions]
        standings = [_counted(competitor, keys, row, options) for competitor, row in figures.items()]
    return EventResult(standings=_placed(standings), sessions=tuple(s.key for s in sessions), common_top=common_top)


def _check(sessions: Sequence[EventSession], options: EventOptions) -> None:
    keys = [session.key for session in sessions]
    if len(set(keys)) != len(keys):
        raise ScoringError("two sessions of the event have the same key")
    wanted = "imps" if options.combination == Combination.IMPS else "percentage"
    for session in sessions:
        seen: set[str] = set()
        for entry in session.entries:
            if entry.competitor in seen:
                raise ScoringError(f"{entry.competitor} appears twice in session {session.key}")
            seen.add(entry.competitor)
            if getattr(entry, wanted) is None:
                raise ScoringError(f"{entry.competitor} has no {wanted} in session {session.key}")
        if options.combination == Combination.SCALED and session.entries and not session.top:
            raise ScoringError(f"session {session.key} has no top to scale its matchpoints from")


def _common_top(sessions: Sequence[EventSession]) -> Fraction | None:
    tops = [session.top for session in sessions if session.entries and session.top]
    return max(tops) if tops else None


def _session_figures(
    sessions: Sequence[EventSession], options: EventOptions, common_top: Fraction | None
) -> dict[str, list[Fraction | None]]:
    """Each competitor's figure in every session (None where it did not play)."""
    figures: dict[str, list[Fraction | None]] = {}
    for index, session in enumerate(sessions):
        for entry in session.entries:
            row = figures.setdefault(entry.competitor, [None] * len(sessions))
            row[index] = _figure(entry, options.combination, common_top)
    return figures


def _figure(entry: SessionEntry, combination: str, common_top: Fraction | None) -> Fraction:
    if combination == Combination.IMPS:
        return Fraction(entry.imps or 0)
    percentage = Fraction(entry.percentage or 0)
    if combination == Combination.SCALED:
        return percentage * (common_top or 0) / HUNDRED
    return percentage


def _scores(keys: Sequence[str], row: Sequence[Fraction | None], counted: set[int]) -> tuple[CombinedScore, ...]:
    return tuple(
        CombinedScore(session=key, score=figure, counted=index in counted)
        for index, (key, figure) in enumerate(zip(keys, row)) if figure is not None
    )


def _best(row: Sequence[Fraction | None], best: int | None) -> set[int]:
    """The sessions counted: the best N figures (the earlier session first among equals)."""
    played = [index for index, figure in enumerate(row) if figure is not None]
    ordered = sorted(played, key=lambda index: (-(row[index] or 0), index))
    return set(ordered if best is None else ordered[:best])


@dataclass(frozen=True)
class _Unplaced:
    competitor: str
    scores: tuple[CombinedScore, ...]
    total: Fraction
    played: int
    ranked: bool
    carried: Fraction | None = None


def _counted(competitor: str, keys: Sequence[str], row: Sequence[Fraction | None], options: EventOptions) -> _Unplaced:
    counted = _best(row, options.best)
    figures = [row[index] or Fraction(0) for index in counted]
    total = sum(figures, Fraction(0))
    if options.combination == Combination.AVERAGE:
        total /= len(figures)
    played = sum(figure is not None for figure in row)
    return _Unplaced(competitor, _scores(keys, row, counted), total, played, played >= options.minimum)


def _carry_forward(
    sessions: Sequence[EventSession], figures: Mapping[str, Sequence[Fraction | None]], options: EventOptions
) -> list[_Unplaced]:
    keys = [session.key for session in sessions]
    standings = []
    for competitor, row in figures.items():
        *earlier, final = row
        played_earlier = [figure for figure in earlier if figure is not None]
        average = sum(played_earlier, Fraction(0)) / len(played_earlier) if played_earlier else FIFTY
        carried = options.carry_forward * (average - FIFTY)
        played = len(played_earlier) + (final is not None)
        total = (final if final is not None else FIFTY) + carried
        ranked = final is not None and played >= options.minimum
        every = {index for index, figure in enumerate(row) if figure is not None}
        standings.append(_Unplaced(competitor, _scores(keys, row, every), total, played, ranked, carried))
    return standings


def _placed(standings: Sequence[_Unplaced]) -> tuple[CombinedStanding, ...]:
    """Places among the ranked (ties share, RULES 8); the unranked follow by total, unplaced."""
    ranked = [standing for standing in standings if standing.ranked]
    totals = [standing.total for standing in ranked]
    placed = [
        _standing(standing, label, number)
        for standing, label, number in zip(ranked, place_labels(totals), place_numbers(totals))
    ]
    unranked = [_standing(standing, "", 0) for standing in standings if not standing.ranked]
    placed.sort(key=lambda standing: (standing.rank, standing.competitor))
    unranked.sort(key=lambda standing: (-standing.total, standing.competitor))
    return tuple(placed + unranked)


def _standing(standing: _Unplaced, place: str, rank: int) -> CombinedStanding:
    return CombinedStanding(
        competitor=standing.competitor, scores=standing.scores, total=standing.total, played=standing.played,
        ranked=standing.ranked, place=place, rank=rank, carried=standing.carried,
    )
