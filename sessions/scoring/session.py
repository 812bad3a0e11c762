"""Scoring a pairs session: traveller lines in, scored lines and rankings out.

The engine's pairs entry point (RULES 4, 5, 6, 8). The caller describes the session
as traveller lines (board, NS pair, EW pair, NS score) plus the ranking field of every
pair; the movement needs nothing special: in a Mitchell the caller puts NS pairs in
field "NS" and EW pairs in "EW", in a Howell or an arrow-switched Mitchell every pair
in one field, and each line names the pair that actually sat NS.

Results are compared within a comparison group: (section, board, fouled-board group),
or (board, group) when matchpointing across the field. A pair earns the NS figure of
every line where it sat NS and the EW figure where it sat EW.

Matchpoint sessions keep two figures per line: the line as displayed (the event's
line convention) and the line Neuberg-factored to the full top of the field, which is
what the session totals add up (RULES 4). Cross-IMP and Butler lines are one figure.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Callable

from sessions.scoring.butler import DATUM_RULES, butler_boards
from sessions.scoring.crossimps import cross_imps_board, cross_imps_boards
from sessions.scoring.errors import ScoringError
from sessions.scoring.imps import imp_table
from sessions.scoring.matchpoints import Comparable, MatchpointScale, matchpoints_two_one, neuberg, ratio_scaled, scale_named, ties_added
from sessions.scoring.options import (
    ButlerDatum,
    CrossImpsMode,
    Handicap,
    ImpTotal,
    LineDisplay,
    Method,
    NotPlayedRule,
    Scale,
    ShortBoards,
    ShortTotals,
)
from sessions.scoring.penalties import Penalty, imp_loss, matchpoint_loss
from sessions.scoring.ranking import places
from sessions.scoring.rounding import round_to_places
from sessions.scoring.scores import Artificial, AssignedPoints, LineScore, NotPlayed, Weighted

METHODS = tuple(Method)
LINE_DISPLAYS = tuple(LineDisplay)
SHORT_BOARD_RULES = tuple(ShortBoards)
CROSS_IMP_RULES = tuple(CrossImpsMode)
HUNDRED = Fraction(100)


@dataclass(frozen=True)
class Line:
    """One traveller line: who played a board and the NS score."""

    board: int
    ns_pair: str  # pair key, unique in the session ("A:1NS", "A:3")
    ew_pair: str
    score: LineScore  # int NS score | Artificial | Weighted | AssignedPoints | NotPlayed
    section: str = ""  # matchpointed within its section unless options.across_field
    group: int = 0  # fouled board: lines with the same group played the same cards


@dataclass(frozen=True)
class ScoringOptions:
    """The event's scoring method and the conventions where programs differ."""

    method: str = Method.MATCHPOINTS
    mp_scale: str = Scale.TWO_ONE
    line_display: str = LineDisplay.NEUBERG
    short_boards: str = ShortBoards.NEUBERG
    across_field: bool = False
    adjusted_session_percentage: bool = False  # Ave+ -> max(60, own %), Ave- -> min(40, own %)
    cross_imps: str = CrossImpsMode.AVERAGE
    butler_datum: str = ButlerDatum.TRIMMED_MEAN
    butler_adjusted_imps: int = 3  # Ave+ / Ave- in IMPs
    cross_imps_trim: int = 0  # cross-IMPs: top and bottom results left out of the comparisons
    imp_table: str = "wbf"
    # Program convention: lines are shown to this many decimals and the pairs' totals
    # add the figures as shown (EBUScore 2, ScoreBridge 1). None: exact (RULES 8).
    line_decimals: int | None = None
    # The IMP total shown and ranked by (RULES 6): summed, scaled to the session's boards
    # (Magic Contest, Pianola) or per comparison (Ruter).
    imp_total: str = ImpTotal.SUM
    # NZ Scorer's conventions (RULES 5 and 8), each a choice of its own: a not-played
    # line compared as a score of 0; figures cut as it prints them (lines to tenths, the
    # totals from the exact figures, places on whole matchpoints); a pair's total counting
    # each result a short board lacks as a tie; lines factored to a full field that counts
    # the phantom's table; the handicapped percentage and place beside the scratch ones.
    not_played: str = NotPlayedRule.REMOVED
    cut_figures: bool = False
    short_totals: str = ShortTotals.AS_LINES
    phantom_table: bool = False
    handicap: str = Handicap.NONE

    def __post_init__(self) -> None:
        for name, value, allowed in (
            ("method", self.method, METHODS),
            ("line_display", self.line_display, LINE_DISPLAYS),
            ("short_boards", self.short_boards, SHORT_BOARD_RULES),
            ("cross_imps", self.cross_imps, CROSS_IMP_RULES),
            ("butler_datum", self.butler_datum, DATUM_RULES),
            ("imp_total", self.imp_total, tuple(ImpTotal)),
            ("not_played", self.not_played, tuple(NotPlayedRule)),
            ("short_totals", self.short_totals, tuple(ShortTotals)),
            ("handicap", self.handicap, tuple(Handicap)),
        ):
            if value not in allowed:
                raise ScoringError(f"unknown {name} {value!r}: use one of {', '.join(allowed)}")
        scale_named(self.mp_scale)
        imp_table(self.imp_table)
        if self.line_decimals is not None and self.line_decimals < 0:
            raise ScoringError("line_decimals cannot be negative")
        if isinstance(self.cross_imps_trim, bool) or not isinstance(self.cross_imps_trim, int) \
                or self.cross_imps_trim < 0:
            raise ScoringError(f"cross_imps_trim is a number of results, not {self.cross_imps_trim!r}")
        if self.butler_adjusted_imps < 0:
            raise ScoringError("the IMPs for an artificial adjusted score cannot be negative")

    @property
    def scale(self) -> MatchpointScale:
        return scale_named(self.mp_scale)


