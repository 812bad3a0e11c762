"""Table entry from the phones for teams: each room of a match has its own link.

The open room seats the home team NS and the away team EW; the closed room the away
team NS and the home team EW. Each room's phone holds a MatchTableLink and sends its
own lines, exactly as a pairs table does (services.tables): NS send, EW confirm on the
same phone (or the event records at once), every send carries the phone's key so a
retry stores nothing twice, and a confirmed send becomes the room's line through
``match_record_line`` (version 0: only if no line is there), so the change log and the
version rules are the director's.

The director's line wins: a send or a confirmation for a board whose room already has
a line is marked superseded and the phone is shown the stored line. Once the director
marks the event final, the rooms' phones write nothing until it is reopened (while_open).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db.models import QuerySet

from sessions.models import Match, MatchLine, MatchStatus, MatchTableEntry, MatchTableLink, Room, TeamEvent

from sessions.core.query_speed import Prepared
from sessions.core.services.errors import ResultConflict
from sessions.phones.services.tables import (
    SendOutcome, check_client_key, confirm_entry, earlier_send, refuse_entry, replace_waiting, replay, sends_seen, settle_entry,
    while_open,
)
from sessions.teams.services.teams import match_check_line, match_record_line
from sessions.core.services.unit_of_work import unit, write

# --- links ------------------------------------------------------------------------------


def _playing(event: TeamEvent, round: int):
    """The round's matches that are played at two tables (not a bye, not an average)."""
    return Match.objects.filter(event=event, round=round, status=MatchStatus.PLAYED, away__isnull=False)


@write
def match_table_links_ensure(*, event: TeamEvent, round: int) -> list[MatchTableLink]:
    """A live link for both rooms of every match of the round (made where missing), in order."""
    matches = list(_playing(event, round))
    if not matches:
        raise ValidationError(f"round {round} has no match to play at the tables")
    live = set(
        MatchTableLink.objects.filter(match__in=matches, revoked_at__isnull=True).values_list("match_id", "room")
    )
    MatchTableLink.objects.bulk_create([
        MatchTableLink(match=match, room=room)
        for match in matches for room in Room.values if (match.pk, room) not in live
    ])
    return list(
        MatchTableLink.objects.filter(match__in=matches, revoked_at__isnull=True).order_by("match_id", "-room")
    )


# --- sends and confirmations ---------------------------------------------------------------


def _room_line(match: int, board: int, room: str) -> QuerySet[MatchLine]:
    return MatchLine.objects.filter(match=match, board=board, room=room).order_by("pk")[:1]


# A room's Send and Confirm read them: their SQL prepared (sessions/core/query_speed.py).
_ROOM_LINE: Prepared[MatchLine] = Prepared(_room_line, name="a room's line of a board")
_ROOM_LINE_HELD: Prepared[MatchLine] = Prepared(
    lambda **where: _room_line(**where).select_for_update(of=("self",)), name="a room's line of a board, held")
_ROOM_ENTRY_HELD: Prepared[MatchTableEntry] = Prepared(
    lambda client_key, match, room: MatchTableEntry.objects.select_related("match__event", "line")
    .filter(client_key=client_key, match=match, room=room).select_for_update(of=("self",)).order_by("pk")[:1],
    name="a room's send held",
)


def _stored_line(link: MatchTableLink, board: int) -> MatchLine | None:
    return _ROOM_LINE.first(match=link.match_id, board=board, room=link.room)


def _locked_line(entry: MatchTableEntry) -> MatchLine | None:
    """The room's line, held to the end of the transaction (an entry about to name it)."""
    held = unit().read_locked(_ROOM_LINE_HELD, match=entry.match_id, board=entry.board, room=entry.room)
    return next(iter(held), None)


@while_open
def match_table_send(
    *, link: MatchTableLink, board: int, text: str, lead: str = "", client_key: str, accept_warnings: bool = False,
) -> SendOutcome:
    """The room's NS send a board's line; see the module docstring and table_entry_send."""
    key = check_client_key(client_key)
    entries = sends_seen(MatchTableEntry, key, "line", match=link.match_id, board=board, room=link.room)
    earlier = earlier_send(entries, key, match_id=link.match_id, room=link.room)
    if earlier is not None:
        return replay(earlier)
    match = link.match
    stored = _stored_line(link, board)
    if stored is not None:
        return SendOutcome(None, stored=stored)
    checked = match_check_line(match=match, board=board, room=link.room, text=text, lead=lead)
    if checked.warnings and not accept_warnings:
        return SendOutcome(None, checked.warnings)
    replace_waiting(entries, match_id=match.pk, board=board, room=link.room)
    entry = MatchTableEntry.objects.create(
        link=link, match=match, board=board, room=link.room, text=checked.line.text, lead=checked.line.lead,
        warnings=list(checked.warnings), client_key=key,
    )
    if not match.event.table_confirmation:
        return _record(entry)
    return SendOutcome(entry, checked.warnings)


def _record(entry: MatchTableEntry) -> SendOutcome:
    """Store a confirmed entry as the room's line; a line already there (the director's) stands.

    The line the entry is to name is locked here, in the confirmation's own transaction (the
    lock match_record_line takes goes with its savepoint when it refuses): a director
    deleting it at the same moment waits for this to commit (and then clears the entry's
    link to it), instead of leaving the entry naming a deleted line, which PostgreSQL
    refuses at COMMIT."""
    def store() -> MatchLine:
        return match_record_line(match=entry.match, board=entry.board, room=entry.room, text=entry.text,
                                 lead=entry.lead, version=0, via_room=entry.room).line

    def stored_meanwhile(refusal: Exception) -> MatchLine:  # the director entered the line meanwhile
        stored = _locked_line(entry)
        if stored is None:  # ... and has deleted it again
            raise ValidationError(
                f"board {entry.board}: the director changed this line while you confirmed and nothing was "
                f"recorded; here is the board as it is now"
            ) from None
        return stored

    return settle_entry(entry, "line", stored=_locked_line(entry), store=store, refusals=(ResultConflict,),
                        stored_meanwhile=stored_meanwhile)


def _entry_of(link: MatchTableLink, client_key: str) -> MatchTableEntry:
    entry = next(iter(unit().read_locked(_ROOM_ENTRY_HELD, client_key=client_key.strip(), match=link.match_id,
                                         room=link.room)), None)
    if entry is None:
        raise ValidationError("that result was never sent from this table: send it again")
    return entry


@while_open
def match_table_confirm(*, link: MatchTableLink, client_key: str) -> SendOutcome:
    """The room's EW accept the line NS sent: it is recorded (or the director's line stands)."""
    return confirm_entry(_entry_of(link, client_key), _record)


@while_open
def match_table_refuse(*, link: MatchTableLink, client_key: str) -> MatchTableEntry:
    """The room's EW do not agree: the line goes back to NS (nothing is recorded)."""
    entry = _entry_of(link, client_key)
    refuse_entry(entry)
    return entry
