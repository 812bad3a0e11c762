"""Recording, correcting and deleting traveller lines, with the audit trail.

The director's text is read by the engine's notation parser (sessions.scoring.notation)
and checked against the movement: a line is refused, with the reason and nothing
saved, for an unknown pair, pairs that do not meet on that board (in that round), a
board that already has their result, or an impossible result. A line that is possible
but odd (far from the rest of the board, or a contract the other side declared
everywhere else) is saved with warnings for the director to look at.

Corrections and deletions name the version the director saw; a line changed since is
never overwritten (ResultConflict carries the current line).

A fouled board (RULES 5) is marked by giving every line of the board a group: the
lines that played the same cards share a group and are scored only against each other.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from sessions.models import (
    Board, ChangeAction, MatchLine, Pair, PointsUnit, Result, ResultChange, ResultKind, ScoringMethod, Seating, Section,
    Session,
)
from sessions.handrecords.deals import lead_not_held
from sessions.scoring.errors import ScoringError
from sessions.scoring.matchpoints import scale_named
from sessions.scoring.notation import Assigned, PassedOut, Played, format_result, ns_score, parse_lead, parse_result
from sessions.scoring.options import LineDisplay
from sessions.scoring.scores import Artificial, AssignedPoints, NotPlayed, Weighted
from sessions.core.selectors.engine_input import assigned_points

from sessions.core.query_speed import Prepared, PreparedUpdate
from sessions.core.services.errors import ResultConflict
from sessions.core.services.unit_of_work import unit, write

#: A score this far from the median of the board (and outside all the others) is queried.
FAR_FROM_FIELD = 800
#: Results needed on a board before a score is called far from the others.
FIELD_FOR_COMPARISON = 3



@dataclass(frozen=True)
class RecordOutcome:
    result: Result
    warnings: tuple[str, ...] = ()


# --- reading what the director typed -------------------------------------------------


def _clean_lead(lead: str) -> str:
    """The lead in the house form ("♥K" -> "HK"); a field error unless it is a card."""
    try:
        return parse_lead(lead)
    except ScoringError as error:
        raise ValidationError({"lead": str(error)}) from None


def _fill(line: Result, text: str, lead: str) -> None:
    """Set the line's result fields from the director's text (ValidationError if impossible)."""
    fill_line(line, text, lead, line.board.number)
    # With a hand record, the lead must be a card of the hand on declarer's left.
    wrong_lead = lead_not_held(line.board.deal, line.declarer, line.lead)
    if wrong_lead:
        raise ValidationError({"lead": f"board {line.board.number}: {wrong_lead}"})
    if line.kind == ResultKind.ASSIGNED_POINTS:
        _refuse_other_unit(line)
        _refuse_points_beyond_top(line)


def _refuse_other_unit(line: Result) -> None:
    """Points assigned in the event's own unit: matchpoints in a matchpoint event, else IMPs."""
    matchpoints = line.board.session.event.method == ScoringMethod.MATCHPOINTS
    wanted, example = ("MP", "MP 23/11") if matchpoints else ("IMP", "IMP 3/-3")
    if line.points_unit != wanted:
        scoring = "matchpoints" if matchpoints else "IMPs"
        raise ValidationError({"text": f"this event is scored in {scoring}: assign the points as {example}"})


def _refuse_points_beyond_top(line: Result) -> None:
    """Assigned matchpoints lie within the board's top: the top the movement gives it (from
    its tables in the section, or in every section when scored across the field), not the
    top of the results entered so far, which grows during the session."""
    if line.points_unit != PointsUnit.MATCHPOINTS:
        return
    event = line.board.session.event
    seatings = Seating.objects.filter(section__session_id=line.board.session_id) if event.across_field \
        else Seating.objects.filter(section_id=line.section_id)
    number = line.board.number
    tables = Counter(board for boards in seatings.values_list("boards", flat=True) for board in boards)
    # The line's top as it is shown: the field's full top, or (Compscore3's convention) the board's own.
    results = tables[number] if event.line_display == LineDisplay.AS_PLAYED else max(tables.values(), default=0)
    top = scale_named(event.mp_scale).top(results)
    try:
        assigned_points(line).check_top(top, f"board {number}: ")
    except ScoringError as error:
        raise ValidationError({"text": str(error)}) from None


