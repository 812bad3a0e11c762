"""Repairing a session as it really went: settings, seating, late and missing pairs.

Nothing scored is stored (pages score on every read through session_score), so a
repair only has to put the lines and the seatings right: the standings follow.

- Seating mistakes (EBUScore's "pairs sat the wrong way round", "pairs swapped tables",
  "wrong boards played") are fixed round by round: ``round_set_seatings`` gives each
  table of a round its pairs and boards, and the lines already entered at a table go
  with it to its new pairs. The score of a line stays with the seat it was made in: a
  pair that sat NS by mistake takes the NS score.
- One line under the wrong pair numbers is reassigned (``result_reassign_pairs``), or
  turned round (``result_turn_round``) when only that board was played the wrong way.
- A late pair takes the phantom's place from its round on (``pair_add_late``); a pair
  that leaves, or never came, is withdrawn (``pair_withdraw``): its boards from then on
  are stored as not played (removed for both pairs, RULES 2), and a pair that played
  nothing is taken out of the movement, its opponents sitting out.

Every repair goes into the session's change log, as result corrections do. Seating
repairs lock the seatings they change before the lines, in the order result_record
locks them, so a line entered meanwhile is either moved with its table or refused
with the reason: never lost nor doubled.
"""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from sessions.models import (
    Board,
    ChangeAction,
    Pair,
    Result,
    ResultChange,
    ResultKind,
    Seating,
    Section,
    Session,
    section_boards,
    sections_with_own_boards,
)
from sessions.movements import Movement, MovementError, board_range, howell, mitchell
from sessions.core.text import clean_name, counted

from sessions.pairs.selectors.repair import pairs_a_movement_drops

from sessions.clubs.services.players import TypedPlayer, pair_name_players
from sessions.pairs.services.results import _expected_seating, _find_pair, log_text
from sessions.core.services.unit_of_work import unit, write
from sessions.pairs.services.session_plan import boards_planned, boards_store, pairs_store, seatings_store
from sessions.pairs.services.sessions import _split_label, pairs_planned, seatings_planned, session_log
from sessions.phones.services.tables import table_links_ensure

NOT_PLAYED_TEXT = "NP"


# --- the change log -----------------------------------------------------------------


def _log_line(line: Result, before: str, after: str, by: AbstractBaseUser | None) -> None:
    """A line whose pairs changed: the log names it with its new pairs."""
    change = ResultChange(
        session_id=line.board.session_id, board=line.board, result=line, ns_pair=line.ns_pair,
        ew_pair=line.ew_pair, action=ChangeAction.PAIRS, before_text=before[:200], after_text=after[:200],
        changed_by=by,
    )
    change.full_clean(exclude=["session", "board", "result", "ns_pair", "ew_pair", "changed_by"])
    change.save()


def _mark_amended(session: Session) -> None:
    # The players and the club's webhooks hear of it after the commit (services.amendments).
    Session.objects.filter(pk=session.pk, published=True).update(amended_at=timezone.now())
    unit().touch(sessions=[session])


# --- name, date and movement -----------------------------------------------------------


@write
def session_update(
    *, session: Session, name: str, date: datetime.date, by: AbstractBaseUser | None = None
) -> Session:
    """Rename or re-date a session; the change is logged (nothing else depends on them)."""
    before = f"{session.name}, {session.date:%Y-%m-%d}"
    session.name, session.date = clean_name(name), date
    session.full_clean()
    after = f"{session.name}, {session.date:%Y-%m-%d}"
    if after == before:
        return session
    session.save(update_fields=["name", "date"])
    session_log(session=session, action=ChangeAction.SETTINGS, subject="name and date", before=before,
                after=after, by=by)
    return session


def _locked(session: Session) -> Session:
    """The session row locked (and to be bumped), as it is now: one movement change or
    deletion at a time, and none while a repair that reads the movement runs."""
    unit().touch(sessions=[session.pk])
    return Session.objects.get(pk=session.pk)


