"""What the players' pages read: published sessions only, in a fixed number of queries.

An unpublished session does not exist for these pages: the querysets below leave it
out, so its results, boards and pairs are a 404 for everyone, directors included
(they have their own provisional pages). Every figure comes from session_score, the
one path to scoring; the sheets here only pick the lines a page shows and tie them to
the stored pairs.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from fractions import Fraction

from django.db.models import Count, Max, Model, Q, QuerySet

from sessions.models import Board, Club, Event, MasterPointAward, Pair, ProceduralPenalty, Result, ResultKind, Session
from sessions.scoring.masterpoints import FEDERATIONS, award_text
from sessions.scoring.session import ScoredLine, Standing

from sessions.pairs.selectors.lineups import has_lineup, pairs_changes_of_player
from sessions.pairs.selectors.penalties import pair_penalties_shown, penalties_shown
from sessions.core.selectors.scored import DIRECTIONS, RankedPair, ScoredSession, field_parts
from sessions.core.selectors.scoring import session_score
from sessions.clubs.selectors.strata import PairStratum, session_strata

LATEST_SESSIONS = 10


# --- published objects ---------------------------------------------------------------


def published_sessions() -> QuerySet[Session]:
    """Every published session, with its event and club (for titles and breadcrumbs)."""
    return Session.objects.filter(published=True).select_related("event__club")


def published_boards() -> QuerySet[Board]:
    return Board.objects.filter(session__published=True).select_related("session__event__club")


def published_pairs() -> QuerySet[Pair]:
    return Pair.objects.filter(section__session__published=True).select_related(
        "section__session__event__club", "player_1", "player_2"
    )


def visible_sessions(*, club_id: int | None = None) -> QuerySet[Session]:
    """The published sessions and, for the API key of club ``club_id``, that club's own
    unpublished ones too (sessions.api): the same rule as published_sessions otherwise."""
    if club_id is None:
        return published_sessions()
    return Session.objects.filter(Q(published=True) | Q(event__club_id=club_id)).select_related("event__club")


def visible_boards(*, club_id: int | None = None) -> QuerySet[Board]:
    if club_id is None:
        return published_boards()
    own = Q(session__published=True) | Q(session__event__club_id=club_id)
    return Board.objects.filter(own).select_related("session__event__club")


def visible_pairs(*, club_id: int | None = None) -> QuerySet[Pair]:
    if club_id is None:
        return published_pairs()
    own = Q(section__session__published=True) | Q(section__session__event__club_id=club_id)
    return Pair.objects.filter(own).select_related("section__session__event__club", "player_1", "player_2")


def clubs_with_results() -> QuerySet[Club]:
    """The clubs that have published at least one session (one query)."""
    return Club.objects.filter(events__sessions__published=True).distinct().order_by("name")


def latest_sessions(limit: int = LATEST_SESSIONS) -> QuerySet[Session]:
    """The most recently played published sessions, all clubs (one query)."""
    return published_sessions().order_by("-date", "-published_at", "-pk")[:limit]


def club_sessions(*, club: Club) -> QuerySet[Session]:
    """The club's published sessions, newest first."""
    return visible_club_sessions(club=club)


def ranking_hidden(session: Session) -> bool:
    """The event shows the ranking only once the session is final, and it is not yet:
    places and percentages stay hidden wherever they would show (rankings, score cards,
    players' histories)."""
    return not session.final and session.event.ranks_at_the_end


def club_events(*, club: Club) -> QuerySet[Event]:
    """The club's events with a published session, most recently played first, each with
    its number of published sessions and its latest date (one query)."""
    published = Q(sessions__published=True)
    return (
        Event.objects.filter(club=club)
        .annotate(published_sessions=Count("sessions", filter=published), latest=Max("sessions__date", filter=published))
        .filter(published_sessions__gt=0)
        .order_by("-latest", "name")
    )