def fill_line(line: Result | MatchLine, text: str, lead: str, number: int) -> None:
    """Set a line's result fields (a traveller line or a team match's room) from the text."""
    try:
        parsed = parse_result(text, number)
        score = ns_score(parsed, number)
    except ScoringError as error:
        raise ValidationError({"text": str(error)}) from None
    cleaned_lead = _clean_lead(lead)
    if cleaned_lead and not isinstance(parsed, Played):
        raise ValidationError({"lead": "a lead goes with a played contract only"})
    line.level = line.tricks = line.ns_score = None
    line.strain = line.doubling = line.declarer = ""
    line.artificial_ns_percent = line.artificial_ew_percent = line.weighted_parts = None
    line.assigned_ns_points = line.assigned_ew_points = None
    line.points_unit = ""
    line.entered_text, line.text, line.lead = text.strip()[:60], format_result(parsed), cleaned_lead
    if isinstance(parsed, Played):
        line.kind = ResultKind.PLAYED
        line.level, line.strain = parsed.contract.level, parsed.contract.strain.value
        line.doubling, line.declarer = parsed.contract.doubling.value, parsed.declarer.value
        line.tricks, line.ns_score = parsed.tricks, score
    elif isinstance(parsed, (PassedOut, Assigned)):
        line.kind = ResultKind.PASSED if isinstance(parsed, PassedOut) else ResultKind.ASSIGNED
        line.ns_score = score
    elif isinstance(parsed, Artificial):
        line.kind = ResultKind.ARTIFICIAL
        line.artificial_ns_percent, line.artificial_ew_percent = parsed.ns_percent, parsed.ew_percent
    elif isinstance(parsed, Weighted):
        line.kind = ResultKind.WEIGHTED
        line.weighted_parts = [[str(Fraction(weight)), value] for weight, value in parsed.parts]
    elif isinstance(parsed, AssignedPoints):
        _fill_points(line, parsed)
    elif isinstance(parsed, NotPlayed):
        line.kind = ResultKind.NOT_PLAYED


def _fill_points(line: Result | MatchLine, points: AssignedPoints) -> None:
    """The director's points, with the adjusted score written beside them (if any)."""
    if isinstance(line, MatchLine):
        raise ValidationError({"text": "a teams match compares its two rooms: points cannot be assigned on a room"})
    line.kind = ResultKind.ASSIGNED_POINTS
    line.points_unit = points.unit
    line.assigned_ns_points, line.assigned_ew_points = (
        Decimal(value.numerator) / Decimal(value.denominator) for value in (points.ns_points, points.ew_points)
    )
    if isinstance(points.ruling, Artificial):
        line.artificial_ns_percent, line.artificial_ew_percent = points.ruling.ns_percent, points.ruling.ew_percent
    elif isinstance(points.ruling, int):
        line.ns_score = points.ruling


def log_text(line: Result | MatchLine) -> str:
    """How a line appears in the change log: "4S N = lead HK"."""
    return f"{line.text} lead {line.lead}" if line.lead else line.text


# --- checking the line against the movement ------------------------------------------


def _find_pair(pairs: Sequence[Pair], label: str, side: str, section: Section) -> Pair:
    """The pair a director named: "3EW" anywhere, or "3" on the NS side of a Mitchell is 3NS."""
    cleaned = label.strip().upper()
    for pair in pairs:
        if cleaned == pair.label or (cleaned == str(pair.number) and pair.direction in ("", side)):
            return pair
    field = "ns_pair" if side == "NS" else "ew_pair"
    raise ValidationError({field: f"section {section.letter} has no {side} pair {label.strip() or '(none)'}"})


