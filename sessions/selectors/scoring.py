"""Scoring a session from the database: the only path from stored lines to the engine.

``session_score`` reads the session's lines and pairs (two queries, whatever the
size), turns them into the engine's SessionInput and calls ``score_session``;
``sessions_scores`` does the same for many sessions in the same two queries. Pair
keys are "A:1NS" (section letter, movement label), as the engine suggests.

Inside ``scores_from_cache()`` (the public pages and the director's standings, on a
GET) both keep each session's latest scored figures (sessions.selectors.kept_scores)
under its setup token and revision (sessions.services.revisions): every page of one
revision scores it once; a write of lines (logged, board by board, in the change log)
makes the next read score those boards again and keep the rest; any other write draws a
new setup token, and the next read scores the session whole. Never inside a writer's
transaction: its revision is not committed yet (a rollback would leave figures under a
number the next writer takes), and a session loaded before its own bump carries the
old number.
"""

from __future__ import annotations

import dataclasses
import functools
from collections import defaultdict
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction
from typing import NamedTuple

from django.db import connection
from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery, Sum

from sessions.performance import garbage_collection_paused
from sessions.models import (
    Board, DealEra, Event, Pair, PairLineup, ProceduralPenalty, Rankings, Result, ResultChange, ResultKind,
    ScoringMethod, Section, Session,
)
from sessions.scoring.boards import Seat
from sessions.scoring.contracts import Contract
from sessions.scoring.notation import Played, ns_score
from sessions.scoring.penalties import UNITS_BY_METHOD, Penalty, PenaltyUnit
from sessions.scoring.scores import NOT_PLAYED, Artificial, AssignedPoints, LineScore, Weighted
from sessions.scoring.session import (
    Line,
    ScoredLine,
    ScoringOptions,
    SessionInput,
    SessionResult,
    Standing,
    rescore_boards,
    score_session,
)

from . import kept_scores

_scores_cached: ContextVar[bool] = ContextVar("scores_cached", default=False)


@contextmanager
def scores_from_cache() -> Iterator[None]:
    """Score through the cache in this block: a read whose sessions were loaded in it."""
    token = _scores_cached.set(True)
    try:
        yield
    finally:
        _scores_cached.reset(token)


def _cache_usable() -> bool:
    # A test's own transaction is no writer's: tests see the cache as a request does.
    outside_writes = all(getattr(block, "_from_testcase", False) for block in connection.atomic_blocks)
    return _scores_cached.get() and outside_writes


def _as_loaded(cached: ScoredSession, session: Session) -> ScoredSession:
    """A kept score with the caller's session object (the same row, the same revision),
    sharing the kept one's indexes (its ``memo``: see ``_indexed``)."""
    return dataclasses.replace(cached, session=session)


def pair_key(pair: Pair, section_letter: str) -> str:
    return f"{section_letter}:{pair.label}"


class StoredLine(NamedTuple):
    """A stored line as the engine needs it, read without building a Result: a national
    simultaneous pairs has 72,000 of them, and a page shows a few dozen."""

    pk: int
    board_number: int
    section_id: int
    ns_pair_id: int
    ew_pair_id: int
    group: int | None
    kind: str
    ns_score: int | None
    artificial_ns_percent: int | None
    artificial_ew_percent: int | None
    weighted_parts: list | None
    level: int | None
    strain: str
    doubling: str
    declarer: str
    tricks: int | None
    board_section_id: int | None  # the section whose own deal this is; None: shared by all
    board_id: int
    round: int | None  # the round it was played in (a change of player credits its players)
    assigned_ns_points: Decimal | None  # points the director assigned (kind ASSIGNED_POINTS)
    assigned_ew_points: Decimal | None
    points_unit: str


#: The Result fields (and the board's number and section) each StoredLine holds, in order.
STORED_LINE_FIELDS = (
    "pk", "board__number", "section_id", "ns_pair_id", "ew_pair_id", "group", "kind", "ns_score",
    "artificial_ns_percent", "artificial_ew_percent", "weighted_parts", "level", "strain", "doubling",
    "declarer", "tricks", "board__section_id", "board_id", "round", "assigned_ns_points", "assigned_ew_points",
    "points_unit",
)


def stored_line(result: Result) -> StoredLine:
    """A loaded Result as a StoredLine (its board loaded)."""
    return StoredLine(*(
        getattr(result.board, name.removeprefix("board__")) if name.startswith("board__") else getattr(result, name)
        for name in STORED_LINE_FIELDS
    ))


