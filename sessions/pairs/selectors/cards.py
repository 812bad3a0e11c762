"""The printed cards of a session: a guide card for each table and a card for each pair.

Both are read off the session's stored seatings (the movement as it was when the
session was created), so the cards match what the entry pages expect. A round with
no seating at a table is a round the table is empty (a phantom's table); a pair
without a seating in a round sits out. Three queries whatever the session's size:
the seatings with their pairs and players, the pairs with their players, and the
tables' live phone links (a table card carries its link's QR code when it has one).

``session_table_links`` lists every table that plays (has a seating) with its live
link, for the director's table links page; ``table_has_live_link``, ``table_last_link``
and ``table_is_seated`` answer its "new link" button for one table.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from sessions.models import Pair, Seating, Section, Session, TableLink
from sessions.movements import PairCardLine, board_range


@dataclass(frozen=True)
class Place:
    """Where a pair sits in a round, or that it sits out (table None)."""

    table: int | None
    direction: str = ""

    def text(self, section: Section, several_sections: bool) -> str:
        if self.table is None:
            return "sits out"
        prefix = section.letter if several_sections else ""
        return f"table {prefix}{self.table} {self.direction}"


@dataclass(frozen=True)
class TableCardLine:
    """One round at one table, and where its pairs and boards go for the next round."""

    round: int
    seating: Seating | None  # None: no play at this table this round
    ns_next: str = ""  # "" in the last round
    ew_next: str = ""
    boards_next: str = ""

    @property
    def boards(self) -> str:
        return board_range(self.seating.boards) if self.seating else ""


@dataclass(frozen=True)
class TableCard:
    section: Section
    table: int
    lines: tuple[TableCardLine, ...]
    link: TableLink | None = None  # the table's live phone link

    @property
    def plays(self) -> bool:
        """False for a table nobody sits at (a phantom's table in every round)."""
        return any(line.seating for line in self.lines)


@dataclass(frozen=True)
class PairCard:
    pair: Pair
    lines: tuple[PairCardLine, ...]  # opponents are movement labels ("2EW")


@dataclass(frozen=True)
class SessionCards:
    session: Session
    tables: tuple[TableCard, ...]
    pairs: tuple[PairCard, ...]
    several_sections: bool

    @property
    def tables_without_link(self) -> int:
        """Tables that play but have no live phone link (their cards print without a QR code)."""
        return sum(1 for card in self.tables if card.plays and card.link is None)


class _Schedule:
    """One section's seatings, looked up by (round, table) and by (round, pair)."""

    def __init__(
        self, session: Session, section: Section, seatings: Sequence[Seating], several_sections: bool
    ) -> None:
        self.section = section
        self.several_sections = several_sections
        self.at = {(s.round, s.table): s for s in seatings}
        # From the session, not the seatings: a phantom's table may have none at all.
        self.rounds, self.tables = session.rounds, session.tables
        self.place_of: dict[tuple[int, int], Place] = {}
        for s in seatings:
            self.place_of[(s.round, s.ns_pair_id)] = Place(s.table, "NS")
            self.place_of[(s.round, s.ew_pair_id)] = Place(s.table, "EW")

    def next_place(self, pair_id: int, round: int, now: Place) -> str:
        place = self.place_of.get((round + 1, pair_id), Place(None))
        if place == now:
            return "stays"
        return place.text(self.section, self.several_sections)

    def boards_next(self, seating: Seating, round: int) -> str:
        """The tables that play these boards next round (two tables sharing them: a relay)."""
        boards = set(seating.boards)
        tables = sorted(s.table for (r, _), s in self.at.items() if r == round + 1 and boards & set(s.boards))
        if not tables:
            return "not played next round"
        prefix = self.section.letter if self.several_sections else ""
        names = " and ".join(f"{prefix}{table}" for table in tables)
        return f"table{'s' if len(tables) > 1 else ''} {names}"

    def table_card(self, table: int, links: dict[tuple[int, int], TableLink]) -> TableCard:
        return TableCard(
            self.section, table, tuple(self._table_line(table, r) for r in range(1, self.rounds + 1)),
            link=links.get((self.section.pk, table)),
        )

    def _table_line(self, table: int, round: int) -> TableCardLine:
        seating = self.at.get((round, table))
        if seating is None or round == self.rounds:
            return TableCardLine(round, seating)
        return TableCardLine(
            round, seating,
            ns_next=self.next_place(seating.ns_pair_id, round, Place(table, "NS")),
            ew_next=self.next_place(seating.ew_pair_id, round, Place(table, "EW")),
            boards_next=self.boards_next(seating, round),
        )

    def pair_card(self, pair: Pair) -> PairCard:
        return PairCard(pair, tuple(self._pair_line(pair, r) for r in range(1, self.rounds + 1)))

    def _pair_line(self, pair: Pair, round: int) -> PairCardLine:
        place = self.place_of.get((round, pair.pk))
        if place is None:
            return PairCardLine(round=round, table=None, direction=None, opponents=None, boards=())
        seating = self.at[(round, place.table)]
        opponents = seating.ew_pair if place.direction == "NS" else seating.ns_pair
        return PairCardLine(
            round=round, table=place.table, direction=place.direction,
            opponents=opponents.label, boards=tuple(seating.boards),
        )


def session_cards(*, session: Session) -> SessionCards:
    """Every table's guide card and every pair's card, by section (three queries)."""
    seatings = list(
        Seating.objects.filter(section__session=session)
        .select_related("section", "ns_pair", "ew_pair")
        .order_by("section__letter", "round", "table")
    )
    pairs = list(
        Pair.objects.filter(section__session=session)
        .select_related("section", "player_1", "player_2")
        .order_by("section__letter", "-direction", "number")  # NS before EW
    )
    links = {(link.section_id, link.table): link for link in _live_links(session)}
    by_section: dict[int, list[Seating]] = defaultdict(list)
    for seating in seatings:
        by_section[seating.section_id].append(seating)
    sections = {pair.section_id: pair.section for pair in pairs}
    several = len(sections) > 1
    schedules = {pk: _Schedule(session, section, by_section[pk], several) for pk, section in sections.items()}
    return SessionCards(
        session=session,
        tables=tuple(
            schedule.table_card(table, links)
            for schedule in schedules.values()
            for table in range(1, schedule.tables + 1)
        ),
        pairs=tuple(schedules[pair.section_id].pair_card(pair) for pair in pairs),
        several_sections=several,
    )


def _live_links(session: Session) -> list[TableLink]:
    return list(TableLink.objects.filter(session=session, revoked_at__isnull=True))


@dataclass(frozen=True)
class TableLinkRow:
    """A table that plays, with its live phone link (None: no live link)."""

    section_id: int
    letter: str
    table: int
    link: TableLink | None
    revoked: bool  # it had a link once, revoked since

    @property
    def key(self) -> str:
        return f"{self.letter}{self.table}"


def session_table_links(*, session: Session) -> list[TableLinkRow]:
    """Every table with a seating, in section then table order, with its live link (two queries)."""
    tables = (
        Seating.objects.filter(section__session=session)
        .values_list("section_id", "section__letter", "table")
        .order_by("section__letter", "table")
        .distinct()
    )
    live: dict[tuple[int, int], TableLink] = {}
    revoked: set[tuple[int, int]] = set()
    for link in TableLink.objects.filter(session=session):
        if link.live:
            live[(link.section_id, link.table)] = link
        else:
            revoked.add((link.section_id, link.table))
    return [
        TableLinkRow(section_id, letter, table, live.get((section_id, table)), (section_id, table) in revoked)
        for section_id, letter, table in tables
    ]


def table_has_live_link(*, section: Section, table: int) -> bool:
    """Whether the table has an unrevoked link (one query)."""
    return TableLink.objects.filter(section=section, table=table, revoked_at__isnull=True).exists()


def table_last_link(*, section: Section, table: int) -> TableLink | None:
    """The table's latest link, revoked or not (one query), else None."""
    return TableLink.objects.filter(section=section, table=table).order_by("-created_at", "-pk").first()


def table_is_seated(*, section: Section, table: int) -> bool:
    """Whether the section seats anybody at ``table`` (one query): a table of its movement."""
    return Seating.objects.filter(section=section, table=table).exists()