@write
def session_change_movement(
    *, session: Session, movement: Movement, drop_players: bool = False, by: AbstractBaseUser | None = None
) -> Session:
    """Replace the movement of a session that has no line yet.

    Once lines exist a new movement would leave them orphaned (pairs and boards that no
    longer meet): that is refused, and the director repairs the seating round by round
    instead. Pairs keep their players where their label survives; boards keep their
    hands where their number does. Pairs with players that the new movement does not
    have are refused unless ``drop_players`` (the director confirmed): their players
    leave the session, and the change log names them.
    """
    _locked(session)
    # The seatings first, as result_record locks them: a line being entered now is either
    # counted below or refused, never deleted with its pairs.
    list(unit().lock_rows(Seating.objects.filter(section__session=session)).values_list("pk"))
    lines = Result.objects.filter(board__session=session).count()
    if lines:
        raise ValidationError(
            f"{counted(lines, 'line')} {'is' if lines == 1 else 'are'} entered: a new movement would orphan them. Fix the seating round by "
            "round (Repair), or delete the lines first"
        )
    sections = list(session.sections.order_by("letter"))
    labels, numbers = set(movement.pairs), set(movement.boards())
    _refuse_losing_history(session, labels, numbers)
    dropped = [f"{pair.section.letter} {pair} ({pair.names})" for pair in pairs_a_movement_drops(session=session, labels=labels)]
    if dropped and not drop_players:
        raise ValidationError(
            f"the new movement has no pair {', '.join(dropped)}: their players would leave the session. "
            "Confirm to change anyway, or choose a movement with those pairs"
        )
    for section in sections:
        section.seatings.all().delete()
        kept = {pair.label: pair for pair in section.pairs.all()}
        Pair.objects.filter(pk__in=[pair.pk for label, pair in kept.items() if label not in labels]).delete()
        letter = {section.letter: section}
        new = pairs_store(pairs=pairs_planned(section.letter, {label: label for label in movement.pairs
                                                                 if label not in kept}), sections=letter)
        pairs = {**{label: pair for label, pair in kept.items() if label in labels}, **new}
        seatings_store(seatings=seatings_planned(movement, section.letter, {label: label for label in pairs}),
                       sections=letter, pairs=pairs)
    _reshape_boards(session, sections, numbers)
    before = session.movement_description
    session.movement_kind, session.movement_description = movement.kind, movement.description[:200]
    session.tables, session.rounds = movement.tables, movement.rounds
    session.boards_per_round, session.board_count = movement.boards_per_round, max(numbers)
    session.arrow_switch = bool(movement.arrow_switch_rounds)
    session.full_clean()
    session.save(update_fields=[
        "movement_kind", "movement_description", "tables", "rounds", "boards_per_round", "board_count", "arrow_switch",
    ])
    table_links_ensure(session=session)
    after = session.movement_description + (f"; players removed with pairs {', '.join(dropped)}" if dropped else "")
    session_log(session=session, action=ChangeAction.SETTINGS, subject="movement", before=before,
                after=after, by=by)
    return session


def _refuse_losing_history(session: Session, labels: set[str], numbers: set[int]) -> None:
    """Deleted lines leave their log entries on their board and pairs: keep those."""
    logged = ResultChange.objects.filter(session=session, board__isnull=False).select_related(
        "board", "ns_pair", "ew_pair"
    )
    for change in logged:
        if change.board.number not in numbers or {change.ns_pair.label, change.ew_pair.label} - labels:
            raise ValidationError(
                f"the change log keeps the history of board {change.board.number} "
                f"({change.ns_pair} v {change.ew_pair}), which the new movement does not have: "
                "choose a movement that keeps that board and those pairs"
            )


@write
def session_delete(*, session: Session) -> None:
    """Delete an unpublished session with everything in it; a published one is refused
    (players may have seen it: unpublish first, so deleting is a deliberate second step)."""
    current = _locked(session)
    if current.published:
        raise ValidationError("the session is published: unpublish it before deleting it")
    current.delete()
    unit().touch(clubs=[current.event.club_id])


