"""Importing a USEBIO or PBN results file as a session of a club: all or nothing.

``results_import`` reads the file (sessions.formats), stores what it says, then scores
the stored session with our engine (session_score, the only scoring path) and compares
our figures with the ones the file published; those are never copied. One
transaction: a file that cannot be imported faithfully leaves the database unchanged
and raises ImportRefused with a message naming the problem.

What is stored, and how:
- Event: the scoring method and options of the file's program (to_engine.options_for,
  every option an Event field), and the rankings setting that groups the pairs as the
  file ranks them (to_engine.ranking_fields); or an existing event of the club (its
  settings, e.g. to re-import our own export).
- Sections by the file's names ("A", "B"; a longer name such as "Sect1" becomes the
  next letter); pairs with their numbers and directions; players found in the club's
  list by the rule a director's typing follows (sessions.clubs.services.players, in bulk:
  by national number, else by name, a namesake without a number being given it, else
  added), names cleaned as typed ones are.
- Boards: dealer and vulnerability as the file says, else from the board number; the
  deal when the file has one (its double-dummy analysis is asked for, and runs after
  the commit: sessions.analysis.services.analysis.analysis_request).
- Results: a played contract when the file's score follows from it; a SCORE that does
  not (a director's entry) stands as an assigned score, the contract kept as
  information, provided some result can produce it on the board (the readers refuse
  any other, and impossible trick counts: sessions.formats.common.check_lines);
  "PASS", "NP" and artificial "A6040" scores as such. A phantom's byes (its not-played
  lines) are not results and are left out with the phantom.
- Numbers: boards, pairs, tables and rounds run from 1 to sessions.formats.common's
  MAX_BOARD_NUMBER, MAX_PAIR_NUMBER ...: the readers and results_read check them before
  anything is stored, with one plain message, the same on every database.
- Movement: the table plan is rebuilt from the lines (sessions.transfer.seating). The
  session is a Mitchell when its pairs have directions (never arrow-switched: the file
  does not say; a file ranking a Mitchell's pairs in one field sets the event's rankings).
"""

from __future__ import annotations

import datetime
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from operator import attrgetter

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError

from sessions.formats import FormatError, ParsedBoard, ParsedEvent, ParsedLine, ParsedPair, ParsedPlayer, parse_results_file
from sessions.formats.common import MAX_PAIR_NUMBER, PASSED_OUT_CONTRACTS, in_range, is_number, played_score, shown
from sessions.formats.conventions import carried_era
from sessions.formats.masterpoints import file_masterpoints
from sessions.formats.to_engine import mark_assigned_points, options_for, parsed_line_score, ranking_fields
from sessions.formats.writing import date_parts
from sessions.core.performance import garbage_collection_paused
from sessions.models import (
    ChangeAction,
    Club,
    Event,
    Handicap,
    MovementKind,
    Pair,
    PointsUnit,
    Rankings,
    ResultKind,
    ScoringMethod,
    Session,
)
from sessions.scoring import boards as engine_boards
from sessions.scoring.contracts import parse_contract
from sessions.scoring.errors import ScoringError
from sessions.scoring.notation import Played, format_assigned, format_result, parse_lead
from sessions.scoring.options import Handicap as EngineHandicap
from sessions.scoring.options import NotPlayedRule, ShortTotals
from sessions.scoring.scores import Artificial, AssignedPoints
from sessions.scoring.session import ScoringOptions
from sessions.core.selectors.engine_input import EVENT_OPTION_FIELDS, field_name, pair_key, scoring_options, splits_directions
from sessions.core.selectors.scoring import session_score
from sessions.analysis.services.analysis import analysis_request
from sessions.pairs.services.penalties import penalty_give
from sessions.clubs.services.players import TypedPlayer, players_find_or_add
from sessions.pairs.services.session_plan import (
    BoardKey, PlannedBoard, PlannedLine, PlannedPair, PlannedSeating, SessionPlan, session_store,
)
from sessions.pairs.services.sessions import session_log, session_mark_final, session_publish
from sessions.core.services.unit_of_work import write
from sessions.core.text import clean_name

from sessions.transfer.compare import Comparison, compare_lines, compare_pairs
from sessions.transfer.seating import PlayedLine, TablePlan, plan_section

DEFAULT_EVENT_NAME = "Imported pairs"
SECTION_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

_ARTIFICIAL = re.compile(r"A([0-9]{2})([0-9]{2})")


#: How a file's sections are scored, when the director says (``sections=``): matchpointed
#: (or IMPed) together across the field, or each apart. None: as the file's own figures
#: show (to_engine.options_for), else apart unless the file's program always pools them.
SECTIONS_CHOICES = ("together", "apart")

