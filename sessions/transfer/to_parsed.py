"""A stored, scored session as the formats' ParsedEvent, with OUR figures as published.

The other direction of importing.py: the USEBIO and PBN exporters write what this
returns. Every published_* figure is the engine's (session_score), rounded to two
decimals (halves away from zero): per-line points as the event scores them, each
pair's total, percentage (matchpoints) and place. The event's rankings setting goes
in extra["WINNER_TYPE"]: "2" when NS and EW rank apart, else "1" (one ranking), as
USEBIO writes it and to_engine.ranking_fields reads it back. A final session's master
point awards (sessions.clubs.services.masterpoints) go in each pair's masterpoints, their scale
in extra["MASTER_POINT_SCALE"] ("Club", as the EBU's programs write it).
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from sessions.formats import ParsedBoard, ParsedEvent, ParsedLine, ParsedPair, ParsedPlayer
from sessions.formats.conventions import CONVENTIONS_KEY, write_conventions
from sessions.models import Result, ResultKind, ScoringMethod
from sessions.scoring.rounding import round_to_places
from sessions.scoring.session import Standing
from sessions.core.selectors.engine_input import EVENT_OPTION_FIELDS, pair_key, splits_directions
from sessions.core.selectors.scored import ScoredSession

EVENT_TYPES = {"matchpoints": "MP_PAIRS", "cross_imps": "CROSS_IMP", "butler": "BUTLER_PAIRS"}


class ExportRefused(ValueError):
    """The session holds something the chosen format cannot carry; the message says what."""


def published(value: Fraction | None) -> Decimal | None:
    return None if value is None else round_to_places(value, 2)


def contract_text(result: Result) -> str:
    """ "4SX" from the stored contract; "PASS" for a passed-out board; "" when none."""
    if result.kind == ResultKind.PASSED:
        return "PASS"
    return f"{result.level}{result.strain}{result.doubling}" if result.level else ""


#: The SCORE of a line of assigned points the director gave no adjusted score for: an
#: Ave, which readers take with the points beside it (as Compscore3 writes such a line).
UNRULED_POINTS_SCORE = "A5050"


def score_text(result: Result) -> str:
    """The formats' normalised NS score: "420", "PASS", "NP", "A6040"; for assigned
    points, the adjusted score written beside them."""
    if result.kind == ResultKind.ASSIGNED_POINTS:
        if result.artificial_ns_percent is not None and result.artificial_ew_percent is not None:
            return f"A{result.artificial_ns_percent:02d}{result.artificial_ew_percent:02d}"
        return UNRULED_POINTS_SCORE if result.ns_score is None else str(result.ns_score)
    if result.kind == ResultKind.NOT_PLAYED:
        return "NP"
    if result.kind == ResultKind.PASSED:
        return "PASS"
    if result.kind == ResultKind.ARTIFICIAL:
        return f"A{result.artificial_ns_percent:02d}{result.artificial_ew_percent:02d}"
    if result.kind == ResultKind.WEIGHTED:
        raise ExportRefused(
            f"board {result.board.number} {result.ns_pair} v {result.ew_pair}: a weighted score "
            f"({result.text}) cannot be written in USEBIO or PBN; export the spreadsheet instead"
        )
    return str(result.ns_score)


#: The event's settings a ClubScore file carries: the engine's options and the rankings.
CARRIED_SETTINGS = (*EVENT_OPTION_FIELDS, "rankings", "deal_era")


def _percentage(standing: Standing) -> Fraction | None:
    """The percentage a file publishes: the handicapped one when the event applies a
    handicap (the place stays the scratch one), as NZ Scorer writes them."""
    return standing.handicapped if standing.handicapped is not None else standing.percentage


def _adjustment(standing: Standing | None, matchpoints: bool) -> Decimal | None:
    """A procedural penalty's effect on the ranking's figure, negative (RULES 13)."""
    if standing is None or not standing.penalty:
        return None
    return published(-(standing.penalty_percentage if matchpoints else standing.penalty))


def session_to_parsed(scored: ScoredSession) -> ParsedEvent:
    session = scored.session
    event = session.event
    standings = {s.pair: s for field_standings in scored.result.standings.values() for s in field_standings}
    matchpoints = event.method == ScoringMethod.MATCHPOINTS
    awards = {award.pair_id: award for award in session.masterpoint_awards.all()} if session.final else {}
    pairs = []
    for key, pair in scored.pairs.items():
        standing = standings.get(key)
        award = awards.get(pair.pk)
        players = [ParsedPlayer(p.name, p.national_number) for p in (pair.player_1, pair.player_2) if p]
        pairs.append(ParsedPair(
            key=key, section=pair.section.letter, number=str(pair.number), direction=pair.direction,
            players=players,
            published_total=published(standing.total) if standing else None,
            published_percentage=published(_percentage(standing)) if standing and matchpoints else None,
            published_place=standing.place if standing else None,
            boards_played=standing.boards_played if standing else None,
            handicap=pair.handicap,
            masterpoints=award.points if award else None,
            masterpoint_type=award.point_type if award else "",
            adjustment=_adjustment(standing, matchpoints),
        ))
    split = splits_directions(event.rankings, mitchell=session.is_mitchell, arrow_switch=session.arrow_switch)
    return ParsedEvent(
        source_format="clubscore", program="ClubScore", event_type=EVENT_TYPES[event.method],
        scoring=event.method, title=session.name, date=session.date.isoformat(), club=event.club.name,
        pairs=pairs, boards=_boards(scored), movement=session.movement_kind,
        extra={
            "WINNER_TYPE": "2" if split else "1",
            CONVENTIONS_KEY: write_conventions({name: getattr(event, name) for name in CARRIED_SETTINGS}),
            **({"MASTER_POINT_SCALE": next(iter(awards.values())).scale.title()} if awards else {}),
            **({"CLUB_ID_NUMBER": event.club.national_club_number} if event.club.national_club_number else {}),
            **({"P2P_CHARGE_RATE": str(event.club.p2p_charge_rate)} if event.club.p2p_charge_rate is not None else {}),
        },
    )


def _boards(scored: ScoredSession) -> list[ParsedBoard]:
    """One ParsedBoard per board and section with results, in board order."""
    boards: dict[tuple[int, str], ParsedBoard] = {}
    for result in scored.results:
        board = result.board
        letter = result.section.letter
        parsed = boards.get((board.number, letter))
        if parsed is None:
            parsed = boards[(board.number, letter)] = ParsedBoard(
                number=board.number, section=letter, lines=[], dealer=board.dealer,
                vulnerability=board.vulnerability, deal=board.deal or None,
            )
        parsed.lines.append(_line(scored, result))
    return list(boards.values())


def _line(scored: ScoredSession, result: Result) -> ParsedLine:
    ours = scored.scored_line(result)
    letter = result.section.letter
    if result.kind == ResultKind.ASSIGNED_POINTS:  # the director's figures, exactly as set
        ns_points, ew_points = result.assigned_ns_points, result.assigned_ew_points
    else:
        ns_points = published(ours.ns_points) if ours else None
        ew_points = published(ours.ew_points) if ours else None
    return ParsedLine(
        ns_pair=pair_key(result.ns_pair, letter),
        ew_pair=pair_key(result.ew_pair, letter),
        contract=contract_text(result),
        declarer=result.declarer,
        tricks=result.tricks,
        lead=result.lead,
        score=score_text(result),
        published_ns_points=ns_points,
        published_ew_points=ew_points,
        published_datum=ours.datum if ours else None,
        round=result.round,
        table=result.table,
        assigned=result.kind == ResultKind.ASSIGNED_POINTS,
    )
