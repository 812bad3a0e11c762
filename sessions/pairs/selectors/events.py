"""An event's sessions ranked together (RULES 11), in a fixed number of queries.

``event_ranking`` loads the event's sessions, then every pair and every result of all
of them in one query each (three queries, whatever the number of sessions), scores
each session in Python through the same path as its own pages (score_loaded), and
hands the session standings to the engine's combine_sessions.

Competitors are matched across sessions by their players, never by pair number: a
pair is the same pair when both its players are the same Player records (in either
seat); with the event ranking players, each player is credited with the pair's score.
A pair whose players were not entered cannot be recognised in another session: it
stands alone, named after its session. A pair whose players changed during a session (a
substitute) is the pair of its players of the most boards; ranked by players, each of its
players is credited with the pair's figures over the boards they played.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from django.db.models import QuerySet

from sessions.models import Club, CombinedBy, Event, Pair, ScoringMethod, Session
from sessions.scoring.errors import ScoringError
from sessions.scoring.session import Standing
from sessions.scoring.events import (
    Combination,
    CombinedScore,
    CombinedStanding,
    EventOptions,
    EventResult,
    EventSession,
    SessionEntry,
    combine_sessions,
)

from sessions.pairs.selectors.lineups import has_lineup, lineups_of, player_shares, spells_of
from sessions.pairs.selectors.public import ranking_hidden
from sessions.core.selectors.scored import ScoredSession
from sessions.core.selectors.scoring import sessions_scores

#: The Event fields that say how its sessions rank together.
EVENT_COMBINED_FIELDS = ("combination", "combined_by", "sessions_counted", "minimum_sessions", "carry_forward_percent")


def event_options(event: Event) -> EventOptions:
    """The engine's options for the event: IMP events always add their IMPs."""
    matchpoints = event.method == ScoringMethod.MATCHPOINTS
    return EventOptions(
        combination=event.combination if matchpoints else Combination.IMPS,
        best=event.sessions_counted,
        minimum=event.minimum_sessions,
        carry_forward=Fraction(event.carry_forward_percent, 100),
    )


@dataclass(frozen=True)
class EventSessionView:
    """A session as the combined table shows it: "S1" in the header, its name in the list."""

    session: Session
    label: str  # "S1", "S2" ... in the order of play
    counted: bool  # False: its ranking is not shown yet (the event shows it only once final)

    @property
    def key(self) -> str:
        return str(self.session.pk)


@dataclass(frozen=True)
class CombinedCell:
    """A competitor's figure in one session and the pair it played in there (for its score card)."""

    score: CombinedScore
    pair: Pair


@dataclass(frozen=True)
class CombinedRow:
    standing: CombinedStanding
    name: str
    cells: dict[str, CombinedCell]  # session key -> cell
    position: int  # in the engine's order: ranked best first, then the unranked

    @property
    def place(self) -> str:
        return self.standing.place

    @property
    def total(self) -> Fraction:
        return self.standing.total


@dataclass(frozen=True)
class CombinedRanking:
    event: Event
    sessions: tuple[EventSessionView, ...]  # every session read, in the order of play
    rows: tuple[CombinedRow, ...]  # ranked best first, then the unranked
    options: EventOptions
    error: str = ""  # why the sessions could not be combined (the rows are then empty)
    result: EventResult | None = None
    scored: tuple[ScoredSession, ...] = ()  # the sessions counted, scored, in the order of play

    @property
    def counted_sessions(self) -> tuple[EventSessionView, ...]:
        return tuple(view for view in self.sessions if view.counted)

    @property
    def combination(self) -> str:
        return self.options.combination

    @property
    def is_matchpoints(self) -> bool:
        return self.options.combination != Combination.IMPS

    @property
    def any_published(self) -> bool:
        return any(view.session.published for view in self.sessions)

    @property
    def has_unranked(self) -> bool:
        return any(not row.standing.ranked for row in self.rows)


def event_sessions(event: Event, *, published_only: bool) -> list[Session]:
    """The event's sessions in the order of play (one query)."""
    sessions = Session.objects.filter(event=event).order_by("date", "pk")
    if published_only:
        sessions = sessions.filter(published=True)
    loaded = list(sessions)
    for session in loaded:
        session.event = event  # scoring reads the event's options: no query per session
    return loaded