# --- seating, round by round ----------------------------------------------------------


@dataclass(frozen=True)
class TableSeating:
    """What the director says happened at one table in one round."""

    table: int
    ns_pair: str  # a label: "3NS", "3" (a Howell)
    ew_pair: str
    boards: tuple[int, ...]


@dataclass(frozen=True)
class RoundRepair:
    """What ``round_set_seatings`` did: the tables changed and the lines moved."""

    tables: tuple[int, ...]
    lines_moved: int
    warnings: tuple[str, ...] = ()


def _round_seatings(section: Section, round: int) -> dict[int, Seating]:
    seatings = (
        unit().lock_rows(Seating.objects.filter(section=section, round=round))
        .select_related("ns_pair", "ew_pair")
        .order_by("table")
    )
    return {seating.table: seating for seating in seatings}


def _reshape_boards(session: Session, sections: Sequence[Section], numbers: set[int]) -> None:
    """The boards of the new movement: numbers it drops go, numbers it adds come, shared or
    in each section that plays its own deals, as before the change."""
    session.boards.exclude(number__in=numbers).delete()
    boards = list(session.boards.all())
    own = sections_with_own_boards(boards)
    if any(section.pk not in own for section in sections):
        shared = {board.number for board in boards if board.section_id is None}
        boards_store(session=session, boards=boards_planned(sorted(numbers - shared)), sections={})
    for section in sections:
        if section.pk in own:
            theirs = {board.number for board in boards if board.section_id == section.pk}
            boards_store(session=session, boards=boards_planned(sorted(numbers - theirs), section=section.letter),
                         sections={section.letter: section})


def _check_round(section: Section, round: int, wanted: Sequence[TableSeating], pairs: Sequence[Pair]) -> dict[int, tuple[Pair, Pair, list[int]]]:
    """The round as the director typed it, as pairs, or ValidationError saying what is wrong."""
    session = section.session
    if not 1 <= round <= session.rounds:
        raise ValidationError(f"the session has rounds 1 to {session.rounds}, not {round}")
    numbers = set(session.boards.values_list("number", flat=True))
    checked: dict[int, tuple[Pair, Pair, list[int]]] = {}
    for seat in wanted:
        where = f"table {seat.table}"
        if not 1 <= seat.table <= session.tables:
            raise ValidationError(f"the session has tables 1 to {session.tables}, not {seat.table}")
        try:
            ns = _find_pair(pairs, seat.ns_pair, "NS", section)
            ew = _find_pair(pairs, seat.ew_pair, "EW", section)
        except ValidationError as error:
            raise ValidationError(f"{where}: {' '.join(error.messages)}") from None
        if ns.pk == ew.pk:
            raise ValidationError(f"{where}: {ns} cannot play against itself")
        boards = sorted(set(seat.boards))
        if not boards:
            raise ValidationError(f"{where}: name the boards played (leave the pairs empty for no play)")
        unknown = [number for number in boards if number not in numbers]
        if unknown:
            raise ValidationError(f"{where}: the session has no board {', '.join(map(str, unknown))}")
        checked[seat.table] = (ns, ew, boards)
    seated = Counter(pair.pk for ns, ew, _ in checked.values() for pair in (ns, ew))
    twice = [pair for pair in pairs if seated[pair.pk] > 1]
    if twice:
        raise ValidationError(f"round {round}: {', '.join(map(str, twice))} cannot sit at two tables at once")
    return checked