def chosen_deal(deals: Sequence[Board], section_letter: str) -> Board | None:
    """Of a board number's deals (with their sections loaded), the one ``section_letter``
    played; else the deal all sections share, else the first section's."""
    own = next((deal for deal in deals if deal.section and deal.section.letter == section_letter), None)
    shared = next((deal for deal in deals if deal.section_id is None), None)
    return own or shared or (deals[0] if deals else None)


def _board_numbers(session: Session) -> list[int]:
    return sorted(set(Board.objects.filter(session=session).values_list("number", flat=True)))


# --- one traveller line, as the players' pages show it -------------------------------


@dataclass(frozen=True)
class TravellerRow:
    """A stored line with its scored figures (None when the board was not played)."""

    result: Result
    scored: ScoredLine | None

    @property
    def board(self) -> int:
        return self.result.board.number

    @property
    def ns_pair(self) -> Pair:
        return self.result.ns_pair

    @property
    def ew_pair(self) -> Pair:
        return self.result.ew_pair

    @property
    def is_played(self) -> bool:
        return self.result.kind == ResultKind.PLAYED

    @property
    def has_assigned_points(self) -> bool:
        """The line's points were set by the director, not scored against the others."""
        return self.result.kind == ResultKind.ASSIGNED_POINTS

    @property
    def contract(self) -> str:
        """"4SX" for a played board; otherwise the whole result ("PASS", "A60/40", "NS 420", "NP")."""
        result = self.result
        if not self.is_played:
            return result.text
        return f"{result.level}{result.strain}{result.doubling}"

    @property
    def declarer(self) -> str:
        return self.result.declarer if self.is_played else ""

    @property
    def outcome(self) -> str:
        """Tricks against the contract: "=", "+1", "-2"; blank when not played."""
        if not self.is_played:
            return ""
        over = self.result.tricks - (self.result.level + 6)
        return f"{over:+d}" if over else "="

    @property
    def ns_points(self) -> Fraction | None:
        return self.scored.ns_points if self.scored else None

    @property
    def ew_points(self) -> Fraction | None:
        return self.scored.ew_points if self.scored else None

    @property
    def datum(self) -> int | None:
        return self.scored.datum if self.scored else None


def _rows(scored: ScoredSession, results: list[Result]) -> list[TravellerRow]:
    return [TravellerRow(result, scored.scored_line(result)) for result in results]


class BoardRows(Sequence[TravellerRow]):
    """A board's traveller rows, read a slice at a time: a page of a 3,000-line traveller
    (a simultaneous pairs across the field) reads its 60 lines, not 3,000. Walking them
    all (sorting by a column, the analysis of a final session) reads the board once."""

    def __init__(self, scored: ScoredSession, board: Board) -> None:
        self._scored, self._board = scored, board
        self._ids = scored.board_line_ids(board)
        self._all: list[TravellerRow] | None = None

    def __len__(self) -> int:
        return len(self._ids)

    @property
    def has_assigned_points(self) -> bool:
        """Whether a line of the board carries points the director assigned (its footnote)."""
        return self._scored.has_assigned_points(self._ids)

    def __getitem__(self, index):  # an int or a slice, as a list takes them
        if self._all is not None:
            return self._all[index]
        if isinstance(index, slice):
            return _rows(self._scored, self._scored.results_where(ids=self._ids[index]))
        return _rows(self._scored, self._scored.results_where(ids=[self._ids[index]]))[0]

    def __iter__(self) -> Iterator[TravellerRow]:
        if self._all is None:
            self._all = _rows(self._scored, self._scored.results_where(board=self._board))
        return iter(self._all)


# --- the session's results ------------------------------------------------------------


def field_title(field: str) -> str:
    """"NS" -> "North-South", "B EW" -> "Section B East-West", "B" -> "Section B", "" -> "All pairs"."""
    section, direction = field_parts(field)
    words = [f"Section {section}"] if section else []
    words += [DIRECTIONS[direction]] if direction else []
    return " ".join(words) or "All pairs"


@dataclass(frozen=True)
class FieldRanking:
    field: str
    title: str
    rows: list[RankedPair]


@dataclass(frozen=True)
class AwardShown:
    """A pair's master point award as its pages show it ("36", "40.00") and the column."""

    text: str
    column: str
    point_type: str