@dataclass(frozen=True)
class SessionInput:
    lines: tuple[Line, ...]
    fields: Mapping[str, str]  # pair key -> ranking field ("NS", "EW", "" for one field)
    options: ScoringOptions = ScoringOptions()
    # Boards a full session gives a pair, for the matchpoint total shown (RULES 4).
    # Default: the most boards any pair of the same field played (Compscore3 does so).
    boards_in_session: int | None = None
    # The field's usual number of results on a board, which sets the full top.
    # Default: the most results any board of the section (or field) has.
    results_per_board: int | None = None
    # Each pair's handicap in percentage points (pair key -> figure; a pair left out has
    # none): the handicapped percentage adds options.handicap's share of it (RULES 8).
    handicaps: Mapping[str, Fraction] = field(default_factory=dict)
    # Procedural penalties (pair key -> its penalties): each lowers that pair's total only,
    # not the lines' figures nor anyone else's (sessions.scoring.penalties; RULES 13).
    penalties: Mapping[str, tuple[Penalty, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class ScoredLine:
    line: Line
    ns_points: Fraction | None  # matchpoints (line convention), cross-IMPs or Butler IMPs; None for NP
    ew_points: Fraction | None
    ns_percent: Fraction | None  # matchpoint events: the line's percentage of the top
    datum: int | None = None  # Butler
    ew_percent: Fraction | None = None
    top: Fraction | None = None  # matchpoint events: the top the displayed points are out of


@dataclass(frozen=True)
class Standing:
    pair: str
    field: str
    boards_played: int
    total: Fraction  # MP total shown (RULES 4 scaled total) or IMP total
    percentage: Fraction | None  # matchpoints
    average: Fraction | None  # IMPs per board played
    place: str  # "1", "3=" (ties share, next place skips)
    rank: int  # numeric place for sorting
    # With a handicap applied (options.handicap): the percentage with the pair's share
    # of its handicap, and the place it gives; the scratch figures above stay as they are.
    handicapped: Fraction | None = None
    handicap_place: str = ""
    handicap_rank: int = 0
    # What procedural penalties took off the total shown (matchpoints or IMPs); the total,
    # the percentage and the place above are after it.
    penalty: Fraction = Fraction(0)
    penalty_percentage: Fraction = Fraction(0)  # matchpoints: what it took off the percentage


@dataclass(frozen=True)
class SessionResult:
    lines: tuple[ScoredLine, ...]  # same order as the input lines
    standings: Mapping[str, tuple[Standing, ...]]  # field -> best first
    top: Fraction  # full top of a board (matchpoints; 0 for IMPs)
    # What rescore_boards starts from (not part of the result: never compared).
    workings: _Workings | None = field(default=None, repr=False, compare=False)

    @property
    def fields(self) -> Mapping[str, str]:
        """Each pair's ranking field (pair key -> field): the input's, or the standings'."""
        if self.workings is not None:
            return self.workings.fields
        return {standing.pair: name for name, standings in self.standings.items() for standing in standings}

    def standing(self, pair: str) -> Standing:
        for standings in self.standings.values():
            for standing in standings:
                if standing.pair == pair:
                    return standing
        raise ScoringError(f"pair {pair!r} played no board in this session")


# --- the engine ---------------------------------------------------------------------


@dataclass(slots=True)
class _LineFigures:
    """A line's figures while the session is being scored (NS, EW)."""

    shown: tuple[Fraction, Fraction] | None = None  # as the event displays the line
    counted: tuple[Fraction, Fraction] | None = None  # what the pairs' totals add up
    shown_top: Fraction | None = None
    counted_top: Fraction | None = None
    datum: int | None = None


#: The figures of a line that no comparison group fills (a board not played): never changed.
_NO_FIGURES = _LineFigures()


def score_session(session: SessionInput) -> SessionResult:
    """Score every line and rank every field of a pairs session."""
    lines = tuple(session.lines)
    _check_session(lines, session.fields)
    options = session.options
    groups = _comparison_groups(lines, range(len(lines)), options)
    figures: list[_LineFigures] = [_NO_FIGURES] * len(lines)
    results_on_board: Counter[tuple[str, int]] = Counter()
    full_results: dict[str, int] = {}
    full_top = Fraction(0)
    if options.method == Method.MATCHPOINTS:
        _count_results(results_on_board, groups)
        full_results = _full_results(results_on_board, session.results_per_board)
        _score_matchpoint_groups(lines, figures, groups, results_on_board, full_results, options)
        if options.adjusted_session_percentage:
            _apply_session_percentages(lines, figures)
        full_top = max((options.scale.top(count) for count in full_results.values()), default=Fraction(0))
    else:
        _score_imps(lines, figures, groups, options)
    if options.line_decimals is not None:
        _round_lines(figures, options.line_decimals)
    if options.cut_figures:
        _cut_shown_lines(figures)
    scored = _scored_lines(lines, figures)
    tallies = _tallies(lines, figures)
    by_field = _pairs_by_field(tallies, session.fields)
    standings = _standings(by_field, tallies, session)
    workings = _Workings.of(session, figures, results_on_board, full_results, tallies, by_field)
    return SessionResult(lines=scored, standings=standings, top=full_top, workings=workings)


def _check_session(lines: Sequence[Line], fields: Mapping[str, str]) -> None:
    """Refuse lines no session can hold, naming the line."""
    seen: set[tuple[str, int]] = set()
    scores = (int, Artificial, Weighted, AssignedPoints, NotPlayed)
    for line in lines:
        board, score = line.board, line.score
        if isinstance(board, bool) or not isinstance(board, int) or board < 1:
            raise ScoringError(f"{_where(line)}: a board number must be a whole number from 1")
        if line.ns_pair == line.ew_pair:
            raise ScoringError(f"{_where(line)}: a pair cannot play against itself")
        if not isinstance(score, scores) or isinstance(score, bool):
            raise ScoringError(f"{_where(line)}: {score!r} is not a line score")
        for pair in (line.ns_pair, line.ew_pair):
            if pair not in fields:
                raise ScoringError(f"{_where(line)}: pair {pair!r} has no ranking field")
            if (pair, board) in seen:
                raise ScoringError(f"{_where(line)}: pair {pair!r} already has a result on board {board}")
            seen.add((pair, board))


def _where(line: Line) -> str:
    """A line as a refusal names it (built only for a refusal: a session has thousands of lines)."""
    return f"board {line.board} ({line.ns_pair} v {line.ew_pair})"


def _universe(line: Line, across_field: bool) -> str:
    """The part of the session whose results are compared together."""
    return "" if across_field else line.section


def _comparison_groups(
    lines: Sequence[Line], indexes: Sequence[int], options: ScoringOptions
) -> dict[tuple[str, int, int], list[int]]:
    """Indexes (of ``indexes``) of the lines that were played, by (section or "", board, fouled group);
    a line not played too when the event compares it as a score of 0."""
    groups: dict[tuple[str, int, int], list[int]] = defaultdict(list)
    across_field, with_not_played = options.across_field, options.not_played == NotPlayedRule.ZERO
    for index in indexes:
        line = lines[index]
        if with_not_played or not isinstance(line.score, NotPlayed):
            groups[(_universe(line, across_field), line.board, line.group)].append(index)
    return groups


def _comparable(lines: Sequence[Line], members: Sequence[int]) -> tuple[list[int], list[Comparable]]:
    """The members whose result is compared (a score or a weighted score), and those results.
    A line not played is among the members only when the event compares it as 0 (NZ Scorer)."""
    compared: list[int] = []
    scores: list[Comparable] = []
    for index in members:
        score = lines[index].score
        if isinstance(score, NotPlayed):
            score = 0
        if isinstance(score, (int, Weighted)):
            compared.append(index)
            scores.append(score)
    return compared, scores


# --- matchpoints --------------------------------------------------------------------


def _count_results(results_on_board: Counter[tuple[str, int]], groups: Mapping[tuple[str, int, int], list[int]]) -> None:
    for (universe, board, _), members in groups.items():
        results_on_board[(universe, board)] += len(members)


def _score_matchpoint_groups(
    lines: Sequence[Line],
    figures: list[_LineFigures],
    groups: Mapping[tuple[str, int, int], list[int]],
    results_on_board: Mapping[tuple[str, int], int],
    full_results: Mapping[str, int],
    options: ScoringOptions,
) -> None:
    """Fill in the figures of the groups' lines. A line no group fills (not played) keeps
    the empty figures, one object for all of them: _matchpoint_group gives every line it
    fills its own (or its equals') object."""
    tables = _tables(lines, options.across_field) if options.phantom_table else {}
    for (universe, board, _), members in groups.items():
        compared, scores = _comparable(lines, members)
        expected = full_results[universe]
        # Compscore3 shows a line as played: factored only to the board's own results.
        shown_expected = expected if options.line_display == LineDisplay.NEUBERG else results_on_board[(universe, board)]
        if tables:  # NZ Scorer: the phantom's table is part of the full field the lines show
            shown_expected = max(shown_expected, tables[universe])
        if options.short_boards == ShortBoards.NONE:
            expected = shown_expected = len(compared)
        _matchpoint_group(lines, figures, members, compared, scores, (expected, shown_expected), options)


def _matchpoint_group(
    lines: Sequence[Line],
    figures: list[_LineFigures],
    members: Sequence[int],
    compared: Sequence[int],
    scores: Sequence[Comparable],
    expected: tuple[int, int],
    options: ScoringOptions,
) -> None:
    """Fill in the figures of one comparison group.

    ``scores`` are the results of the ``compared`` lines; ``expected`` is (counted, shown) results.
    """
    scale = options.scale
    factor = neuberg if options.short_boards == ShortBoards.NEUBERG else ratio_scaled
    counted_factor = ties_added if options.short_totals == ShortTotals.TIES else factor
    counted_top, shown_top = scale.top(expected[0]), scale.top(expected[1])
    # A board of thousands of results has a few dozen distinct figures: each is worked
    # out once and shared (Fractions are immutable), not once a line.
    sides: dict[int | Fraction, _LineFigures] = {}
    for index, two_one in zip(compared, matchpoints_two_one(scores)):
        both = sides.get(two_one)
        if both is None:
            points = scale.from_two_one(two_one)
            both = sides[two_one] = _LineFigures(
                counted=_both_sides(_factored(counted_factor, points, len(compared), expected[0], scale), counted_top),
                shown=_both_sides(_factored(factor, points, len(compared), expected[1], scale), shown_top),
                counted_top=counted_top, shown_top=shown_top,
            )
        # Lines with the same result share one figures object: nothing changes it later
        # but _round_lines, the same way for each (an Ave's figures are its own).
        figures[index] = both
    for index in members:
        score = lines[index].score
        if isinstance(score, Artificial):
            figures[index] = _LineFigures(
                shown=_artificial_points(score, shown_top), counted=_artificial_points(score, counted_top),
                shown_top=shown_top, counted_top=counted_top,
            )
        elif isinstance(score, AssignedPoints):
            figures[index] = _assigned_matchpoints(lines[index], score, shown_top, counted_top)


def _full_results(results_on_board: Mapping[tuple[str, int], int], results_per_board: int | None) -> dict[str, int]:
    """Each section's (or the field's) usual number of results: the most any board has."""
    full_results: dict[str, int] = {}
    for (universe, board), count in results_on_board.items():
        if results_per_board is not None and count > results_per_board:
            raise ScoringError(
                f"board {board} has {count} results, more than the {results_per_board} results per board set"
            )
        full_results[universe] = max(full_results.get(universe, 0), results_per_board or count)
    return full_results


def _tables(lines: Sequence[Line], across_field: bool) -> dict[str, int]:
    """Each section's (or the field's) tables: half its pairs, rounded up, so that a
    phantom's table counts (a 3/4 Howell of 11 pairs is 6 tables)."""
    pairs: dict[str, set[str]] = defaultdict(set)
    for line in lines:
        pairs[_universe(line, across_field)].update((line.ns_pair, line.ew_pair))
    return {universe: (len(members) + 1) // 2 for universe, members in pairs.items()}


def _cut_shown_lines(figures: Sequence[_LineFigures]) -> None:
    """NZ Scorer shows each side of a line cut to tenths (57.548 -> 57.5, 29.87 -> 29.8);
    the totals keep adding the exact counted figures."""
    for figure in {id(figure): figure for figure in figures}.values():  # shared figures once
        if figure.shown is not None:
            ns_points, ew_points = figure.shown
            figure.shown = (Fraction(math.trunc(ns_points * 10), 10), Fraction(math.trunc(ew_points * 10), 10))


def _round_lines(figures: Sequence[_LineFigures], decimals: int) -> None:
    """Round every line as a program shows it; the totals then add the shown figures."""
    for figure in {id(figure): figure for figure in figures}.values():  # shared figures once
        for name in ("shown", "counted"):
            pair = getattr(figure, name)
            if pair is not None:
                setattr(figure, name, tuple(Fraction(round_to_places(value, decimals)) for value in pair))


def _factored(
    factor: Callable[[Fraction, int, int, MatchpointScale], Fraction],
    points: Fraction,
    actual: int,
    expected: int,
    scale: MatchpointScale,
) -> Fraction:
    """Points scored among ``actual`` results factored to ``expected`` (unchanged if equal)."""
    if actual == expected:
        return points
    return factor(points, actual, expected, scale)


def _both_sides(ns_points: Fraction, top: Fraction) -> tuple[Fraction, Fraction]:
    """NS points and the EW complement: the two sides of a line share the top."""
    return ns_points, top - ns_points


def _artificial_points(score: Artificial, top: Fraction) -> tuple[Fraction, Fraction]:
    """Ave+ / Ave / Ave-: 60 / 50 / 40 % of the top, for each side separately (RULES 5)."""
    return top * score.ns_percent / HUNDRED, top * score.ew_percent / HUNDRED


def _assigned_matchpoints(line: Line, score: AssignedPoints, shown_top: Fraction, counted_top: Fraction) -> _LineFigures:
    """A director's matchpoints: shown as assigned, out of the board's top as the line is
    shown; the totals count the same share of the top they add up (RULES 5).

    Figures above the top are not refused here: while a session is being entered a board's
    top grows with its results, so the director's entry checks the figures against the top
    the movement gives the board, and an import against the file's (assigned_beyond_top)."""
    _check_unit(line, score, "MP")
    shown = (score.ns_points, score.ew_points)
    shares = tuple(points / shown_top for points in shown) if shown_top else (Fraction(1, 2), Fraction(1, 2))
    counted = (counted_top * shares[0], counted_top * shares[1])
    return _LineFigures(shown=shown, counted=counted, shown_top=shown_top, counted_top=counted_top)


def assigned_beyond_top(result: SessionResult) -> list[str]:
    """Why each line of assigned matchpoints above its board's top cannot stand ([] if none)."""
    refusals = []
    for scored in result.lines:
        score = scored.line.score
        if isinstance(score, AssignedPoints) and score.unit == "MP" and scored.top is not None:
            try:
                score.check_top(scored.top, f"{_where(scored.line)}: ")
            except ScoringError as error:
                refusals.append(str(error))
    return refusals


def _check_unit(line: Line, score: AssignedPoints, unit: str) -> None:
    """Refuse points assigned in the other unit (IMPs in a matchpoint event, or the reverse)."""
    if score.unit != unit:
        wanted = "matchpoints (MP)" if unit == "MP" else "IMPs (IMP)"
        raise ScoringError(f"{_where(line)}: this event is scored in {wanted}: assign the line's points in them")


def _apply_session_percentages(lines: Sequence[Line], figures: list[_LineFigures]) -> None:
    """EBU/ACBL option: Ave+ gives max(60 %, own %), Ave- min(40 %, own %).

    "Own %" is the pair's percentage on the boards it played with a real result: never
    on its artificial boards, so the rule is not circular. A pair with no real result
    keeps the plain 60 / 40.
    """
    points: dict[str, Fraction] = defaultdict(Fraction)
    tops: dict[str, Fraction] = defaultdict(Fraction)
    for line, figure in zip(lines, figures):
        # (a matchpointed line's counted figures always come with their top)
        if figure.counted is None or figure.counted_top is None or isinstance(line.score, (Artificial, AssignedPoints)):
            continue
        for pair, earned in zip((line.ns_pair, line.ew_pair), figure.counted):
            points[pair] += earned
            tops[pair] += figure.counted_top
    for line, figure in zip(lines, figures):
        # (an artificial line is in a comparison group, which gives it both tops)
        if not isinstance(line.score, Artificial) or figure.counted_top is None or figure.shown_top is None:
            continue
        shares = []
        for pair, percent in ((line.ns_pair, line.score.ns_percent), (line.ew_pair, line.score.ew_percent)):
            share = Fraction(percent, 100)
            if tops[pair]:
                own = points[pair] / tops[pair]
                if percent > 50:
                    share = max(share, own)
                elif percent < 50:
                    share = min(share, own)
            shares.append(share)
        figure.counted = (figure.counted_top * shares[0], figure.counted_top * shares[1])
        figure.shown = (figure.shown_top * shares[0], figure.shown_top * shares[1])


# --- cross-IMPs and Butler ----------------------------------------------------------


def _score_imps(
    lines: Sequence[Line],
    figures: list[_LineFigures],
    groups: Mapping[tuple[str, int, int], list[int]],
    options: ScoringOptions,
) -> None:
    """Fill in the figures of the groups' lines (a line of its own each)."""
    prepared = [(members, *_comparable(lines, members)) for members in groups.values()]
    scored = _imps_earned([scores for _, _, scores in prepared], options)
    for (members, compared, _), (datum, earned) in zip(prepared, scored):
        for index in members:
            figures[index] = _LineFigures(datum=datum)
        # Comparisons a line met (one datum for Butler), which an IMPs-per-comparison total
        # counts as the line's "top"; an artificial result would have met every played one.
        cross = options.method == Method.CROSS_IMPS
        met = Fraction(max(len(compared) - 1, 1) if cross else 1)
        for index, ns_imps in zip(compared, earned):
            figures[index].counted = figures[index].shown = (Fraction(ns_imps), -Fraction(ns_imps))
            figures[index].counted_top = met
        comparisons = max(len(compared), 1)  # an artificial result, had it been played
        for index in members:
            score = lines[index].score
            if isinstance(score, Artificial):
                figures[index].counted = figures[index].shown = _artificial_imps(score, options, comparisons)
                figures[index].counted_top = Fraction(comparisons if cross else 1)
            elif isinstance(score, AssignedPoints):  # the director's IMPs, as shown and counted
                _check_unit(lines[index], score, "IMP")
                figures[index].counted = figures[index].shown = (score.ns_points, score.ew_points)
                figures[index].counted_top = Fraction(comparisons if cross else 1)


def _imps_earned(
    boards: Sequence[Sequence[Comparable]], options: ScoringOptions
) -> list[tuple[int | None, Sequence[int | Fraction]]]:
    """Each comparison group's Butler datum (None for cross-IMPs) and its results' NS
    IMPs, the groups scored together: the engine's batch scores groups of one size at
    once, far quicker than a call a group (bench/peer.py)."""
    if options.method == Method.BUTLER:
        played = [index for index, scores in enumerate(boards) if scores]
        earned: list[tuple[int | None, Sequence[int | Fraction]]] = [(None, ())] * len(boards)
        scored = butler_boards([boards[index] for index in played], options.butler_datum, options.imp_table)
        for index, (datum, imps) in zip(played, scored):
            earned[index] = (datum, imps)
        return earned
    average = options.cross_imps == CrossImpsMode.AVERAGE
    if options.cross_imps_trim:  # the field without its tops and bottoms: one group at a time
        return [(None, cross_imps_board(scores, average, options.imp_table, exclude=options.cross_imps_trim))
                for scores in boards]
    return [(None, imps) for imps in cross_imps_boards(boards, average, options.imp_table)]


def _artificial_imps(score: Artificial, options: ScoringOptions, comparisons: int) -> tuple[Fraction, Fraction]:
    """Ave+ / Ave / Ave- as +3 / 0 / -3 IMPs (an event setting), for each side separately.

    Summed cross-IMPs give a result one comparison's worth of IMPs per other result,
    so there an Ave+ is worth the setting once per result it would have met.
    """
    per_comparison = options.method == Method.CROSS_IMPS and options.cross_imps == CrossImpsMode.SUM
    worth = Fraction(options.butler_adjusted_imps) * (comparisons if per_comparison else 1)
    return _imps_for_percent(score.ns_percent, worth), _imps_for_percent(score.ew_percent, worth)


def _imps_for_percent(percent: int, worth: Fraction) -> Fraction:
    if percent == 60:
        return worth
    if percent == 50:
        return Fraction(0)
    if percent == 40:
        return -worth
    raise ScoringError(
        f"an artificial {percent}% has no IMP equivalent: use Ave+ (60), Ave (50) or Ave- (40)"
    )


# --- lines and standings ------------------------------------------------------------


def _scored_lines(lines: Sequence[Line], figures: Sequence[_LineFigures]) -> tuple[ScoredLine, ...]:
    """Every line scored; the percentages of each distinct figure are worked out once."""
    shared: dict[tuple, ScoredLine] = {}
    scored = []
    for line, figure in zip(lines, figures):
        # By identity: lines with the same figures share the same objects (_matchpoint_group),
        # and every figure stays alive in ``figures`` meanwhile. Hashing Fractions costs more.
        key = (id(figure.shown), id(figure.shown_top), figure.datum)
        template = shared.get(key)
        if template is None:
            template = shared[key] = ScoredLine(line, **_scored_values(figure))
        scored.append(_for_line(template, line))
    return tuple(scored)


def _for_line(template: ScoredLine, line: Line) -> ScoredLine:
    """``template``'s figures for ``line``: a frozen dataclass filled as its own __init__
    does, field by field past the frozen __setattr__, at a third of the cost a line."""
    scored = object.__new__(ScoredLine)
    scored.__dict__.update(template.__dict__)
    scored.__dict__["line"] = line
    return scored


def _scored_values(figure: _LineFigures) -> dict:
    """A scored line's figures (all but the line), from the line's figures."""
    if figure.shown is None:
        return {"ns_points": None, "ew_points": None, "ns_percent": None, "datum": figure.datum}
    ns_points, ew_points = figure.shown
    ns_percent = ew_percent = None
    if figure.shown_top:
        ns_percent = ns_points / figure.shown_top * HUNDRED
        ew_percent = ew_points / figure.shown_top * HUNDRED
    elif figure.shown_top is not None:  # a board played once in a field of one table
        ns_percent = ew_percent = Fraction(50)
    return {
        "ns_points": ns_points, "ew_points": ew_points, "ns_percent": ns_percent, "ew_percent": ew_percent,
        "datum": figure.datum, "top": figure.shown_top,
    }


class _Tally:
    """A pair's points, tops and boards so far. Whole figures (the usual ones) add up as
    ints, the others as Fractions: the same exact sums, without a Fraction a line."""

    __slots__ = ("whole_points", "points_parts", "whole_tops", "tops_parts", "boards")

    def __init__(self) -> None:
        self.whole_points = self.whole_tops = self.boards = 0
        self.points_parts = self.tops_parts = Fraction(0)

    def add(self, earned: Fraction, top: Fraction | int) -> None:
        if earned.denominator == 1:
            self.whole_points += earned.numerator
        else:
            self.points_parts += earned
        if top.denominator == 1:
            self.whole_tops += top.numerator
        else:
            self.tops_parts += top
        self.boards += 1

    def remove(self, earned: Fraction, top: Fraction | int) -> None:
        """Take back what ``add`` added (a line rescored)."""
        if earned.denominator == 1:
            self.whole_points -= earned.numerator
        else:
            self.points_parts -= earned
        if top.denominator == 1:
            self.whole_tops -= top.numerator
        else:
            self.tops_parts -= top
        self.boards -= 1

    def copy(self) -> _Tally:
        copied = _Tally()
        copied.whole_points, copied.points_parts = self.whole_points, self.points_parts
        copied.whole_tops, copied.tops_parts, copied.boards = self.whole_tops, self.tops_parts, self.boards
        return copied

    @property
    def points(self) -> Fraction:
        return self.points_parts + self.whole_points

    @property
    def tops(self) -> Fraction:
        return self.tops_parts + self.whole_tops


def _tallies(lines: Sequence[Line], figures: Sequence[_LineFigures]) -> dict[str, _Tally]:
    """Each pair's points, tops and boards, from the counted figures of its lines."""
    tallies: dict[str, _Tally] = defaultdict(_Tally)
    for line, figure in zip(lines, figures):
        _tally_line(tallies, line, figure, _Tally.add)
    return dict(tallies)


def _tally_line(tallies: Mapping[str, _Tally], line: Line, figure: _LineFigures, how: Callable) -> None:
    """``how`` (_Tally.add or _Tally.remove) the line's counted figures to both its pairs."""
    if figure.counted is None:
        return
    top = figure.counted_top or 0
    how(tallies[line.ns_pair], figure.counted[0], top)
    how(tallies[line.ew_pair], figure.counted[1], top)


def _pairs_by_field(tallies: Mapping[str, _Tally], fields: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
    """The pairs that scored, per ranking field, in natural order."""
    by_field: dict[str, list[str]] = defaultdict(list)
    for pair in sorted(tallies, key=_natural_order):
        by_field[fields[pair]].append(pair)
    return {name: tuple(pairs) for name, pairs in sorted(by_field.items())}


def _standings(
    by_field: Mapping[str, Sequence[str]], tallies: Mapping[str, _Tally], session: SessionInput
) -> dict[str, tuple[Standing, ...]]:
    return {name: _rank_field(name, pairs, tallies, session) for name, pairs in by_field.items()}


def _rank_field(
    name: str, pairs: Sequence[str], tallies: Mapping[str, _Tally], session: SessionInput
) -> tuple[Standing, ...]:
    if session.options.method == Method.MATCHPOINTS:
        standings = _rank_matchpoint_field(name, pairs, tallies, session.boards_in_session, session.options.cut_figures,
                                           session.penalties)
        if session.options.handicap != Handicap.NONE:
            return _handicapped(standings, session)
        return standings
    return _rank_imp_field(name, pairs, tallies, session)


def _natural_order(pair: str) -> tuple[tuple[int, int | str], ...]:
    """Sort "A:2NS" before "A:10NS": digits compare as numbers."""
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", pair))


def _rank_matchpoint_field(
    field_name: str, pairs: Sequence[str], tallies: Mapping[str, _Tally], boards_in_session: int | None,
    whole_points: bool = False, penalties: Mapping[str, tuple[Penalty, ...]] | None = None,
) -> tuple[Standing, ...]:
    """RULES 4: percentage of the tops played; total scaled to the session's boards.
    ``whole_points``: placed on the totals cut to whole matchpoints (NZ Scorer).
    ``penalties`` (RULES 13): each penalised pair's loss off its scaled total, and off its
    percentage as that share of its tops scaled alike."""
    counted = [tallies[pair] for pair in pairs]
    full_boards = boards_in_session or max(tally.boards for tally in counted)
    percentages = [_percentage(tally) for tally in counted]
    totals = [_scaled_total(tally, full_boards) for tally in counted]
    losses = [(Fraction(0), Fraction(0))] * len(pairs)
    for index, pair in enumerate(pairs):
        given = (penalties or {}).get(pair)
        tally = counted[index]
        if not given or not tally.tops:
            continue
        loss = matchpoint_loss(given, tops=tally.tops, boards=tally.boards)
        percentage_loss = loss * 100 / (tally.tops * Fraction(full_boards, tally.boards))
        losses[index] = (loss, percentage_loss)
        totals[index] -= loss
        percentages[index] -= percentage_loss
    keys = [Fraction(math.trunc(total)) for total in totals] if whole_points else percentages
    return _with_penalties(_placed(field_name, pairs, counted, totals, percentages, None, keys=keys), pairs, losses)


def _with_penalties(
    standings: tuple[Standing, ...], pairs: Sequence[str], losses: Sequence[tuple[Fraction, Fraction]]
) -> tuple[Standing, ...]:
    """The standings with each penalised pair's loss (of its total, of its percentage)."""
    lost = {pair: loss for pair, loss in zip(pairs, losses) if loss[0]}
    if not lost:
        return standings
    return tuple(
        replace(standing, penalty=lost[standing.pair][0], penalty_percentage=lost[standing.pair][1])
        if standing.pair in lost else standing
        for standing in standings
    )


HANDICAP_SHARES = {Handicap.HALF: Fraction(1, 2), Handicap.FULL: Fraction(1)}


def _handicapped(standings: Sequence[Standing], session: SessionInput) -> tuple[Standing, ...]:
    """The standings with each pair's handicapped percentage and place beside the scratch
    ones (RULES 8): scratch + the event's share of the handicap; no handicap adds 0."""
    share = HANDICAP_SHARES[Handicap(session.options.handicap)]
    figures = [
        (standing.percentage or Fraction(0)) + share * session.handicaps.get(standing.pair, Fraction(0))
        for standing in standings
    ]
    numbers, labels = places(figures)
    return tuple(
        replace(standing, handicapped=figure, handicap_place=label, handicap_rank=number)
        for standing, figure, label, number in zip(standings, figures, labels, numbers)
    )


def _percentage(tally: _Tally) -> Fraction:
    if not tally.tops:  # every board played once in a field of one table
        return Fraction(50)
    if not (tally.points_parts or tally.tops_parts):  # whole points of whole tops: one Fraction
        return Fraction(tally.whole_points * 100, tally.whole_tops)
    return tally.points / tally.tops * HUNDRED


def _scaled_total(tally: _Tally, full_boards: int) -> Fraction:
    """The pair's points scaled to the boards of a full session (RULES 4)."""
    if not tally.points_parts:
        return Fraction(tally.whole_points * full_boards, tally.boards)
    return tally.points * Fraction(full_boards, tally.boards)


def _rank_imp_field(
    field_name: str, pairs: Sequence[str], tallies: Mapping[str, _Tally], session: SessionInput
) -> tuple[Standing, ...]:
    """RULES 6 and 8: rank by total IMPs, or by the average when boards played differ;
    a scaled or per-comparison total (options.imp_total) ranks by itself."""
    counted = [tallies[pair] for pair in pairs]
    # A procedural penalty (RULES 13) comes off the pair's IMPs before they are averaged.
    losses = [(imp_loss(session.penalties.get(pair, ())), Fraction(0)) for pair in pairs]
    sums = [tally.points - loss for tally, (loss, _) in zip(counted, losses)]
    averages = [total / tally.boards for total, tally in zip(sums, counted)]
    mode = session.options.imp_total
    if mode == ImpTotal.SCALED:
        boards = session.boards_in_session or len({line.board for line in session.lines})
        totals = [average * boards for average in averages]
    elif mode == ImpTotal.PER_COMPARISON:
        totals = [total / tally.tops if tally.tops else Fraction(0) for total, tally in zip(sums, counted)]
    else:
        same_boards = len({tally.boards for tally in counted}) == 1
        standings = _placed(field_name, pairs, counted, sums, None, averages, keys=sums if same_boards else averages)
        return _with_penalties(standings, pairs, losses)
    return _with_penalties(_placed(field_name, pairs, counted, totals, None, averages, keys=totals), pairs, losses)


def _placed(
    field_name: str,
    pairs: Sequence[str],
    tallies: Sequence[_Tally],
    totals: Sequence[Fraction],
    percentages: Sequence[Fraction] | None,
    averages: Sequence[Fraction] | None,
    *,
    keys: Sequence[Fraction],
) -> tuple[Standing, ...]:
    """The field's standings with their places, best first; ties keep the input (pair) order."""
    numbers, labels = places(keys)
    standings = [
        Standing(
            pair=pair,
            field=field_name,
            boards_played=tally.boards,
            total=totals[index],
            percentage=percentages[index] if percentages is not None else None,
            average=averages[index] if averages is not None else None,
            place=labels[index],
            rank=numbers[index],
        )
        for index, (pair, tally) in enumerate(zip(pairs, tallies))
    ]
    return tuple(sorted(standings, key=lambda standing: standing.rank))


# --- part of a pair's boards -------------------------------------------------------


@dataclass(frozen=True)
class PairPart:
    """A pair's figures over some of its boards: those one of its players played, when
    the players changed during the session (a substitute is credited with their boards)."""

    boards: int
    total: Fraction  # matchpoints (as the pair's totals add them) or IMPs earned on those boards
    percentage: Fraction | None  # matchpoints: of the tops of those boards


def pair_part(result: SessionResult, pair: str, lines: Iterable[int], *, matchpoints: bool) -> PairPart:
    """``pair``'s figures over ``lines`` (indexes into ``result.lines``, each a line of the
    pair), added as its standing adds them: the counted figures, or the shown ones when
    the result kept no workings."""
    tally = _Tally()
    figures = result.workings.figures if result.workings is not None else None
    for index in lines:
        scored = result.lines[index]
        side = 0 if scored.line.ns_pair == pair else 1
        if figures is not None:
            figure = figures[index]
            if figure.counted is not None:
                tally.add(figure.counted[side], figure.counted_top or 0)
        elif scored.ns_points is not None and scored.ew_points is not None:
            tally.add((scored.ns_points, scored.ew_points)[side], scored.top or 0)
    percentage = _percentage(tally) if matchpoints and tally.boards else None
    return PairPart(boards=tally.boards, total=tally.points, percentage=percentage)


# --- rescoring changed boards -------------------------------------------------------


@dataclass(frozen=True)
class _Workings:
    """What a scored session keeps for rescore_boards: its input's settings, each line's
    figures, the results per board, the pairs' tallies and the fields' pairs."""

    options: ScoringOptions
    fields: Mapping[str, str]
    boards_in_session: int | None
    results_per_board: int | None
    figures: Sequence[_LineFigures]
    results_on_board: Mapping[tuple[str, int], int]
    full_results: Mapping[str, int]
    tallies: Mapping[str, _Tally]
    by_field: Mapping[str, tuple[str, ...]]
    handicaps: Mapping[str, Fraction] = field(default_factory=dict)
    penalties: Mapping[str, tuple[Penalty, ...]] = field(default_factory=dict)

    @classmethod
    def of(
        cls, session: SessionInput, figures: Sequence[_LineFigures], results_on_board: Mapping[tuple[str, int], int],
        full_results: Mapping[str, int], tallies: Mapping[str, _Tally], by_field: Mapping[str, tuple[str, ...]],
    ) -> _Workings:
        """The workings of ``session`` scored: its settings, with the figures worked out."""
        return cls(session.options, session.fields, session.boards_in_session, session.results_per_board,
                   figures, results_on_board, full_results, tallies, by_field, session.handicaps, session.penalties)

    def scores_alike(self, session: SessionInput) -> bool:
        return (self.options, self.boards_in_session, self.results_per_board) == (
            session.options, session.boards_in_session, session.results_per_board
        ) and self.fields == session.fields and self.handicaps == session.handicaps \
            and self.penalties == session.penalties


def rescore_boards(previous: SessionResult, session: SessionInput, boards: Collection[int]) -> SessionResult:
    """``session`` scored, knowing that it is ``previous``'s session with only the lines of
    ``boards`` changed (added, corrected or deleted), the others the same and in the same
    order: the same result as score_session(session), at the cost of those boards.

    A correction on a simultaneous pairs touches one board of 3,000 results and the
    totals of the pairs on it; every other line keeps its figures. When a change reaches
    further (the full top moves, an Ave+ follows a pair's own percentage, the settings
    differ) the whole session is scored again.
    """
    workings = previous.workings
    options = session.options
    if workings is None or options.adjusted_session_percentage or not workings.scores_alike(session):
        return score_session(session)
    changed = set(boards)
    lines = tuple(session.lines)
    if _scaled_to_boards_played(session) and {line.board for line in lines} != {
        scored.line.board for scored in previous.lines
    }:
        return score_session(session)  # a board first played, or no longer: every IMP total rescaled
    kept_old: list[int] = []
    gone: list[int] = []  # the old lines of the changed boards
    for index, scored_line in enumerate(previous.lines):
        (gone if scored_line.line.board in changed else kept_old).append(index)
    kept_new = [index for index, line in enumerate(lines) if line.board not in changed]
    if len(kept_old) != len(kept_new):
        raise ScoringError("rescore_boards: lines changed outside the boards named")
    new = [index for index, line in enumerate(lines) if line.board in changed]
    _check_session([lines[index] for index in new], session.fields)

    figures: list[_LineFigures] = [_NO_FIGURES] * len(lines)
    for old_index, new_index in zip(kept_old, kept_new):
        figures[new_index] = workings.figures[old_index]
    groups = _comparison_groups(lines, new, options)
    results_on_board = Counter({key: count for key, count in workings.results_on_board.items() if key[1] not in changed})
    if options.method == Method.MATCHPOINTS:
        _count_results(results_on_board, groups)
        if _full_results(results_on_board, session.results_per_board) != workings.full_results:
            return score_session(session)  # the full top moved: every line's factoring with it
        _score_matchpoint_groups(lines, figures, groups, results_on_board, workings.full_results, options)
    else:
        _score_imps(lines, figures, groups, options)
    if options.line_decimals is not None:
        _round_lines([figures[index] for index in new], options.line_decimals)
    if options.cut_figures:
        _cut_shown_lines([figures[index] for index in new])

    tallies, touched = _retallied(workings, previous, lines, figures, gone, new)
    by_field = dict(workings.by_field)
    standings = dict(previous.standings)
    for name in sorted({session.fields[pair] for pair in touched}):
        pairs = by_field.get(name, ())
        ranked = set(pairs)
        if any((pair in tallies) != (pair in ranked) for pair in touched if session.fields[pair] == name):
            pairs = tuple(sorted((pair for pair in tallies if session.fields[pair] == name), key=_natural_order))
        if pairs:
            by_field[name], standings[name] = pairs, _rank_field(name, pairs, tallies, session)
        else:  # the field's last pair lost its last board
            by_field.pop(name, None)
            standings.pop(name, None)

    scored: list[ScoredLine | None] = [None] * len(lines)  # every one filled below
    for old_index, new_index in zip(kept_old, kept_new):
        scored[new_index] = previous.lines[old_index]
    for index, line in zip(new, _scored_lines([lines[index] for index in new], [figures[index] for index in new])):
        scored[index] = line
    workings = _Workings.of(session, figures, results_on_board, workings.full_results, tallies, by_field)
    return SessionResult(lines=tuple(line for line in scored if line is not None),
                         standings=dict(sorted(standings.items())), top=previous.top,
                         workings=workings)


def _scaled_to_boards_played(session: SessionInput) -> bool:
    """IMP totals scaled to the boards the session's lines name (no board count given):
    every pair's total moves when that number does (``_rank_imp_field``)."""
    options = session.options
    return options.method != Method.MATCHPOINTS and options.imp_total == ImpTotal.SCALED \
        and not session.boards_in_session


def _changed_figures(
    old: Sequence[tuple[Line, _LineFigures]], old_indexes: Sequence[int],
    new: Sequence[tuple[Line, _LineFigures]], new_indexes: Sequence[int],
) -> tuple[list[int], list[int]]:
    """The indexes of the old and new lines left once each old line that comes back
    unchanged (the same line with the same figures) is paired off with its new self."""
    waiting: dict[tuple, list[int]] = defaultdict(list)
    for index, (line, figure) in zip(old_indexes, old):
        waiting[_figures_key(line, figure)].append(index)
    changed_new = []
    for index, (line, figure) in zip(new_indexes, new):
        same = waiting.get(_figures_key(line, figure))
        if same:
            same.pop()
        else:
            changed_new.append(index)
    return sorted(index for indexes in waiting.values() for index in indexes), changed_new


def _figures_key(line: Line, figure: _LineFigures) -> tuple:
    return line, figure.shown, figure.counted, figure.shown_top, figure.counted_top, figure.datum


def _retallied(
    workings: _Workings, previous: SessionResult, lines: Sequence[Line], figures: Sequence[_LineFigures],
    gone: Sequence[int], new: Sequence[int],
) -> tuple[dict[str, _Tally], set[str]]:
    """The pairs' tallies with the changed boards' old figures taken back and the new ones
    added (copies of the tallies touched: ``previous`` stays as it was); and the pairs touched.
    A line that came back as it was (another section's table on a shared board, scored
    within its own section) touches no pair: a large event re-ranks the fields a change
    reached, not every field that played the board."""
    gone, new = _changed_figures(
        [(previous.lines[index].line, workings.figures[index]) for index in gone], gone,
        [(lines[index], figures[index]) for index in new], new,
    )
    tallies = dict(workings.tallies)
    touched: set[str] = set()

    def fresh(pair: str) -> None:
        if pair not in touched:
            touched.add(pair)
            tallies[pair] = tallies[pair].copy() if pair in tallies else _Tally()

    for index in gone:
        line = previous.lines[index].line
        fresh(line.ns_pair)
        fresh(line.ew_pair)
        _tally_line(tallies, line, workings.figures[index], _Tally.remove)
    for index in new:
        fresh(lines[index].ns_pair)
        fresh(lines[index].ew_pair)
        _tally_line(tallies, lines[index], figures[index], _Tally.add)
    for pair in touched:
        if not tallies[pair].boards:  # no board left (or none scored): in no field
            del tallies[pair]
    return tallies, touched
