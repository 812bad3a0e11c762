"""What a table's phone reads: where the table is in the movement and what it has sent.

The state is derived from what is stored, never kept on the side: the round in play is
the first round with a board whose line is not yet recorded, the board in play the
first such board of that round, and a send waiting for the opponents is the table's
pending entry for that board. A phone that reloads, or a second phone on the same
link, sees the same thing.

A fixed number of queries whatever the session's size: the link (with its session,
event and section), the table's entries and session_score's two. What does not change
from one post to the next (the table's seatings with its pairs' players, the section's
boards, how many sections the session has, the next round's seatings for the moves) is
kept under the session's setup token (sessions.core.services.revisions), which every
write but a line's draws anew, in the shared cache and, as objects, in each process's
memory (sessions.core.kept_here): it is read from the database (three or four queries)
once a setup, never stale.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from sessions.core import kept_here
from sessions.core.query_speed import Prepared
from sessions.models import (
    Board, EntryStatus, LiveRankings, Pair, Result, Seating, Session, TableEntry, TableLink, section_boards,
)

from sessions.pairs.selectors.entry import PAIRS_WITH_PLAYERS
from sessions.pairs.selectors.public import FieldRanking, TravellerRow, field_title
from sessions.core.selectors.scored import ScoredSession
from sessions.core.selectors.scoring import session_score


_LIVE_LINK: Prepared[TableLink] = Prepared(
    lambda token: TableLink.objects.filter(token=token, revoked_at__isnull=True)
    .select_related("session__event__club", "section").order_by("pk")[:1],
    name="a table's live link",
)


def table_link_by_token(token: str) -> TableLink | None:
    """The live link of a token, with what every table page needs (one query; its SQL
    prepared, as every query of a phone's post: sessions/core/query_speed.py)."""
    return _LIVE_LINK.first(token=token)


#: The session's own columns, read again after a post (not its event, read with the link).
SESSION_COLUMNS = tuple(field.attname for field in Session._meta.concrete_fields if field.name != "event")
_SESSION_COLUMNS: Prepared[tuple] = Prepared(
    lambda pk: Session.objects.filter(pk=pk).values_list(*SESSION_COLUMNS), name="a session's own columns")


def session_read_again(session: Session) -> None:
    """The session's own columns as stored now (as ``refresh_from_db`` reads them, one
    query): after a phone's post, whose write bumped the session's revision."""
    rows = _SESSION_COLUMNS(pk=session.pk)
    if not rows:
        raise Session.DoesNotExist(f"session {session.pk} is gone")
    for name, value in zip(SESSION_COLUMNS, rows[0]):
        setattr(session, name, value)


@dataclass(frozen=True)
class Move:
    """Where one pair or one set of boards goes for the next round."""

    what: str  # "1NS (Ann & Bob)", "Boards 3-4"
    where: str  # "table 2, East-West", "table 3"


@dataclass(frozen=True)
class TableBoard:
    board: Board
    result: Result | None  # the stored line, whoever entered it
    pending: TableEntry | None  # sent, waiting for the opponents
    refused: TableEntry | None  # the last send the opponents refused, still to correct

    @property
    def done(self) -> bool:
        return self.result is not None


@dataclass(frozen=True)
class TablePage:
    link: TableLink
    seating: Seating | None  # the round in play; None once the table has played every round
    boards: list[TableBoard]  # of the round in play
    rounds: int
    moves: list[Move]  # into the round in play, shown until its first board is recorded
    last_board: TravellerRow | None  # the table's last recorded line
    traveller: list[TravellerRow]  # the last board's results so far, when the event shows them
    own_results: list[tuple[Pair, list[TravellerRow]]]  # once the table has finished
    rankings: list[FieldRanking]  # when the event lets players see them now
    scored: ScoredSession
    many_sections: bool = False  # the session has more than one section: the page names the table's
    table_pairs: tuple[Pair, ...] = ()  # every pair that sits at this table in some round

    @property
    def session(self):
        return self.link.session

    @property
    def in_play(self) -> TableBoard | None:
        return next((board for board in self.boards if not board.done), None)

    @property
    def finished(self) -> bool:
        return self.seating is None

    @property
    def provisional(self) -> bool:
        return not self.session.final

    @property
    def closed(self) -> bool:
        """The session is final: the phone reads, and writes nothing (services.tables.while_open)."""
        return self.session.final


def _seatings(link: TableLink, **where) -> list[Seating]:
    return list(
        Seating.objects.filter(section=link.section, **where)
        .select_related(*PAIRS_WITH_PLAYERS)
        .order_by("round", "table")
    )


#: How long a setup's rows stay kept: a club's evening (a new setup token replaces them sooner).
SETUP_SECONDS = 12 * 60 * 60


@dataclass(frozen=True)
class TableSetup:
    """What a table's page reads that only a change of the session's setup changes."""

    mine: list[Seating]  # the table's seatings, every round, with the pairs' players
    boards: dict[int, Board]  # the deals the table's section plays, by number
    many_sections: bool


def _setup_key(link: TableLink, what: str, table: int | None = None) -> str:
    session = link.session
    return f"clubscore:table:{what}:{session.pk}:{session.setup_token}:{link.section_id}:{table or ''}"


def table_setup(link: TableLink) -> TableSetup:
    """The table's seatings and its section's boards, kept under the session's setup token
    (in this process as objects, sessions/core/kept_here.py: read them, never change them).

    The token is read (with the link's session) before the rows, so the rows kept under
    it are never older than it; any write but a line's draws a new one."""
    mine = kept_here.get_or_load(_setup_key(link, "seatings", link.table),
                                 lambda: _seatings(link, table=link.table), SETUP_SECONDS)
    boards, many_sections = kept_here.get_or_load(_setup_key(link, "deals"), lambda: _deals(link), SETUP_SECONDS)
    return TableSetup(mine, boards, many_sections)


def _deals(link: TableLink) -> tuple[dict[int, Board], bool]:
    """The deals the table's section plays (its own where it has them, else the shared
    ones) by number, and whether the session has more than one section."""
    session = link.session
    boards = section_boards(list(Board.objects.filter(session=session)), link.section_id)
    return boards, session.sections.count() > 1


def _round_seatings(link: TableLink, round: int) -> list[Seating]:
    """Every table's seating in ``round`` (where the pairs and boards move), kept as
    table_setup, once for the whole section."""
    return kept_here.get_or_load(_setup_key(link, f"round{round}"), lambda: _seatings(link, round=round),
                                 SETUP_SECONDS)


_OPEN_ENTRIES: Prepared[TableEntry] = Prepared(
    lambda section, table: TableEntry.objects.filter(
        section=section, table=table, status__in=[EntryStatus.PENDING, EntryStatus.REFUSED]
    ).order_by("created_at", "pk"),
    name="a table's open sends",
)


def _open_entries(link: TableLink) -> list[TableEntry]:
    """The table's sends still open: waiting for the opponents, or refused and not yet resent."""
    return _OPEN_ENTRIES(section=link.section_id, table=link.table)


def _boards_of(seating: Seating, boards: dict[int, Board], stored: dict[tuple[int, int], Result],
               entries: list[TableEntry]) -> list[TableBoard]:
    rows = []
    for number in seating.boards:
        board = boards[number]
        mine = [entry for entry in entries if entry.board_id == board.pk and entry.ns_pair_id == seating.ns_pair_id]
        pending = next((e for e in reversed(mine) if e.status == EntryStatus.PENDING), None)
        refused = next((e for e in reversed(mine) if e.status == EntryStatus.REFUSED), None)
        rows.append(TableBoard(board, stored.get((board.pk, seating.ns_pair_id)), pending, refused))
    return rows


def _board_span(numbers) -> str:
    numbers = sorted(numbers)
    if len(numbers) > 1 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"Boards {numbers[0]}-{numbers[-1]}"
    return ("Boards " if len(numbers) > 1 else "Board ") + ", ".join(map(str, numbers))


def _pair_text(pair: Pair) -> str:
    return f"{pair.label} ({pair.names})" if pair.names else pair.label


def _moves(before: Seating, seatings: list[Seating]) -> list[Move]:
    """Where the pairs and the boards of ``before`` go in the next round (from the movement)."""
    following = [s for s in seatings if s.round == before.round + 1]
    moves = []
    for pair in (before.ns_pair, before.ew_pair):
        seat = next((s for s in following if pair.pk in (s.ns_pair_id, s.ew_pair_id)), None)
        where = "sits out" if seat is None else (
            f"table {seat.table}, {'North-South' if seat.ns_pair_id == pair.pk else 'East-West'}"
        )
        moves.append(Move(_pair_text(pair), where))
    boards = set(before.boards)
    to = next((s for s in following if boards & set(s.boards)), None)
    moves.append(Move(_board_span(before.boards), f"table {to.table}" if to else "to the director"))
    return moves


def _own_results(scored: ScoredSession, pairs: list[Pair]) -> list[tuple[Pair, list[TravellerRow]]]:
    return [
        (pair, [TravellerRow(r, scored.scored_line(r)) for r in scored.results_where(pair=pair)])
        for pair in pairs
    ]


def _rankings(scored: ScoredSession, pairs: Sequence[Pair]) -> list[FieldRanking]:
    """The standings of the fields the table's pairs play in: its own section's, however
    many sections a large event has (its results pages show them all)."""
    return [FieldRanking(field, field_title(field), rows) for field, rows in scored.rankings(of=pairs)]


def table_page(*, link: TableLink, figures: bool = True) -> TablePage:
    """The table's page: the round and board in play, or its results once finished.
    ``figures=False``: without what only a recorded line changes (the traveller so far and
    the standings, ``with_figures``), for the answer to a post that recorded none."""
    setup = table_setup(link)
    mine, boards = setup.mine, setup.boards
    entries = _open_entries(link)
    scored = session_score(session=link.session)
    # The table's own lines only (its NS pairs'), not the section's: a post's answer reads a
    # table's few lines however many the session holds.
    lines = scored.results_where(section_id=link.section_id, ns_pairs={s.ns_pair_id for s in mine})
    stored = {(r.board_id, r.ns_pair_id): r for r in lines}
    current, rows = None, []
    for seating in mine:
        rows = _boards_of(seating, boards, stored, entries)
        if not all(row.done for row in rows):
            current = seating
            break
    if current is None:
        rows = []
    earlier = [s for s in mine if current is None or s.round < current.round]
    moves = []
    if current is not None and earlier and not any(row.done for row in rows):
        moves = _moves(earlier[-1], _round_seatings(link, current.round))
    recorded = [stored[(boards[n].pk, s.ns_pair_id)] for s in earlier + ([current] if current else [])
                for n in s.boards if (boards[n].pk, s.ns_pair_id) in stored]
    last = recorded[-1] if recorded else None
    last_seating = mine[-1] if mine else None
    own = _own_results(scored, [last_seating.ns_pair, last_seating.ew_pair]) if current is None and last_seating else []
    page = TablePage(
        link=link, seating=current, boards=rows, rounds=max((s.round for s in mine), default=0),
        moves=moves, last_board=TravellerRow(last, scored.scored_line(last)) if last else None, traveller=[],
        own_results=own, rankings=[], scored=scored, many_sections=setup.many_sections,
        table_pairs=tuple(pair for seating in mine for pair in (seating.ns_pair, seating.ew_pair)),
    )
    return with_figures(page) if figures else page


def with_figures(page: TablePage) -> TablePage:
    """``page`` with the last board's traveller so far (when the event shows it) and the
    standings (when the event shows them now, between rounds and at the end)."""
    event, scored, last = page.session.event, page.scored, page.last_board
    traveller = []
    if last is not None and event.table_shows_traveller:
        traveller = [TravellerRow(r, scored.scored_line(r)) for r in scored.results_where(board=last.result.board)]
    show_rankings = event.live_rankings == LiveRankings.DURING_PLAY or page.session.final
    rankings = _rankings(scored, page.table_pairs) if show_rankings and (page.seating is None or page.moves) else []
    return replace(page, traveller=traveller, rankings=rankings)
