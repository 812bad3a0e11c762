"""A scored session as plain tables (rankings, travellers, score cards, settings),
for the spreadsheet and CSV exporters: one place decides what the columns are.

Figures are the engine's (session_score) rounded for display to two decimals,
halves away from zero, as the pages show them; values are str, int or Decimal.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from sessions.models import Handicap, Pair, Result, ResultKind, ScoringMethod
from sessions.core.selectors.engine_input import pair_key
from sessions.pairs.selectors.events import CombinedRanking, EventSessionView
from sessions.core.selectors.scored import ScoredSession
from sessions.pairs.services.events import EVENT_SETTINGS

from sessions.transfer.to_parsed import contract_text, published

Value = str | int | Decimal | None
POINTS = "0.00"
PERCENT = "0.00"


@dataclass(frozen=True)
class Column:
    title: str
    width: int = 10
    number_format: str | None = None


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[Column, ...]
    rows: tuple[tuple[Value, ...], ...]


def rankings(scored: ScoredSession) -> Table:
    matchpoints = scored.is_matchpoints
    columns = [Column("Field", 8), Column("Place", 7), Column("Pair", 8), Column("Names", 36),
               Column("Boards", 8), Column("Total", 10, POINTS)]
    columns.append(Column("Percentage", 11, PERCENT) if matchpoints else Column("Average", 10, POINTS))
    # A handicap event (RULES 8): the handicapped figures beside the scratch ones.
    handicapped = matchpoints and scored.session.event.handicap != Handicap.NONE
    if handicapped:
        columns += [Column("Handicapped %", 13, PERCENT), Column("Handicapped place", 10)]
    rows = []
    several = _several_sections(scored)
    for field_name, ranked in scored.rankings():
        for entry in ranked:
            standing = entry.standing
            figure = standing.percentage if matchpoints else standing.average
            row: tuple[Value, ...] = (
                field_name or "All", standing.place, _label(entry.pair, several), entry.pair.names,
                standing.boards_played, published(standing.total), published(figure),
            )
            if handicapped:
                row += (published(standing.handicapped), standing.handicap_place)
            rows.append(row)
    return Table("Rankings", tuple(columns), tuple(rows))


def _several_sections(scored: ScoredSession) -> bool:
    """Whether the session's pairs are in more than one section (labels then name it)."""
    return len({pair.section_id for pair in scored.pairs.values()}) > 1


def _label(pair: Pair, several: bool) -> str:
    return f"{pair.section.letter}:{pair.label}" if several else pair.label


def _loaded_pairs(scored: ScoredSession) -> dict[int, Pair]:
    """The session's pairs by id, with sections and players loaded (no query per line)."""
    return {pair.pk: pair for pair in scored.pairs.values()}


def _ns_score(result: Result) -> int | None:
    return result.ns_score if result.kind in (ResultKind.PLAYED, ResultKind.PASSED, ResultKind.ASSIGNED) else None


def travellers(scored: ScoredSession) -> Table:
    matchpoints = scored.is_matchpoints
    butler = scored.session.event.method == ScoringMethod.BUTLER
    columns = [
        Column("Board", 7), Column("Section", 8), Column("Round", 7), Column("Table", 7), Column("NS", 7),
        Column("EW", 7), Column("Result", 14), Column("Contract", 9), Column("By", 4), Column("Tricks", 7),
        Column("Lead", 6), Column("NS score", 9), Column("EW score", 9),
        Column("NS points", 10, POINTS), Column("EW points", 10, POINTS),
    ]
    if matchpoints:
        columns.append(Column("NS %", 8, PERCENT))
    if butler:
        columns.append(Column("Datum", 8))
    rows = []
    for result in scored.results:
        ours = scored.scored_line(result)
        ns = _ns_score(result)
        row: list[Value] = [
            result.board.number, result.section.letter, result.round, result.table,
            result.ns_pair.label, result.ew_pair.label, result.text, contract_text(result),
            result.declarer, result.tricks, result.lead, ns, None if ns is None else -ns,
            published(ours.ns_points) if ours else None, published(ours.ew_points) if ours else None,
        ]
        if matchpoints:
            row.append(published(ours.ns_percent) if ours else None)
        if butler:
            row.append(ours.datum if ours else None)
        rows.append(tuple(row))
    return Table("Travellers", tuple(columns), tuple(rows))


