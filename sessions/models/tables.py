"""Table entry from the players' phones: each table's link and the lines sent from it.

A TableLink is the capability a table's phone holds: its token opens that table of
that section of that session and nothing else. Renewing a link revokes the old one,
so a lost or shared link can be cut off; at most one link per table is live.

A TableEntry is a line as the table sent it, before and after the opponents confirm:
NS send, EW confirm (or refuse, which returns it to NS), and only a confirmed entry
becomes a Result through the same service as the director's entry. ``client_key`` is
made by the phone for each send, so a send repeated by a retry, a double tap or a
reload is recognised and stores nothing twice.
"""

import secrets
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q

from sessions.models.events import Board, Pair, Section, Session
from sessions.models.results import Result
from sessions.models.teams import Match, MatchLine, Room
from sessions.models.validation import ChecksInProcess


def new_token() -> str:
    """192 random bits, URL-safe: not guessable, and guessing is throttled besides."""
    return secrets.token_urlsafe(24)


class PhoneLink(ChecksInProcess, models.Model):
    """What every phone's link has (a pairs table's, a teams room's): its unguessable token,
    and whether it still opens anything (renewing a link revokes the old one)."""

    token = models.CharField(max_length=64, unique=True, default=new_token)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    #: The fields that say where the link is played: a renewed link keeps them.
    place_fields: ClassVar[tuple[str, ...]] = ()

    class Meta:
        abstract = True

    @property
    def live(self) -> bool:
        return self.revoked_at is None