def _expected_seating(
    seatings: Sequence[Seating], board: Board, ns: Pair, ew: Pair, round: int | None
) -> Seating:
    """The seating in which NS and EW play this board, or ValidationError saying why not."""
    number = board.number
    playing = [s for s in seatings if number in s.boards]
    for seating in playing:
        if (seating.ns_pair_id, seating.ew_pair_id) == (ns.pk, ew.pk):
            if round is not None and seating.round != round:
                raise ValidationError(
                    f"{ns} and {ew} play board {number} in round {seating.round}, not round {round}"
                )
            return seating
        if (seating.ns_pair_id, seating.ew_pair_id) == (ew.pk, ns.pk):
            raise ValidationError(
                f"{ns} and {ew} are the wrong way round: on board {number} {ew} sits NS "
                f"(round {seating.round}, table {seating.table})"
            )
    raise ValidationError(f"{ns} does not play board {number} against {ew}: {_who_plays(playing, ns, number)}")


def _who_plays(playing: Sequence[Seating], pair: Pair, number: int) -> str:
    for seating in playing:
        if pair.pk in (seating.ns_pair_id, seating.ew_pair_id):
            return (
                f"on board {number} {seating.ns_pair} plays {seating.ew_pair} "
                f"(round {seating.round}, table {seating.table})"
            )
    return f"{pair} does not play board {number} at all"


def refuse_other_deal(board: Board, section: Section, *, deals: Mapping[int, Board] | None = None) -> None:
    """A line lies on the deal its section played: a section with boards of its own never
    scores on the shared board of that number, nor on another section's. ``deals``: the
    section's deals by number, when the caller has them (no query)."""
    if deals is not None:
        other_deal = deals.get(board.number) != board
    elif board.section_id is None:
        other_deal = section.own_boards.filter(number=board.number).exists()
    else:
        other_deal = board.section_id != section.pk
    if other_deal:
        raise ValidationError(
            f"section {section.letter} plays a different deal as board {board.number}: nothing was saved; "
            "enter the line on that section's board"
        )


def board_lines(board: Board, section: Section, pairs: Sequence[Pair | int], *, lock: bool = False) -> list[Result]:
    """What the checks of a new line on ``board`` ask of its stored lines, in one query: the
    section's lines (the others, for the warnings) and any line of ``pairs`` (a duplicate);
    ``lock`` holds them to the end of the transaction."""
    ids = tuple(pair if isinstance(pair, int) else pair.pk for pair in pairs)
    values = {"board": board.pk, "section": section.pk, "ids": ids}
    return unit().read_locked(_BOARD_LINES_HELD, **values) if lock else _BOARD_LINES(**values)


def _board_lines(board: int, section: int, ids: tuple[int, ...]) -> QuerySet[Result]:
    lines = Result.objects.filter(Q(section=section) | Q(ns_pair__in=ids) | Q(ew_pair__in=ids), board=board)
    return lines.select_related("ns_pair", "ew_pair")


# A phone's Send and Confirm read them: their SQL prepared (sessions/core/query_speed.py).
_BOARD_LINES: Prepared[Result] = Prepared(_board_lines, name="a board's lines for a new line")
_BOARD_LINES_HELD: Prepared[Result] = Prepared(
    lambda **values: _board_lines(**values).select_for_update(of=("self",)), name="a board's lines, held")


def _refuse_duplicate(board: Board, ns: Pair, ew: Pair, lines: Sequence[Result] | None = None) -> None:
    """ValidationError if the board has a line of either pair: found in ``lines`` (board_lines)
    when the caller read them, else asked."""
    both = [ns.pk, ew.pk]
    if lines is not None:
        existing = next((line for line in lines if line.ns_pair_id in both or line.ew_pair_id in both), None)
    else:
        existing = (
            Result.objects.filter(board=board)
            .filter(Q(ns_pair__in=both) | Q(ew_pair__in=both))
            .select_related("ns_pair", "ew_pair")
            .first()
        )
    if existing is not None:
        raise ValidationError(
            f"board {board.number} already has a result for {existing.ns_pair} v {existing.ew_pair} "
            f"({existing.text}): correct that line instead"
        )


# --- warnings ------------------------------------------------------------------------


def _side(seat: str) -> str:
    return "NS" if seat in ("N", "S") else "EW"