def line_score(result: Result | StoredLine) -> LineScore:
    """The engine's view of a stored line: an NS score or one of the special kinds."""
    if result.kind == ResultKind.ARTIFICIAL:
        return Artificial(result.artificial_ns_percent, result.artificial_ew_percent)
    if result.kind == ResultKind.WEIGHTED:
        return Weighted(tuple((Fraction(weight), int(score)) for weight, score in result.weighted_parts))
    if result.kind == ResultKind.NOT_PLAYED:
        return NOT_PLAYED
    if result.kind == ResultKind.ASSIGNED_POINTS:
        return assigned_points(result)
    return result.ns_score


def assigned_points(result: Result | StoredLine) -> AssignedPoints:
    """A line of points the director assigned, with the adjusted score written beside them."""
    ruling: Artificial | int | None = result.ns_score
    if result.artificial_ns_percent is not None and result.artificial_ew_percent is not None:
        ruling = Artificial(result.artificial_ns_percent, result.artificial_ew_percent)
    return AssignedPoints(
        Fraction(result.assigned_ns_points), Fraction(result.assigned_ew_points), unit=result.points_unit, ruling=ruling,
    )


def played_ns_score(result: Result, era: str) -> int:
    """A played line's NS score under the laws of ``era`` (stored lines hold the current laws')."""
    return _era_score(result, result.board.number, era)


def _era_score(result: Result | StoredLine, board_number: int, era: str) -> int:
    played = Played(Contract(result.level, result.strain, result.doubling), Seat(result.declarer), result.tricks)
    score = ns_score(played, board_number, era)
    assert isinstance(score, int)  # a played contract always scores a number
    return score


def _in_era(line: StoredLine, era: str) -> StoredLine:
    """apply_deal_era for a StoredLine: its NS score under the event's era."""
    if line.kind != ResultKind.PLAYED:
        return line
    return line._replace(ns_score=_era_score(line, line.board_number, era))


def apply_deal_era(results: Sequence[Result], era: str) -> None:
    """Score the loaded played lines under the event's era, in memory: every page built
    on session_score (rankings, travellers, score cards) then shows the era's scores."""
    if era == DealEra.CURRENT:
        return
    for result in results:
        if result.kind == ResultKind.PLAYED:
            result.ns_score = played_ns_score(result, era)


#: Event fields that hold the engine's ScoringOptions of the same name.
EVENT_OPTION_FIELDS = (
    "method", "mp_scale", "line_display", "short_boards", "across_field", "adjusted_session_percentage",
    "cross_imps", "cross_imps_trim", "butler_datum", "butler_adjusted_imps", "imp_table", "line_decimals",
    "imp_total", "not_played", "cut_figures", "short_totals", "phantom_table", "handicap",
)


def scoring_options(event: Event) -> ScoringOptions:
    return ScoringOptions(**{name: getattr(event, name) for name in EVENT_OPTION_FIELDS})


def splits_directions(rankings: str, *, mitchell: bool, arrow_switch: bool) -> bool:
    """Whether NS and EW pairs rank apart: the event's choice, or by the movement (RULES 8)."""
    if rankings == Rankings.AUTO:
        return mitchell and not arrow_switch
    return rankings == Rankings.TWO


def field_name(direction: str, section_letter: str, *, split_directions: bool, split_sections: bool) -> str:
    """A pair's ranking field: "NS" / "EW" / "" (one field), prefixed by its section when sections rank apart."""
    direction = direction if split_directions else ""
    return f"{section_letter} {direction}".strip() if split_sections else direction


def ranking_field(
    session: Session, pair: Pair, section_letter: str, several_sections: bool, *, across_field: bool | None = None
) -> str:
    """The pair's ranking field under the event's rankings setting.

    With several sections matchpointed apart, each section ranks on its own.
    ``across_field`` overrides the event's when the session cannot be scored across it.
    """
    event = session.event
    across_field = event.across_field if across_field is None else across_field
    return field_name(
        pair.direction,
        section_letter,
        split_directions=splits_directions(event.rankings, mitchell=session.is_mitchell, arrow_switch=session.arrow_switch),
        split_sections=several_sections and not across_field,
    )


