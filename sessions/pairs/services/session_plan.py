"""A new session's plan, and the one service that stores it.

A session comes from a movement (``session_create``: the director's path) or from a
results file (``transfer.importing``). Both describe it first as a SessionPlan (the
session's settings, its sections, boards, pairs and seatings and, from a file, its
traveller lines) and ``session_store`` stores it: the rows are validated and inserted
here only, so a new field or rule of a board, a pair, a seating or an imported line is
written once. The service that makes the plan keeps what only it knows (the movement's
phantom, the file's table plan and its figures to compare).

Storing is many rows at once (a national simultaneous pairs: 6,000 pairs, 36,000
seatings, 72,000 lines): every row's fields are validated where a typed value could be
wrong (sections, boards, pairs), generated rows once per distinct shape (a seating per
round, table and boards; a line per distinct result), and the database's constraints
check the rest on insert (``rows.insert_rows``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from django.core.exceptions import ValidationError

from sessions.models import Board, Pair, Player, Result, Seating, Section, Session
from sessions.scoring import boards as engine_boards

from sessions.core.services.rows import insert_rows
from sessions.core.services.unit_of_work import unit, write

#: A board's key in a plan: (the section's letter when it plays a deal of its own, else None; its number).
BoardKey = tuple[str | None, int]

#: A line's fields left to the database (its foreign keys are the store's own).
_LINE_KEYS_NOT_VALIDATED = ["board", "section", "ns_pair", "ew_pair", "updated_by"]


@dataclass(frozen=True)
class PlannedBoard:
    number: int
    section: str | None = None  # a section's letter when it plays a deal of its own
    dealer: str = ""  # "": the engine's for the number
    vulnerability: str = ""  # "": the engine's for the number
    deal: str = ""

    @property
    def key(self) -> BoardKey:
        return (self.section, self.number)


@dataclass(frozen=True)
class PlannedPair:
    key: str  # the plan's name for the pair (a movement's "A:1NS", a file's pair key)
    section: str  # its section's letter
    number: int
    direction: str  # "NS", "EW", or "" in a Howell
    player_1: Player | None = None
    player_2: Player | None = None
    handicap: Decimal | None = None


@dataclass(frozen=True)
class PlannedSeating:
    section: str
    round: int
    table: int
    ns_pair: str  # PlannedPair keys
    ew_pair: str
    boards: tuple[int, ...]


@dataclass
class PlannedLine:
    """A traveller line from a file: its board and pairs by the plan's keys, and the
    Result's own fields (``values``: kind, contract, score, round, table ...). Lines with
    the same result may share one ``values`` mapping: it is validated once."""

    board: BoardKey
    section: str
    ns_pair: str
    ew_pair: str
    values: Mapping[str, object]
    round: int
    table: int


@dataclass
class SessionPlan:
    session: Session  # not saved yet: its event and settings (tables, rounds ... as planned)
    sections: Sequence[str]  # letters, in order
    boards: Sequence[PlannedBoard]
    pairs: Sequence[PlannedPair]
    seatings: Sequence[PlannedSeating]
    lines: Sequence[PlannedLine] = ()


@dataclass
class StoredSession:
    session: Session
    sections: dict[str, Section]  # by letter
    boards: dict[BoardKey, Board]
    pairs: dict[str, Pair]  # by the plan's key
    line_ids: list[int] = field(default_factory=list)  # the plan's lines' ids, in its order


def boards_planned(numbers: Iterable[int], section: str | None = None) -> list[PlannedBoard]:
    """The boards of ``numbers`` as the engine deals them (dealer, vulnerability), shared
    by the sections or, with ``section``, that section's own."""
    return [PlannedBoard(number=number, section=section) for number in numbers]


@write
def session_store(*, plan: SessionPlan, by=None) -> StoredSession:
    """Store ``plan``: the session, its sections, boards, pairs, seatings and lines, in the
    caller's unit of work (a new session is never final: nothing to award)."""
    session = plan.session
    session.full_clean()
    session.save()
    sections = sections_store(session=session, letters=plan.sections)
    boards = boards_store(session=session, boards=plan.boards, sections=sections)
    pairs = pairs_store(pairs=plan.pairs, sections=sections)
    seatings_store(seatings=plan.seatings, sections=sections, pairs=pairs)
    stored = StoredSession(session, sections, boards, pairs)
    stored.line_ids = _lines_store(plan.lines, stored, by)
    unit().touch(sessions=[session], places=False)
    return stored


def sections_store(*, session: Session, letters: Sequence[str]) -> dict[str, Section]:
    if len(set(letters)) < len(letters):
        raise ValidationError(f"a section letter is given twice: {', '.join(letters)}")
    sections = {letter: Section(session=session, letter=letter) for letter in letters}
    _clean_all(sections.values(), exclude=["session"])
    Section.objects.bulk_create(sections.values())
    return sections