def _moves(
    section: Section, round: int, current: Mapping[int, Seating], checked: Mapping[int, tuple[Pair, Pair, list[int]]]
) -> list[tuple[Result, Pair, Pair]]:
    """Each line entered at a changed table, with its new pairs; ValidationError for a line
    whose board the table no longer plays (it would be orphaned)."""
    lines = (
        unit().lock_rows(Result.objects.filter(section=section, round=round))
        .select_related("board", "ns_pair", "ew_pair")
        .order_by("table", "board__number")
    )
    moves = []
    for line in lines:
        if line.table not in current or line.table not in checked:
            if line.table in current:
                raise ValidationError(
                    f"table {line.table} has a line on board {line.board.number} ({line.ns_pair} v "
                    f"{line.ew_pair}): it cannot be left without pairs; delete the line first"
                )
            continue
        ns, ew, boards = checked[line.table]
        if line.board.number not in boards:
            raise ValidationError(
                f"table {line.table} has a line on board {line.board.number} ({line.ns_pair} v {line.ew_pair}, "
                f"{line.text}), which it would no longer play: include the board, or delete or move that line first"
            )
        if (line.ns_pair_id, line.ew_pair_id) != (ns.pk, ew.pk):
            moves.append((line, ns, ew))
    return moves


def _refuse_doubles(moves: Sequence[tuple[Result, Pair, Pair]]) -> None:
    """A moved line must not give a pair a second result on a board it already has one on."""
    moved = {line.pk for line, _, _ in moves}
    boards = {line.board_id for line, _, _ in moves}
    others = Result.objects.filter(board__in=boards).exclude(pk__in=moved).select_related("board")
    taken = {(other.board_id, pair) for other in others for pair in (other.ns_pair_id, other.ew_pair_id)}
    for line, ns, ew in moves:
        for pair in (ns, ew):
            if (line.board_id, pair.pk) in taken:
                raise ValidationError(
                    f"{pair} already has a result on board {line.board.number} in another round: "
                    "a pair plays a board once; fix that round first"
                )


def _boards_again(section: Section, round: int, checked: Mapping[int, tuple[Pair, Pair, list[int]]]) -> list[str]:
    """Warnings for a pair now given a board it also plays in another round: what really
    happened (pairs who swapped tables meet boards again later), so it is kept, but the
    later round needs the board taken out (or the line there cannot be entered)."""
    pair_ids = {pair.pk for ns, ew, _ in checked.values() for pair in (ns, ew)}
    elsewhere = Seating.objects.filter(section=section).exclude(round=round).filter(
        Q(ns_pair__in=pair_ids) | Q(ew_pair__in=pair_ids)
    ).select_related("ns_pair", "ew_pair").order_by("round", "table")
    warnings = []
    for seating in elsewhere:
        for table, (ns, ew, boards) in sorted(checked.items()):
            for pair in (ns, ew):
                again = sorted(set(boards) & set(seating.boards))
                if again and pair.pk in (seating.ns_pair_id, seating.ew_pair_id):
                    warnings.append(
                        f"{pair} now plays board {board_range(again)} at table {table} in round {round} and again "
                        f"in round {seating.round} (table {seating.table}): a pair plays a board once, so take "
                        f"it out of round {seating.round} (the board is then not played there) or give an "
                        "adjusted score"
                    )
    return warnings


def _seating_text(seating: Seating | None) -> str:
    if seating is None:
        return "no play"
    return f"{seating.ns_pair} v {seating.ew_pair}, boards {board_range(seating.boards)}"


@write
def round_set_seatings(
    *, section: Section, round: int, seatings: Sequence[TableSeating], by: AbstractBaseUser | None = None
) -> RoundRepair:
    """Set who sat where in one round, table by table, and move the lines with their tables.

    ``seatings`` names every table that played in the round (a table left out plays no
    board: a sit-out). The lines already entered at a table take its new pairs, the
    score staying with the seat: pairs who sat the wrong way round swap the line's
    sides, two EW pairs who swapped tables swap their lines. Refused, changing nothing:
    a pair at two tables, a board the session does not have, a line on a board its
    table no longer plays, a line that would give a pair a second result on a board.
    A pair now meeting a board it plays again in another round is a warning.
    """
    unit().lock(sessions=[section.session_id])
    current = _round_seatings(section, round)
    pairs = list(section.pairs.all())
    checked = _check_round(section, round, seatings, pairs)
    moves = _moves(section, round, current, checked)
    _refuse_doubles(moves)
    warnings = _boards_again(section, round, checked)
    changed = []
    for table in sorted(set(current) | set(checked)):
        before = _seating_text(current.get(table))  # the seating object is changed in place
        after = _seating_text(_apply_seating(section, round, table, current.get(table), checked.get(table)))
        if before != after:
            changed.append(table)
            session_log(session=section.session, action=ChangeAction.SEATING,
                        subject=f"section {section.letter}, round {round}, table {table}",
                        before=before, after=after, by=by)
    _move_lines(moves, by)
    if changed or moves:
        _mark_amended(section.session)
    return RoundRepair(tuple(changed), len(moves), tuple(warnings))