#: Why a session of an across-the-field event was scored section by section.
DIFFERENT_DEALS_NOTE = (
    "The sections played different deals, so results are matchpointed and ranked within "
    "each section, not across the field as the event asks."
)


def plays_different_deals(lines: Sequence[StoredLine]) -> bool:
    """Some line lies on a deal of one section alone: sections cannot be compared."""
    return any(line.board_section_id is not None for line in lines)


DIRECTIONS = {"NS": "North-South", "EW": "East-West"}


def field_parts(field: str) -> tuple[str, str]:
    """A ranking field as (section, direction): "B EW" -> ("B", "EW"), "NS" -> ("", "NS"), "B" -> ("B", "")."""
    section, _, direction = field.rpartition(" ")
    if direction not in DIRECTIONS:
        return field, ""
    return section, direction


def _field_order(field: str) -> tuple[str, int]:
    """Sections in order, North-South before East-West within each."""
    section, direction = field_parts(field)
    return section, list(DIRECTIONS).index(direction) if direction else 0


@dataclass(frozen=True)
class RankedPair:
    pair: Pair
    standing: Standing


def _indexed(build):
    """A ScoredSession's property built once into its ``memo``, which every copy of a
    kept score shares (dataclasses.replace passes it on: one copy per page): an index
    over a simultaneous pairs' 72,000 lines or 6,000 pairs is built once a revision,
    not on every page."""
    name = build.__name__

    @functools.wraps(build)
    def get(self):
        try:
            return self.memo[name]
        except KeyError:
            return self.memo.setdefault(name, build(self))

    return property(get)


