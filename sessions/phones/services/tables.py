"""Table entry from the players' phones: links, sends, confirmations, who sits where.

The phone of each table holds a TableLink. NS send a line (TableEntry, pending); EW
confirm it on the same phone, and only then is it recorded, through the checks and the
store of ``result_record`` (results.line_check, line_store) like the director's entry, so
the same refusals and the same version rules apply. A
refusal returns the line to NS. With the event's ``table_confirmation`` off, a send is
recorded at once.

Every send carries a key the phone made for it (``client_key``): a send repeated by a
retry, a double tap, a reload or a phone coming back online finds its first entry and
stores nothing twice. A confirmation names the send's key too, so a phone that went
offline can queue both and deliver them in order.

When the director has already entered the board (or corrected the table's line), the
director's line stands: the table's entry is marked superseded and the page shows the
stored line.

Once the director marks the session (or the teams event) final, a phone reads but writes
nothing: every writing service here is ``@while_open`` and raises EntryClosed, until the
director reopens it. Marking final leaves the links alive.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet

from sessions.models import (
    Board, EntryStatus, MatchLine, MatchTableEntry, MatchTableLink, Pair, Player, Result, ResultKind, Seating,
    Session, TableEntry, TableLink,
)

from sessions.handrecords.deals import Deal, parse_deal
from sessions.scoring.errors import ScoringError
from sessions.pairs.selectors.lineups import pair_spells, players_in_round
from sessions.phones.selectors.tables import table_setup

from sessions.analysis.services.analysis import analysis_request
from sessions.core.services.errors import EntryClosed
from sessions.clubs.services.players import pair_change_players, player_find_or_add
from sessions.pairs.services.results import board_lines, line_check, line_store, refuse_other_deal
from sessions.core.query_speed import Prepared, prepared
from sessions.core.services.unit_of_work import active, mark_write, unit, unit_of_work, write

#: The phone makes a key per send: 16 to 64 letters, digits, "-" or "_" (a UUID fits).
CLIENT_KEY_LENGTH = (16, 64)


@dataclass(frozen=True)
class SendOutcome:
    """What a send did: the entry (None if nothing was stored), warnings to look at first,
    or the line already stored for the board (the director's, or a confirmed one).

    The same for a pairs table (TableEntry, Result) and a teams room (MatchTableEntry,
    MatchLine): services.team_tables folds into the functions below.
    """

    entry: TableEntry | MatchTableEntry | None
    warnings: tuple[str, ...] = ()
    stored: Result | MatchLine | None = None

    @property
    def needs_check(self) -> bool:
        return self.entry is None and self.stored is None and bool(self.warnings)


# --- open until final ---------------------------------------------------------------------

P = ParamSpec("P")
R = TypeVar("R")


def refuse_if_final(link: TableLink | MatchTableLink) -> None:
    """EntryClosed if the link's session (a pairs table) or teams event (a room) is final."""
    (final_at,) = unit().lock_reading(**_held(link), fields=("final_at",))  # (locked already: while_open)
    if final_at is not None:
        raise EntryClosed(_closed_what(link))


def _closed_what(link: TableLink | MatchTableLink) -> str:
    return "session" if isinstance(link, TableLink) else "event"


def _held(link: TableLink | MatchTableLink) -> dict[str, int]:
    """The row a link's writes lock: its session (a pairs table) or teams event (a room)."""
    return {"session": link.session_id} if isinstance(link, TableLink) else {"team_event": link.match.event_id}


def while_open(service: Callable[P, R]) -> Callable[P, R]:
    """A phone's writing service (keyword ``link``), in its unit of work, refused with
    EntryClosed once the session or teams event is final: asked first, as the session's
    (or teams event's) lock is taken (one query), so the phone is told before anything
    else, and asked again at the end (a write that marked it final meanwhile undoes the
    phone's). Found open at the end, under the lock, it stays open to the commit: the unit
    awards no master points again and tells nobody after it (unit().not_final)."""

    @wraps(service)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        link: Any = kwargs["link"]
        outermost = not active()
        with unit_of_work() as current:
            held = _held(link)
            if isinstance(link, TableLink):
                # The setup token as it is under the lock: what the service reads of the
                # table's setup (its seatings and deals, selectors.tables.table_setup, kept
                # under the token) is the setup as it is now, and stays so to the commit.
                final_at, link.session.setup_token = current.lock_reading(**held, fields=("final_at", "setup_token"))
            else:
                (final_at,) = current.lock_reading(**held, fields=("final_at",))
            if final_at is not None:
                raise EntryClosed(_closed_what(link))
            outcome = service(*args, **kwargs)
            refuse_if_final(link)
            if outermost:  # (a caller's unit may yet change it)
                current.not_final(sessions=[held["session"]] if "session" in held else [],
                                  team_events=[held["team_event"]] if "team_event" in held else [])
            return outcome

    mark_write(wrapper)
    return wrapper


# --- links ------------------------------------------------------------------------------


@write
def table_links_ensure(*, session: Session) -> list[TableLink]:
    """A live link for every table of every section (made for those without one), in order."""
    tables = set(
        Seating.objects.filter(section__session=session).values_list("section_id", "table").distinct()
    )
    live = {
        (link.section_id, link.table): link
        for link in TableLink.objects.filter(session=session, revoked_at__isnull=True)
    }
    missing = [
        TableLink(session=session, section_id=section_id, table=table)
        for section_id, table in sorted(tables - live.keys())
    ]
    TableLink.objects.bulk_create(missing)
    return list(
        TableLink.objects.filter(session=session, revoked_at__isnull=True)
        .select_related("section")
        .order_by("section__letter", "table")
    )


# --- sends and confirmations --------------------------------------------------------------


def check_client_key(client_key: str) -> str:
    key = client_key.strip()
    shortest, longest = CLIENT_KEY_LENGTH
    if not (shortest <= len(key) <= longest) or not all(c.isascii() and (c.isalnum() or c in "-_") for c in key):
        raise ValidationError("this send has no valid key: reload the page and send again")
    return key


def _seating_for(link: TableLink, board: Board) -> Seating:
    """The round in which this table plays the board, or ValidationError (from the table's
    setup, read under the session's lock: while_open)."""
    for seating in table_setup(link).mine:
        if board.number in seating.boards:
            return seating
    raise ValidationError(f"table {link.table} does not play board {board.number}")


def _stored_line(board: Board, ns_pair_id: int, *, lock: bool = False) -> Result | None:
    """The board's line for the table's NS pair, whoever entered it; ``lock`` holds it to the
    end of the transaction (an entry about to name it: see _record)."""
    lines = Result.objects.filter(board=board, ns_pair=ns_pair_id).select_related("ns_pair", "ew_pair")
    return (unit().lock_rows(lines) if lock else lines).first()


def _ns_line(lines: list[Result], ns_pair_id: int) -> Result | None:
    """Of the board's lines (results.board_lines), the NS pair's, whoever entered it."""
    return next((line for line in lines if line.ns_pair_id == ns_pair_id), None)


def sends_seen(model: type[TableEntry] | type[MatchTableEntry], client_key: str, related: str,
               **waiting: Any) -> list[Any]:
    """One query for a send (a pairs table's or a teams room's): the send of this key seen
    before, and the sends still waiting for EW where ``waiting`` (a new send replaces its
    table's). The session's or teams event's lock (while_open) serialises the sends, so a
    double tap cannot pass the checks twice."""
    def build(client_key: str, **waiting: Any) -> QuerySet:
        rows = model.objects.filter(Q(client_key=client_key) | Q(status=EntryStatus.PENDING, **waiting))
        return rows.select_related(related)

    sends = prepared(("tables.sends_seen", model, related, *sorted(waiting)), build,
                     name=f"{model.__name__} sends seen")
    return sends(client_key=client_key, **{name: getattr(value, "pk", value) for name, value in waiting.items()})


def earlier_send(entries: list[Any], client_key: str, **place: Any) -> Any:
    """Of ``sends_seen``, the send of this key, if any (ValidationError if another table's:
    ``place`` names the table's section and number, or the room's match and room)."""
    entry = next((entry for entry in entries if entry.client_key == client_key), None)
    if entry is not None and any(getattr(entry, name) != value for name, value in place.items()):
        raise ValidationError("this send belongs to another table: reload the page")
    return entry


def replace_waiting(entries: list[Any], **where: Any) -> None:
    """Set aside the sends of ``sends_seen`` still waiting where ``where``: a new send replaces
    them (in the send's unit; NoUnitOfWork outside one)."""
    unit()
    waiting = [entry.pk for entry in entries if entry.status == EntryStatus.PENDING
               and all(getattr(entry, name) == value for name, value in where.items())]
    if waiting:
        type(entries[0]).objects.filter(pk__in=waiting).update(status=EntryStatus.REFUSED)


def replay(entry: TableEntry | MatchTableEntry) -> SendOutcome:
    """A send seen before: its outcome again, storing nothing."""
    return SendOutcome(entry, tuple(entry.warnings), entry.stored_line)


@while_open
def table_entry_send(
    *,
    link: TableLink,
    board: Board,
    text: str,
    lead: str = "",
    client_key: str,
    accept_warnings: bool = False,
) -> SendOutcome:
    """NS send a board's result from the table; see the module docstring.

    Refused (ValidationError, the director's entry's messages) when impossible. With
    warnings and ``accept_warnings`` false, nothing is stored and the warnings come back
    for a second look. A line already stored for the board wins over the send.
    """
    key = check_client_key(client_key)
    if board.session_id != link.session_id:
        raise ValidationError(f"board {board.number} is not a board of this session")
    entries = sends_seen(TableEntry, key, "result", board=board)
    earlier = earlier_send(entries, key, section_id=link.section_id, table=link.table)
    if earlier is not None:
        return replay(earlier)
    seating = _seating_for(link, board)
    lines = board_lines(board, link.section, [seating.ns_pair_id, seating.ew_pair_id])
    stored = _ns_line(lines, seating.ns_pair_id)
    if stored is not None:
        return SendOutcome(None, stored=stored)
    refuse_other_deal(board, link.section, deals=table_setup(link).boards)
    checked = line_check(board=board, section=link.section, seating=seating, text=text, lead=lead, lines=lines)
    if checked.result.kind == ResultKind.ASSIGNED_POINTS:  # a ruling, not a table's result
        raise ValidationError({"text": "only the director assigns a line's points: enter the result played"})
    if checked.warnings and not accept_warnings:
        return SendOutcome(None, checked.warnings)
    replace_waiting(entries, board_id=board.pk, ns_pair_id=seating.ns_pair_id)
    entry = TableEntry.objects.create(
        link=link, section=link.section, board=board, round=seating.round, table=link.table,
        ns_pair=seating.ns_pair, ew_pair=seating.ew_pair, text=checked.result.text,
        lead=checked.result.lead, warnings=list(checked.warnings), client_key=key,
    )
    # A line waiting for EW shows on the director's progress grid (the public pages
    # see it once recorded, which bumps again). No line changed.
    unit().touch(sessions=[link.session_id], lines_only=True, places=False)
    if not link.session.event.table_confirmation:
        return _record(link, entry)
    return SendOutcome(entry, checked.warnings)


_ENTRY_HELD: Prepared[TableEntry] = Prepared(
    lambda client_key, section, table: TableEntry.objects.select_related(
        "board", "section", "ns_pair", "ew_pair", "result"
    ).filter(client_key=client_key, link__section=section, table=table).select_for_update(of=("self",))
    .order_by("pk")[:1],
    name="a table's send held",
)


def _entry_of(link: TableLink, client_key: str) -> TableEntry:
    entry = next(iter(unit().read_locked(_ENTRY_HELD, client_key=client_key.strip(), section=link.section_id,
                                         table=link.table)), None)
    if entry is None:
        raise ValidationError("that result was never sent from this table: send it again")
    return entry


def _record(link: TableLink, entry: TableEntry, seating: Seating | None = None) -> SendOutcome:
    """Store a confirmed entry as the board's line; the director's line wins if there is one.

    The line the entry is to name is read under its lock: a director deleting it at the same
    moment waits for this to commit (and then clears the entry's link to it), instead of
    leaving the entry naming a deleted line, which PostgreSQL refuses at COMMIT. The line
    is checked and stored as result_record does, against ``seating``, the table's in the
    entry's round held under its lock (read here when not given)."""
    lines = board_lines(entry.board, entry.section, [entry.ns_pair_id, entry.ew_pair_id], lock=True)

    def store() -> Result:
        with transaction.atomic():
            return _record_line(link, entry, seating or _seating_held(entry), lines)

    def stored_meanwhile(refusal: Exception) -> Result:
        # Locked again: the lock taken inside went with the refused savepoint.
        stored = _stored_line(entry.board, entry.ns_pair_id, lock=True)
        if stored is None:
            raise refusal
        return stored

    return settle_entry(entry, "result", stored=_ns_line(lines, entry.ns_pair_id), store=store,
                        refusals=(ValidationError, IntegrityError), stored_meanwhile=stored_meanwhile)


def settle_entry(
    entry: TableEntry | MatchTableEntry, field: str, *, stored: Any, store: Callable[[], Any],
    refusals: tuple[type[Exception], ...], stored_meanwhile: Callable[[Exception], Any],
) -> SendOutcome:
    """A confirmed send becomes its board's line, one rule for a pairs table and a teams
    room: a line stored already (``stored``, the director's) stands and the send is
    superseded; else ``store()`` stores the send's, and when it is refused (``refusals``)
    because the director stored one meanwhile, ``stored_meanwhile(refusal)`` reads that
    line (or raises when there is none). ``field`` is the entry's link to its line."""
    if stored is None:
        try:
            stored = store()
        except refusals as refusal:
            stored = stored_meanwhile(refusal)
            entry.status = EntryStatus.SUPERSEDED
        else:
            entry.status = EntryStatus.CONFIRMED
    else:
        entry.status = EntryStatus.SUPERSEDED
    setattr(entry, field, stored)
    entry.save(update_fields=["status", field, "updated_at"])
    return SendOutcome(entry, tuple(entry.warnings), stored)


def _record_line(link: TableLink, entry: TableEntry, seating: Seating, lines: list[Result]) -> Result:
    """The entry's line, checked and stored as result_record does (ValidationError if it
    cannot be, or if the seating it was sent under has changed since)."""
    if _seating_changed_since(entry, seating):
        raise ValidationError(
            f"the seating of round {entry.round}, table {entry.table} was changed while this line was being "
            "entered: nothing was saved; check the pairs and enter it again"
        )
    refuse_other_deal(entry.board, entry.section, deals=table_setup(link).boards)
    checked = line_check(board=entry.board, section=entry.section, seating=seating, text=entry.text,
                         lead=entry.lead, lines=lines)
    return line_store(checked, via_table=entry.table).result


def confirm_entry(
    entry: TableEntry | MatchTableEntry, record: Callable[[Any], SendOutcome]
) -> SendOutcome:
    """EW's confirmation of a send (a pairs table's or a teams room's): ``record`` stores it."""
    if entry.status in (EntryStatus.CONFIRMED, EntryStatus.SUPERSEDED):
        return replay(entry)  # confirmed already: a repeated tap or a retry
    if entry.status == EntryStatus.REFUSED:
        raise ValidationError(
            f"board {entry.board_number}: that result was refused or replaced; confirm the one now shown"
        )
    return record(entry)


def refuse_entry(entry: TableEntry | MatchTableEntry) -> None:
    """EW's refusal: the send goes back to NS; a recorded one can only be corrected by the director."""
    if entry.status == EntryStatus.PENDING:
        entry.status = EntryStatus.REFUSED
        entry.save(update_fields=["status", "updated_at"])
    elif entry.status != EntryStatus.REFUSED:
        raise ValidationError(f"board {entry.board_number} is already recorded: ask the director to correct it")


def table_entry_confirm(*, link: TableLink, client_key: str) -> SendOutcome:
    """EW accept the line NS sent: it is recorded (or the director's line stands).

    A line sent before the director repaired the table's seating (other pairs, or other
    boards, at this table in that round) no longer matches the table: it is set aside
    (refused, so NS can send again under the new seating) and the refusal says why.
    """
    outcome = _confirm(link=link, client_key=client_key)
    if isinstance(outcome, str):
        raise ValidationError(outcome)
    return outcome


@while_open
def _confirm(*, link: TableLink, client_key: str) -> SendOutcome | str:
    # The refusal is returned, not raised, so that setting the line aside is committed.
    entry = _entry_of(link, client_key)
    if entry.status != EntryStatus.PENDING:
        return confirm_entry(entry, lambda stored: _record(link, stored))  # a repeated tap, or a refused line
    seating = _seating_held(entry)
    if changed := _seating_changed_since(entry, seating):
        entry.status = EntryStatus.REFUSED
        entry.save(update_fields=["status", "updated_at"])
        unit().touch(sessions=[link.session_id], lines_only=True, places=False)  # set aside: no line changed
        return changed
    return confirm_entry(entry, lambda pending: _record(link, pending, seating))


def _seating_held(entry: TableEntry) -> Seating | None:
    """The table's seating in the entry's round, held against a seating repair to the commit
    (services.repair locks the round's seatings before it moves their lines)."""
    held = unit().read_locked(_SEATING_HELD, section=entry.section_id, round=entry.round, table=entry.table)
    return next(iter(held), None)


_SEATING_HELD: Prepared[Seating] = Prepared(
    lambda section, round, table: Seating.objects.filter(section_id=section, round=round, table=table)
    .select_related("ns_pair", "ew_pair").select_for_update(of=("self",)).order_by("pk")[:1],
    name="a table's seating in a round, held",
)


def _seating_changed_since(entry: TableEntry, seating: Seating | None) -> str:
    """Why ``entry`` no longer fits ``seating``, its table's in its round (the director
    repaired it), or ""."""
    if (
        seating is not None
        and (seating.ns_pair_id, seating.ew_pair_id) == (entry.ns_pair_id, entry.ew_pair_id)
        and entry.board.number in seating.boards
    ):
        return ""
    now = (f"{seating.ns_pair} v {seating.ew_pair} on boards {', '.join(map(str, seating.boards))}"
           if seating else "nobody")
    return (
        f"board {entry.board.number}: the director changed the seating of table {entry.table} in round "
        f"{entry.round} after this result was sent for {entry.ns_pair} v {entry.ew_pair} (the table now has "
        f"{now}). Nothing was recorded; North-South, send the result again if you played it"
    )


@while_open
def table_entry_refuse(*, link: TableLink, client_key: str) -> TableEntry:
    """EW do not agree: the line goes back to NS to correct (nothing is recorded)."""
    entry = _entry_of(link, client_key)
    refuse_entry(entry)
    unit().touch(sessions=[link.session_id], lines_only=True, places=False)  # no line changed
    return entry


# --- the hands, where the club deals at the table ----------------------------------------------

#: The hands a phone types, in the order of a PBN deal from North.
HAND_SEATS = ("north", "east", "south", "west")


@while_open
def table_deal_enter(*, link: TableLink, board: Board, hands: Mapping[str, str]) -> Board:
    """A board's four hands typed at a table that plays it (a club without a dealing
    machine), each "spades.hearts.diamonds.clubs"; one hand may be left empty and is then
    the 13 cards the others do not hold. Checked to 52 cards, 13 a hand, and analysed
    double dummy once stored. A board that has its hands keeps them: the same hands again
    store nothing (a retry), others are refused (the director corrects a hand record)."""
    if board.session_id != link.session_id:
        raise ValidationError(f"board {board.number} is not a board of this session")
    _seating_for(link, board)  # only a table that plays the board
    typed = [hands.get(seat, "").strip() for seat in HAND_SEATS]
    if sum(1 for hand in typed if not hand) > 1:
        raise ValidationError("type at least three hands: the fourth is the cards left over")
    try:
        deal = parse_deal("N:" + " ".join(hand or "-" for hand in typed))
    except ScoringError as error:
        raise ValidationError(f"board {board.number}: {error}") from None
    stored = unit().lock_rows(Board.objects.filter(pk=board.pk)).get()
    if stored.deal:
        if _same_deal(stored.deal, deal):
            return stored
        raise ValidationError(f"board {board.number} has its hands already: ask the director to correct them")
    stored.deal = deal.to_pbn()
    stored.save(update_fields=["deal"])
    unit().touch(sessions=[link.session_id], places=False)  # the board pages show the hands
    analysis_request(boards=[stored])
    return stored


def _same_deal(text: str, deal: Deal) -> bool:
    try:
        return parse_deal(text) == deal
    except ScoringError:
        return False


# --- who sits at the table ------------------------------------------------------------------


@dataclass(frozen=True)
class SeatChoice:
    """A player as chosen at the table: one of the club's players, a membership number or a name."""

    player_id: int | None = None
    number: str = ""
    name: str = ""

    @property
    def empty(self) -> bool:
        return self.player_id is None and not self.number.strip() and not self.name.strip()


@dataclass(frozen=True)
class SeatsOutcome:
    changed: list[str] = field(default_factory=list)  # "1NS: Ann & Bob"


SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}