def boards_store(
    *, session: Session, boards: Sequence[PlannedBoard], sections: Mapping[str, Section],
) -> dict[BoardKey, Board]:
    """The planned boards (a board's section must be one of ``sections``)."""
    stored = {
        planned.key: Board(
            session=session,
            section=_section(sections, planned.section) if planned.section else None,
            number=planned.number,
            dealer=planned.dealer or engine_boards.dealer(planned.number).value,
            vulnerability=planned.vulnerability or engine_boards.vulnerability(planned.number).value,
            deal=planned.deal,
        )
        for planned in boards
    }
    if len(stored) < len(boards):
        raise ValidationError("a board is planned twice")
    _clean_all(stored.values(), exclude=["session", "section"])
    Board.objects.bulk_create(stored.values())
    return stored


def pairs_store(*, pairs: Sequence[PlannedPair], sections: Mapping[str, Section]) -> dict[str, Pair]:
    stored = {
        planned.key: Pair(
            section=_section(sections, planned.section), number=planned.number, direction=planned.direction,
            player_1=planned.player_1, player_2=planned.player_2, handicap=planned.handicap,
        )
        for planned in pairs
    }
    if len(stored) < len(pairs):
        raise ValidationError("a pair is planned twice")
    _clean_all(stored.values(), exclude=["section", "player_1", "player_2"])
    Pair.objects.bulk_create(stored.values())
    return stored


def seatings_store(
    *, seatings: Sequence[PlannedSeating], sections: Mapping[str, Section], pairs: Mapping[str, Pair],
) -> None:
    """The planned seatings, each between two of ``pairs`` of its own section."""
    rows, shapes = [], {}
    for planned in seatings:
        section = _section(sections, planned.section)
        ns, ew = _pair(pairs, planned.ns_pair, section), _pair(pairs, planned.ew_pair, section)
        row = {
            "section_id": section.pk, "round": planned.round, "table": planned.table,
            "ns_pair_id": ns.pk, "ew_pair_id": ew.pk,
            "boards": planned.boards,  # a tuple: the same JSON list, prepared once per value (rows)
        }
        shapes.setdefault((planned.round, planned.table, planned.boards), row)
        rows.append(row)
    for row in shapes.values():
        Seating(**{**row, "boards": list(row["boards"])}).full_clean(
            exclude=["section", "ns_pair", "ew_pair"], validate_unique=False, validate_constraints=False,
        )
    insert_rows(Seating, rows)


def _lines_store(lines: Sequence[PlannedLine], stored: StoredSession, by) -> list[int]:
    """Insert the lines as rows (no Result object each) and read back their ids (one query)."""
    if not lines:
        return []
    updated_by = by.pk if by is not None else None
    rows, validated = [], set()
    for line in lines:
        board = stored.boards.get(line.board)
        if board is None:
            raise ValidationError(f"a line on board {line.board[1]} that the plan does not have")
        section = _section(stored.sections, line.section)
        row = {
            "board_id": board.pk, "section_id": section.pk,
            "ns_pair_id": _pair(stored.pairs, line.ns_pair, section).pk,
            "ew_pair_id": _pair(stored.pairs, line.ew_pair, section).pk,
            "updated_by_id": updated_by, **line.values, "round": line.round, "table": line.table,
        }
        if id(line.values) not in validated:  # lines with the same result: validated once
            validated.add(id(line.values))
            Result(**row).full_clean(
                exclude=_LINE_KEYS_NOT_VALIDATED, validate_unique=False, validate_constraints=False,
            )
        rows.append(row)
    insert_rows(Result, rows)
    found = Result.objects.filter(section__session=stored.session).values_list("board_id", "ns_pair_id", "pk")
    pk_of = {(board_id, ns_pair_id): pk for board_id, ns_pair_id, pk in found}
    return [pk_of[(row["board_id"], row["ns_pair_id"])] for row in rows]


def _section(sections: Mapping[str, Section], letter: str) -> Section:
    try:
        return sections[letter]
    except KeyError:
        raise ValidationError(f"no section {letter} in the plan") from None


def _pair(pairs: Mapping[str, Pair], key: str, section: Section) -> Pair:
    pair = pairs.get(key)
    if pair is None:
        raise ValidationError(f"pair {key} is not in the plan")
    if pair.section_id != section.pk:
        raise ValidationError(f"pair {key} plays in another section than {section.letter}")
    return pair


def _clean_all(objects: Iterable, exclude: Sequence[str] = ()) -> None:
    # Uniqueness and constraints of planned rows are left to the database (they come from
    # a validated movement or a checked file); field validation still runs on every row.
    for obj in objects:
        obj.full_clean(exclude=list(exclude), validate_unique=False, validate_constraints=False)
