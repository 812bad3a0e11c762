"""The engine's input from the database: a session's stored rows as a SessionInput.

One job: read a session's pairs and lines (the queries, in the engine's order: pairs
with their procedural penalties and lineup flag, lines as StoredLine rows) and turn
them into what the engine takes: its lines (the deal era's scores, assigned points,
artificial and weighted scores), the event's options, each pair's ranking field,
handicap and penalties. Pair keys are "A:1NS" (section letter, movement label), as the
engine suggests. Scoring itself is sessions.core.selectors.scoring; the scored figures'
read model is sessions.core.selectors.scored.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction
from typing import NamedTuple

from django.db.models import Exists, OuterRef, QuerySet, Subquery, Sum

from sessions.models import (
    DealEra, Event, Pair, PairLineup, ProceduralPenalty, Rankings, Result, ResultKind, Section, Session,
)
from sessions.scoring.boards import Seat
from sessions.scoring.contracts import Contract
from sessions.scoring.notation import Played, ns_score
from sessions.scoring.penalties import UNITS_BY_METHOD, Penalty, PenaltyUnit
from sessions.scoring.scores import NOT_PLAYED, Artificial, AssignedPoints, LineScore, Weighted
from sessions.scoring.session import Line, ScoringOptions, SessionInput


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


def pairs_in_order() -> QuerySet[Pair]:
    """The pairs as scoring reads them (sections and players, penalties, lineup flag), in its order."""
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


def lines_in_order() -> QuerySet[Result]:
    """The lines in the engine's order: read as StoredLine rows by session_score."""
    return Result.objects.order_by("board__number", "section__letter", "table", "round", "pk")


def results_in_order() -> QuerySet[Result]:
    """The lines as Results (with their boards), in the engine's order."""
    return lines_in_order().select_related("board", "updated_by")



def in_session_era(lines: list[StoredLine], session: Session) -> list[StoredLine]:
    era = session.event.deal_era
    if era == DealEra.CURRENT:  # (tested once, not on each of thousands of lines)
        return lines
    return [_in_era(line, era) for line in lines]


def pair_handicaps(pairs: Mapping[str, Pair]) -> dict[str, Fraction]:
    """The engine's handicaps (pair key -> percentage points) of the pairs that have one."""
    return {key: Fraction(pair.handicap) for key, pair in pairs.items() if pair.handicap is not None}


def engine_lines(
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


def share_pairs(results: Sequence[Result], by_id: Mapping[int, Pair], sections: Mapping[int, Section]) -> None:
    """Give each result the already loaded pairs (with section and players; ``by_id``:
    pair id -> Pair) and sections (by id) instead of joining them again on every line:
    fewer objects to build, the same two queries."""
    for result in results:
        result.ns_pair = by_id[result.ns_pair_id]
        result.ew_pair = by_id[result.ew_pair_id]
        result.section = sections[result.section_id]


def pair_sections(pairs: Iterable[Pair]) -> dict[int, Section]:
    return {pair.section_id: pair.section for pair in pairs}


class EngineInput(NamedTuple):
    """A session's SessionInput, with its pairs by key and why it is not scored as the event asks."""

    session_input: SessionInput
    pairs: dict[str, Pair]  # pair key -> Pair
    note: str  # DIFFERENT_DEALS_NOTE, or ""


def engine_input(*, session: Session, pairs: Sequence[Pair], lines: Sequence[StoredLine]) -> EngineInput:
    """The engine's input for the session's ``pairs`` (with their sections) and ``lines``,
    in the engine's order (no query)."""
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
    session_input = SessionInput(
        lines=engine_lines(lines, keys, letters), fields=fields, options=options, handicaps=pair_handicaps(keyed),
        penalties=pair_penalties(keyed, options.method),
    )
    return EngineInput(session_input, keyed, note)
