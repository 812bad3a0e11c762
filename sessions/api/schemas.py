"""What the API answers, as django-ninja schemas read from the selectors' objects.

Each schema reads attributes of what the selectors return (a Session, a RankedPair, a
TravellerRow ...); a ``resolve_<field>`` picks a figure out of a nested object. Figures
are exact fractions in the engine: here they are numbers rounded to two places, as the
pages show them (sessions.scoring.format_points), never recomputed.
"""

from __future__ import annotations

import datetime
from fractions import Fraction
from typing import Annotated, Any

from ninja import Schema
from pydantic import BeforeValidator

from sessions.scoring.rounding import round_to_places


def _rounded(value: Any) -> float | None:
    if value is None or value == "":
        return None
    return float(round_to_places(Fraction(value), 2))


#: A score, percentage, matchpoints or IMPs: two places, as on the pages; null when none.
Figure = Annotated[float | None, BeforeValidator(_rounded)]


class ClubOut(Schema):
    slug: str
    name: str
    description: str
    website: str


class EventOut(Schema):
    id: int
    name: str
    method: str
    published_sessions: int
    latest: datetime.date | None


class PlayerOut(Schema):
    id: int
    name: str


class PairOut(Schema):
    id: int
    label: str  # "1NS" in a Mitchell, "1" in a Howell
    names: str
    player_1: PlayerOut | None
    player_2: PlayerOut | None


class SessionOut(Schema):
    id: int
    name: str
    date: datetime.date
    club: str  # the club's slug
    event_id: int
    event: str
    published: bool
    final: bool

    @staticmethod
    def resolve_club(session) -> str:
        return session.event.club.slug

    @staticmethod
    def resolve_event(session) -> str:
        return session.event.name


class FieldOut(Schema):
    field: str  # "", "NS", "B EW" ...
    title: str  # "All pairs", "North-South", "Section B East-West"


class PenaltyOut(Schema):
    """A procedural penalty (Law 90, RULES 13): what it took off its pair's total and why."""

    pair: str  # the pair's label, "1NS" or "3"
    amount: Figure
    unit: str  # "MP", "TOP" (percent of a top) or "IMP"
    board: int | None  # the board it was given on, if any
    reason: str
    text: str  # as the pages say it: "25% of a top on board 1: slow play"

    @staticmethod
    def resolve_pair(penalty) -> str:
        return penalty.pair.label


class SessionDetailOut(Schema):
    session: SessionOut
    method: str
    is_matchpoints: bool
    ranking_hidden: bool  # the event shows the ranking only once the session is final
    fields: list[FieldOut]
    boards: list[int]
    note: str  # why the session was not scored as its event asks, if it was not
    penalties: list[PenaltyOut]  # the procedural penalties counted in the ranking (empty while it is hidden)


class RankingLineOut(Schema):
    """A pair's line in its field's ranking, as the session's results page shows it."""

    field: str
    place: str  # "1", "3=" (ties share a place)
    rank: int
    pair: PairOut
    boards_played: int
    total: Figure  # matchpoints (scaled when the pair played fewer boards) or IMPs
    percentage: Figure  # matchpoint events
    average: Figure  # IMP events: IMPs a board
    penalty: Figure  # what procedural penalties took off the total (RULES 13; 1.0: one less), already counted in it

    @staticmethod
    def resolve_field(line) -> str:
        return line.standing.field

    @staticmethod
    def resolve_place(line) -> str:
        return line.standing.place

    @staticmethod
    def resolve_rank(line) -> int:
        return line.standing.rank

    @staticmethod
    def resolve_boards_played(line) -> int:
        return line.standing.boards_played

    @staticmethod
    def resolve_total(line) -> Fraction:
        return line.standing.total

    @staticmethod
    def resolve_percentage(line) -> Fraction | None:
        return line.standing.percentage

    @staticmethod
    def resolve_average(line) -> Fraction | None:
        return line.standing.average

    @staticmethod
    def resolve_penalty(line) -> Fraction:
        return line.standing.penalty