def _apply_seating(
    section: Section, round: int, table: int, seating: Seating | None, wanted: tuple[Pair, Pair, list[int]] | None
) -> Seating | None:
    if wanted is None:
        if seating is not None:
            seating.delete()
        return None
    ns, ew, boards = wanted
    if seating is None:
        seating = Seating(section=section, round=round, table=table)
    seating.ns_pair, seating.ew_pair, seating.boards = ns, ew, boards
    # Other tables of the round are saved in turn: a pair moving between two tables is
    # briefly at both, which only the whole round, checked above, rules out.
    seating.full_clean(validate_unique=False, validate_constraints=False)
    seating.save()
    return seating


def _move_lines(moves: Sequence[tuple[Result, Pair, Pair]], by: AbstractBaseUser | None) -> None:
    """Give each line its new pairs (a new version, logged).

    Two lines of one board that trade pairs (relay tables sharing a set) collide row by
    row on the one-result-per-pair constraint whatever the order: those are taken out
    and put back with their new pairs, keeping their ids.
    """
    if not moves:
        return
    befores = {line.pk: f"{line.ns_pair} v {line.ew_pair}: {log_text(line)}" for line, _, _ in moves}
    now = timezone.now()
    try:
        with transaction.atomic():
            for line, ns, ew in moves:
                Result.objects.filter(pk=line.pk).update(
                    ns_pair=ns, ew_pair=ew, version=F("version") + 1, updated_by=by, updated_at=now
                )
    except IntegrityError:
        _reinsert(moves, by, now)
    for line, ns, ew in moves:
        line.ns_pair, line.ew_pair = ns, ew
        _log_line(line, befores[line.pk], f"{ns} v {ew}: {log_text(line)}", by)


def _reinsert(moves: Sequence[tuple[Result, Pair, Pair]], by: AbstractBaseUser | None, now: datetime.datetime) -> None:
    ids = [line.pk for line, _, _ in moves]
    history = list(ResultChange.objects.filter(result__in=ids).values_list("pk", "result_id"))
    rows = {row.pk: row for row in Result.objects.filter(pk__in=ids)}
    Result.objects.filter(pk__in=ids).delete()
    for line, ns, ew in moves:
        row = rows[line.pk]
        row.ns_pair, row.ew_pair, row.version, row.updated_by = ns, ew, row.version + 1, by
    Result.objects.bulk_create(rows.values())
    Result.objects.filter(pk__in=ids).update(updated_at=now)
    for change_id, result_id in history:
        ResultChange.objects.filter(pk=change_id).update(result_id=result_id)


@write
def seating_turn_round(
    *, section: Section, round: int, table: int, by: AbstractBaseUser | None = None
) -> RoundRepair:
    """The pairs of a table sat the wrong way round for a round: swap them, and their lines."""
    unit().lock(sessions=[section.session_id])
    current = _round_seatings(section, round)
    seating = current.get(table)
    if seating is None:
        raise ValidationError(f"nobody plays at table {table} in round {round}")
    wanted = [
        TableSeating(s.table, *((s.ew_pair.label, s.ns_pair.label) if s.table == table
                                else (s.ns_pair.label, s.ew_pair.label)), tuple(s.boards))
        for s in current.values()
    ]
    return round_set_seatings(section=section, round=round, seatings=wanted, by=by)