def session_awards_shown(session: Session, pair: Pair | None = None) -> dict[int, AwardShown]:
    """The final session's awards by pair id (one query; none before final, when there
    are no awards to show)."""
    if not session.final:
        return {}
    awards = MasterPointAward.objects.filter(session=session)
    if pair is not None:
        awards = awards.filter(pair=pair)
    return {
        award.pair_id: AwardShown(award_text(award.federation, award.points),
                                  FEDERATIONS[award.federation].COLUMN, award.point_type)
        for award in awards
    }


@dataclass(frozen=True)
class ResultsSheet:
    session: Session
    rankings: list[FieldRanking]
    boards: list[int]
    is_matchpoints: bool
    note: str = ""  # why it was not scored as the event asks (sections on different deals)
    awards: dict[int, AwardShown] = dataclass_field(default_factory=dict)  # master points by pair id, once final
    # Procedural penalties (RULES 13), for the ranking's footnote: only when one is shown.
    penalties: list[ProceduralPenalty] = dataclass_field(default_factory=list)
    strata: Mapping[Hashable, PairStratum] = dataclass_field(default_factory=dict)  # by pair id (RULES 15)


def results_sheet(*, session: Session) -> ResultsSheet:
    """Each field's ranking and the list of boards.

    Queries: session_score's two (results, pairs with players), the board numbers,
    once the session is final its master point awards, and when a pair carries a
    procedural penalty the penalties' reasons; a stratified event by club rating, the
    club's window (session_strata).
    ``session.event`` must be loaded by the caller (published_sessions does).
    """
    scored = session_score(session=session)
    rankings = [
        FieldRanking(name, field_title(name), rows)
        for name, rows in scored.rankings()
    ]
    standings = (row.standing for ranking in rankings for row in ranking.rows)
    return ResultsSheet(session, rankings, _board_numbers(session), scored.is_matchpoints, scored.note,
                        session_awards_shown(session), penalties_shown(session=session, standings=standings),
                        session_strata(scored=scored))


# --- a board's traveller --------------------------------------------------------------


@dataclass(frozen=True)
class TravellerSheet:
    board: Board
    rows: Sequence[TravellerRow]  # BoardRows: read when shown
    previous: int | None
    next: int | None
    method: str


def traveller_sheet(*, board: Board) -> TravellerSheet:
    """Every line of the board, in section and table order, and its neighbours.

    Queries: session_score's two and the board numbers (board.session.event loaded),
    and one for the lines shown (all of them, or a page: BoardRows).
    """
    session = board.session
    scored = session_score(session=session)
    numbers = _board_numbers(session)
    earlier = [number for number in numbers if number < board.number]
    later = [number for number in numbers if number > board.number]
    return TravellerSheet(
        board=board,
        rows=BoardRows(scored, board),
        previous=earlier[-1] if earlier else None,
        next=later[0] if later else None,
        method=session.event.method,
    )


# --- a pair's score card --------------------------------------------------------------


@dataclass(frozen=True)
class ScorecardRow:
    """One board of a pair's card, seen from the pair's side of the table."""

    line: TravellerRow
    side: str  # "NS" or "EW": where the pair sat
    opponents: Pair  # with its players

    @property
    def board(self) -> int:
        return self.line.board

    @property
    def score(self) -> int | None:
        """The pair's own score: NS's score, or its negation when the pair sat EW."""
        ns_score = self.line.result.ns_score
        if ns_score is None:
            return None
        return ns_score if self.side == "NS" else -ns_score

    @property
    def points(self) -> Fraction | None:
        return self.line.ns_points if self.side == "NS" else self.line.ew_points

    @property
    def percent(self) -> Fraction | None:
        scored = self.line.scored
        if scored is None:
            return None
        return scored.ns_percent if self.side == "NS" else scored.ew_percent


