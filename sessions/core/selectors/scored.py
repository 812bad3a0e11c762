"""The scored read model: a session's figures as the pages read them.

One job: ``ScoredSession`` ties the engine's SessionResult back to the stored rows (the
lines' ids, boards and rounds, the pairs by key) and answers the pages: rankings by
field in the pages' order, a pair's standing, a board's lines, the stored Results of a
board, a pair or a section (one query, or none when loaded with the session). Built by
sessions.core.selectors.scoring; its input comes from sessions.core.selectors.engine_input.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from django.db.models import Q, QuerySet

from sessions.models import Board, Pair, Result, ScoringMethod, Section, Session
from sessions.scoring.penalties import Penalty
from sessions.scoring.scores import AssignedPoints
from sessions.scoring.session import ScoredLine, SessionResult, Standing

from sessions.core.query_speed import prepared
from sessions.core.selectors.engine_input import (
    apply_deal_era, pair_handicaps, pair_penalties, pair_sections, results_in_order, share_pairs,
)

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
        return _memoised(self.memo, name, lambda: build(self))

    return property(get)


def _memoised(memo: dict, name: str, build):
    """``memo[name]``, built by ``build()`` the first time (by whichever thread gets there first)."""
    try:
        return memo[name]
    except KeyError:
        return memo.setdefault(name, build())


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
        return pair_sections(self.pairs.values())

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
        wanted = {"ids": ids, "board": board and board.pk, "number": number, "numbers": numbers,
                  "section_id": section_id, "pair": pair and pair.pk, "ns_pairs": ns_pairs}
        values = {name: tuple(sorted(value)) if name in _MANY else value
                  for name, value in wanted.items() if value is not None}
        loaded = prepared(("scored.results_where", *sorted(values)), _results_where,
                          name=f"a session's lines where {', '.join(sorted(values))}")(session=self.session.pk, **values)
        share_pairs(loaded, self.pairs_by_id, self.sections_by_id)
        apply_deal_era(loaded, self.session.event.deal_era)
        return loaded

    @property
    def is_matchpoints(self) -> bool:
        return self.session.event.method == ScoringMethod.MATCHPOINTS

    def rankings(self, *, of: Collection[Pair] | None = None) -> list[tuple[str, list[RankedPair]]]:
        """Each field's standings, best first, with the stored pairs; the fields in the
        order every page lists them (sections in order, North-South before East-West).
        The caller's own lists, to sort as it likes. ``of``: only the fields these pairs
        are ranked in (a table's phone shows its own section's, not a large event's all)."""
        if of is None:
            return [(field_name, list(ranked)) for field_name, ranked in self._rankings]
        fields = self.result.fields
        wanted = {fields[key] for key in (self.pair_keys.get(pair.pk) for pair in of) if key in fields}
        return [(field_name, list(self._ranked(field_name)))
                for field_name in sorted(wanted & self.result.standings.keys(), key=_field_order)]

    def _ranked(self, field_name: str) -> tuple[RankedPair, ...]:
        return tuple(RankedPair(self.pairs[s.pair], s) for s in self.result.standings[field_name])

    @_indexed
    def pair_keys(self) -> dict[int, str]:
        """The engine's key of each stored pair (by id)."""
        return {pair.pk: key for key, pair in self.pairs.items()}

    @_indexed
    def section_letters(self) -> dict[int, str]:
        """Each section's letter, by id."""
        return {section_id: section.letter for section_id, section in self.sections_by_id.items()}

    @_indexed
    def engine_handicaps(self) -> dict[str, Fraction]:
        """The pairs' handicaps as the engine takes them (engine_input.pair_handicaps)."""
        return pair_handicaps(self.pairs)

    def engine_penalties(self, method: str) -> dict[str, tuple[Penalty, ...]]:
        """The pairs' penalties as the engine takes them under ``method`` (engine_input.pair_penalties)."""
        return _memoised(self.memo, _PENALTIES + method, lambda: pair_penalties(self.pairs, method))

    def pairs_memo(self) -> dict:
        """The indexes built from the pairs alone: a later revision scored over the same
        pairs (sessions.core.selectors.scoring) starts with them, so a phone's post does
        not build them again for every pair of a large event."""
        built = dict(self.memo)  # (a copy first: another thread may be adding to it)
        return {name: value for name, value in built.items() if name in _OF_PAIRS or name.startswith(_PENALTIES)}

    @_indexed
    def _rankings(self) -> tuple[tuple[str, tuple[RankedPair, ...]], ...]:
        return tuple((field_name, self._ranked(field_name)) for field_name in sorted(self.result.standings, key=_field_order))

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


#: The indexes that depend on the pairs alone (ScoredSession.pairs_memo).
_OF_PAIRS = frozenset({"pairs_by_id", "sections_by_id", "pair_keys", "section_letters", "engine_handicaps"})
_PENALTIES = "engine_penalties:"

#: results_where's filters that name several values.
_MANY = ("ids", "numbers", "ns_pairs")


def _results_where(session: int, ids: tuple[int, ...] | None = None, board: int | None = None,
                   number: int | None = None, numbers: tuple[int, ...] | None = None, section_id: int | None = None,
                   pair: int | None = None, ns_pairs: tuple[int, ...] | None = None) -> QuerySet[Result]:
    """The session's lines where the filters given (ScoredSession.results_where), its SQL
    prepared for each set of filters (sessions/core/query_speed.py): a phone's post reads
    its table's lines and its board's traveller."""
    results = results_in_order().filter(board__session=session)
    if ids is not None:
        results = results.filter(pk__in=ids)
    if board is not None:
        results = results.filter(board=board)
    if number is not None:
        results = results.filter(board__number=number)
    if numbers is not None:
        results = results.filter(board__number__in=numbers)
    if section_id is not None:
        results = results.filter(section_id=section_id)
    if pair is not None:
        results = results.filter(Q(ns_pair=pair) | Q(ew_pair=pair))
    if ns_pairs is not None:
        results = results.filter(ns_pair__in=ns_pairs)
    return results


def _matches(
    result: Result, board: Board | None, number: int | None, pair: Pair | None, section_id: int | None
) -> bool:
    return (
        (board is None or result.board_id == board.pk)
        and (number is None or result.board.number == number)
        and (pair is None or pair.pk in (result.ns_pair_id, result.ew_pair_id))
        and (section_id is None or result.section_id == section_id)
    )