def _player(session: Session, seat: str, choice: SeatChoice) -> Player | None:
    """The seat's player: what was typed (a membership number, else a visitor's name) wins
    over the list, which the page fills in with the player sitting there now."""
    club = session.event.club
    where = SEAT_NAMES.get(seat, seat)
    if choice.number.strip():
        player = club.players.filter(national_number=choice.number.strip()).first()
        if player is None:
            raise ValidationError(f"{where}: no player of the club has membership number {choice.number.strip()}; "
                                  "check it, or type a visitor's name instead")
        return player
    if choice.name.strip():
        return player_find_or_add(club=club, name=choice.name, visitor=True)
    if choice.player_id is not None:
        player = club.players.filter(pk=choice.player_id).first()
        if player is None:
            raise ValidationError(f"{where}: that player is not on the club's list")
        return player
    return None


@while_open
def table_seat_players(*, link: TableLink, seating: Seating, seats: Mapping[str, SeatChoice]) -> SeatsOutcome:
    """The players at the table say who they are (seats N, S, E, W); the pairs are named.

    A seat left empty keeps the pair's player; a player chosen twice is refused.
    """
    if (seating.section_id, seating.table) != (link.section_id, link.table):
        raise ValidationError("that seating is not this table's")
    session = link.session
    chosen = {seat: _player(session, seat, choice) for seat, choice in seats.items() if not choice.empty}
    ids = [player.pk for player in chosen.values()]
    if len(ids) != len(set(ids)):
        raise ValidationError("one player is chosen for two seats: each seat needs its own player")
    outcome = SeatsOutcome()
    for pair, seat_1, seat_2 in ((seating.ns_pair, "N", "S"), (seating.ew_pair, "E", "W")):
        pair = Pair.objects.select_related("section__session__event").get(pk=pair.pk)
        now = players_in_round(pair_spells(pair), seating.round)  # who played the round so far
        player_1, player_2 = chosen.get(seat_1, now[0]), chosen.get(seat_2, now[1])
        if (player_1, player_2) == now:
            continue
        # From this round on: the rounds already played keep their players.
        pair_change_players(pair=pair, player_1=player_1, player_2=player_2, from_round=seating.round,
                            via_table=link.table)
        outcome.changed.append(f"{pair.label}: {' & '.join(p.name for p in (player_1, player_2) if p)}")
    return outcome