@dataclass(frozen=True)
class ScoredSession:
    """The engine's result for a session, tied back to the stored rows.

    ``line_ids`` are the stored Results of the engine's lines, in its order. The Result
    objects themselves are loaded only when a page asks for them: ``results`` (every
    line, one query) or ``results_where`` (a board's or a pair's, one query), unless the
    caller scored lines it had loaded (``loaded``).
    """

    session: Session
    result: SessionResult
    line_ids: tuple[int, ...]
    pairs: Mapping[str, Pair]  # pair key -> Pair
    note: str = ""  # why the session was not scored as the event asks (DIFFERENT_DEALS_NOTE)
    loaded: tuple[Result, ...] | None = field(default=None, repr=False)
    line_boards: tuple[int, ...] = ()  # the Board of each line, as line_ids
    line_rounds: tuple[int | None, ...] = ()  # the round of each line, as line_ids
    memo: dict = field(default_factory=dict, repr=False, compare=False)  # _indexed properties

    def __getstate__(self) -> dict:
        # The shared cache carries the figures, not the indexes: rebuilt where they are read.
        return {**self.__dict__, "memo": {}}

    def board_line_ids(self, board: Board) -> Sequence[int]:
        """The board's lines (its stored Results' ids), in the engine's order: no query."""
        return self._board_lines.get(board.pk, ())

    @_indexed
    def _board_lines(self) -> dict[int, tuple[int, ...]]:
        lines: dict[int, list[int]] = defaultdict(list)
        for pk, board_id in zip(self.line_ids, self.line_boards):
            lines[board_id].append(pk)
        return {board_id: tuple(ids) for board_id, ids in lines.items()}

    @_indexed
    def _line_index(self) -> dict[int, int]:
        return {pk: index for index, pk in enumerate(self.line_ids)}

    @_indexed
    def pairs_by_id(self) -> dict[int, Pair]:
        """The stored pairs by id (with their sections and players)."""
        return {pair.pk: pair for pair in self.pairs.values()}

    @_indexed
    def sections_by_id(self) -> dict[int, Section]:
        return _sections(self.pairs.values())

    def scored_line(self, result: Result) -> ScoredLine | None:
        index = self._line_index.get(result.pk)
        return None if index is None else self.result.lines[index]

    def has_assigned_points(self, line_ids: Iterable[int]) -> bool:
        """Whether any of these lines carries points the director assigned: no query."""
        index = self._line_index
        return any(isinstance(self.result.lines[index[pk]].line.score, AssignedPoints) for pk in line_ids if pk in index)

    @functools.cached_property
    def results(self) -> tuple[Result, ...]:
        """Every stored line, in the engine's order (one query unless already loaded)."""
        if self.loaded is not None:
            return self.loaded
        return tuple(self.results_where())

    def results_where(
        self, *, board: Board | None = None, number: int | None = None, pair: Pair | None = None,
        section_id: int | None = None, ids: Collection[int] | None = None, numbers: Collection[int] | None = None,
        ns_pairs: Collection[int] | None = None,
    ) -> list[Result]:
        """The board's lines, or those of every deal of a board number (or of several
        numbers: sections playing their own deals), or the pair's, or a section's, or those of ``ids``, or all, in the
        engine's order (``ns_pairs``: only the lines of these pairs' ids as NS, a table's
        own): one query, or none when the lines were loaded with the session (``loaded``)."""
        if self.loaded is not None:
            wanted = None if ids is None else set(ids)
            return [
                result for result in self.loaded
                if _matches(result, board, number, pair, section_id) and (wanted is None or result.pk in wanted)
                and (numbers is None or result.board.number in numbers)
                and (ns_pairs is None or result.ns_pair_id in ns_pairs)
            ]
        results = _results().filter(board__session=self.session)
        if ids is not None:
            results = results.filter(pk__in=list(ids))
        if board is not None:
            results = results.filter(board=board)
        if number is not None:
            results = results.filter(board__number=number)
        if numbers is not None:
            results = results.filter(board__number__in=list(numbers))
        if section_id is not None:
            results = results.filter(section_id=section_id)
        if pair is not None:
            results = results.filter(Q(ns_pair=pair) | Q(ew_pair=pair))
        if ns_pairs is not None:
            results = results.filter(ns_pair__in=list(ns_pairs))
        loaded = list(results)
        _share_pairs(loaded, self.pairs_by_id, self.sections_by_id)
        apply_deal_era(loaded, self.session.event.deal_era)
        return loaded

    @property
    def is_matchpoints(self) -> bool:
        return self.session.event.method == ScoringMethod.MATCHPOINTS

    def rankings(self) -> list[tuple[str, list[RankedPair]]]:
        """Each field's standings, best first, with the stored pairs; the fields in the
        order every page lists them (sections in order, North-South before East-West).
        The caller's own lists, to sort as it likes."""
        return [(field_name, list(ranked)) for field_name, ranked in self._rankings]

    @_indexed
    def _rankings(self) -> tuple[tuple[str, tuple[RankedPair, ...]], ...]:
        return tuple(
            (field_name, tuple(RankedPair(self.pairs[s.pair], s) for s in self.result.standings[field_name]))
            for field_name in sorted(self.result.standings, key=_field_order)
        )

    def standing_of(self, pair: Pair) -> tuple[Standing | None, int]:
        """The pair's standing and the number of pairs in its field; (None, 0) unranked."""
        return self._standings.get(pair.pk, (None, 0))

    def field_boards(self, field: str) -> int:
        """The boards a full session gives a pair of the field: the most any of its pairs
        played, to which the engine scales a matchpoint total (RULES 4)."""
        return self._field_boards.get(field, 0)

    @_indexed
    def _field_boards(self) -> dict[str, int]:
        return {
            field_name: max((item.standing.boards_played for item in ranked), default=0)
            for field_name, ranked in self._rankings
        }

    @_indexed
    def _standings(self) -> dict[int, tuple[Standing, int]]:
        return {
            item.pair.pk: (item.standing, len(ranked)) for _, ranked in self._rankings for item in ranked
        }


def _pairs() -> QuerySet[Pair]:
    return with_penalties(with_lineup_flag(Pair.objects.select_related("section", "player_1", "player_2"))).order_by(
        "section__letter", "direction", "number"
    )


def _penalty_total(unit: str) -> Subquery:
    given = ProceduralPenalty.objects.filter(pair=OuterRef("pk"), unit=unit).order_by().values("pair")
    return Subquery(given.annotate(total=Sum("amount")).values("total")[:1])


#: The annotation that holds a pair's procedural penalties in each unit (None: none).
PENALTY_FIELDS = {unit: f"penalty_{unit.value.lower()}" for unit in PenaltyUnit}


def with_penalties(pairs: QuerySet[Pair]) -> QuerySet[Pair]:
    """The pairs, each with its procedural penalties added up per unit (no query more)."""
    return pairs.annotate(**{name: _penalty_total(unit.value) for unit, name in PENALTY_FIELDS.items()})