def _far_from_field(line: Result, others: Sequence[Result]) -> str | None:
    if line.ns_score is None or line.kind == ResultKind.PASSED:
        return None
    scores = [other.ns_score for other in others if other.ns_score is not None]
    if len(scores) < FIELD_FOR_COMPARISON or min(scores) <= line.ns_score <= max(scores):
        return None
    if abs(line.ns_score - statistics.median(scores)) < FAR_FROM_FIELD:
        return None
    return (
        f"NS {line.ns_score:+d} is far from the other results on board {line.board.number} "
        f"(NS {min(scores):+d} to {max(scores):+d}): check the score and who declared"
    )


def declarer_swap(line: Result | MatchLine, others: Sequence[Result | MatchLine]) -> str | None:
    if line.kind != ResultKind.PLAYED:
        return None
    same_contract = [
        other for other in others
        if other.kind == ResultKind.PLAYED and (other.level, other.strain) == (line.level, line.strain)
    ]
    if not same_contract or any(_side(other.declarer) == _side(line.declarer) for other in same_contract):
        return None
    seats = ", ".join(sorted({other.declarer for other in same_contract}))
    return (
        f"{line.level}{line.strain} was declared by {seats} at the other tables but by "
        f"{line.declarer} here: check the declarer (NS and EW swapped?)"
    )


def _ungrouped_on_fouled_board(line: Result, others: Sequence[Result]) -> str | None:
    if line.group is not None or all(other.group is None for other in others):
        return None
    return (
        f"board {line.board.number} is marked fouled: give this line its group "
        f"(the cards it played) under the traveller"
    )


def _warnings(line: Result, lines: Sequence[Result]) -> tuple[str, ...]:
    """The line's warnings against the other lines of its board and section (from board_lines)."""
    others = [other for other in lines if other.section_id == line.section_id and other.pk != line.pk]
    found = (_far_from_field(line, others), declarer_swap(line, others), _ungrouped_on_fouled_board(line, others))
    return tuple(warning for warning in found if warning)


# --- the services ---------------------------------------------------------------------


def _log(
    line: Result, action: str, before: str, after: str, by: AbstractBaseUser | None, via_table: int | None = None
) -> None:
    change = ResultChange(
        session_id=line.board.session_id,
        board=line.board,
        result=None if action == ChangeAction.DELETED else line,
        ns_pair=line.ns_pair,
        ew_pair=line.ew_pair,
        action=action,
        before_text=before,
        after_text=after,
        changed_by=by,
        via_table=via_table,
    )
    # The line itself was just validated: check the log entry's own fields, not its links again.
    change.full_clean(exclude=["session", "board", "result", "ns_pair", "ew_pair", "changed_by"])
    # The session's row is locked (by the service, at its top) until the commit, so the
    # log's entries of line changes take their ids in the order they commit, and a reader
    # that has seen entry N has seen every earlier one (the kept figures are brought up to
    # date from "the entries after N": sessions.core.selectors.scoring).
    # (the unit of work awards a final session's master points again at its end)
    unit().touch(sessions=[line.board.session_id], lines_only=True, by=by)  # the change log names the board
    _mark_amended(line.board.session_id)
    change.save()


def _mark_amended(session_id: int) -> None:
    """A change to a published session's lines: its pages say "amended" with the time.
    (Its players and the club's webhooks hear of it after the commit: services.amendments.)"""
    _AMENDED(session=session_id, now=timezone.now())


# A phone's Confirm marks it: the UPDATE prepared (sessions/core/query_speed.py).
_AMENDED = PreparedUpdate(
    lambda session, now: (Session.objects.filter(pk=session, published=True), {"amended_at": now}),
    name="a published session marked amended",
)


def result_check(
    *,
    board: Board,
    section: Section,
    ns_pair: str,
    ew_pair: str,
    text: str,
    lead: str = "",
    round: int | None = None,
) -> RecordOutcome:
    """The line ``result_record`` would store and its warnings, storing nothing.

    ValidationError for everything the director's entry refuses (the same messages), so
    a table's phone can ask for a second look at the warnings before sending.
    """
    if section.session_id != board.session_id:
        raise ValidationError(f"section {section.letter} is not in the session of board {board.number}")
    refuse_other_deal(board, section)
    pairs = list(section.pairs.all())
    ns = _find_pair(pairs, ns_pair, "NS", section)
    ew = _find_pair(pairs, ew_pair, "EW", section)
    if ns.pk == ew.pk:
        raise ValidationError({"ew_pair": f"{ns} cannot play against itself"})
    # Only the two pairs' own seatings: enough to find where they meet or to say why they
    # do not, and a constant few rows however large the section.
    theirs = section.seatings.filter(Q(ns_pair__in=[ns, ew]) | Q(ew_pair__in=[ns, ew])).select_related(
        "ns_pair", "ew_pair"
    )
    seating = _expected_seating(list(theirs), board, ns, ew, round)
    return line_check(board=board, section=section, seating=seating, text=text, lead=lead,
                      lines=board_lines(board, section, [ns, ew]))