# --- one line ---------------------------------------------------------------------------


def _line_at(result: Result, version: int) -> Result:
    from sessions.core.services.errors import ResultConflict
    from sessions.pairs.services.results import _current

    unit().lock(sessions=[result.board.session_id])
    current = _current(result, lock=True)
    if current is None or current.version != version:
        raise ResultConflict(current, version)
    return current


def _save_pairs(line: Result, ns: Pair, ew: Pair, round: int | None, table: int | None,
                by: AbstractBaseUser | None) -> Result:
    before = f"{line.ns_pair} v {line.ew_pair}: {log_text(line)}"
    try:
        with transaction.atomic():
            Result.objects.filter(pk=line.pk).update(
                ns_pair=ns, ew_pair=ew, round=round, table=table, version=F("version") + 1,
                updated_by=by, updated_at=timezone.now(),
            )
    except IntegrityError:
        raise ValidationError(
            f"board {line.board.number} already has a result for {ns} or {ew}: correct that line instead"
        ) from None
    line.refresh_from_db()
    _log_line(line, before, f"{ns} v {ew}: {log_text(line)}", by)
    _mark_amended(line.board.session)
    return line


@write
def result_reassign_pairs(
    *, result: Result, ns_pair: str, ew_pair: str, version: int, by: AbstractBaseUser | None = None
) -> Result:
    """A line entered under the wrong pair numbers gets the right ones (the movement must
    have them meet on that board; the line takes their round and table)."""
    line = _line_at(result, version)
    pairs = list(line.section.pairs.all())
    ns = _find_pair(pairs, ns_pair, "NS", line.section)
    ew = _find_pair(pairs, ew_pair, "EW", line.section)
    if ns.pk == ew.pk:
        raise ValidationError({"ew_pair": f"{ns} cannot play against itself"})
    if (ns.pk, ew.pk) == (line.ns_pair_id, line.ew_pair_id):
        return line
    theirs = line.section.seatings.filter(Q(ns_pair__in=[ns, ew]) | Q(ew_pair__in=[ns, ew])).select_related(
        "ns_pair", "ew_pair"
    )
    seating = _expected_seating(list(theirs), line.board, ns, ew, None)
    return _save_pairs(line, ns, ew, seating.round, seating.table, by)


@write
def result_turn_round(*, result: Result, version: int, by: AbstractBaseUser | None = None) -> Result:
    """One board played the wrong way round: the line's pairs swap sides, the score stays
    with the seat (the pair that sat NS takes the NS score)."""
    line = _line_at(result, version)
    return _save_pairs(line, line.ew_pair, line.ns_pair, line.round, line.table, by)


# --- late and missing pairs -----------------------------------------------------------------


def _seating_keys(seatings: Iterable) -> set[tuple[int, int, str, str, tuple[int, ...]]]:
    return {(s.round, s.table, s.ns_pair, s.ew_pair, tuple(s.boards)) for s in seatings}


def _full_movements(session: Session) -> list[Movement]:
    """The movements the session may have been built from, with every place filled."""
    tables, rounds, per_round = session.tables, session.rounds, session.boards_per_round
    candidates: list[Movement] = []
    options = (
        [dict(pairs=2 * tables)] if session.movement_kind == "howell"
        else [dict(even=even, arrow_switch_last_round=arrow) for even in (None, "skip", "relay")
              for arrow in (False, True)]
    )
    for option in options:
        try:
            if session.movement_kind == "howell":
                candidates.append(howell(option["pairs"], per_round, rounds=rounds))
            else:
                candidates.append(mitchell(tables, per_round, rounds=rounds, **option))
        except MovementError:
            continue
    return candidates