def pair_penalties(pairs: Mapping[str, Pair], method: str) -> dict[str, tuple[Penalty, ...]]:
    """The engine's penalties (pair key -> penalties) in the units the session's scoring
    takes: a penalty given in matchpoints before the event turned to IMPs counts for
    nothing until it is given again (the director's page says so)."""
    fitting = UNITS_BY_METHOD.get(method, ())
    penalties: dict[str, tuple[Penalty, ...]] = {}
    for key, pair in pairs.items():
        given = tuple(
            Penalty(Fraction(total), unit.value) for unit, name in PENALTY_FIELDS.items()
            if unit in fitting and (total := getattr(pair, name, None))
        )
        if given:
            penalties[key] = given
    return penalties


def with_lineup_flag(pairs: QuerySet[Pair]) -> QuerySet[Pair]:
    """The pairs, each with ``has_lineup``: its players changed during the session (no
    query more: the pages that credit players by round read the lineups only then)."""
    return pairs.annotate(has_lineup=Exists(PairLineup.objects.filter(pair=OuterRef("pk"))))


def _stored_lines() -> QuerySet[Result]:
    """The lines in the engine's order: read as StoredLine rows by session_score."""
    return Result.objects.order_by("board__number", "section__letter", "table", "round", "pk")


def _results() -> QuerySet[Result]:
    return _stored_lines().select_related("board", "updated_by")


def session_score(*, session: Session) -> ScoredSession:
    """Score the session as entered so far (two queries, plus the event if not loaded).

    A read: it lives with the selectors, which build every page on it; nothing is stored
    in the database. The lines are read as rows (StoredLine), not as Results: see
    ScoredSession. Inside ``scores_from_cache`` the latest scored figures of the session
    are kept (sessions.selectors.kept_scores): a revision already scored costs no query,
    and after lines changed only the boards the change log names are read and scored
    again (two queries), the other boards' figures kept.
    """
    if not _cache_usable():
        return _scored_whole(session).scored
    token, revision = session.setup_token, session.revision
    here = kept_scores.kept_here(session.pk)
    if here is not None and here.serves(token, revision):
        return _as_loaded(here.scored, session)
    shared = None
    if here is None or not here.base_for(token):
        shared = kept_scores.kept_shared([session.pk]).get(session.pk)
        if shared is not None and shared.serves(token, revision):
            kept_scores.keep(session.pk, shared, share=False)
            return _as_loaded(shared.scored, session)
    base = next((kept for kept in (here, shared) if kept is not None and kept.base_for(token)), None)
    with garbage_collection_paused():  # (the kept figures are many objects and no cycles)
        kept = _brought_up_to_date(session, base) if base is not None else None
    if kept is None:
        kept = _scored_whole(session)
    kept_scores.keep(session.pk, kept)
    return _as_loaded(kept.scored, session)


def _scored_whole(session: Session) -> kept_scores.Kept:
    """Every line read and scored; with the change log's last entry, read first (so the
    lines are at least as new as it: a later change is read again next time)."""
    last_change = ResultChange.objects.filter(session=OuterRef("section__session")).order_by("-pk").values("pk")[:1]
    with garbage_collection_paused():  # a large session is many objects and no cycles
        # (the last change rides on the pairs' query: no query more)
        pairs = list(_pairs().filter(section__session=session).annotate(last_change=Subquery(last_change)))
        rows = _stored_lines().filter(board__session=session).values_list(*STORED_LINE_FIELDS)
        lines = _in_session_era([StoredLine(*row) for row in rows], session)
        scored = _score_lines(session=session, pairs=pairs, lines=lines)
    last = (pairs[0].last_change or 0) if pairs else None
    return kept_scores.Kept(session.setup_token, session.revision, last, scored)


def _in_session_era(lines: list[StoredLine], session: Session) -> list[StoredLine]:
    era = session.event.deal_era
    if era == DealEra.CURRENT:  # (tested once, not on each of thousands of lines)
        return lines
    return [_in_era(line, era) for line in lines]