def event_ranking(*, event: Event, published_only: bool = True) -> CombinedRanking:
    """The event's combined ranking: three queries (sessions, pairs, results), whatever
    the number of sessions. The players' pages read published sessions only, and leave
    out a session whose ranking the event shows only once it is final."""
    sessions = event_sessions(event, published_only=published_only)
    views = tuple(
        EventSessionView(session, f"S{number}", not (published_only and ranking_hidden(session)))
        for number, session in enumerate(sessions, start=1)
    )
    scored = _scored_sessions([view.session for view in views if view.counted])
    options = EventOptions()
    try:
        options = event_options(event)
        competitors = _Competitors(event.combined_by, scored)
        inputs = [competitors.session_input(scored_session) for scored_session in scored]
        result = combine_sessions(inputs, options)
    except ScoringError as error:
        return CombinedRanking(
            event=event, sessions=views, rows=(), options=options, error=str(error), scored=tuple(scored),
        )
    rows = tuple(
        CombinedRow(standing, competitors.names[standing.competitor], competitors.cells(standing), position)
        for position, standing in enumerate(result.standings)
    )
    return CombinedRanking(
        event=event, sessions=views, rows=rows, options=options, result=result, scored=tuple(scored),
    )


def _scored_sessions(sessions: Sequence[Session]) -> list[ScoredSession]:
    """Every session scored from two queries in all (its pairs, its results)."""
    if not sessions:
        return []
    scored = sessions_scores(sessions=sessions)
    return [scored[session.pk] for session in sessions]


class _Competitors:
    """Who is who across the sessions: keys for the engine, names and pairs for the page."""

    def __init__(self, combined_by: str, scored: Sequence[ScoredSession]) -> None:
        self.by_player = combined_by == CombinedBy.PLAYERS
        self.names: dict[str, str] = {}
        self.pairs: dict[tuple[str, str], Pair] = {}  # (competitor, session key) -> pair played in
        # Ranked by players, a pair whose players changed credits each with their boards:
        # its lineups read in one query, only when there is such a pair.
        changed = [pair for one in scored for pair in one.pairs.values() if has_lineup(pair)] if self.by_player else []
        self.spells = spells_of(changed, lineups_of(pair.pk for pair in changed)) if changed else {}

    def entries(self, pair: Pair, standing: Standing, scored: ScoredSession) -> list[tuple[str, str, SessionEntry]]:
        """(key, name, figures) of each competitor the pair's score goes to."""
        if pair.pk in self.spells:
            return [
                (f"player:{pk}", share.player.name, SessionEntry(
                    f"player:{pk}",
                    percentage=standing.percentage if share.whole else share.part.percentage,
                    imps=standing.total if share.whole else share.part.total,
                ))
                for pk, share in player_shares(scored, pair, self.spells[pair.pk]).items()
            ]
        return [
            (competitor, name, SessionEntry(competitor, percentage=standing.percentage, imps=standing.total))
            for competitor, name in self.keys(pair, scored.session)
        ]

    def keys(self, pair: Pair, session: Session) -> list[tuple[str, str]]:
        """(key, name) of the competitors a pair's score goes to."""
        players = [player for player in (pair.player_1, pair.player_2) if player is not None]
        if self.by_player and players:
            return [(f"player:{player.pk}", player.name) for player in players]
        if not self.by_player and len(players) == 2:
            first, second = sorted(player.pk for player in players)
            return [(f"pair:{first}-{second}", pair.names)]
        unnamed = f"{pair.names or pair.label} ({session.name}, pair {pair.label})"
        return [(f"session:{session.pk}:pair:{pair.pk}", unnamed)]

    def session_input(self, scored: ScoredSession) -> EventSession:
        session = scored.session
        key = str(session.pk)
        entries: list[SessionEntry] = []
        boards = 0
        for standings in scored.result.standings.values():
            for standing in standings:
                boards = max(boards, standing.boards_played)
                pair = scored.pairs[standing.pair]
                for competitor, name, entry in self.entries(pair, standing, scored):
                    if (competitor, key) in self.pairs:
                        raise ScoringError(f"{name} played twice in {session.name}: correct the pairs' players")
                    self.names.setdefault(competitor, name)
                    self.pairs[(competitor, key)] = pair
                    entries.append(entry)
        top = scored.result.top * boards or None
        return EventSession(key=key, entries=tuple(entries), top=top)

    def cells(self, standing: CombinedStanding) -> dict[str, CombinedCell]:
        return {
            score.session: CombinedCell(score, self.pairs[(standing.competitor, score.session)])
            for score in standing.scores
        }


def events_with_club() -> QuerySet[Event]:
    """Events with their club, for a page that names it."""
    return Event.objects.select_related("club")


def club_event(*, club: Club, event_id: int) -> Event | None:
    """The club's event ``event_id`` (one query), else None."""
    return club.events.filter(pk=event_id).first()


def event_sessions_newest_first(*, event: Event) -> list[Session]:
    """Every session of the event, published or not, newest first (one query)."""
    return list(event.sessions.order_by("-date", "name"))
