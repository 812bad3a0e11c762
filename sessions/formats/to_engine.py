"""A parsed results file as scoring-engine input, with the publishing program's conventions.

Readers (usebio.py, pbn.py) give a ParsedEvent exactly as the file says; this module
turns it into a SessionInput for sessions.scoring.session and chooses the options
under which the engine reproduces what the program published (RULES 4-6 and the
data README). Published figures are never passed on: the engine scores from the
traveller scores alone.

Program conventions (each checked against the real files in tests/data):
- Compscore3: lines shown as played, only adjusted boards factored into the line.
- EBUScore: lines shown to 2 decimals, and a pair's total adds the lines as shown.
- ScoreBridge: the same with 1 decimal.
- BriAn: no Neuberg at all: each board keeps its own top.
- Magic Contest: Butler datum is the median on boards with 3 results or fewer; a pair's
  total is scaled to the session's boards (a bye against the phantom counts at the
  pair's average: 42.0 = 36 x 28/24). Pianola scales its cross-IMP totals likewise.
- Ruter: a cross-IMP pair's total is its IMPs per comparison (4.14 = 729 / (16 x 11)).
- PBN cross-IMP tags: "IMP;Cross" is summed; the standard's "Cross1"/"Cross2" are
  divided by the number of scores / comparisons, so ClubScore writes averaged
  cross-IMPs as "Cross2". Ruter and Magic Contest write "Cross2" over lines that are
  summed (only their totals are divided), so for them it means summed lines; they
  also list every pair in one ranking, as their TotalScoreTable does.
- NZ Scorer and Ruter: sections scored across the field.
- NZ Scorer: a not-played line compared as a score of 0; lines cut to tenths and pairs
  placed on whole matchpoints; a pair's total counts each result a short board lacks as
  a tie; lines factored to a full field that counts the phantom's table (RULES 5).
- Any program: a not-played line that carries matchpoints on both sides was compared
  as a score of 0; pairs with a HANDICAP are ranked handicapped too when adding a share
  of it (50 or 100%) reproduces more of the published percentages than scratch does.
- Any program: sections that play the same boards are scored across the field when
  that reproduces more of the file's published line points and percentages than
  scoring each section apart does (an EBUScore two-section session with one overall
  ranking was matchpointed across the field, though EBUScore usually does not).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction
from typing import Any

from sessions.scoring.boards import vulnerability
from sessions.scoring.errors import ScoringError
from sessions.scoring.options import (
    ButlerDatum,
    CrossImpsMode,
    Handicap,
    ImpTotal,
    LineDisplay,
    Method,
    NotPlayedRule,
    ShortBoards,
    ShortTotals,
)
from sessions.scoring.scores import NOT_PLAYED, Artificial, AssignedPoints, LineScore
from sessions.scoring.session import HANDICAP_SHARES, Line, ScoringOptions, SessionInput, SessionResult, assigned_beyond_top, score_session

from sessions.formats.common import played_score
from sessions.formats.conventions import CONVENTIONS_KEY, NAMES, read_conventions
from sessions.formats.model import ParsedBoard, ParsedEvent, ParsedLine

_ARTIFICIAL = re.compile(r"A([0-9]{2})([0-9]{2})")

#: Options per program, matched by the start of ParsedEvent.program.
PROGRAM_OPTIONS: Mapping[str, Mapping[str, Any]] = {
    "Compscore": {"line_display": LineDisplay.AS_PLAYED},
    "EBUScore": {"line_decimals": 2},
    "ScoreBridge": {"line_decimals": 1},
    "BriAn": {"short_boards": ShortBoards.NONE},
    "Magic Contest": {"butler_datum": ButlerDatum.MEDIAN_SMALL, "imp_total": ImpTotal.SCALED},
    "Scorer": {  # NZ Scorer
        "across_field": True, "not_played": NotPlayedRule.ZERO, "cut_figures": True,
        "short_totals": ShortTotals.TIES, "phantom_table": True,
    },
    "Ruter": {"across_field": True, "imp_total": ImpTotal.PER_COMPARISON},
    "Pianola": {"imp_total": ImpTotal.SCALED},
}

#: Programs that write "IMP;Cross2" over summed cross-IMP lines.
SUMMED_LINE_PROGRAMS = ("Ruter", "Magic Contest")

#: Programs whose results list every pair in one ranking, whatever the movement.
ONE_RANKING_PROGRAMS = ("Ruter", "Magic Contest")


def line_score(text: str) -> LineScore:
    """A ParsedLine.score ("420", "PASS", "NP", "A6040") as an engine line score."""
    if text == "PASS":
        return 0
    if text == "NP":
        return NOT_PLAYED
    artificial = _ARTIFICIAL.fullmatch(text)
    if artificial:
        return Artificial(int(artificial.group(1)), int(artificial.group(2)))
    try:
        return int(text)
    except ValueError:
        raise ScoringError(f"{text!r} is not a score the engine can use") from None


def parsed_line_score(line: ParsedLine, scoring: str) -> LineScore:
    """A parsed line as an engine line score: the director's points when the file's are
    assigned (in matchpoints or IMPs, as the event is scored), else its score."""
    score = line_score(line.score)
    if not line.assigned or line.published_ns_points is None or line.published_ew_points is None:
        return score
    ruling = score if isinstance(score, (Artificial, int)) else None
    unit = "MP" if scoring == Method.MATCHPOINTS else "IMP"
    return AssignedPoints(Fraction(line.published_ns_points), Fraction(line.published_ew_points), unit=unit, ruling=ruling)


def is_adjusted(line: ParsedLine, board: ParsedBoard) -> bool:
    """A director's line: an artificial score (A5050), or a score its contract does not give."""
    if _ARTIFICIAL.fullmatch(line.score):
        return True
    if line.score in ("PASS", "NP"):
        return False
    vulnerability = board.vulnerability or _board_vulnerability(board.number)
    return played_score(line.contract, line.declarer, line.tricks, vulnerability) != int(line.score)


