"""What the repair pages read: a round's seating, the pairs, players entered twice."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet

from sessions.models import Pair, Player, Result, Seating, Section, Session


@dataclass(frozen=True)
class TableInRound:
    """One table of a round as the repair page shows it: its seating (None: nobody plays)
    and how many lines are entered there."""

    table: int
    seating: Seating | None
    lines: int


def round_tables(*, section: Section, round: int) -> list[TableInRound]:
    """Every table of the session in ``round``, played or not (two queries)."""
    seatings = {
        seating.table: seating
        for seating in Seating.objects.filter(section=section, round=round).select_related("ns_pair", "ew_pair")
    }
    counts = dict(
        Result.objects.filter(section=section, round=round).values_list("table").annotate(count=Count("pk"))
    )
    return [
        TableInRound(table, seatings.get(table), counts.get(table, 0))
        for table in range(1, section.session.tables + 1)
    ]


def section_pairs(*, section: Section) -> QuerySet[Pair]:
    return section.pairs.select_related("player_1", "player_2").order_by("-direction", "number")  # NS before EW


@dataclass(frozen=True)
class EnteredTwice:
    """A player named in more than one seat of a session."""

    player: Player
    pairs: tuple[Pair, ...]

    def __str__(self) -> str:
        several = len({pair.section_id for pair in self.pairs}) > 1
        where = ", ".join(f"{pair.section.letter}:{pair.label}" if several else pair.label for pair in self.pairs)
        return f"{self.player.name} is entered twice in this session (pairs {where})"


def players_entered_twice(*, session: Session) -> list[EnteredTwice]:
    """Players who appear in two seats of the session: one person cannot play twice (one query)."""
    pairs = Pair.objects.filter(section__session=session).filter(
        Q(player_1__isnull=False) | Q(player_2__isnull=False)
    ).select_related("player_1", "player_2", "section").order_by("section__letter", "-direction", "number")
    seats: dict[int, list[Pair]] = defaultdict(list)
    players: dict[int, Player] = {}
    for pair in pairs:
        for player in (pair.player_1, pair.player_2):
            if player is not None:
                seats[player.pk].append(pair)
                players[player.pk] = player
    return [
        EnteredTwice(players[pk], tuple(where)) for pk, where in seats.items() if len(where) > 1
    ]


def pairs_a_movement_drops(*, session: Session, labels: set[str]) -> list[Pair]:
    """The pairs with players whose label a new movement (its pair ``labels``) does not
    have: changing to it would remove them and their players from the session (one query)."""
    return [
        pair for pair in Pair.objects.filter(section__session=session).select_related("section", "player_1", "player_2")
        if pair.label not in labels and (pair.player_1_id or pair.player_2_id)
    ]