def score_cards(scored: ScoredSession) -> Table:
    """Every pair's boards, from the pair's side: its score, its points."""
    matchpoints = scored.is_matchpoints
    columns = [Column("Pair", 8), Column("Names", 36), Column("Board", 7), Column("Sat", 5),
               Column("Against", 8), Column("Result", 14), Column("Score", 8), Column("Points", 9, POINTS)]
    if matchpoints:
        columns.append(Column("%", 8, PERCENT))
    by_pair: dict[str, list[tuple[Value, ...]]] = {key: [] for key in scored.pairs}
    pairs = _loaded_pairs(scored)
    several = _several_sections(scored)
    labels = {pk: _label(pair, several) for pk, pair in pairs.items()}
    for result in scored.results:
        ours = scored.scored_line(result)
        ns = _ns_score(result)
        ns_pair, ew_pair = pairs[result.ns_pair_id], pairs[result.ew_pair_id]
        for side, pair, other in (("NS", ns_pair, ew_pair), ("EW", ew_pair, ns_pair)):
            sign = 1 if side == "NS" else -1
            points = (ours.ns_points if side == "NS" else ours.ew_points) if ours else None
            row: list[Value] = [
                labels[pair.pk], pair.names, result.board.number, side, labels[other.pk], result.text,
                None if ns is None else sign * ns, published(points),
            ]
            if matchpoints:
                percent = (ours.ns_percent if side == "NS" else ours.ew_percent) if ours else None
                row.append(published(percent))
            by_pair[pair_key(pair, pair.section.letter)].append(tuple(row))
    rows = tuple(row for key in scored.pairs for row in by_pair[key])
    return Table("Score cards", tuple(columns), rows)


def settings(scored: ScoredSession) -> Table:
    session = scored.session
    event = session.event
    rows: list[tuple[Value, ...]] = [
        ("Club", event.club.name), ("Event", event.name), ("Session", session.name),
        ("Date", session.date.isoformat()), ("Movement", session.get_movement_kind_display()),
        ("Movement details", session.movement_description), ("Tables", session.tables),
        ("Rounds", session.rounds), ("Boards", session.board_count),
        ("Published", "yes" if session.published else "no"),
    ]
    for name in EVENT_SETTINGS:
        if name == "name":
            continue
        model_field = event._meta.get_field(name)
        rows.append((str(model_field.verbose_name).capitalize(), _setting_shown(model_field, getattr(event, name))))
    return Table("Settings", (Column("Setting", 28), Column("Value", 60)), tuple(rows))


#: What an empty setting means, for the settings that can be empty.
EMPTY_SETTINGS = {"line_decimals": "exact", "sessions_counted": "every session"}


def _setting_shown(model_field, value: object) -> str:
    if value is None:
        return EMPTY_SETTINGS[model_field.name]
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(dict(model_field.choices).get(value, value) if model_field.choices else value)


def all_tables(scored: ScoredSession) -> list[Table]:
    return [rankings(scored), travellers(scored), score_cards(scored), settings(scored)]


# --- an event's sessions ranked together ---------------------------------------------

#: The combined total's heading, by the way the event combines its sessions (RULES 11).
COMBINED_TOTALS = {"scaled": "Total MP", "average": "Average %", "carry_forward": "Total %", "imps": "Total IMPs"}
#: Characters a sheet's name cannot hold (Excel), and its longest name.
SHEET_FORBIDDEN = str.maketrans({character: " " for character in "[]:*?/\\"})
SHEET_NAME_LENGTH = 31


def combined(ranking: CombinedRanking) -> Table:
    """The event's combined ranking: one column per session counted, then the total."""
    views = ranking.counted_sessions
    columns = [Column("Place", 7), Column("Players", 36), Column("Played", 8)]
    columns += [Column(_session_title(view), 14, POINTS) for view in views]
    if ranking.options.best:
        columns.append(Column("Not counted", 14))
    carry_forward = ranking.combination == "carry_forward"
    if carry_forward:
        columns.append(Column("Carried", 10, POINTS))
    columns.append(Column(COMBINED_TOTALS[ranking.combination], 12, POINTS))
    rows = []
    for row in ranking.rows:
        standing = row.standing
        cells = [row.cells.get(view.key) for view in views]
        values: list[Value] = [standing.place, row.name, standing.played]
        values += [published(cell.score.score) if cell else None for cell in cells]
        if ranking.options.best:
            dropped = [view.label for view, cell in zip(views, cells) if cell and not cell.score.counted]
            values.append(", ".join(dropped))
        if carry_forward:
            values.append(published(standing.carried))
        values.append(published(standing.total))
        rows.append(tuple(values))
    return Table("Combined", tuple(columns), tuple(rows))


def _session_title(view: EventSessionView) -> str:
    title = f"{view.label} {view.session.date.isoformat()}"
    return title if view.session.published else f"{title} (unpublished)"


def event_tables(ranking: CombinedRanking) -> list[Table]:
    """The combined table, then each session's rankings on a sheet named after it."""
    views = {view.session.pk: view for view in ranking.counted_sessions}
    tables = [combined(ranking)]
    for scored in ranking.scored:
        view = views[scored.session.pk]
        name = f"{view.label} {scored.session.name}".translate(SHEET_FORBIDDEN)[:SHEET_NAME_LENGTH].strip()
        ranked = rankings(scored)
        tables.append(Table(name, ranked.columns, ranked.rows))
    return tables