#: Another program's conventions (NZ Scorer's: RULES 5 and 8) the director may state for
#: a new event (``conventions=``, {option: word}), instead of the importer choosing them
#: from the file or its figures: the Event option, the words the command line and the
#: upload form offer, and the option's value for each word.
CONVENTION_CHOICES: dict[str, dict[str, object]] = {
    "not_played": {"zero": NotPlayedRule.ZERO, "removed": NotPlayedRule.REMOVED},
    "cut_figures": {"yes": True, "no": False},
    "short_totals": {"ties": ShortTotals.TIES, "lines": ShortTotals.AS_LINES},
    "phantom_table": {"yes": True, "no": False},
    "handicap": {"none": EngineHandicap.NONE, "50": EngineHandicap.HALF, "100": EngineHandicap.FULL},
}
#: What each option is called where the director says it (the command's --not-played ...).
CONVENTION_LABELS = {
    "not_played": "not played (NP) lines", "cut_figures": "figures cut as NZ Scorer prints them",
    "short_totals": "totals on boards short of results", "phantom_table": "the phantom's table counted",
    "handicap": "handicap",
}


def convention_word(name: str, value: object) -> str:
    """The word for an option's value ("zero" for NotPlayedRule.ZERO)."""
    return next((word for word, choice in CONVENTION_CHOICES[name].items() if choice == value), str(value))


def conventions_checked(conventions: dict[str, str] | None) -> dict[str, object]:
    """The director's conventions as option values; ValidationError naming a bad one."""
    chosen: dict[str, object] = {}
    for name, word in (conventions or {}).items():
        if name not in CONVENTION_CHOICES:
            raise ValidationError(f"{name!r} is not a convention the import can be told: "
                                  f"{', '.join(CONVENTION_CHOICES)}")
        words = CONVENTION_CHOICES[name]
        if word not in words:
            raise ValidationError(f"{CONVENTION_LABELS[name]} is {' or '.join(words)}, not {str(word)[:20]!r}")
        chosen[name] = words[word]
    return chosen


class ImportRefused(ValueError):
    """The file cannot be imported; nothing was stored. The message says why."""


@dataclass(frozen=True)
class ImportReport:
    session: Session
    program: str
    scoring: str
    boards: int
    pairs: int
    lines: int
    comparison: Comparison
    notes: tuple[str, ...] = ()

    def summary(self) -> list[str]:
        """What the command prints and the upload page shows."""
        lines = [
            f"program: {self.program or 'unknown'}",
            f"scoring: {self.scoring} (event {self.session.event.name!r})",
            f"boards: {self.boards}, pairs: {self.pairs}, traveller lines: {self.lines}",
        ]
        lines += self.comparison.summary()
        lines += [f"note: {note}" for note in self.notes]
        return lines


#: What an import does with what it stored: "" leaves it to the director, "published"
#: publishes it, "final" publishes it and marks it final. Each through the services that
#: do it on the director's page, in the import's unit: the club's webhooks are told
#: "published" (and "final") once, after the commit, and the players' mails follow "final".
PUBLISH_CHOICES = (
    ("", "Leave it unpublished (publish it from its page)"),
    ("published", "Publish it"),
    ("final", "Publish it and mark it final (the players' results mails go)"),
)
PUBLISH_VALUES = tuple(value for value, _ in PUBLISH_CHOICES)


def check_publish(publish: str) -> None:
    if publish not in PUBLISH_VALUES:
        raise ImportRefused(f"publish must be one of {', '.join(repr(value) for value in PUBLISH_VALUES)}, not {publish!r}")


def _publish_session(session: Session, publish: str, user: AbstractBaseUser | None) -> None:
    by = user if user is not None and user.is_authenticated else None
    if publish:
        session_publish(session=session, by=by)
    if publish == "final":
        session_mark_final(session=session)


def results_import(
    *,
    club: Club,
    data: bytes,
    filename: str,
    user: AbstractBaseUser | None = None,
    event: Event | None = None,
    sections: str | None = None,
    conventions: dict[str, str] | None = None,
    publish: str = "",
) -> ImportReport:
    """Import the results file ``data`` into ``club`` (into ``event`` if given); see the module docstring.
    ``sections`` ("together" or "apart", SECTIONS_CHOICES) says how a new event scores the sections;
    ``conventions`` ({"not_played": "zero", "handicap": "50", ...}, CONVENTION_CHOICES) the
    program's conventions, each instead of the one the file shows; ``publish``
    (PUBLISH_CHOICES) whether the new session is published, and marked final."""
    check_publish(publish)
    with garbage_collection_paused():  # a national event's file is a million objects and no cycles
        parsed = results_read(data=data, filename=filename)
        return results_store(club=club, parsed=parsed, filename=filename, user=user, event=event, sections=sections,
                             conventions=conventions, publish=publish)