def _brought_up_to_date(session: Session, base: kept_scores.Kept) -> kept_scores.Kept | None:
    """``base`` (an earlier revision of the same setup) with the boards the change log
    names since then read and scored again; None when the change reaches further (the
    session itself changed, or its sections play their own deals)."""
    previous: ScoredSession = base.scored
    changes = list(
        ResultChange.objects.filter(session=session, pk__gt=base.last_change).values_list("pk", "board__number")
    )
    numbers = {number for _, number in changes}
    if None in numbers or previous.note or previous.result.workings is None or (
        len(previous.line_boards) != len(previous.line_ids) or len(previous.line_rounds) != len(previous.line_ids)
    ):
        return None
    last = max((pk for pk, _ in changes), default=base.last_change)
    if not numbers:  # (a phone's send waiting for EW: no line changed)
        return replace(base, revision=session.revision, last_change=last)
    rows = _stored_lines().filter(board__session=session, board__number__in=numbers).values_list(*STORED_LINE_FIELDS)
    fresh = _in_session_era([StoredLine(*row) for row in rows], session)
    keys = {pair.pk: key for key, pair in previous.pairs.items()}
    letters = {pair.section_id: pair.section.letter for pair in previous.pairs.values()}
    if any(line.board_section_id is not None for line in fresh):
        return None  # a section's own deal: across the field may no longer hold
    if any(line.ns_pair_id not in keys or line.ew_pair_id not in keys for line in fresh):
        return None  # (a pair the kept figures do not know: its setup changed)
    kept = [
        (pk, board_id, scored.line, round)
        for pk, board_id, scored, round in zip(
            previous.line_ids, previous.line_boards, previous.result.lines, previous.line_rounds
        )
        if scored.line.board not in numbers
    ]
    renewed = zip((line.pk for line in fresh), (line.board_id for line in fresh), _engine_lines(fresh, keys, letters),
                  (line.round for line in fresh))
    # Both in the engine's order, which is by board first: one stable sort merges them.
    merged = sorted(kept + list(renewed), key=lambda item: item[2].board)
    session_input = SessionInput(
        lines=tuple(line for _, _, line, _ in merged), fields=previous.result.workings.fields,
        options=scoring_options(session.event), handicaps=pair_handicaps(previous.pairs),
        penalties=pair_penalties(previous.pairs, session.event.method),
    )
    result = rescore_boards(previous.result, session_input, numbers)
    scored = ScoredSession(session=session, result=result, line_ids=tuple(pk for pk, _, _, _ in merged),
                           pairs=previous.pairs, note=previous.note,
                           line_boards=tuple(board_id for _, board_id, _, _ in merged),
                           line_rounds=tuple(round for _, _, _, round in merged))
    return kept_scores.Kept(session.setup_token, session.revision, last, scored)


def sessions_scores(*, sessions: Sequence[Session]) -> dict[int, ScoredSession]:
    """Score several sessions (by id) in two queries however many they are: a player's
    history reads every session the player played at once, then scores each in Python.

    Each session's ``event`` must be loaded by the caller. Inside ``scores_from_cache``
    the sessions whose figures are kept come from there (one round trip to the shared
    cache), a session kept at an earlier revision is brought up to date as session_score
    does, and the two queries read only the others (none when every one was kept).
    """
    by_id = {session.pk: session for session in sessions}
    use_cache = _cache_usable()
    found = _kept_scores(by_id) if use_cache else {}
    missing = [pk for pk in by_id if pk not in found]
    if not missing:
        return {pk: found[pk] for pk in by_id}
    pairs: dict[int, list[Pair]] = defaultdict(list)
    results: dict[int, list[Result]] = defaultdict(list)
    # Both queries keep session_score's order, and grouping keeps it within each session.
    for pair in _pairs().filter(section__session__in=missing):
        pairs[pair.section.session_id].append(pair)
    for result in _results().filter(board__session__in=missing):
        results[result.board.session_id].append(result)
    scored = {pk: score_loaded(session=by_id[pk], pairs=pairs[pk], results=results[pk]) for pk in missing}
    if use_cache:
        kept_scores.keep_many({
            pk: kept_scores.Kept(by_id[pk].setup_token, by_id[pk].revision, None, replace(scored[pk], loaded=None))
            for pk in missing
        })
    return {pk: found.get(pk) or scored[pk] for pk in by_id}


def _kept_scores(by_id: Mapping[int, Session]) -> dict[int, ScoredSession]:
    """The sessions whose figures are kept at their revision, or can be brought up to it."""
    found: dict[int, ScoredSession] = {}
    elsewhere = []
    for pk, session in by_id.items():
        here = kept_scores.kept_here(pk)
        if here is not None and here.serves(session.setup_token, session.revision):
            found[pk] = _as_loaded(here.scored, session)
        elif here is not None and here.base_for(session.setup_token):
            found[pk] = session_score(session=session)  # brought up to date
        else:
            elsewhere.append(pk)
    for pk, kept in kept_scores.kept_shared(elsewhere).items():
        if kept.serves(by_id[pk].setup_token, by_id[pk].revision):
            kept_scores.keep(pk, kept, share=False)
            found[pk] = _as_loaded(kept.scored, by_id[pk])
    return found