class TravellerLineOut(Schema):
    """One line of a board's traveller, as the board's page shows it."""

    board: int
    section: str
    round: int | None
    table: int | None
    ns_pair: PairOut
    ew_pair: PairOut
    contract: str  # "4SX"; otherwise the whole result ("PASS", "A60/40", "NP")
    declarer: str
    outcome: str  # "=", "+1", "-2"
    lead: str
    ns_score: int | None
    ns_points: Figure
    ew_points: Figure
    ns_percent: Figure
    ew_percent: Figure
    datum: int | None  # Butler

    @staticmethod
    def resolve_section(line) -> str:
        return line.result.section.letter

    @staticmethod
    def resolve_round(line) -> int | None:
        return line.result.round

    @staticmethod
    def resolve_table(line) -> int | None:
        return line.result.table

    @staticmethod
    def resolve_lead(line) -> str:
        return line.result.lead

    @staticmethod
    def resolve_ns_score(line) -> int | None:
        return line.result.ns_score

    @staticmethod
    def resolve_ns_percent(line) -> Fraction | None:
        return line.scored.ns_percent if line.scored else None

    @staticmethod
    def resolve_ew_percent(line) -> Fraction | None:
        return line.scored.ew_percent if line.scored else None


class StandingOut(Schema):
    field: str
    place: str
    boards_played: int
    total: Figure
    percentage: Figure
    average: Figure
    penalty: Figure  # what procedural penalties took off the total, already counted in it


class ScorecardLineOut(Schema):
    """One board of a pair's score card, from the pair's side of the table."""

    board: int
    side: str  # "NS" or "EW"
    opponents: PairOut
    contract: str
    declarer: str
    outcome: str
    score: int | None  # the pair's own score
    points: Figure
    percent: Figure

    @staticmethod
    def resolve_contract(row) -> str:
        return row.line.contract

    @staticmethod
    def resolve_declarer(row) -> str:
        return row.line.declarer

    @staticmethod
    def resolve_outcome(row) -> str:
        return row.line.outcome


class ScorecardOut(Schema):
    session_id: int
    pair: PairOut
    field_title: str
    field_size: int
    is_matchpoints: bool
    standing: StandingOut | None  # null until a board is scored, or while the ranking is hidden
    points_total: Figure
    boards: list[ScorecardLineOut]
    penalties: list[PenaltyOut]  # the pair's procedural penalties (empty while the ranking is hidden)


class PlayedSessionOut(Schema):
    session_id: int
    session: str
    date: datetime.date
    pair_id: int
    partner: PlayerOut | None
    field_title: str
    field_size: int
    place: str | None
    percentage: Figure
    average: Figure

    @staticmethod
    def resolve_session_id(played) -> int:
        return played.session.pk

    @staticmethod
    def resolve_session(played) -> str:
        return played.session.name

    @staticmethod
    def resolve_date(played) -> datetime.date:
        return played.session.date

    @staticmethod
    def resolve_pair_id(played) -> int:
        return played.pair.pk

    @staticmethod
    def resolve_place(played) -> str | None:
        return played.standing.place if played.standing else None

    @staticmethod
    def resolve_percentage(played) -> Fraction | None:
        return played.standing.percentage if played.standing else None

    @staticmethod
    def resolve_average(played) -> Fraction | None:
        return played.standing.average if played.standing else None


class PlayerHistoryOut(Schema):
    player: PlayerOut
    club: str
    sessions: list[PlayedSessionOut]  # newest first


class EventSessionOut(Schema):
    id: int
    label: str  # "S1", "S2" ... in the order of play
    name: str
    date: datetime.date
    counted: bool


class CombinedLineOut(Schema):
    place: str  # "" when not ranked (too few sessions)
    name: str
    total: Figure
    played: int
    ranked: bool
    sessions: dict[str, Figure]  # session label -> the figure the event counts


class EventRankingOut(Schema):
    id: int
    name: str
    club: str
    error: str  # why the sessions could not be combined (the lines are then empty)
    sessions: list[EventSessionOut]
    lines: list[CombinedLineOut]


class TeamStandingOut(Schema):
    place: str
    team_id: int
    team: str
    vp: Figure
    imps_for: Figure
    imps_against: Figure
    after_round: list[Figure]  # running VPs after each round


class TeamEventOut(Schema):
    id: int
    name: str
    date: datetime.date | None
    club: str
    form: str
    final: bool
    published: bool
    rounds: list[int]
    standings: list[TeamStandingOut]


class TeamEventListOut(Schema):
    id: int
    name: str
    date: datetime.date | None
    form: str
    final: bool
    published: bool


class ErrorOut(Schema):
    detail: str