@write
def results_store(
    *,
    club: Club,
    parsed: ParsedEvent,
    filename: str,
    user: AbstractBaseUser | None = None,
    event: Event | None = None,
    sections: str | None = None,
    conventions: dict[str, str] | None = None,
    publish: str = "",
) -> ImportReport:
    """Store a file ``results_read`` read, in one transaction (the second half of ``results_import``),
    published (and marked final) as ``publish`` says."""
    check_publish(publish)
    try:
        report = _Importer(club, parsed, filename, user, event, sections, conventions).run()
        _publish_session(report.session, publish, user)
        return report
    except (ValidationError, IntegrityError, ScoringError) as error:
        raise ImportRefused(f"{filename}: {_message(error)}; nothing was imported") from None


def _message(error: Exception) -> str:
    if isinstance(error, ValidationError):
        return "; ".join(error.messages)
    return str(error)


def results_read(*, data: bytes, filename: str) -> ParsedEvent:
    """The file read and checked as far as can be before anything is stored (the first half
    of ``results_import``): ImportRefused, with the reason, when it cannot be imported."""
    limit = settings.MAX_UPLOAD_BYTES
    if len(data) > limit:
        raise ImportRefused(
            f"{filename} is {_megabytes(len(data))}: the largest file accepted is {_megabytes(limit)}"
        )
    try:
        parsed = parse_results_file(data)
    except (FormatError, ScoringError) as error:
        raise ImportRefused(f"{filename}: {error}") from None
    if not any(board.lines for board in parsed.boards):
        raise ImportRefused(f"{filename}: the file has no traveller lines (no boards with results)")
    try:
        for pair in parsed.pairs:
            pair_number(pair)
    except FormatError as error:
        raise ImportRefused(f"{filename}: {error}") from None
    try:
        options_for(parsed)
    except ScoringError as error:
        raise ImportRefused(f"{filename}: {error}") from None
    return parsed


def pair_number(pair: ParsedPair) -> int:
    """The pair's number as stored: ASCII digits, from 1 to MAX_PAIR_NUMBER (FormatError if not)."""
    where = f"section {pair.section}"
    if not is_number(pair.number.strip()):
        raise FormatError(f"{where}: pair {shown(pair.number)} is not a number: pairs are numbered from 1 to {MAX_PAIR_NUMBER}")
    return in_range(pair.number, "pair", MAX_PAIR_NUMBER, where)


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MB"


# --- pure helpers: the file's text as stored values -----------------------------------


def event_settings(options: ScoringOptions) -> dict[str, object]:
    """The Event fields for ``options``: every engine option is an Event field."""
    return {name: getattr(options, name) for name in EVENT_OPTION_FIELDS}


def ranks_as_the_file(parsed: ParsedEvent, pairs: Sequence[ParsedPair], letters: dict[str, str], *,
                      rankings: str, across_field: bool) -> bool:
    """Whether session_score, under these settings, groups ``pairs`` into the file's rankings.

    The file's rankings are to_engine.ranking_fields; ours are session_score's fields
    for an imported session (a Mitchell when any pair has a direction, never
    arrow-switched; sections rank apart unless scored across the field).
    """
    wanted = ranking_fields(parsed)
    split = splits_directions(rankings, mitchell=any(pair.direction for pair in pairs), arrow_switch=False)
    split_sections = len(letters) > 1 and not across_field
    ours = {
        pair.key: field_name(pair.direction, letters[pair.section], split_directions=split, split_sections=split_sections)
        for pair in pairs
    }
    return _partition(ours) == _partition({pair.key: wanted[pair.key] for pair in pairs})


def rankings_for(parsed: ParsedEvent, pairs: Sequence[ParsedPair], letters: dict[str, str], across_field: bool) -> str | None:
    """The Event rankings setting that ranks the pairs as the file does: "auto" when the
    movement's own rankings do (RULES 8), else "one" or "two"; None when none does."""
    return next(
        (
            rankings for rankings in Rankings.values
            if ranks_as_the_file(parsed, pairs, letters, rankings=rankings, across_field=across_field)
        ),
        None,
    )


def clean_lead(text: str) -> str:
    """The lead in the house form; a file's lead that is not a card is dropped, not refused."""
    try:
        return parse_lead(text)
    except ScoringError:
        return ""


