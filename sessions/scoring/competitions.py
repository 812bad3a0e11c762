"""Club competitions across sessions: place points, members only, a minimum attendance,
the best N sessions, and tie-breaks in order (RULES 11, "Competitions").

Each session gives each competitor points for its place in its field (section and
direction, as the session ranked it): the club's table, 10 for 1st down to 1 for 10th by
default, nothing below it. Competitors share the points of the places a tie covers (two
pairs "3=" each score the average of 3rd's and 4th's points). A members-only
competition is handed only its members' places: they are ranked again among themselves
before points are given (a visitor who won takes no points, the best member is 1st).

The total is the points of the competitor's best N sessions (all when N is not set;
among equal points the earlier session counts). Competitors with fewer sessions than the
minimum are listed after the ranked ones, without a place. Equal totals are separated by
the tie-breaks in the order given, each applied to the competitors still level:

- ``butler``: the higher total score over the counted sessions (the session's own
  figure: IMPs against the datum in a Butler event, the percentage in a matchpoint one);
- ``head_to_head``: the more sessions finished ahead of the others still level, less
  those finished behind them (sessions both played, in the same field);
- ``wins``: the more sessions won (1st or 1= in a field).

Competitors still level after every tie-break share the place ("3="). Exact arithmetic
(Fraction) throughout.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from sessions.scoring.errors import ScoringError

DEFAULT_POINTS = (10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
TIE_BREAKS = ("butler", "head_to_head", "wins")


@dataclass(frozen=True)
class Finish:
    """A competitor's finish in one field of one session, as the session ranked it."""

    competitor: str
    field: str
    rank: int  # the session's numeric place (equal ranks: a tie)
    score: Fraction  # the session's figure: percentage or IMPs


@dataclass(frozen=True)
class CompetitionSession:
    key: str
    finishes: tuple[Finish, ...]


@dataclass(frozen=True)
class CompetitionRules:
    points: tuple[int, ...] = DEFAULT_POINTS
    minimum: int = 0
    best: int | None = None
    tie_breaks: tuple[str, ...] = TIE_BREAKS


@dataclass(frozen=True)
class Contribution:
    """What one session gave a competitor: its place among those ranked, and the points."""

    session: str
    field: str
    place: str  # "1", "3=" among the competition's competitors
    points: Fraction
    score: Fraction
    counted: bool  # among the best N


@dataclass(frozen=True)
class CompetitionStanding:
    competitor: str
    total: Fraction
    contributions: tuple[Contribution, ...]  # in the order of play
    place: str  # "" when below the minimum attendance
    ranked: bool
    decided_by: str = ""  # the tie-break that placed it among those level on points


def _checked(rules: CompetitionRules) -> None:
    if any(points < 0 for points in rules.points):
        raise ScoringError("place points cannot be negative")
    unknown = [name for name in rules.tie_breaks if name not in TIE_BREAKS]
    if unknown:
        raise ScoringError(f"unknown tie-break {unknown[0]!r}: use {', '.join(TIE_BREAKS)}")
    if rules.best is not None and rules.best < 1:
        raise ScoringError("the best sessions counted must be at least 1")
    if rules.best is not None and rules.minimum > rules.best:
        raise ScoringError("the minimum attendance cannot exceed the sessions counted")


def _place_label(place: int, tied: int) -> str:
    return f"{place}=" if tied > 1 else str(place)


def session_points(session: CompetitionSession, table: Sequence[int]) -> dict[str, Contribution]:
    """Each competitor's place and points in the session, its field ranked again among
    the finishes given (ties share the points of the places they cover)."""
    seen: set[str] = set()
    given: dict[str, Contribution] = {}
    fields: dict[str, list[Finish]] = {}
    for finish in session.finishes:
        if finish.competitor in seen:
            raise ScoringError(f"{finish.competitor} finishes twice in session {session.key}")
        seen.add(finish.competitor)
        fields.setdefault(finish.field, []).append(finish)
    for field_name, finishes in fields.items():
        for finish in finishes:
            place = 1 + sum(other.rank < finish.rank for other in finishes)
            tied = sum(other.rank == finish.rank for other in finishes)
            covered = [table[index] if index < len(table) else 0 for index in range(place - 1, place - 1 + tied)]
            given[finish.competitor] = Contribution(
                session.key, field_name, _place_label(place, tied), Fraction(sum(covered), tied), finish.score, True,
            )
    return given


