"""The players' tables (django-tables2): rankings, travellers and score cards.

Rows are the selectors' objects (sessions.pairs.selectors.public), already loaded: sorting
happens in Python through each column's ``order_by`` accessors, so a ?sort= never
adds a query. ``render_<col>`` writes the page (suit symbols, links, 2 decimals);
``value_<col>`` gives the plain figure for an export. Figures are exact fractions
until here and are rounded only when shown (sessions.scoring.format_points).

A national simultaneous pairs shows 2 x 60 ranked pairs on a page: what is the same for
every cell (a column's render signature and cell attributes, the links' URLs but for an
id) is worked out once a table (PublicTable: sessions.core.tables_speed; pk_urls), not once a cell.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING

import django_tables2 as tables
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.text import Truncator

from sessions.models import Pair, ScoringMethod
from sessions.scoring import format_points
from sessions.core.tables_speed import speed_up
from sessions.templatetags.clubscore import linked_names, player_link, side_score, signed
from sessions.templatetags.teams import figure

if TYPE_CHECKING:
    from sessions.analysis.selectors.analysis import BoardAnalysisView
    from sessions.pairs.selectors.public import AwardShown
    from sessions.clubs.selectors.strata import PairStratum

SUITS = {"S": ("♠", "spades"), "H": ("♥", "hearts"), "D": ("♦", "diamonds"), "C": ("♣", "clubs")}
RED_SUITS = {"H", "D"}


def _cells(css_class: str) -> dict[str, dict[str, str]]:
    return {"th": {"class": css_class}, "td": {"class": css_class}, "tf": {"class": css_class}}


# Figures align right (clubscore.css). Each table starts with what identifies the row.
NUMBER = _cells("num")
# Columns a phone does without (clubscore.css hides them below 30rem), so that what
# matters fits a 390 px screen with no sideways swipe, in the page or in the table.
WIDE_ONLY = _cells("wide-only")
NUMBER_WIDE_ONLY = _cells("num wide-only")
# Text that wraps (names of sessions and events) rather than widening its column.
WRAP = _cells("wrap")


def suit_symbol(letter: str) -> SafeString:
    """A suit as its symbol, red or black, with its name for screen readers."""
    symbol, name = SUITS[letter]
    colour = "red" if letter in RED_SUITS else "black"
    return format_html('<span class="suit {}" role="img" aria-label="{}">{}</span>', colour, name, symbol)


def contract_html(contract: str) -> SafeString | str:
    """"4SX" -> 4♠X; anything else ("3NT", "PASS", "A60/40") as it is, escaped."""
    if len(contract) >= 2 and contract[0].isdigit() and contract[1] in SUITS:
        return format_html("{}{}{}", contract[0], suit_symbol(contract[1]), contract[2:])
    return contract


def card_html(card: str) -> SafeString | str:
    """A lead "HK" -> ♥K."""
    if len(card) >= 2 and card[0] in SUITS:
        return format_html("{}{}", suit_symbol(card[0]), card[1:])
    return card


def scorecard_url(pair: Pair, session_id: int) -> str:
    return reverse("sessions:scorecard", args=[session_id, pair.pk])


#: A number no real id reaches, reversed in its place (pk_urls).
_SOME_PK = 2_147_483_647


def pk_urls(viewname: str, *args: int) -> Callable[[int], str]:
    """``reverse(viewname, args=[*args, pk])`` for any ``pk``, at the cost of one reverse():
    a page of 2 x 60 ranked pairs links 360 score cards and players. Built per table (a
    request's script prefix and URLconf), never kept across requests."""
    head, _, tail = reverse(viewname, args=[*args, _SOME_PK]).rpartition(str(_SOME_PK))
    return lambda pk: f"{head}{pk}{tail}"


class PointsColumn(tables.Column):
    """Matchpoints, IMPs or a percentage: 2 decimals on the page, the exact value sorted."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("attrs", NUMBER)
        super().__init__(*args, **kwargs)

    def render(self, value: Fraction) -> str:
        return format_points(value)


#: The mark beside points the director assigned; the page's footnote says what it means.
ASSIGNED_MARK = "\u2020"


class LinePointsColumn(PointsColumn):
    """A line's points, marked when the director assigned them (the footnote explains);
    exported as the figure alone."""

    def line(self, record):
        return record

    def render(self, value: Fraction, record) -> SafeString | str:
        shown = format_points(value)
        if not self.line(record).has_assigned_points:
            return shown
        return format_html('{}<abbr class="assigned-mark" title="{}">{}</abbr>', shown,
                           "assigned by the director", ASSIGNED_MARK)

    def value(self, value: Fraction) -> str:
        return format_points(value)


class ScorecardPointsColumn(LinePointsColumn):
    """A score card's points (rows are ScorecardRow)."""

    def line(self, record):
        return record.line


class ContractColumn(tables.Column):
    """A contract with its suit symbol; exported as written ("4SX")."""

    def render(self, value: str) -> SafeString | str:
        return contract_html(value)

    def value(self, value: str) -> str:
        return value


class PlayedContractColumn(ContractColumn):
    """A traveller's contract, followed on a phone (which hides the declarer and result
    columns) by its declarer and result: "4♠ N +1". Exported as written ("4S")."""

    def line(self, record):
        return record

    def render(self, value: str, record) -> SafeString | str:
        line = self.line(record)
        played = " ".join(part for part in (line.declarer, line.outcome) if part)
        if not played:
            return contract_html(value)
        return format_html('{}<span class="phone-only"> {}</span>', contract_html(value), played)


class ScorecardContractColumn(PlayedContractColumn):
    """A score card's contract (rows are ScorecardRow): as on the traveller, "4♠ N +1" on a phone."""

    def line(self, record):
        return record.line


class CardColumn(tables.Column):
    """A lead with its suit symbol; exported as written ("HK")."""

    def render(self, value: str) -> SafeString | str:
        return card_html(value)

    def value(self, value: str) -> str:
        return value


class SideScoreColumn(tables.Column):
    """A traveller's NS or EW score column: the side that scored the points shows them."""

    def __init__(self, side: str, **kwargs):
        kwargs.setdefault("attrs", NUMBER)
        super().__init__(**kwargs)
        self.side = side

    def render(self, value: int) -> str:
        return side_score(value, self.side)


class SignedScoreColumn(tables.Column):
    """A score from one pair's side: "+420", "-50"."""

    def render(self, value: int) -> str:
        return signed(value)


class LineAnalysisColumn(tables.Column):
    """One figure of a traveller line against double dummy (the table's ``analysis``).

    Blank for a line without one (an assigned score; no DD tricks for a pass). Not
    sortable: the figures are not on the rows (and "v par" would sort as the NS score).
    """

    def __init__(self, figure: str, **kwargs):
        kwargs.setdefault("attrs", NUMBER)
        super().__init__(accessor="result__pk", orderable=False, **kwargs)
        self.figure = figure

    def figure_of(self, result_id: int, table: tables.Table) -> int | None:
        line = table.analysis.line(result_id) if table.analysis is not None else None
        return getattr(line, self.figure) if line is not None else None

    def render(self, value: int, table: tables.Table) -> str:
        figure = self.figure_of(value, table)
        return "" if figure is None else str(figure)

    def value(self, value: int, table: tables.Table) -> int | str:
        figure = self.figure_of(value, table)
        return "" if figure is None else figure


class AgainstParColumn(LineAnalysisColumn):
    def render(self, value: int, table: tables.Table) -> str:
        figure = self.figure_of(value, table)
        return "" if figure is None else signed(figure)


class PublicTable(tables.Table):
    # django-tables2 reads only a class's own Meta: every table below subclasses this one.
    class Meta:
        attrs = {"class": "results"}
        orderable = True
        empty_text = "No result entered."
        default = ""
        template_name = "core/public/table.html"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        speed_up(self)  # what is the same for every cell, worked out once (sessions.core.tables_speed)


class SessionTable(PublicTable):
    """A table of one session's pairs or lines, linked to its score cards and players."""

    class Meta(PublicTable.Meta):
        pass

    def __init__(self, *args, session_id: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.session_id = session_id

    @cached_property
    def scorecard_url(self) -> Callable[[int], str]:
        """A pair's score card in this session, by the pair's id."""
        return pk_urls("sessions:scorecard", self.session_id)

    @cached_property
    def player_url(self) -> Callable[[int], str]:
        """A player's page, by the player's id."""
        return pk_urls("sessions:player")


class ScorecardLinkColumn(tables.Column):
    """A pair's label (``pair`` names it on the row), a link to its score card in the
    table's session (a SessionTable); exported as the label."""

    def __init__(self, pair: str, **kwargs):
        super().__init__(accessor=f"{pair}__label", **kwargs)
        self.pair = pair

    def render(self, value: str, record, table: SessionTable) -> SafeString:
        return format_html('<a href="{}">{}</a>', table.scorecard_url(getattr(record, self.pair).pk), value)

    def value(self, value: str) -> str:
        return value


# --- rankings -------------------------------------------------------------------------


class RankingTable(SessionTable):
    """One field's ranking: rows are RankedPair(pair, standing), best first."""

    place = tables.Column(accessor="standing__place", order_by=("standing__rank", "pair__number"))
    pair = ScorecardLinkColumn("pair", order_by=("pair__section__letter", "pair__number"))
    # Each name leads to that player's page (every session, partner and percentage);
    # the pair's number leads to this session's score card.
    players = tables.Column(accessor="pair__names", verbose_name="Players", attrs={"td": {"class": "names"}})
    total = PointsColumn(accessor="standing__total", verbose_name="MP")
    percentage = PointsColumn(accessor="standing__percentage", verbose_name="%")
    average = PointsColumn(accessor="standing__average", verbose_name="Average")
    # A handicap event (RULES 8): the handicapped percentage and its place beside the scratch ones.
    handicapped = PointsColumn(accessor="standing__handicapped", verbose_name="Handicapped %")
    handicap_place = tables.Column(
        accessor="standing__handicap_place", verbose_name="Handicapped place",
        order_by=("standing__handicap_rank", "pair__number"),
    )
    boards = tables.Column(accessor="standing__boards_played", verbose_name="Boards", attrs=NUMBER_WIDE_ONLY)
    # A procedural penalty (Law 90, RULES 13): what it took off the total, shown only
    # when a pair of the field carries one (its reason in the page's footnote).
    penalty = PointsColumn(accessor="standing__penalty", verbose_name="Penalty (P)")

    class Meta(PublicTable.Meta):
        pass

    # The master points each pair won, once the session is final (RULES 12).
    masterpoints = tables.Column(empty_values=(), verbose_name="Master points", orderable=False, attrs=NUMBER)
    # A stratified event (RULES 15): the pair's stratum, and its places in it and each above.
    stratum = tables.Column(empty_values=(), verbose_name="Stratum", orderable=False)
    stratum_places = tables.Column(empty_values=(), verbose_name="Stratum places", orderable=False)

    def __init__(self, *args, is_matchpoints: bool, handicapped: bool = False,
                 awards: Mapping[int, AwardShown] | None = None, strata: Mapping[Hashable, PairStratum] | None = None,
                 **kwargs):
        self.awards = awards or {}
        self.strata = strata or {}
        excluded: tuple[str, ...] = ("average",) if is_matchpoints else ("percentage",)
        if not (is_matchpoints and handicapped):
            excluded += ("handicapped", "handicap_place")
        if not self.awards:
            excluded += ("masterpoints",)
        if not self.strata:
            excluded += ("stratum", "stratum_places")
        rows = args[0] if args else kwargs.get("data", ())
        if not any(getattr(row.standing, "penalty", 0) for row in rows):
            excluded += ("penalty",)
        kwargs["exclude"] = excluded
        super().__init__(*args, **kwargs)
        if not is_matchpoints:
            self.columns["total"].column.verbose_name = "IMPs"
        if self.awards:
            self.columns["masterpoints"].column.verbose_name = next(iter(self.awards.values())).column

    def render_penalty(self, value: Fraction) -> str:
        return f"-{format_points(value)}" if value else ""

    def value_penalty(self, value: Fraction) -> str:
        return self.render_penalty(value)

    def render_stratum(self, record) -> str:
        found = self.strata.get(record.pair.pk)
        return found.letter if found else ""

    def value_stratum(self, record) -> str:
        return self.render_stratum(record)

    def render_stratum_places(self, record) -> str:
        found = self.strata.get(record.pair.pk)
        return found.places_text if found else ""

    def value_stratum_places(self, record) -> str:
        return self.render_stratum_places(record)

    def render_masterpoints(self, record) -> str:
        award = self.awards.get(record.pair.pk)
        return award.text if award else ""

    def value_masterpoints(self, record) -> str:
        return self.render_masterpoints(record)

    def render_players(self, record) -> SafeString:
        return linked_names(record.pair, self.player_url)

    def value_players(self, record) -> str:
        return record.pair.names


# --- a board's traveller --------------------------------------------------------------


class TravellerTable(SessionTable):
    """One board's lines: rows are TravellerRow.

    With a finished double-dummy ``analysis`` of the board, each line also shows the DD
    tricks of the contract played (for its declarer) and its NS score against par;
    without one those two columns are left out.

    On a phone the pairs, contract, scores, result against par and points fit the
    screen: the declarer, lead, result and DD columns are hidden, and the contract cell
    carries the declarer and result instead ("4♠ N +1").
    """

    ns_pair = ScorecardLinkColumn("ns_pair", verbose_name="NS", order_by=("ns_pair__number",))
    ew_pair = ScorecardLinkColumn("ew_pair", verbose_name="EW", order_by=("ew_pair__number",))
    contract = PlayedContractColumn()
    declarer = tables.Column(verbose_name="By", attrs=WIDE_ONLY)
    lead = CardColumn(accessor="result__lead", verbose_name="Lead", attrs=WIDE_ONLY)
    outcome = tables.Column(verbose_name="Result", orderable=False, attrs=WIDE_ONLY)
    dd_tricks = LineAnalysisColumn("dd_tricks", verbose_name="DD", attrs=NUMBER_WIDE_ONLY)
    ns_score = SideScoreColumn("NS", accessor="result__ns_score", verbose_name="NS score",
                               order_by=("-result__ns_score",))
    ew_score = SideScoreColumn("EW", accessor="result__ns_score", verbose_name="EW score",
                               order_by=("result__ns_score",))
    against_par = AgainstParColumn("against_par", verbose_name="v par")
    ns_points = LinePointsColumn(verbose_name="NS MP")
    ew_points = LinePointsColumn(verbose_name="EW MP")
    datum = tables.Column(verbose_name="Datum", attrs=NUMBER)

    class Meta(PublicTable.Meta):
        pass

    def __init__(self, *args, method: str, analysis: BoardAnalysisView | None = None, **kwargs):
        exclude = [] if method == ScoringMethod.BUTLER else ["datum"]
        if analysis is None or not analysis.is_done:
            exclude += ["dd_tricks", "against_par"]
        kwargs["exclude"] = tuple(exclude)
        super().__init__(*args, **kwargs)
        self.analysis = analysis
        if method != ScoringMethod.MATCHPOINTS:
            self.columns["ns_points"].column.verbose_name = "NS IMPs"
            self.columns["ew_points"].column.verbose_name = "EW IMPs"


# --- a pair's score card --------------------------------------------------------------


class DealColumn(tables.Column):
    """A board's number, a link to the traveller of the deal the line was played on (a
    section's own deal has its own: ?section=B); exported as the number."""

    def render(self, value: int, record, table: ScorecardTable) -> SafeString:
        result = record.line.result
        url = table.board_url(result.board.number)
        if result.board.section_id:
            url = f"{url}?section={result.section.letter}"
        return format_html('<a href="{}">{}</a>', url, value)

    def value(self, value: int) -> int:
        return value


class ScorecardTable(SessionTable):
    """A pair's boards: rows are ScorecardRow; the footer carries the session's totals.

    On a phone the board, opponents, contract, score and points fit the screen: the
    seat, declarer, lead and result columns and the opponents' names are hidden, and
    the contract cell carries the declarer and result instead ("4♠ N +1").
    """

    board = DealColumn(verbose_name="Board", footer="Total")
    side = tables.Column(verbose_name="Sat", attrs=WIDE_ONLY)
    opponents = tables.Column(
        accessor="opponents__label", order_by=("opponents__number",),
        verbose_name=format_html('<abbr title="{}">{}</abbr>', "Opponents", "Opps"),  # short: for a phone
    )
    contract = ScorecardContractColumn(accessor="line__contract")
    declarer = tables.Column(accessor="line__declarer", verbose_name="By", attrs=WIDE_ONLY)
    lead = CardColumn(accessor="line__result__lead", verbose_name="Lead", attrs=WIDE_ONLY)
    outcome = tables.Column(accessor="line__outcome", verbose_name="Result", orderable=False, attrs=WIDE_ONLY)
    score = SignedScoreColumn(verbose_name="Score", attrs=NUMBER)
    points = ScorecardPointsColumn(
        verbose_name="MP", footer=lambda table: format_points(table.points_total)
    )
    percent = PointsColumn(verbose_name="%", footer=lambda table: format_points(table.percentage))

    class Meta(PublicTable.Meta):
        pass

    def __init__(self, *args, is_matchpoints: bool, points_total: Fraction,
                 percentage: Fraction | None = None, **kwargs):
        kwargs["exclude"] = () if is_matchpoints else ("percent",)
        super().__init__(*args, **kwargs)
        self.points_total, self.percentage = points_total, percentage
        if not is_matchpoints:
            self.columns["points"].column.verbose_name = "IMPs"

    @cached_property
    def board_url(self) -> Callable[[int], str]:
        """A board's traveller in this session, by its number."""
        return pk_urls("sessions:board", self.session_id)

    def render_opponents(self, record) -> SafeString:
        """The opponents' number, a link to their score card, and their names, each a link
        to the player's page (the names are hidden on a phone, the number stays)."""
        opponents = record.opponents
        names = format_html('<span class="names">{}</span>', linked_names(opponents, self.player_url)) \
            if opponents.names else ""
        return format_html('<a href="{}">{}</a> {}', self.scorecard_url(opponents.pk), opponents.label, names)


# --- a club's sessions ----------------------------------------------------------------


class SessionListTable(PublicTable):
    """A club's published sessions (a queryset: sorted and paged by the database)."""

    date = tables.DateColumn(format="D j M Y")
    name = tables.Column(
        verbose_name="Session", attrs=WRAP,
        linkify=lambda record: reverse("sessions:session_results", args=[record.pk]),
    )
    event = tables.Column(
        accessor="event__name", verbose_name="Event", attrs=WRAP,
        linkify=lambda record: reverse("sessions:event_results", args=[record.event_id]),
    )
    movement = tables.Column(accessor="movement_description", verbose_name="Movement", attrs=WIDE_ONLY)

    class Meta(PublicTable.Meta):
        empty_text = "No results published yet."


# --- an event's sessions ranked together ----------------------------------------------

#: The combined total's heading, by the way the event combines its sessions (RULES 11).
COMBINED_TOTALS = {"scaled": "MP", "average": "%", "carry_forward": "%", "imps": "IMPs"}


class SessionScoreColumn(tables.Column):
    """A competitor's figure in one session, linked to its score card there; a session
    outside its best N in parentheses ("not counted" for screen readers). On a phone the
    sessions are hidden: the place, names and total fit, the sessions are listed above."""

    def __init__(self, view, *, heading: SafeString | str, card_links: bool):
        super().__init__(accessor="cells", verbose_name=heading, orderable=False, attrs=NUMBER_WIDE_ONLY)
        self.key = view.key
        self.session_id = view.session.pk
        self.card_links = card_links

    def render(self, value) -> SafeString | str:
        cell = value.get(self.key)
        if cell is None:
            return ""
        shown = format_points(cell.score.score)
        if not cell.score.counted:
            shown = format_html('<span class="dropped">({})<span class="visually-hidden"> not counted</span></span>',
                                shown)
        if not self.card_links:
            return shown
        return format_html('<a href="{}">{}</a>', scorecard_url(cell.pair, self.session_id), shown)

    def value(self, value) -> str:
        cell = value.get(self.key)
        return "" if cell is None else format_points(cell.score.score)


class CombinedTable(PublicTable):
    """An event's combined ranking: rows are CombinedRow (sessions.pairs.selectors.events).

    ``session_link(view)`` gives each session's heading its link (the public ranking, or
    the director's standings); unpublished sessions (the director's page) are marked.
    """

    place = tables.Column(accessor="place", order_by=("position",))
    name = tables.Column(accessor="name", verbose_name="Players", attrs={"td": {"class": "names"}})
    played = tables.Column(accessor="standing__played", verbose_name="Played", attrs=NUMBER_WIDE_ONLY)
    carried = PointsColumn(accessor="standing__carried", verbose_name="Carried", attrs=NUMBER_WIDE_ONLY)
    total = PointsColumn(accessor="total", order_by=("position",))

    class Meta(PublicTable.Meta):
        empty_text = "No result in any session yet."
        sequence = ("place", "name", "played", "...", "carried", "total")

    def __init__(self, rows, *, ranking, session_link, card_links: bool = True, **kwargs):
        columns = [
            (f"session_{view.key}", SessionScoreColumn(
                view, heading=_session_heading(view, session_link(view)), card_links=card_links and view.session.published,
            ))
            for view in ranking.counted_sessions
        ]
        kwargs["exclude"] = () if ranking.combination == "carry_forward" else ("carried",)
        super().__init__(rows, extra_columns=columns, **kwargs)
        self.columns["total"].column.verbose_name = COMBINED_TOTALS[ranking.combination]


def _session_heading(view, url: str) -> SafeString:
    mark = "" if view.session.published else format_html(' <abbr title="{}">*</abbr>', "not published")
    return format_html('<a href="{}" title="{}">{}</a>{}', url, view.session.name, view.label, mark)


# --- a player's sessions --------------------------------------------------------------


class PlayerHistoryTable(PublicTable):
    """A player's published sessions, newest first: rows are PlayedSession.

    Not sortable: a history reads in time order, and a column mixing percentages and
    IMPs has no one order. The score links to the pair's score card for that session.
    On a phone the date moves under the session's name, so that session, partner,
    score and place fit the screen.
    """

    date = tables.DateColumn(accessor="session__date", format="j M Y", verbose_name="Date", attrs=WIDE_ONLY)
    session = tables.Column(accessor="session__name", verbose_name="Session", attrs=WRAP)
    partner = tables.Column(accessor="partner__name", verbose_name="Partner", attrs=WRAP)
    score = tables.Column(accessor="pair__pk", verbose_name="Score", attrs=NUMBER)
    place = tables.Column(accessor="pair__pk", verbose_name="Place", attrs=_cells("num wrap"))

    class Meta(PublicTable.Meta):
        orderable = False
        empty_text = "No published session yet."

    def render_session(self, record) -> SafeString:
        session = record.session
        return format_html(
            '<a href="{}">{} <span class="names"><span class="phone-only">{} &middot; </span>{}</span></a>',
            reverse("sessions:session_results", args=[session.pk]), session.event.name,
            date_format(session.date, "j M Y"), session.name,
        )

    def render_partner(self, record) -> SafeString | str:
        if record.partners:  # partners changed during the session
            return format_html_join(", ", "{}", ((player_link(partner),) for partner in record.partners))
        return player_link(record.partner)

    def render_score(self, record) -> SafeString:
        link = format_html('<a href="{}" title="{}">{}</a>', scorecard_url(record.pair, record.session.pk),
                           f"Score card of pair {record.pair.label}", self._score_text(record))
        if record.rounds:  # a change of player: the figure is over the boards of these rounds
            return format_html('{} <span class="names">{}</span>', link, record.rounds)
        return link

    @staticmethod
    def _score_text(record) -> str:
        if record.ranking_hidden:
            return "later"  # the event shows figures once the session is final
        if record.percentage is not None:
            return f"{format_points(record.percentage)}%"
        if record.imps is not None:
            return f"{format_points(record.imps)} IMPs"
        return "card"  # the pair has no scored board yet

    def render_place(self, record) -> SafeString | str:
        """"2= of 7", and on a wide screen the field under it ("East-West")."""
        if record.standing is None:
            return ""
        return format_html('{} of {} <span class="names wide-only">{}</span>',
                           record.standing.place, record.field_size, record.field_title)


# --- teams events -----------------------------------------------------------------------
#
# Rows come from sessions.teams.selectors.teams, scored once for the page (team_event_score):
# the tables read them and add no query. Not sortable: standings read best first and
# matches round by round. IMPs and VPs show as a scorecard writes them (whole numbers
# plain, else 2 decimals: the teams filter ``figure``); an export takes the same text
# without the links.


class TeamsTable(PublicTable):
    class Meta(PublicTable.Meta):
        orderable = False
        empty_text = "No team yet."


class FigureColumn(tables.Column):
    """IMPs, VPs or board-a-match points: "10", "12.18", on the page as in an export."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("attrs", NUMBER)
        super().__init__(*args, **kwargs)

    def render(self, value) -> str:
        return figure(value)


class AfterRoundColumn(FigureColumn):
    """A team's running total after one round (rows are StandingRow)."""

    def __init__(self, index: int, round: int) -> None:
        super().__init__(accessor="after_round", verbose_name=f"After round {round}", attrs=NUMBER_WIDE_ONLY,
                         empty_values=())
        self.index = index

    def render(self, value) -> str:
        return figure(value[self.index])


def team_event_url(name: str, event_id: int, *args: int) -> str:
    return reverse(f"sessions:{name}", args=[event_id, *args])


class TeamStandingsTable(TeamsTable):
    """The standings: rows are StandingRow, best first, with the VPs after each round."""

    place = tables.Column()
    team = tables.Column(accessor="team__name", verbose_name="Team", attrs={"td": {"class": "names"}})
    total = FigureColumn(verbose_name="VPs")
    imps = tables.Column(accessor="imps_for", verbose_name="IMPs +/-", attrs=NUMBER_WIDE_ONLY)

    class Meta(TeamsTable.Meta):
        pass

    def __init__(self, rows, *, event, rounds, link: bool = True, **kwargs):
        extra = [(f"round_{round}", AfterRoundColumn(index, round)) for index, round in enumerate(rounds)]
        super().__init__(rows, extra_columns=extra, sequence=("place", "team", "...", "total", "imps"), **kwargs)
        self.event, self.link = event, link
        if event.scoring == "bam":
            self.columns["total"].column.verbose_name = "Points"

    def render_team(self, record) -> SafeString | str:
        label = f"{record.team.number} {record.team.name}"
        if not self.link:
            return label
        return format_html('<a href="{}">{}</a>', team_event_url("team_page", self.event.pk, record.team.pk), label)

    def value_team(self, record) -> str:
        return record.team.name

    def render_imps(self, record) -> str:
        return f"{figure(record.imps_for)} / {figure(record.imps_against)}"


class TeamMatchesTable(TeamsTable):
    """Matches (a round's, or one team's): rows are ScoredMatch; the IMPs lead to the scorecard."""

    round = tables.Column(accessor="match__round", verbose_name="Round")
    home = tables.Column(accessor="match__home__name", verbose_name="Home", attrs={"td": {"class": "names"}})
    away = tables.Column(accessor="match__away", verbose_name="Away", attrs={"td": {"class": "names"}},
                         empty_values=())
    imps = tables.Column(accessor="outcome", verbose_name="IMPs", attrs=NUMBER, empty_values=())
    vps = tables.Column(accessor="match__pk", verbose_name="VPs", attrs=NUMBER)

    class Meta(TeamsTable.Meta):
        empty_text = "No match yet."

    def __init__(self, rows, *, event, with_round: bool = False, verdicts=None, **kwargs):
        super().__init__(rows, exclude=() if with_round else ("round",), **kwargs)
        self.event, self.verdicts = event, verdicts or {}
        if event.scoring == "bam":
            self.columns["vps"].column.verbose_name = "Points"

    def render_away(self, record) -> str:
        return record.match.away.name if record.match.away else "bye"

    def render_imps(self, record) -> SafeString | str:
        match = record.match
        if match.away is None:
            return ""
        outcome = record.outcome
        text = f"{figure(outcome.home_points)} - {figure(outcome.away_points)}" if outcome else "scorecard"
        return format_html('<a href="{}" aria-label="{}: {} v {}">{}</a>',
                           team_event_url("team_match", self.event.pk, match.pk),
                           text, match.home.name, match.away.name, text)

    def value_imps(self, record) -> str:
        outcome = record.outcome
        return f"{outcome.home_points}-{outcome.away_points}" if outcome else ""

    def render_vps(self, record) -> SafeString | str:
        match = record.match
        vps = "" if record.home_vp is None else figure(record.home_vp) + (
            f" - {figure(record.away_vp)}" if match.away else "")
        status = format_html(" <small>({})</small>", match.status) if match.status in ("average", "forfeit") else ""
        verdict = self.verdicts.get(match.pk, "")
        return format_html("{}{}{}", vps, status, format_html(" <strong>{}</strong>", verdict) if verdict else "")


class TeamScorecardTable(TeamsTable):
    """A match's boards, both rooms: rows are {number, open, closed, outcome} (lines or None)."""

    number = tables.Column(verbose_name="Board", footer=lambda table: table.totals.get("number", ""))
    open = tables.Column(accessor="open__text", verbose_name="Open room")
    open_score = FigureColumn(accessor="open__ns_score", verbose_name="Score")
    closed = tables.Column(accessor="closed__text", verbose_name="Closed room")
    closed_score = FigureColumn(accessor="closed__ns_score", verbose_name="Score")
    home = FigureColumn(accessor="outcome__home", footer=lambda table: table.totals.get("home", ""))
    away = FigureColumn(accessor="outcome__away", footer=lambda table: table.totals.get("away", ""))

    class Meta(TeamsTable.Meta):
        empty_text = "No board."

    def __init__(self, rows, *, scored, **kwargs):
        super().__init__(rows, **kwargs)
        match, outcome = scored.match, scored.outcome
        for side, team in (("home", match.home), ("away", match.away)):
            self.columns[side].column.verbose_name = format_html(
                '<abbr title="IMPs to {}">{}</abbr>', team.name, Truncator(team.name).chars(12))
        #: The footer: the match's totals (carry-over included), once anything is scored.
        self.totals = {} if outcome is None else {
            "number": "Total" + (" (carry-over included)" if match.carry_over else ""),
            "home": figure(outcome.home_points), "away": figure(outcome.away_points),
        }

    def render_home(self, value) -> str:
        return figure(value) if value else ""  # a push shows blank on both sides

    def render_away(self, value) -> str:
        return figure(value) if value else ""


class CrossCellColumn(tables.Column):
    """One opponent's column of the cross-table (rows are (team, cells))."""

    def __init__(self, index: int, team) -> None:
        super().__init__(accessor="1", verbose_name=format_html('<abbr title="{}">{}</abbr>', team.name, team.number),
                         attrs=NUMBER, empty_values=())
        self.index = index

    def render(self, value, table) -> SafeString | str:
        cell = value[self.index]
        if cell.own:
            return format_html('<span aria-label="{}">-</span>', "itself")
        if cell.match is None:
            return ""
        text = figure(cell.vp) if cell.vp is not None else format_html('<span aria-label="{}">·</span>', "to play")
        return format_html('<a href="{}">{}</a>', team_event_url("team_match", table.event.pk, cell.match.pk), text)

    def value(self, value) -> str:
        """The VPs alone, without the link (an export)."""
        return figure(value[self.index].vp)


class CrossTable(TeamsTable):
    """The round robin's cross-table: each team's VPs (row) against each other (column)."""

    team = tables.Column(accessor="0", verbose_name="Team")

    class Meta(TeamsTable.Meta):
        attrs = {"class": "results cross-table"}

    def __init__(self, rows, *, event, teams, **kwargs):
        extra = [(f"team_{team.pk}", CrossCellColumn(index, team)) for index, team in enumerate(teams)]
        super().__init__(rows, extra_columns=extra, **kwargs)
        self.event = event

    def render_team(self, value) -> str:
        return f"{value.number} {value.name}"