def result_values(
    line: ParsedLine, board: int, vulnerability: str, era: str = "current", unit: str = PointsUnit.MATCHPOINTS,
) -> dict[str, object]:
    """The Result fields for a traveller line (see the module docstring). A file scored
    under an older era (a ClubScore export says so) holds that era's scores; a played
    line is stored, as typed lines are, with today's score (pages rescore it by the era).
    Of the line, only its RESULT_PARTS count (``board`` only names it in a refusal), and
    for a line of assigned points its published figures too (in ``unit``)."""
    values = _plain_values(line, board, vulnerability, era)
    if not line.assigned:
        return values
    points = parsed_line_score(line, ScoringMethod.MATCHPOINTS if unit == PointsUnit.MATCHPOINTS else ScoringMethod.CROSS_IMPS)
    assert isinstance(points, AssignedPoints)  # an assigned line has both figures
    contract = {name: values[name] for name in _CONTRACT_FIELDS if name in values}
    return {
        **contract, "kind": ResultKind.ASSIGNED_POINTS, "entered_text": values["entered_text"], "lead": values["lead"],
        "ns_score": values.get("ns_score") if values["kind"] == ResultKind.ASSIGNED else None,
        "artificial_ns_percent": values.get("artificial_ns_percent"), "artificial_ew_percent": values.get("artificial_ew_percent"),
        "assigned_ns_points": line.published_ns_points, "assigned_ew_points": line.published_ew_points,
        "points_unit": unit, "text": format_result(points),
    }


_CONTRACT_FIELDS = ("level", "strain", "doubling", "declarer", "tricks")


def _plain_values(line: ParsedLine, board: int, vulnerability: str, era: str) -> dict[str, object]:
    entered = " ".join(part for part in (line.contract, line.declarer, _text(line.tricks), line.raw_score or line.score) if part)
    values: dict[str, object] = {"entered_text": entered[:60], "lead": ""}
    score = line.score
    if score == "NP":
        return {**values, "kind": ResultKind.NOT_PLAYED, "text": "NP"}
    if score == "PASS":
        return {**values, "kind": ResultKind.PASSED, "ns_score": 0, "text": "PASS"}
    artificial = _ARTIFICIAL.fullmatch(score)
    if artificial:
        try:
            adjusted = Artificial(int(artificial[1]), int(artificial[2]))
        except ScoringError as error:
            raise ScoringError(f"board {board}: {error}") from None
        return {
            **values, "kind": ResultKind.ARTIFICIAL, "artificial_ns_percent": adjusted.ns_percent,
            "artificial_ew_percent": adjusted.ew_percent, "text": format_result(adjusted),
        }
    try:
        ns_score = int(score)
    except ValueError:
        raise ScoringError(f"board {board}: {score!r} is not a score") from None
    played = _played(line)
    contract = {}
    if played is not None:
        contract = {
            "level": played.contract.level, "strain": played.contract.strain.value,
            "doubling": played.contract.doubling.value, "declarer": played.declarer.value,
            "tricks": played.tricks, "lead": clean_lead(line.lead),
        }
        if played_score(line.contract, line.declarer, line.tricks, vulnerability, era) == ns_score:
            today = played_score(line.contract, line.declarer, line.tricks, vulnerability)
            return {**values, **contract, "kind": ResultKind.PLAYED, "ns_score": today, "text": format_result(played)}
    if ns_score == 0 and line.contract.strip().upper() in PASSED_OUT_CONTRACTS:
        return {**values, "kind": ResultKind.PASSED, "ns_score": 0, "text": "PASS"}
    # The score stands; the contract (if readable) is kept as information.
    return {**values, **contract, "kind": ResultKind.ASSIGNED, "ns_score": ns_score, "text": format_assigned(ns_score)}


#: What of a line result_values reads: a board's lines repeat a few dozen results, each
#: worked out once per vulnerability on import (a line of assigned points is its own).
RESULT_PARTS = ("contract", "declarer", "tricks", "lead", "score", "raw_score")
_result_parts = attrgetter(*RESULT_PARTS)


def _text(value: int | None) -> str:
    return "" if value is None else str(value)


def _played(line: ParsedLine) -> Played | None:
    if line.tricks is None or line.declarer not in ("N", "E", "S", "W"):
        return None
    try:
        return Played(parse_contract(line.contract), line.declarer, line.tricks)
    except (ScoringError, ValueError):
        return None


def section_letters(names: Sequence[str]) -> dict[str, str]:
    """The file's section names as letters: kept when short enough, else A, B, C... in order."""
    if all(0 < len(name) <= 2 for name in names) and len(set(names)) == len(names):
        return {name: name for name in names}
    if len(names) > len(SECTION_LETTERS):
        raise ScoringError(f"the file has {len(names)} sections: at most {len(SECTION_LETTERS)} can be stored")
    return dict(zip(names, SECTION_LETTERS))