def _board_vulnerability(number: int) -> str:
    return vulnerability(number).value


def mark_assigned_points(event: ParsedEvent, options: ScoringOptions) -> int:
    """Mark the adjusted lines whose published points the artificial (or assigned score)
    rule does not give under ``options`` as points the director assigned (``assigned``),
    when that reproduces more of the file's figures; how many were marked."""
    lines = [(line, board) for board in event.boards for line in board.lines]
    adjusted = [
        not line.assigned and line.published_ns_points is not None and line.published_ew_points is not None
        and is_adjusted(line, board)
        for line, board in lines
    ]
    if not any(adjusted):  # (most files: no scoring more)
        return 0
    try:
        before = score_session(to_engine(event, options))
    except ScoringError:
        return 0
    marked = [
        line for (line, _), ours, candidate in zip(lines, before.lines, adjusted)
        if candidate and not (
            _agrees(ours.ns_points, line.published_ns_points) and _agrees(ours.ew_points, line.published_ew_points)
        )
    ]
    if not marked:
        return 0
    for line in marked:
        line.assigned = True
    try:
        after = score_session(to_engine(event, options))
        # Matchpoints above the board's top are no director's figures: a file's inconsistency.
        better = not assigned_beyond_top(after) and _published_agreements(event, after) > _published_agreements(event, before)
    except ScoringError:
        better = False
    if not better:
        for line in marked:
            line.assigned = False
        return 0
    return len(marked)


def options_for(event: ParsedEvent) -> ScoringOptions:
    """The scoring method from the file, with its program's conventions."""
    if event.scoring not in tuple(Method):
        raise ScoringError(f"the file has no pairs scoring to reproduce (scoring {event.scoring!r})")
    settings: dict[str, Any] = {"method": event.scoring}
    carried = carried_conventions(event)
    if carried:  # a ClubScore file says how it was scored: no guessing from the program
        settings.update({name: value for name, value in carried.items() if name in ENGINE_OPTIONS})
        return ScoringOptions(**settings)
    for program, conventions in PROGRAM_OPTIONS.items():
        if event.program.startswith(program):
            settings.update(conventions)
    if event.scoring == Method.CROSS_IMPS and event.source_format == "pbn":
        settings["cross_imps"] = _pbn_cross_imps(event)
    if event.scoring == Method.MATCHPOINTS and _not_played_matchpointed(event):
        settings["not_played"] = NotPlayedRule.ZERO
    options = ScoringOptions(**settings)
    if not options.across_field and published_across_the_field(event, options):
        options = replace(options, across_field=True)
    return replace(options, handicap=published_handicap(event, options))


def _not_played_matchpointed(event: ParsedEvent) -> bool:
    """Some not-played line carries matchpoints on both sides: it was compared as a 0."""
    return any(
        line.score == "NP" and line.published_ns_points is not None and line.published_ew_points is not None
        for board in event.boards for line in board.lines
    )


def handicaps(event: ParsedEvent) -> dict[str, Fraction]:
    """Each pair's HANDICAP as the engine takes it (pair key -> percentage points)."""
    return {pair.key: Fraction(pair.handicap) for pair in event.pairs if pair.handicap is not None}


def published_handicap(event: ParsedEvent, options: ScoringOptions) -> str:
    """The share of the pairs' handicaps the file's percentages include: the one that
    reproduces the most of them, scratch ("none") unless a share does better."""
    given = handicaps(event)
    if options.method != Method.MATCHPOINTS or not any(given.values()):
        return Handicap.NONE
    try:
        result = score_session(to_engine(event, replace(options, handicap=Handicap.NONE)))
    except ScoringError:
        return Handicap.NONE
    scratch = {
        standing.pair: standing.percentage for field in result.standings.values() for standing in field
        if standing.percentage is not None
    }
    shares = {Handicap.NONE: Fraction(0), **HANDICAP_SHARES}

    def agreements(share: Fraction) -> int:
        return sum(
            _agrees(scratch[pair.key] + share * given.get(pair.key, Fraction(0)), pair.published_percentage)
            for pair in event.pairs if pair.key in scratch
        )

    counts = {name: agreements(share) for name, share in shares.items()}
    best = max(counts, key=lambda name: counts[name])
    return best if counts[best] > counts[Handicap.NONE] else Handicap.NONE