def _phantom_place(section: Section) -> tuple[str, list, bool]:
    """The label and seatings of the place no pair fills (the phantom), from the movement
    the section was built from, and whether the seating was changed by hand since (the
    movement's places then hold only where the round still leaves them free).
    ValidationError when no place is free.
    """
    stored = list(section.seatings.select_related("ns_pair", "ew_pair"))
    labels = {pair.label for pair in section.pairs.all()}
    keys = {(s.round, s.table, s.ns_pair.label, s.ew_pair.label, tuple(s.boards)) for s in stored}
    free_places: list[tuple[str, list]] = []
    for movement in _full_movements(section.session):
        free = [label for label in movement.pairs if label not in labels]
        if len(free) != 1:
            continue
        places = [s for s in movement.seatings if free[0] in s.pairs]
        if keys <= _seating_keys(movement.seatings):
            return free[0], places, False
        free_places.append((free[0], places))
    if free_places:
        return (*free_places[0], True)
    raise ValidationError(
        "the movement has no free place for another pair (no sit-out): every pair number is taken. "
        "Change the movement while no line is entered, or start the late pair in the next session"
    )


@dataclass(frozen=True)
class LatePair:
    pair: Pair
    rounds: tuple[int, ...]  # the rounds it was seated in
    unseated: tuple[int, ...] = ()  # rounds the hand-changed seating left no place in: the director seats them


@write
def pair_add_late(
    *, section: Section, from_round: int, players: Sequence[TypedPlayer] = (), by: AbstractBaseUser | None = None,
) -> LatePair:
    """A late pair takes the phantom's place from ``from_round`` on: the pairs meeting it
    no longer sit out. ``players``: its two players as typed (name, national number), found
    on the club's list or added to it as the pairs page does; none: named later. The rounds it missed have no seating (its opponents sat out then),
    so those boards are simply not played: no line is missing. If the seating was changed
    by hand, the movement's place is unknown: the pair is added unseated, for the director
    to seat round by round.

    After a seating changed by hand, each round still takes the pair where the movement's
    place is free: its table unused that round, its boards not in play at another table,
    and its opponents (or else the one pair sitting out) free. The rounds where none is
    are left for the director (``unseated``), never guessed."""
    session = _locked(section.session)
    if not 1 <= from_round <= session.rounds:
        raise ValidationError(f"the session has rounds 1 to {session.rounds}, not {from_round}")
    label, places, by_hand = _phantom_place(section)
    number, direction = _split_label(label)
    pair = Pair(section=section, number=number, direction=direction)
    pair.full_clean()
    pair.save()
    if players:
        pair_name_players(pair=pair, players=players)
    current = list(unit().lock_rows(Seating.objects.filter(section=section)))
    pairs = {p.label: p for p in section.pairs.all()}
    created, unseated = [], []
    for place in places:
        if place.round < from_round:
            continue
        in_round = [s for s in current if s.round == place.round]
        if not by_hand and any(s.table == place.table for s in in_round):
            raise ValidationError(f"table {place.table} is already in play in round {place.round}")
        seating = _late_seating(section, place, label, in_round, pairs)
        if seating is None:
            unseated.append(place.round)
            continue
        seating.full_clean()
        seating.save()
        created.append(seating.round)
    table_links_ensure(session=session)
    after = f"plays from round {from_round} ({len(created)} rounds)"
    if pair.names:
        after = f"{pair.names} {after}"
    if unseated:
        after += f"; rounds {', '.join(map(str, unseated))} to be seated by hand"
    session_log(session=session, action=ChangeAction.MOVEMENT, subject=f"pair {pair}",
                before="not playing", after=after, by=by)
    _mark_amended(session)
    return LatePair(pair, tuple(created), tuple(unseated))


def _late_seating(section: Section, place, label: str, in_round: Sequence[Seating], pairs: Mapping[str, Pair]):
    """The late pair's seating at the movement's ``place``, or None when the round as it is
    now leaves that place taken: its table used, its boards in play, no opponent free."""
    if any(s.table == place.table or set(s.boards) & set(place.boards) for s in in_round):
        return None
    seated = {pk for s in in_round for pk in (s.ns_pair_id, s.ew_pair_id)}
    other = place.ew_pair if place.ns_pair == label else place.ns_pair
    opponent = pairs.get(other)
    if opponent is None or opponent.pk in seated:
        sitting_out = [p for p in pairs.values() if p.pk not in seated and p.label != label]
        if len(sitting_out) != 1:
            return None
        opponent = sitting_out[0]
    late = pairs[label]
    ns, ew = (late, opponent) if place.ns_pair == label else (opponent, late)
    return Seating(section=section, round=place.round, table=place.table, ns_pair=ns, ew_pair=ew,
                   boards=list(place.boards))