@dataclass(frozen=True)
class Scorecard:
    pair: Pair
    rows: list[ScorecardRow]
    standing: Standing | None  # None until the pair has a scored board
    field_title: str
    field_size: int
    is_matchpoints: bool
    # The boards of a full session, when the pair played fewer and its matchpoint total
    # is scaled to them (RULES 4); None otherwise.
    scaled_to: int | None = None
    # Who played which rounds, when the pair's players changed: [("round 1", "Ann & Bob"), ...].
    lineups: tuple[tuple[str, str], ...] = ()
    award: AwardShown | None = None  # the pair's master points, once the session is final
    penalties: tuple[ProceduralPenalty, ...] = ()  # the pair's procedural penalties (RULES 13), with the reasons

    @property
    def has_assigned_points(self) -> bool:
        """Whether a board of the card carries points the director assigned (its footnote)."""
        return any(row.line.has_assigned_points for row in self.rows)

    @property
    def points_total(self) -> Fraction:
        """The sum of the figures on the card, exactly (rounded only when shown)."""
        return sum((row.points for row in self.rows if row.points is not None), Fraction(0))

    @property
    def unscaled_total(self) -> Fraction | None:
        """The pair's matchpoints on the boards it played, before the scaling: the total
        shown (before any penalty) times played / full boards (exactly what the engine scaled)."""
        if self.standing is None or self.scaled_to is None:
            return None
        return (self.standing.total + self.standing.penalty) * Fraction(self.standing.boards_played, self.scaled_to)


def scorecard_sheet(*, pair: Pair) -> Scorecard:
    """The pair's boards in order, its standing and its field.

    Queries: session_score's two (pair.section.session.event loaded by the caller), the
    pair's lineups when its players changed during the session, and its master point
    award once the session is final.
    """
    session = pair.section.session
    scored = session_score(session=session)
    pairs_by_id = scored.pairs_by_id
    rows = [
        ScorecardRow(
            line=line,
            side="NS" if line.result.ns_pair_id == pair.pk else "EW",
            opponents=pairs_by_id[
                line.result.ew_pair_id if line.result.ns_pair_id == pair.pk else line.result.ns_pair_id
            ],
        )
        for line in _rows(scored, scored.results_where(pair=pair))
    ]
    standing, field_size = scored.standing_of(pair)
    full_boards = scored.field_boards(standing.field) if standing else 0
    scaled = scored.is_matchpoints and standing is not None and standing.boards_played < full_boards
    return Scorecard(
        pair=pair,
        rows=rows,
        standing=standing,
        field_title=field_title(standing.field) if standing else "",
        field_size=field_size,
        is_matchpoints=scored.is_matchpoints,
        scaled_to=full_boards if scaled else None,
        lineups=_lineups(scored, pair),
        award=session_awards_shown(session, pair).get(pair.pk),
        penalties=tuple(pair_penalties_shown(pair=pair, standing=standing)),
    )


def _lineups(scored: ScoredSession, pair: Pair) -> tuple[tuple[str, str], ...]:
    """Who played which rounds, if the pair's players changed (one query then, else none)."""
    if not has_lineup(scored.pairs_by_id.get(pair.pk, pair)):
        return ()
    changes = pairs_changes_of_player(pairs=[pair], rounds=scored.session.rounds)
    return tuple(changes[0][1]) if changes else ()


def board_deals(*, boards: QuerySet[Board], session_id: int, number: int) -> list[Board]:
    """Every deal played as board ``number`` of the session among ``boards`` (those the
    reader may see), with its section: sections playing their own deals have one each
    (one query)."""
    return list(boards.filter(session_id=session_id, number=number).select_related("section"))


def unpublished_exists(*, model: type[Model], pk: int) -> bool:
    """Whether ``model``'s row ``pk`` exists unpublished (one query)."""
    return model._default_manager.filter(pk=pk, published=False).exists()


def visible_club_sessions(*, club: Club, club_id: int | None = None) -> QuerySet[Session]:
    """The club's sessions the reader may see (``club_id``: the API key's club, as
    visible_sessions), newest first."""
    return visible_sessions(club_id=club_id).filter(event__club=club).order_by("-date", "-published_at", "-pk")