class TableLink(PhoneLink):
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="table_links")
    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="table_links")
    table = models.PositiveSmallIntegerField()

    club_path = "session__event__club"
    place_fields = ("session", "section", "table")

    class Meta:
        ordering = ["section_id", "table", "-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["section", "table"], condition=Q(revoked_at__isnull=True),
                name="tablelink_one_live_per_table",
            ),
            models.CheckConstraint(condition=Q(table__gte=1), name="tablelink_table_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.section}, table {self.table}"


class EntryStatus(models.TextChoices):
    PENDING = "pending", "Waiting for the opponents"
    REFUSED = "refused", "Refused by the opponents"
    CONFIRMED = "confirmed", "Confirmed"
    SUPERSEDED = "superseded", "Replaced by the director's line"


class PhoneEntry(ChecksInProcess, models.Model):
    """What every line a phone sends has (a pairs table's, a teams room's): the text as
    typed, its state while the opponents confirm, the warnings the table was asked to
    check, and the client key that makes a retried send store one line."""

    text = models.CharField(max_length=60)
    lead = models.CharField(max_length=8, blank=True)
    status = models.CharField(max_length=12, choices=EntryStatus, default=EntryStatus.PENDING)
    warnings = models.JSONField(default=list, blank=True, help_text="What the table was asked to check.")
    client_key = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True


class TableEntry(PhoneEntry):
    link = models.ForeignKey(TableLink, on_delete=models.CASCADE, related_name="entries")
    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="+")
    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="table_entries")
    round = models.PositiveSmallIntegerField()
    table = models.PositiveSmallIntegerField()
    ns_pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="+")
    ew_pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="+")
    result = models.ForeignKey(Result, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    club_path = "section__session__event__club"

    class Meta:
        ordering = ["board_id", "-created_at", "-id"]
        constraints = [
            # One open line per board at a table: a new send replaces a refused one.
            models.UniqueConstraint(
                fields=["board", "ns_pair"], condition=Q(status="pending"),
                name="tableentry_one_pending_per_board_and_pair",
            ),
            models.CheckConstraint(condition=~Q(client_key=""), name="tableentry_has_client_key"),
        ]

    def __str__(self) -> str:
        return f"Board {self.board.number}: {self.ns_pair} v {self.ew_pair} {self.text} ({self.status})"

    @property
    def board_number(self) -> int:
        return self.board.number

    @property
    def stored_line(self) -> Result | None:
        """The line this entry became (or the director's line that stood instead)."""
        return self.result


class MatchTableLink(PhoneLink):
    """A teams table's phone link: one room of one match (the open room seats the home
    team NS, the closed room the away team NS). Renewing revokes, as for pairs tables."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="table_links")
    room = models.CharField(max_length=6, choices=Room)

    club_path = "match__event__club"
    place_fields = ("match", "room")

    class Meta:
        ordering = ["match_id", "room", "-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "room"], condition=Q(revoked_at__isnull=True),
                name="matchtablelink_one_live_per_room",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match}, {self.get_room_display()}"


class MatchTableEntry(PhoneEntry):
    """A room's line as its phone sent it, before and after the opponents confirm (as TableEntry)."""

    link = models.ForeignKey(MatchTableLink, on_delete=models.CASCADE, related_name="entries")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="table_entries")
    board = models.PositiveSmallIntegerField()
    room = models.CharField(max_length=6, choices=Room)
    line = models.ForeignKey(MatchLine, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    club_path = "match__event__club"

    class Meta:
        ordering = ["match_id", "board", "-created_at", "-id"]
        verbose_name_plural = "match table entries"
        constraints = [
            models.UniqueConstraint(
                fields=["match", "board", "room"], condition=Q(status="pending"),
                name="matchtableentry_one_pending_per_room_board",
            ),
            models.CheckConstraint(condition=~Q(client_key=""), name="matchtableentry_has_client_key"),
        ]

    def __str__(self) -> str:
        return f"Board {self.board} {self.room}: {self.text} ({self.status})"

    @property
    def board_number(self) -> int:
        return self.board

    @property
    def stored_line(self) -> MatchLine | None:
        """The line this entry became (or the director's line that stood instead)."""
        return self.line


class TableTokenMiss(ChecksInProcess, models.Model):
    """A phone link tried from an address that opened nothing: the guessing throttle's
    count when no shared cache answers (sessions/core/throttle.py), so every worker and server
    counts the same misses. Rows older than the throttle's window are deleted as new
    ones come."""

    address = models.CharField(max_length=64)
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        indexes = [models.Index(fields=["address", "at"], name="tabletokenmiss_address_at")]


class CallReason(models.TextChoices):
    """The few reasons a table may give with its call (the phone's buttons); none is fine too."""

    NONE = "", "No reason given"
    REVOKE = "revoke", "A revoke"
    LEAD = "lead", "Lead out of turn"
    CLAIM = "claim", "A claim"
    BIDDING = "bidding", "The bidding"


class DirectorCall(ChecksInProcess, models.Model):
    """A table's phone called the director; open until a director takes it.

    ``client_key`` is made by the phone per press, so a press repeated by a retry or a
    phone coming back online stores one call; and the database keeps at most one open
    call per table, so a second press while the director is on the way doubles nothing.
    A pairs table's call names its session, section and table; a teams room's its teams
    event, match and room (one open call per room).
    """

    session = models.ForeignKey(Session, null=True, blank=True, on_delete=models.CASCADE, related_name="director_calls")
    section = models.ForeignKey(Section, null=True, blank=True, on_delete=models.CASCADE, related_name="director_calls")
    table = models.PositiveSmallIntegerField(null=True, blank=True)
    team_event = models.ForeignKey(
        "clubsessions.TeamEvent", null=True, blank=True, on_delete=models.CASCADE, related_name="director_calls",
    )
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.CASCADE, related_name="director_calls")
    room = models.CharField(max_length=6, choices=Room, blank=True)
    round = models.PositiveSmallIntegerField(null=True, blank=True)
    reason = models.CharField(max_length=8, choices=CallReason, blank=True, default=CallReason.NONE)
    client_key = models.CharField(max_length=64, unique=True)
    called_at = models.DateTimeField()
    taken_at = models.DateTimeField(null=True, blank=True)
    taken_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
    )

    club_path = "session__event__club"

    class Meta:
        ordering = ["called_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["section", "table"], condition=Q(taken_at__isnull=True), name="directorcall_one_open_per_table",
            ),
            models.CheckConstraint(condition=Q(table__gte=1), name="directorcall_table_positive"),
            models.UniqueConstraint(
                fields=["match", "room"], condition=Q(taken_at__isnull=True), name="directorcall_one_open_per_room",
            ),
            models.CheckConstraint(
                condition=Q(session__isnull=False, section__isnull=False, table__isnull=False, team_event__isnull=True,
                            match__isnull=True, room="")
                | Q(session__isnull=True, section__isnull=True, table__isnull=True, team_event__isnull=False,
                    match__isnull=False) & ~Q(room=""),
                name="directorcall_a_table_or_a_room",
            ),
        ]

    def __str__(self) -> str:
        if self.match_id is not None:
            return f"{self.match}, {self.get_room_display()}: director called"
        return f"{self.section}, table {self.table}: director called"

    @property
    def is_open(self) -> bool:
        return self.taken_at is None