def _partition(fields: dict[str, str]) -> set[frozenset[str]]:
    groups: dict[str, set[str]] = {}
    for key, name in fields.items():
        groups.setdefault(name, set()).add(key)
    return {frozenset(keys) for keys in groups.values()}


# --- the import -----------------------------------------------------------------------


@dataclass
class _FileLine:
    """A traveller line: the file's, what it stores (a Result's fields), where it was played, then its id."""

    where: str
    parsed: ParsedLine
    section: str  # the file's name of it
    board: int  # the board's number
    board_key: BoardKey  # the plan's board
    values: dict[str, object]  # the Result's own fields (shared by lines of the same result)
    round: int = 0
    table: int = 0
    pk: int = 0


@dataclass
class _Importer:
    club: Club
    parsed: ParsedEvent
    filename: str
    user: AbstractBaseUser | None
    event: Event | None
    sections: str | None = None
    conventions: dict[str, str] | None = None
    notes: list[str] = field(default_factory=list)
    parsed_pairs: dict[str, ParsedPair] = field(init=False)
    # Each section's board of each number (the file's section name, number) -> the plan's board.
    boards_played: dict[tuple[str, int], BoardKey] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.parsed_pairs = self.parsed.pairs_by_key()

    def run(self) -> ImportReport:
        names = list(dict.fromkeys([pair.section for pair in self.parsed.pairs] + [b.section for b in self.parsed.boards]))
        letters = section_letters(names)
        byes = self.phantom_byes()
        kept = [pair for pair in self.parsed.pairs if pair.key not in byes]
        event = self.choose_event(kept, letters)
        assigned = mark_assigned_points(self.parsed, scoring_options(event))
        if assigned:
            self.notes.append(
                f"{assigned} adjusted lines carry points the director assigned (the file's figures, "
                "not what the adjusted score gives)"
            )
        for name, letter in letters.items():
            if name != letter:
                self.notes.append(f"section {name!r} is stored as section {letter}")
        plan, lines = self.plan(event, kept, letters, byes)
        stored = session_store(plan=plan, by=self.user)
        session = stored.session
        for line, pk in zip(lines, stored.line_ids):
            line.pk = pk
        deals = list({board.pk: board for board in stored.boards.values()}.values())
        analysis_request(boards=deals)
        pairs = stored.pairs
        self.penalties_from_file(event, kept, pairs, lines)
        session_log(
            session=session, action=ChangeAction.IMPORTED, subject=self.filename,
            after=f"{len(lines)} lines, {len(pairs)} pairs, {len(deals)} boards ({self.parsed.program or 'unknown program'})",
            by=self.user,
        )
        scored = session_score(session=session)
        several = len(letters) > 1
        scored_lines = dict(zip(scored.line_ids, scored.result.lines))  # scored_line without a Result each
        line_count, line_differences = compare_lines(
            (line.where, line.parsed, scored_lines[line.pk]) for line in lines
        )
        standings = {s.pair: s for field_standings in scored.result.standings.values() for s in field_standings}
        labelled = (
            (parsed, pairs[parsed.key], letters[parsed.section]) for parsed in kept
        )
        pair_count, pair_differences = compare_pairs(
            (
                (f"{letter}:{pair.label}" if several else pair.label, parsed, standings.get(pair_key(pair, letter)))
                for parsed, pair, letter in labelled
            ),
            matchpoints=event.method == ScoringMethod.MATCHPOINTS,
            handicapped=event.handicap != Handicap.NONE,
        )
        comparison = Comparison(line_count, tuple(line_differences), pair_count, tuple(pair_differences))
        return ImportReport(
            session=session, program=self.parsed.program, scoring=event.get_method_display(),
            boards=len(self.boards_played), pairs=len(pairs), lines=len(lines), comparison=comparison,
            notes=tuple(self.notes + self.parsed.notes),
        )

    # -- event and session -------------------------------------------------------------

    def choose_event(self, pairs: Sequence[ParsedPair], letters: dict[str, str]) -> Event:
        """The given event, else a club event with the file's settings, else a new one."""
        options = options_for(self.parsed)
        if self.sections is not None:
            options = self.sections_chosen(options, letters)
        chosen = conventions_checked(self.conventions)
        options = self.conventions_chosen(options, chosen)
        values = event_settings(options)
        if self.event is not None:
            if self.event.club_id != self.club.pk:
                raise ValidationError(f"event {self.event.name!r} is not an event of {self.club.name}")
            if self.event.method != values["method"]:
                raise ValidationError(
                    f"the file is scored by {values['method']}, event {self.event.name!r} by {self.event.method}"
                )
            event = self.event
            if self.sections is not None and event.across_field != (self.sections == "together"):
                raise ValidationError(
                    f"event {event.name!r} scores its sections {'together' if event.across_field else 'apart'}: "
                    f"import into another event to score them {self.sections}"
                )
            for name, value in chosen.items():
                if getattr(event, name) != value:
                    raise ValidationError(
                        f"event {event.name!r} has {CONVENTION_LABELS[name]} "
                        f"{convention_word(name, getattr(event, name))}: import into another event for "
                        f"{convention_word(name, value)}"
                    )
            if not ranks_as_the_file(
                self.parsed, pairs, letters, rankings=event.rankings, across_field=event.across_field
            ):
                self.notes.append(f"event {event.name!r} ranks the pairs otherwise than the file does")
            return event
        if options.across_field and len(letters) > 1 and self.sections is None:
            scored = "matchpointed" if values["method"] == ScoringMethod.MATCHPOINTS else "scored"
            self.notes.append(f"the sections are {scored} across the field (one field), as the file's figures are")
        rankings = rankings_for(self.parsed, pairs, letters, options.across_field)
        if rankings is None:
            rankings = Rankings.AUTO
            self.notes.append("no rankings setting groups the pairs as the file does: they rank by the movement")
        values["rankings"] = rankings
        values["deal_era"] = carried_era(self.parsed.extra)
        base = (self.parsed.title.strip() or DEFAULT_EVENT_NAME)[:100]
        name, number = base, 1
        while True:
            existing = self.club.events.filter(name=name).first()
            if existing is None:
                event = Event(club=self.club, name=name, **values)
                event.full_clean()
                event.save()
                return event
            if all(getattr(existing, option) == value for option, value in values.items()):
                return existing
            number += 1
            name = f"{base} ({number})"

    def sections_chosen(self, options: ScoringOptions, letters: dict[str, str]) -> ScoringOptions:
        """The file's options with the director's choice of sections together or apart."""
        if self.sections not in SECTIONS_CHOICES:
            raise ValidationError(f"sections are scored {' or '.join(SECTIONS_CHOICES)}, not {self.sections!r}")
        together = self.sections == "together"
        if len(letters) < 2:
            self.notes.append(f"the file has one section: scoring sections {self.sections} changes nothing")
        else:
            default = "together" if options.across_field else "apart"
            otherwise = f" (as the file shows: {default})" if together != options.across_field else ""
            self.notes.append(f"the sections are scored {self.sections}, as you chose{otherwise}")
        return replace(options, across_field=together)

    def conventions_chosen(self, options: ScoringOptions, chosen: dict[str, object]) -> ScoringOptions:
        """The file's options with the conventions the director stated instead."""
        for name, value in chosen.items():
            shown_value = getattr(options, name)
            otherwise = f" (as the file shows: {convention_word(name, shown_value)})" if shown_value != value else ""
            self.notes.append(f"{CONVENTION_LABELS[name]}: {convention_word(name, value)}, as you chose{otherwise}")
        return replace(options, **chosen) if chosen else options

    def session_date(self) -> datetime.date:
        parts = date_parts(self.parsed.date)
        try:
            return datetime.date(*parts) if parts else self._undated()
        except ValueError:
            return self._undated()

    def _undated(self) -> datetime.date:
        self.notes.append(f"the file's date {self.parsed.date!r} is not a date: the session is dated today")
        return datetime.date.today()

    def phantom_byes(self) -> set[str]:
        """Phantom pairs that only sat out (every line not played): left out, with their lines."""
        lines_of: dict[str, list[ParsedLine]] = {}
        for board in self.parsed.boards:
            for line in board.lines:
                lines_of.setdefault(line.ns_pair, []).append(line)
                lines_of.setdefault(line.ew_pair, []).append(line)
        byes = {
            pair.key for pair in self.parsed.pairs
            if pair.is_phantom and all(line.score == "NP" for line in lines_of.get(pair.key, []))
        }
        if byes:
            count = sum(1 for key in byes for _ in lines_of.get(key, []))
            self.notes.append(f"the phantom's {count} byes (lines not played against it) are not stored")
        return byes

    # -- procedural penalties: the file's adjustments -----------------------------------

    def penalties_from_file(
        self, event: Event, kept: Sequence[ParsedPair], pairs: dict[str, Pair], lines: Sequence[_FileLine],
    ) -> None:
        """A pair's published adjustment (USEBIO ADJUSTMENT, PBN Penalty: RULES 13) as the
        procedural penalty that gives it: IMPs as they are; percentage points in a
        matchpointed session as percent of a top over the pair's boards (1 point over 24
        boards is 24% of a top), several penalties when that is more than a whole top."""
        penalised = [parsed for parsed in kept if parsed.adjustment is not None]
        if not penalised:
            return
        boards_of = Counter(key for line in lines for key in (line.parsed.ns_pair, line.parsed.ew_pair))
        for parsed in penalised:
            loss = -parsed.adjustment
            reason = f"{self.filename}: the file's adjustment of {parsed.adjustment}"
            if event.method != ScoringMethod.MATCHPOINTS:
                penalty_give(pair=pairs[parsed.key], amount=loss, penalty_unit="IMP", reason=reason, by=self.user)
                continue
            tops = loss * boards_of[parsed.key]
            while tops > 0:
                part = min(tops, Decimal(100))
                penalty_give(pair=pairs[parsed.key], amount=part, penalty_unit="TOP", reason=reason, by=self.user)
                tops -= part
        self.notes.append(f"{len(penalised)} pairs' adjustments are given as procedural penalties (RULES 13)")

    # -- the plan: what the file says the session is ---------------------------------

    def plan(
        self, event: Event, kept: Sequence[ParsedPair], letters: dict[str, str], byes: set[str],
    ) -> tuple[SessionPlan, list[_FileLine]]:
        """The session as the file has it, for session_store, and its lines to compare."""
        boards, self.boards_played = self.boards_planned(letters)
        lines = self.lines_read(event, letters, self.boards_played, byes, boards)
        seatings, shape = self.table_plan(letters, kept, lines)
        plan = SessionPlan(
            session=self.session_planned(event, kept, shape),
            sections=list(letters.values()),
            boards=boards,
            pairs=self.pairs_planned(kept, letters),
            seatings=seatings,
            lines=[
                PlannedLine(board=line.board_key, section=letters[line.section], ns_pair=line.parsed.ns_pair,
                            ew_pair=line.parsed.ew_pair, values=line.values, round=line.round, table=line.table)
                for line in lines
            ],
        )
        return plan, lines

    def session_planned(self, event: Event, pairs: Sequence[ParsedPair], shape: dict[str, int]) -> Session:
        mitchell = any(pair.direction for pair in pairs)
        numbers = [board.number for board in self.parsed.boards]
        movement = "Mitchell" if mitchell else "Howell"
        return Session(
            event=event,
            name=(self.parsed.title.strip() or self.filename)[:120],
            date=self.session_date(),
            movement_kind=MovementKind.MITCHELL if mitchell else MovementKind.HOWELL,
            movement_description=f"{movement} imported from {self.filename} ({self.parsed.program or 'unknown program'})"[:200],
            board_count=max(numbers),
            created_by=self.user,
            masterpoints_from_file=file_masterpoints(self.parsed),
            **shape,  # the table plan's rounds, tables and boards a round
        )

    def pairs_planned(self, parsed_pairs: Sequence[ParsedPair], letters: dict[str, str]) -> list[PlannedPair]:
        seated = [(parsed.players + [None, None])[:2] for parsed in parsed_pairs]
        found = iter(players_find_or_add(club=self.club, typed=[
            _typed(player) for players in seated for player in players
        ]))
        planned = []
        for parsed in parsed_pairs:
            first, second = next(found), next(found)
            if first is not None and first is second:
                second = None
            planned.append(PlannedPair(
                key=parsed.key, section=letters[parsed.section], number=pair_number(parsed),
                direction=parsed.direction, player_1=first, player_2=second, handicap=parsed.handicap,
            ))
        return planned

    def boards_planned(self, letters: dict[str, str]) -> tuple[list[PlannedBoard], dict[tuple[str, int], BoardKey]]:
        """The boards, and each (section name, number)'s: one shared board per number when
        the sections played the same deal (or the file gives none), else one per section,
        each with its own deal (different deals are different boards)."""
        by_number: dict[int, list[ParsedBoard]] = {}
        for parsed in self.parsed.boards:
            by_number.setdefault(parsed.number, []).append(parsed)
        boards: list[PlannedBoard] = []
        keys: dict[tuple[str, int], BoardKey] = {}
        for number, played in by_number.items():
            deals = {parsed.deal for parsed in played if parsed.deal}
            if len(deals) > 1:
                for parsed in played:
                    boards.append(_board(parsed, parsed.deal, letters[parsed.section]))
                    keys[(parsed.section, number)] = boards[-1].key
            else:
                boards.append(_board(played[0], next(iter(deals), ""), None))
                keys.update({(parsed.section, number): boards[-1].key for parsed in played})
        return boards, keys

    def lines_read(
        self, event: Event, letters: dict[str, str], board_keys: dict[tuple[str, int], BoardKey],
        byes: set[str], boards: Sequence[PlannedBoard],
    ) -> list[_FileLine]:
        """The file's lines with what each stores (72,000 in a national event: lines with
        the same result on the same vulnerability share one worked-out set of fields)."""
        several = len(letters) > 1
        era = carried_era(self.parsed.extra)
        unit = PointsUnit.MATCHPOINTS if event.method == ScoringMethod.MATCHPOINTS else PointsUnit.IMPS
        vulnerability = {board.key: board.vulnerability or engine_boards.vulnerability(board.number).value
                         for board in boards}
        lines: list[_FileLine] = []
        seen: set[tuple[int, str]] = set()
        known: dict[tuple, dict[str, object]] = {}  # RESULT_PARTS and vulnerability -> result_values
        dropped_leads = 0
        for parsed_board in self.parsed.boards:
            number, section_name = parsed_board.number, parsed_board.section
            key = board_keys[(section_name, number)]
            for line in parsed_board.lines:
                if line.ns_pair in byes or line.ew_pair in byes:
                    continue
                ns, ew = self.parsed_pairs[line.ns_pair], self.parsed_pairs[line.ew_pair]
                where = f"board {number}" + (f" section {letters[section_name]}" if several else "")
                where += f" {pair_number(ns)}{ns.direction} v {pair_number(ew)}{ew.direction}"
                self.check_line(line, section_name, where, seen, number)
                result = (_result_parts(line), vulnerability[key], line.assigned and id(line))
                values = known.get(result)
                if values is None:
                    values = known[result] = result_values(line, number, vulnerability[key], era, unit)
                dropped_leads += bool(line.lead) and not values["lead"] and values["kind"] == ResultKind.PLAYED
                lines.append(_FileLine(where, line, section_name, number, key, values))
        if dropped_leads:
            self.notes.append(f"{dropped_leads} leads were not cards and are left out")
        return lines

    def check_line(self, line: ParsedLine, section: str, where: str, seen: set, number: int) -> None:
        pairs = self.parsed_pairs
        for key in (line.ns_pair, line.ew_pair):
            if pairs[key].section != section:
                raise ValidationError(
                    f"{where}: pair {pairs[key].number} belongs to section {pairs[key].section}; "
                    f"a line is stored within its board's section"
                )
            if (number, key) in seen:
                raise ValidationError(f"{where}: pair {key} already has a result on board {number}")
            seen.add((number, key))

    def table_plan(
        self, letters: dict[str, str], pairs: Sequence[ParsedPair], lines: Sequence[_FileLine],
    ) -> tuple[list[PlannedSeating], dict[str, int]]:
        """Rebuild the table plan from the lines: its seatings, each line's round and table,
        and the session's rounds, tables and boards a round."""
        lines_of: dict[str, list[_FileLine]] = {name: [] for name in letters}
        for line in lines:
            lines_of[line.section].append(line)
        ns_pairs_of: dict[str, list[tuple[int, str]]] = {name: [] for name in letters}
        for pair in pairs:
            if pair.direction == "NS":
                ns_pairs_of[pair.section].append((pair_number(pair), pair.key))
        seatings: list[PlannedSeating] = []
        plans: list[TablePlan] = []
        for name, letter in letters.items():
            played = [
                PlayedLine(line.board, line.parsed.ns_pair, line.parsed.ew_pair, line.parsed.round, line.parsed.table)
                for line in lines_of[name]
            ]
            # A Mitchell's NS pairs stay at their tables: numbered in the order of the pairs.
            stationary = {key: table for table, (_, key) in enumerate(sorted(ns_pairs_of[name]), start=1)}
            plan = plan_section(played, stationary)
            plans.append(plan)
            where = plan.by_line()
            for line, played_line in zip(lines_of[name], played):
                seating = where[(played_line.ns_pair, played_line.ew_pair, played_line.board)]
                line.round, line.table = seating.round, seating.table
            seatings += [
                PlannedSeating(section=letter, round=s.round, table=s.table, ns_pair=s.ns_pair, ew_pair=s.ew_pair,
                               boards=tuple(s.boards))
                for s in plan.seatings
            ]
        if any(not plan.from_file for plan in plans):
            self.notes.append("the file gives no rounds and tables: the table plan is rebuilt from the lines")
        shape = {
            "rounds": max(plan.rounds for plan in plans), "tables": max(plan.tables for plan in plans),
            "boards_per_round": max(plan.boards_per_round for plan in plans),
        }
        return seatings, shape


def _board(parsed: ParsedBoard, deal: str, section: str | None) -> PlannedBoard:
    return PlannedBoard(number=parsed.number, section=section, dealer=parsed.dealer, vulnerability=parsed.vulnerability,
                        deal=deal or "")


def _typed(player: ParsedPlayer | None) -> TypedPlayer:
    """A file's player as typed for the club's list: cleaned (sessions.core.text), cut to the fields' lengths."""
    if player is None:
        return ("", "")
    return clean_name(player.name)[:120], clean_name(player.national_id)[:20]