def _counted(contributions: list[Contribution], best: int | None) -> tuple[Contribution, ...]:
    """The best N by points, the earlier session first among equals; the others marked."""
    if best is None:
        return tuple(contributions)
    order = sorted(range(len(contributions)), key=lambda index: (-contributions[index].points, index))
    kept = set(order[:best])
    return tuple(
        contribution if index in kept else Contribution(**{**contribution.__dict__, "counted": False})
        for index, contribution in enumerate(contributions)
    )


class _TieBreaker:
    def __init__(self, contributions: dict[str, tuple[Contribution, ...]], sessions: Sequence[CompetitionSession]):
        self.contributions = contributions
        # (session, field) -> competitor -> rank, for head to head.
        self.ranks: dict[tuple[str, str], dict[str, int]] = {}
        for session in sessions:
            for finish in session.finishes:
                self.ranks.setdefault((session.key, finish.field), {})[finish.competitor] = finish.rank

    def value(self, name: str, competitor: str, level: Sequence[str]) -> Fraction:
        own = self.contributions[competitor]
        if name == "butler":
            return sum((c.score for c in own if c.counted), Fraction(0))
        if name == "wins":
            return Fraction(sum(c.place in ("1", "1=") for c in own))
        margin = 0
        for ranks in self.ranks.values():
            if competitor in ranks:
                for other in level:
                    if other != competitor and other in ranks:
                        margin += (ranks[other] > ranks[competitor]) - (ranks[other] < ranks[competitor])
        return Fraction(margin)

    def order(self, level: list[str], tie_breaks: Sequence[str], used: tuple[str, ...] = ()) -> list[list[tuple[str, str]]]:
        """The competitors level on points in order: groups still level after every
        tie-break, each (competitor, the tie-breaks that split its group on the way)."""
        if len(level) == 1 or not tie_breaks:
            return [[(competitor, ", ".join(used)) for competitor in level]]
        name, rest = tie_breaks[0], tie_breaks[1:]
        values = {competitor: self.value(name, competitor, level) for competitor in level}
        if len(set(values.values())) == 1:
            return self.order(level, rest, used)
        groups: list[list[tuple[str, str]]] = []
        for value in sorted(set(values.values()), reverse=True):
            groups.extend(self.order([c for c in level if values[c] == value], rest, (*used, name)))
        return groups


def rank_competition(sessions: Sequence[CompetitionSession], rules: CompetitionRules) -> tuple[CompetitionStanding, ...]:
    """The competition's standings: ranked best first, then those below the minimum."""
    _checked(rules)
    played: dict[str, list[Contribution]] = {}
    for session in sessions:
        for competitor, contribution in session_points(session, rules.points).items():
            played.setdefault(competitor, []).append(contribution)
    contributions = {competitor: _counted(items, rules.best) for competitor, items in played.items()}
    totals = {competitor: sum((c.points for c in items if c.counted), Fraction(0))
              for competitor, items in contributions.items()}
    ranked = [competitor for competitor in played if len(played[competitor]) >= rules.minimum]
    unranked = [competitor for competitor in played if len(played[competitor]) < rules.minimum]
    breaker = _TieBreaker(contributions, sessions)
    standings: list[CompetitionStanding] = []
    position = 1
    for total in sorted({totals[competitor] for competitor in ranked}, reverse=True):
        level = sorted((competitor for competitor in ranked if totals[competitor] == total), key=str)
        for group in breaker.order(level, rules.tie_breaks):
            label = _place_label(position, len(group))
            standings.extend(
                CompetitionStanding(competitor, total, contributions[competitor], label, True, reason)
                for competitor, reason in group
            )
            position += len(group)
    standings.extend(
        CompetitionStanding(competitor, totals[competitor], contributions[competitor], "", False)
        for competitor in sorted(unranked, key=lambda competitor: (-totals[competitor], competitor))
    )
    return tuple(standings)
