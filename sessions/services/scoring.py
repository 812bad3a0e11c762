"""Scoring a session from the database: the only path from stored lines to the engine.

``session_score`` reads the session's lines and pairs (two queries, whatever the
size), turns them into the engine's SessionInput and calls ``score_session``. Pair
keys are "A:1NS" (section letter, movement label), as the engine suggests.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from sessions.models import Event, Pair, Result, ResultKind, Session
from sessions.scoring.scores import NOT_PLAYED, Artificial, LineScore, Weighted
from sessions.scoring.session import (
    Line,
    ScoredLine,
    ScoringOptions,
    SessionInput,
    SessionResult,
    Standing,
    score_session,
)


def pair_key(pair: Pair, section_letter: str) -> str:
    return f"{section_letter}:{pair.label}"


def line_score(result: Result) -> LineScore:
    """The engine's view of a stored line: an NS score or one of the special kinds."""
    if result.kind == ResultKind.ARTIFICIAL:
        return Artificial(result.artificial_ns_percent, result.artificial_ew_percent)
    if result.kind == ResultKind.WEIGHTED:
        return Weighted(tuple((Fraction(weight), int(score)) for weight, score in result.weighted_parts))
    if result.kind == ResultKind.NOT_PLAYED:
        return NOT_PLAYED
    return result.ns_score


def scoring_options(event: Event) -> ScoringOptions:
    return ScoringOptions(
        method=event.method,
        mp_scale=event.mp_scale,
        line_display=event.line_display,
        short_boards=event.short_boards,
        across_field=event.across_field,
        adjusted_session_percentage=event.adjusted_session_percentage,
        cross_imps=event.cross_imps,
        butler_datum=event.butler_datum,
        butler_adjusted_imps=event.butler_adjusted_imps,
        imp_table=event.imp_table,
    )


def ranking_field(session: Session, pair: Pair, section_letter: str, several_sections: bool) -> str:
    """NS / EW in a Mitchell, one field in a Howell or arrow-switched Mitchell.

    With several sections matchpointed apart, each section ranks on its own.
    """
    direction = pair.direction if session.is_mitchell and not session.arrow_switch else ""
    if several_sections and not session.event.across_field:
        return f"{section_letter} {direction}".strip()
    return direction


@dataclass(frozen=True)
class RankedPair:
    pair: Pair
    standing: Standing


@dataclass(frozen=True)
class ScoredSession:
    """The engine's result for a session, tied back to the stored rows."""

    session: Session
    result: SessionResult
    results: tuple[Result, ...]  # in the engine's line order
    pairs: Mapping[str, Pair]  # pair key -> Pair
    _scored_by_result: dict[int, ScoredLine] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for stored, scored in zip(self.results, self.result.lines):
            self._scored_by_result[stored.pk] = scored

    def scored_line(self, result: Result) -> ScoredLine | None:
        return self._scored_by_result.get(result.pk)

    @property
    def is_matchpoints(self) -> bool:
        return self.session.event.method == "matchpoints"

    def rankings(self) -> list[tuple[str, list[RankedPair]]]:
        """Each field's standings, best first, with the stored pairs."""
        return [
            (field_name, [RankedPair(self.pairs[s.pair], s) for s in standings])
            for field_name, standings in self.result.standings.items()
        ]


def session_score(*, session: Session) -> ScoredSession:
    """Score the session as entered so far (two queries, plus the event if not loaded)."""
    results = tuple(
        Result.objects.filter(board__session=session)
        .select_related("board", "section", "ns_pair", "ew_pair", "updated_by")
        .order_by("board__number", "section__letter", "table", "round", "pk")
    )
    pairs = list(
        Pair.objects.filter(section__session=session)
        .select_related("section", "player_1", "player_2")
        .order_by("section__letter", "direction", "number")
    )
    several = len({pair.section_id for pair in pairs}) > 1
    keyed = {pair_key(pair, pair.section.letter): pair for pair in pairs}
    fields = {key: ranking_field(session, pair, pair.section.letter, several) for key, pair in keyed.items()}
    lines = tuple(_line(result) for result in results)
    scored = score_session(SessionInput(lines=lines, fields=fields, options=scoring_options(session.event)))
    return ScoredSession(session=session, result=scored, results=results, pairs=keyed)


def _line(result: Result) -> Line:
    letter = result.section.letter
    return Line(
        board=result.board.number,
        ns_pair=pair_key(result.ns_pair, letter),
        ew_pair=pair_key(result.ew_pair, letter),
        score=line_score(result),
        section=letter,
        group=result.group or 0,  # a fouled board's lines score within their group
    )