def line_check(
    *, board: Board, section: Section, seating: Seating, text: str, lead: str, lines: Sequence[Result]
) -> RecordOutcome:
    """The line of ``seating``'s pairs on ``board`` and its warnings, storing nothing: the end of
    result_check, for a caller that has found the seating where the two pairs play the board
    itself (a table's phone) and read the board's lines (``board_lines``)."""
    ns, ew = seating.ns_pair, seating.ew_pair
    line = Result(board=board, section=section, ns_pair=ns, ew_pair=ew, round=seating.round, table=seating.table)
    _fill(line, text, lead)
    _refuse_duplicate(board, ns, ew, lines)
    # The board, the section and the pairs were just read, the pairs checked to differ, and
    # _refuse_duplicate asked what the two unique constraints ask (a line stored since is
    # the save's IntegrityError): full_clean would ask the database all six again.
    line.full_clean(exclude=JUST_READ)
    return RecordOutcome(line, _warnings(line, lines))


#: A line's links result_check has read and checked itself (see there).
JUST_READ = ["board", "section", "ns_pair", "ew_pair"]


@write
def result_record(
    *,
    board: Board,
    section: Section,
    ns_pair: str,
    ew_pair: str,
    text: str,
    lead: str = "",
    round: int | None = None,
    by: AbstractBaseUser | None = None,
    via_table: int | None = None,
) -> RecordOutcome:
    """Record a new traveller line from the director's text (or a table's confirmed line);
    see the module docstring."""
    unit().lock(sessions=[board.session_id])
    checked = result_check(
        board=board, section=section, ns_pair=ns_pair, ew_pair=ew_pair, text=text, lead=lead, round=round,
    )
    _hold_seating(checked.result)
    return line_store(checked, by=by, via_table=via_table)


def line_store(
    checked: RecordOutcome, *, by: AbstractBaseUser | None = None, via_table: int | None = None
) -> RecordOutcome:
    """Save a checked line and log it: the end of result_record, in its caller's unit (a
    table's confirmation, which holds the seating itself); NoUnitOfWork outside one."""
    unit()
    line = checked.result
    line.updated_by = by
    try:
        with transaction.atomic():
            line.save()
    except IntegrityError:  # entered by someone else between our check and the save
        _refuse_duplicate(line.board, line.ns_pair, line.ew_pair)
        raise
    _log(line, ChangeAction.RECORDED, "", log_text(line), by, via_table)
    return checked


def _hold_seating(line: Result) -> None:
    """Lock the seating the line was checked against, and check it again.

    A seating repair (services.repair) locks the round's seatings before it moves their
    lines: a line entered meanwhile either waits and is refused here with the reason, or
    is stored first and then moved with its table. Never stored against a seating that
    no longer holds, never lost.
    """
    seating = unit().lock_rows(
        Seating.objects.filter(section_id=line.section_id, round=line.round, table=line.table)
    ).first()
    if (
        seating is None
        or (seating.ns_pair_id, seating.ew_pair_id) != (line.ns_pair_id, line.ew_pair_id)
        or line.board.number not in seating.boards
    ):
        raise ValidationError(
            f"the seating of round {line.round}, table {line.table} was changed while this line was being "
            "entered: nothing was saved; check the pairs and enter it again"
        )