@dataclass(frozen=True)
class Withdrawal:
    removed: bool  # the pair played nothing and was taken out of the movement
    not_played: int  # lines stored as not played


@write
def pair_withdraw(*, pair: Pair, from_round: int, by: AbstractBaseUser | None = None) -> Withdrawal:
    """A pair leaves before ``from_round`` (1: it never came).

    A pair with nothing entered from round 1 is taken out of the movement: its place
    becomes a phantom and its opponents sit out. Otherwise its seatings stay (the cards
    are printed) and every board it would have played from ``from_round`` on is stored
    as not played, removed for both pairs: neither a missing line nor an error. Refused
    if the pair has a played line from that round on.
    """
    section = pair.section
    session = _locked(section.session)
    if not 1 <= from_round <= session.rounds:
        raise ValidationError(f"the session has rounds 1 to {session.rounds}, not {from_round}")
    seatings = list(
        unit().lock_rows(Seating.objects.filter(section=section, round__gte=from_round))
        .filter(Q(ns_pair=pair) | Q(ew_pair=pair))
        .select_related("ns_pair", "ew_pair")
        .order_by("round")
    )
    lines = list(unit().lock_rows(Result.objects.filter(Q(ns_pair=pair) | Q(ew_pair=pair)).select_related("board")))
    played = [line for line in lines if (line.round or 0) >= from_round and line.kind != ResultKind.NOT_PLAYED]
    if played:
        line = played[0]
        raise ValidationError(
            f"{pair} has a result on board {line.board.number} in round {line.round}: it played then. "
            "Withdraw it from a later round, or delete that line first"
        )
    if from_round == 1 and not lines and not ResultChange.objects.filter(Q(ns_pair=pair) | Q(ew_pair=pair)).exists():
        pair.delete()
        session_log(session=session, action=ChangeAction.MOVEMENT, subject=f"pair {pair}",
                    before="in the movement", after="withdrawn: its opponents sit out", by=by)
        _mark_amended(session)
        return Withdrawal(removed=True, not_played=0)
    stored = _store_not_played(seatings, {line.board_id for line in lines}, by)
    session_log(session=session, action=ChangeAction.MOVEMENT, subject=f"pair {pair}",
                before="playing", after=f"withdrawn from round {from_round}: {counted(stored, 'board')} not played", by=by)
    _mark_amended(session)
    return Withdrawal(removed=False, not_played=stored)


def _store_not_played(seatings: Sequence[Seating], entered_boards: set[int], by: AbstractBaseUser | None) -> int:
    if not seatings:
        return 0
    section = seatings[0].section
    boards = section_boards(list(Board.objects.filter(session_id=section.session_id)), section.pk)
    lines = []
    for seating in seatings:
        for number in seating.boards:
            board = boards[number]
            if board.pk in entered_boards:
                continue
            lines.append(Result(
                board=board, section=section, round=seating.round, table=seating.table,
                ns_pair=seating.ns_pair, ew_pair=seating.ew_pair, kind=ResultKind.NOT_PLAYED,
                entered_text=NOT_PLAYED_TEXT, text=NOT_PLAYED_TEXT, updated_by=by,
            ))
    for line in lines:
        line.full_clean(validate_unique=False, validate_constraints=False)
    try:
        with transaction.atomic():
            Result.objects.bulk_create(lines)
    except IntegrityError:
        raise ValidationError(
            "a result was entered for one of those boards meanwhile: look at the travellers and try again"
        ) from None
    return len(lines)
