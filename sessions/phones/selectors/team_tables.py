"""What a teams room's phone reads, and the director's view of a round's tables.

As for pairs tables (selectors.tables), the state is derived from what is stored: the
board in play is the match's first board without this room's line, a send waiting for
the opponents is the room's pending entry for that board. A fixed number of queries
whatever the match's size.
"""

from __future__ import annotations

from dataclasses import dataclass

from sessions.models import (
    EntryStatus, Match, MatchLine, MatchStatus, MatchTableEntry, MatchTableLink, Player, Room, Team, TeamEvent, Vulnerability,
)
from sessions.scoring.boards import dealer, vulnerability
from sessions.scoring.team_events import BoardOutcome

from sessions.core.query_speed import Prepared
from sessions.teams.selectors.teams import ScoredMatch, score_match


_LIVE_LINK: Prepared[MatchTableLink] = Prepared(
    lambda token: MatchTableLink.objects.filter(token=token, revoked_at__isnull=True)
    .select_related("match__event__club", "match__home", "match__away").order_by("pk")[:1],
    name="a teams room's live link",
)


def match_table_link_by_token(token: str) -> MatchTableLink | None:
    """The live link of a token, with its match, teams and event (one query; its SQL
    prepared, as the other queries of a phone's post: sessions/core/query_speed.py)."""
    return _LIVE_LINK.first(token=token)


@dataclass(frozen=True)
class Deal:
    """A board's number, dealer and vulnerability, named as a pairs Board's (the page is shared)."""

    number: int

    @property
    def dealer(self) -> str:
        return dealer(self.number).value

    @property
    def vulnerability(self) -> str:
        return vulnerability(self.number).value

    def get_vulnerability_display(self) -> str:
        return Vulnerability(self.vulnerability).label


@dataclass(frozen=True)
class RoomBoard:
    board: Deal
    result: MatchLine | None  # this room's stored line, whoever entered it
    pending: MatchTableEntry | None
    refused: MatchTableEntry | None
    other_room_done: bool
    swing: BoardOutcome | None = None  # each team's IMPs (or points) once both rooms have played it

    @property
    def done(self) -> bool:
        return self.result is not None


@dataclass(frozen=True)
class RoomPage:
    link: MatchTableLink
    ns_team: Team
    ew_team: Team
    ns_players: list[Player]
    ew_players: list[Player]
    boards: list[RoomBoard]  # every board of the match, in order
    scored: ScoredMatch
    shows_imps: bool

    @property
    def match(self) -> Match:
        return self.link.match

    @property
    def in_play(self) -> RoomBoard | None:
        return next((board for board in self.boards if not board.done), None)

    @property
    def finished(self) -> bool:
        return self.in_play is None

    @property
    def closed(self) -> bool:
        """The event is final: the phone reads, and writes nothing (services.tables.while_open)."""
        return self.link.match.event.final


def _teams(link: MatchTableLink) -> tuple[Team, Team]:
    """(NS, EW) of the link's room: the open room seats the home team NS."""
    match = link.match
    return (match.home, match.away) if link.room == Room.OPEN else (match.away, match.home)


def room_page(*, link: MatchTableLink) -> RoomPage:
    """The room's page: four queries (the players of both teams, the match's lines, the
    room's open sends) after the link's own."""
    match, event = link.match, link.match.event
    ns_team, ew_team = _teams(link)
    players: dict[int, list[Player]] = {ns_team.pk: [], ew_team.pk: []}
    for membership in Team.players.through.objects.filter(  # query: both teams' players
        team__in=[ns_team, ew_team]
    ).select_related("player").order_by("player__name"):
        players[membership.team_id].append(membership.player)
    lines = {(line.board, line.room): line for line in MatchLine.objects.filter(match=match)}  # query: lines
    entries = list(MatchTableEntry.objects.filter(  # query: the room's sends still open
        match=match, room=link.room, status__in=[EntryStatus.PENDING, EntryStatus.REFUSED]
    ).order_by("created_at", "pk"))
    scored = score_match(match, lines, event.match_settings)
    swings = {board.number: board for board in (scored.outcome.boards if scored.outcome else ())}
    other = Room.CLOSED if link.room == Room.OPEN else Room.OPEN
    rows = []
    for number in match.board_numbers:
        mine = [entry for entry in entries if entry.board == number]
        both = (number, link.room) in lines and (number, other) in lines
        rows.append(RoomBoard(
            Deal(number), lines.get((number, link.room)),
            next((e for e in reversed(mine) if e.status == EntryStatus.PENDING), None),
            next((e for e in reversed(mine) if e.status == EntryStatus.REFUSED), None),
            (number, other) in lines, swings.get(number) if both else None,
        ))
    return RoomPage(link, ns_team, ew_team, players[ns_team.pk], players[ew_team.pk], rows, scored,
                    event.table_shows_imps)


# --- the director's view of a round's tables ----------------------------------------------------


@dataclass(frozen=True)
class RoomProgress:
    match: Match
    room: str
    link: MatchTableLink | None
    revoked: bool  # the room had a link, revoked since
    on_board: int | None  # the first board without this room's line; None: finished
    done: int  # boards with this room's line
    pending: MatchTableEntry | None  # a send waiting for the opponents

    @property
    def ns_team(self) -> Team:
        return self.match.home if self.room == Room.OPEN else self.match.away

    @property
    def ew_team(self) -> Team:
        return self.match.away if self.room == Room.OPEN else self.match.home

    @property
    def key(self) -> str:
        return f"{self.match.pk}-{self.room}"


def round_tables(*, event: TeamEvent, round: int) -> list[RoomProgress]:
    """Both rooms of every match of the round played at the tables: its link and where it
    is. Four queries whatever the round's size: the matches with their teams, the links,
    the lines, the sends waiting."""
    matches = list(
        Match.objects.filter(event=event, round=round, status=MatchStatus.PLAYED, away__isnull=False)
        .select_related("home", "away")
    )
    links = list(MatchTableLink.objects.filter(match__in=matches).order_by("created_at", "pk"))
    lines = set(MatchLine.objects.filter(match__in=matches).values_list("match_id", "board", "room"))
    pending = {
        (entry.match_id, entry.room): entry
        for entry in MatchTableEntry.objects.filter(match__in=matches, status=EntryStatus.PENDING)
    }
    rows = []
    for match in matches:
        for room in (Room.OPEN, Room.CLOSED):
            mine = [link for link in links if (link.match_id, link.room) == (match.pk, room)]
            live = next((link for link in mine if link.live), None)
            done = [n for n in match.board_numbers if (match.pk, n, room) in lines]
            on_board = next((n for n in match.board_numbers if (match.pk, n, room) not in lines), None)
            rows.append(RoomProgress(match, room, live, bool(mine) and live is None, on_board, len(done),
                                     pending.get((match.pk, room))))
    return rows


def round_has_matches(*, event: TeamEvent, round: int) -> bool:
    """Whether the teams event draws any match in ``round`` (one query)."""
    return event.matches.filter(round=round).exists()