def score_loaded(*, session: Session, pairs: Sequence[Pair], results: Sequence[Result]) -> ScoredSession:
    """Score a session from its pairs and results already loaded (no query): what
    session_score does after its two queries, and what an event's combined ranking and a
    player's history do for each session after loading every session's rows at once.

    ``pairs`` with their sections and players; ``results`` with their boards, in the
    order session_score loads them (``_pairs`` and ``_results``).
    """
    pairs = list(pairs)
    results = tuple(results)
    _share_pairs(results, {pair.pk: pair for pair in pairs}, _sections(pairs))
    apply_deal_era(results, session.event.deal_era)
    return _score_lines(session=session, pairs=pairs, lines=[stored_line(result) for result in results], loaded=results)


def _score_lines(
    *, session: Session, pairs: Sequence[Pair], lines: Sequence[StoredLine], loaded: tuple[Result, ...] | None = None
) -> ScoredSession:
    several = len({pair.section_id for pair in pairs}) > 1
    options = scoring_options(session.event)
    # Across the field compares results on the same deal only: with a section playing
    # deals of its own, the whole session falls back to section by section.
    note = ""
    if options.across_field and plays_different_deals(lines):
        options, note = replace(options, across_field=False), DIFFERENT_DEALS_NOTE
    keyed = {pair_key(pair, pair.section.letter): pair for pair in pairs}
    fields = {
        key: ranking_field(session, pair, pair.section.letter, several, across_field=options.across_field)
        for key, pair in keyed.items()
    }
    keys = {pair.pk: key for key, pair in keyed.items()}
    letters = {pair.section_id: pair.section.letter for pair in pairs}
    engine_lines = _engine_lines(lines, keys, letters)
    scored = score_session(
        SessionInput(lines=engine_lines, fields=fields, options=options, handicaps=pair_handicaps(keyed),
                     penalties=pair_penalties(keyed, options.method))
    )
    return ScoredSession(
        session=session, result=scored, line_ids=tuple(line.pk for line in lines), pairs=keyed, note=note, loaded=loaded,
        line_boards=tuple(line.board_id for line in lines), line_rounds=tuple(line.round for line in lines),
    )


def pair_handicaps(pairs: Mapping[str, Pair]) -> dict[str, Fraction]:
    """The engine's handicaps (pair key -> percentage points) of the pairs that have one."""
    return {key: Fraction(pair.handicap) for key, pair in pairs.items() if pair.handicap is not None}


def _engine_lines(
    lines: Sequence[StoredLine], keys: Mapping[int, str], letters: Mapping[int, str]
) -> tuple[Line, ...]:
    """The engine's lines, pairs by key (``keys``: pair id -> key; ``letters``: section id -> letter)."""
    return tuple(
        Line(
            board=line.board_number,
            ns_pair=keys[line.ns_pair_id],
            ew_pair=keys[line.ew_pair_id],
            score=line_score(line),
            section=letters[line.section_id],
            group=line.group or 0,  # a fouled board's lines score within their group
        )
        for line in lines
    )


def _matches(
    result: Result, board: Board | None, number: int | None, pair: Pair | None, section_id: int | None
) -> bool:
    return (
        (board is None or result.board_id == board.pk)
        and (number is None or result.board.number == number)
        and (pair is None or pair.pk in (result.ns_pair_id, result.ew_pair_id))
        and (section_id is None or result.section_id == section_id)
    )


def _share_pairs(results: Sequence[Result], by_id: Mapping[int, Pair], sections: Mapping[int, Section]) -> None:
    """Give each result the already loaded pairs (with section and players; ``by_id``:
    pair id -> Pair) and sections (by id) instead of joining them again on every line:
    fewer objects to build, the same two queries."""
    for result in results:
        result.ns_pair = by_id[result.ns_pair_id]
        result.ew_pair = by_id[result.ew_pair_id]
        result.section = sections[result.section_id]


def _sections(pairs: Iterable[Pair]) -> dict[int, Section]:
    return {pair.section_id: pair.section for pair in pairs}