def _current(result: Result, *, lock: bool = False) -> Result | None:
    """The line as stored now; ``lock`` holds it until the transaction ends.

    A correction and a deletion of the same line lock it first, so one waits for the
    other and then sees the new version (or no line): without the lock a deletion could
    remove a line corrected a moment before, and the correction's log entry would point
    at a line that no longer exists (an IntegrityError at commit on PostgreSQL).
    """
    lines = Result.objects.select_related("board", "section", "ns_pair", "ew_pair", "updated_by")
    return (unit().lock_rows(lines) if lock else lines).filter(pk=result.pk).first()


_RESULT_FIELDS = (
    "kind", "level", "strain", "doubling", "declarer", "tricks", "lead", "ns_score",
    "artificial_ns_percent", "artificial_ew_percent", "weighted_parts", "entered_text", "text",
    "assigned_ns_points", "assigned_ew_points", "points_unit",
)


@write
def result_correct(
    *, result: Result, text: str, lead: str = "", version: int, by: AbstractBaseUser | None = None
) -> RecordOutcome:
    """Replace a line's result, if it is still at ``version``; else ResultConflict."""
    unit().lock(sessions=[result.board.session_id])
    current = _current(result, lock=True)
    if current is None or current.version != version:
        raise ResultConflict(current, version)
    before = log_text(current)
    _fill(current, text, lead)
    if log_text(current) == before:
        return RecordOutcome(current)  # nothing changed: no new version, no log entry
    current.full_clean(validate_unique=False)
    # The version in the WHERE clause makes the check and the write one atomic step.
    changed = Result.objects.filter(pk=current.pk, version=version).update(
        **{name: getattr(current, name) for name in _RESULT_FIELDS},
        version=F("version") + 1, updated_by=by, updated_at=timezone.now(),
    )
    if not changed:
        raise ResultConflict(_current(result), version)
    current.refresh_from_db()
    _log(current, ChangeAction.CORRECTED, before, log_text(current), by)
    others = Result.objects.filter(board=current.board, section=current.section).exclude(pk=current.pk)
    return RecordOutcome(current, _warnings(current, list(others)))


@write
def result_delete(*, result: Result, version: int, by: AbstractBaseUser | None = None) -> None:
    """Delete a line, if it is still at ``version``; else ResultConflict."""
    unit().lock(sessions=[result.board.session_id])
    current = _current(result, lock=True)
    if current is None or current.version != version:
        raise ResultConflict(current, version)
    deleted, _ = Result.objects.filter(pk=current.pk, version=version).delete()
    if not deleted:
        raise ResultConflict(_current(result), version)
    _log(current, ChangeAction.DELETED, log_text(current), "", by)


def _group_text(group: int | None) -> str:
    return "not fouled" if group is None else f"group {group}"


def _check_groups(board: Board, lines: Sequence[Result], groups: Mapping[int, int | None]) -> None:
    missing = [line for line in lines if line.pk not in groups]
    if missing or set(groups) - {line.pk for line in lines}:
        raise ValidationError(
            f"board {board.number}'s lines changed while you were choosing groups: reload the page"
        )
    chosen = set(groups.values())
    if chosen == {None}:
        return
    if None in chosen:
        raise ValidationError("a fouled board needs a group on every line")
    if any(group < 1 for group in chosen):
        raise ValidationError("groups are numbered from 1")
    if len(chosen) < 2:
        raise ValidationError(
            "every line is in the same group, so the board was not fouled: put the lines that "
            "played different cards in different groups, or choose 'Not fouled'"
        )


@write
def board_set_groups(
    *, board: Board, groups: Mapping[int, int | None], by: AbstractBaseUser | None = None
) -> int:
    """Mark a board fouled: ``groups`` gives each line's group (result pk -> group), or None
    for every line to mark it not fouled. Every line of the board must be named. Each
    changed line is logged; returns how many changed.
    """
    unit().lock(sessions=[board.session_id])
    lines = list(unit().lock_rows(Result.objects.filter(board=board).select_related("board", "ns_pair", "ew_pair")))
    _check_groups(board, lines, groups)
    changed = 0
    for line in lines:
        before, after = line.group, groups[line.pk]
        if before == after:
            continue
        line.group = after
        line.full_clean(validate_unique=False)
        line.save(update_fields=["group", "updated_at"])
        _log(line, ChangeAction.REGROUPED, _group_text(before), _group_text(after), by)
        changed += 1
    return changed