# --- across the field, read from the published figures ---------------------------------


def published_across_the_field(event: ParsedEvent, options: ScoringOptions) -> bool:
    """Whether the file's sections were scored across the field: some play the same boards,
    and scoring them together reproduces more published figures than scoring them apart."""
    sections_of: dict[int, set[str]] = {}
    for board in event.boards:
        sections_of.setdefault(board.number, set()).add(board.section)
    if all(len(sections) < 2 for sections in sections_of.values()) or event.sections_play_different_deals():
        return False
    try:
        apart = _published_agreements(event, score_session(to_engine(event, options)))
        together = _published_agreements(event, score_session(to_engine(event, replace(options, across_field=True))))
    except ScoringError:
        return False
    return together > apart


def _published_agreements(event: ParsedEvent, result: SessionResult) -> int:
    """How many published line points and pair percentages ``result`` gives, to the printed precision."""
    parsed_lines = (line for board in event.boards for line in board.lines)
    count = 0
    for parsed, ours in zip(parsed_lines, result.lines):
        count += _agrees(ours.ns_points, parsed.published_ns_points) + _agrees(ours.ew_points, parsed.published_ew_points)
    standings = {standing.pair: standing for field in result.standings.values() for standing in field}
    for pair in event.pairs:
        standing = standings.get(pair.key)
        count += standing is not None and _agrees(standing.percentage, pair.published_percentage)
    return count


def _agrees(ours: Fraction | None, published: Decimal | None) -> bool:
    """Within one unit of the figure's last printed digit (programs round or cut: 57.548 -> 57.5)."""
    if ours is None or published is None or not published.is_finite():
        return False
    exponent = published.as_tuple().exponent
    assert isinstance(exponent, int)  # finite
    return abs(ours - Fraction(published)) < Fraction(Decimal(1).scaleb(exponent))


#: The carried settings that are the engine's options (rankings groups the pairs; the deal
#: era says which laws the file's scores follow, and the engine scores those scores).
ENGINE_OPTIONS = tuple(name for name in NAMES if name not in ("rankings", "deal_era"))


def carried_conventions(event: ParsedEvent) -> dict[str, Any]:
    """The settings a ClubScore file carries (formats/conventions.py), else {}."""
    return read_conventions(event.extra.get(CONVENTIONS_KEY, ""))


def _pbn_cross_imps(event: ParsedEvent) -> str:
    """"sum" or "average" from a PBN Scoring tag such as "IMP;Cross2" (see above)."""
    divided = re.search(r"Cross[12]", event.event_type) is not None
    if not divided or event.program.startswith(SUMMED_LINE_PROGRAMS):
        return CrossImpsMode.SUM
    return CrossImpsMode.AVERAGE


def ranking_fields(event: ParsedEvent) -> dict[str, str]:
    """Each pair's ranking field: "NS"/"EW" in a Mitchell with two winners, else one field.

    USEBIO says how many winners (WINNER_TYPE 1 or 2); otherwise a section whose pairs
    have directions (a Mitchell) ranks NS and EW apart (RULES 8).
    """
    winner_type = event.extra.get("WINNER_TYPE", "")
    one_ranking = winner_type == "1" or event.program.startswith(ONE_RANKING_PROGRAMS)
    one_ranking = one_ranking or carried_conventions(event).get("rankings") == "one"
    sections = {pair.section for pair in event.pairs}
    fields = {}
    for pair in event.pairs:
        if one_ranking or not pair.direction:
            fields[pair.key] = ""
        elif len(sections) > 1 and winner_type != "2":
            fields[pair.key] = f"{pair.section} {pair.direction}"
        else:
            fields[pair.key] = pair.direction
    return fields


def to_engine(event: ParsedEvent, options: ScoringOptions | None = None, **session: Any) -> SessionInput:
    """The event's traveller lines and fields as engine input.

    ``options`` defaults to options_for(event); ``session`` passes SessionInput
    settings such as results_per_board or boards_in_session.
    """
    lines = tuple(
        Line(
            board=board.number,
            ns_pair=parsed.ns_pair,
            ew_pair=parsed.ew_pair,
            score=parsed_line_score(parsed, event.scoring),
            section=board.section,
        )
        for board in event.boards
        for parsed in board.lines
    )
    return SessionInput(
        lines=lines, fields=ranking_fields(event), options=options or options_for(event), handicaps=handicaps(event),
        **session,
    )


def with_options(event: ParsedEvent, **changes: Any) -> ScoringOptions:
    """The program's options for ``event`` with some changed (e.g. short_boards="ratio")."""
    return replace(options_for(event), **changes)
