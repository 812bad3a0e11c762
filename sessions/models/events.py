"""Events and their sessions: sections, pairs, boards and the movement's seatings.

An Event carries the scoring settings (the engine's ScoringOptions); a Session is one
afternoon's play under one movement. The movement's seatings are stored when the
session is created, so a session keeps its table plan even if the movement library
changes later, and checking "does this pair play this board" is a lookup.
"""

from collections.abc import Iterable
from decimal import Decimal
from fractions import Fraction

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.utils import timezone

from sessions.scoring import events as engine_events
from sessions.scoring.errors import ScoringError
from sessions.scoring.strata import strata_from_limits
from sessions.scoring import options as engine

from sessions.models.choices import Direction, MovementKind, Seat, Vulnerability
from sessions.models.clubs import Club, HandicapSource, Player, check_masterpoint_scale
from sessions.models.scorepads import DealEra
from sessions.models.revisions import KeepsRevisionOnSave, new_setup_token
from sessions.models.validation import ChecksInProcess


class ScoringMethod(models.TextChoices):
    MATCHPOINTS = engine.Method.MATCHPOINTS.value, "Matchpoints"
    CROSS_IMPS = engine.Method.CROSS_IMPS.value, "Cross-IMPs"
    BUTLER = engine.Method.BUTLER.value, "Butler IMPs"


class MatchpointScale(models.TextChoices):
    TWO_ONE = engine.Scale.TWO_ONE.value, "2 per result beaten (top = 2(n-1))"
    ACBL = engine.Scale.ACBL.value, "1 per result beaten (ACBL, top = n-1)"


class LineDisplay(models.TextChoices):
    NEUBERG = engine.LineDisplay.NEUBERG.value, "Lines factored to the full field (EBUScore, ScoreBridge, Ruter)"
    AS_PLAYED = engine.LineDisplay.AS_PLAYED.value, "Lines as played (Compscore3)"


class ShortBoards(models.TextChoices):
    NEUBERG = engine.ShortBoards.NEUBERG.value, "Neuberg factoring"
    RATIO = engine.ShortBoards.RATIO.value, "Ratio scaling"
    NONE = engine.ShortBoards.NONE.value, "No scaling: each board keeps its own top (BriAn)"


class LineDecimals(models.IntegerChoices):
    """Lines rounded as a program shows them, the totals adding the shown lines; null: exact."""

    ONE = 1, "Lines to 1 decimal, totals add the shown lines (ScoreBridge)"
    TWO = 2, "Lines to 2 decimals, totals add the shown lines (EBUScore)"


class CrossImps(models.TextChoices):
    AVERAGE = engine.CrossImpsMode.AVERAGE.value, "Averaged over the comparisons"
    SUM = engine.CrossImpsMode.SUM.value, "Summed"


class ButlerDatum(models.TextChoices):
    TRIMMED_MEAN = engine.ButlerDatum.TRIMMED_MEAN.value, "Mean without the top and bottom scores"
    MEDIAN_SMALL = engine.ButlerDatum.MEDIAN_SMALL.value, "Median when a board has 3 results or fewer"
    MEDIAN = engine.ButlerDatum.MEDIAN.value, "Median, whatever the number of results"


class ImpTotal(models.TextChoices):
    SUM = engine.ImpTotal.SUM.value, "The IMPs of the boards played, added up"
    SCALED = engine.ImpTotal.SCALED.value, "Scaled to the session's boards (Magic Contest, Pianola)"
    PER_COMPARISON = engine.ImpTotal.PER_COMPARISON.value, "IMPs per comparison (Ruter)"


class NotPlayed(models.TextChoices):
    REMOVED = engine.NotPlayedRule.REMOVED.value, "Left out of the board's comparisons"
    ZERO = engine.NotPlayedRule.ZERO.value, "Compared as a score of 0 (NZ Scorer)"


class ShortTotals(models.TextChoices):
    AS_LINES = engine.ShortTotals.AS_LINES.value, "As the lines are factored"
    TIES = engine.ShortTotals.TIES.value, "Each missing result a tie with every result (NZ Scorer)"


class Handicap(models.TextChoices):
    NONE = engine.Handicap.NONE.value, "None: scratch only"
    HALF = engine.Handicap.HALF.value, "50% of each pair's handicap (NZ Scorer)"
    FULL = engine.Handicap.FULL.value, "100% of each pair's handicap"


class StrataBy(models.TextChoices):
    NONE = "", "None: no strata"
    MASTERPOINTS = "masterpoints", "Master points held (the players' list)"
    RATING = "rating", "The club rating"


def strata_limits(text: str) -> tuple[Fraction, ...]:
    """The limits typed, "1500, 500": numbers, falling (ValueError / ScoringError otherwise)."""
    limits = tuple(Fraction(Decimal(part.strip())) for part in text.split(",") if part.strip())
    strata_from_limits(limits)
    return limits


def validate_strata_limits(text: str) -> None:
    try:
        strata_limits(text)
    except (ArithmeticError, ValueError) as error:
        message = str(error) if isinstance(error, ScoringError) else "numbers separated by commas, e.g. 1500, 500"
        raise ValidationError(message) from None


class Rankings(models.TextChoices):
    AUTO = "auto", "By the movement: NS and EW in a Mitchell, one in a Howell or arrow-switch"
    ONE = "one", "One ranking of all pairs"
    TWO = "two", "NS and EW rankings"


class LiveRankings(models.TextChoices):
    DURING_PLAY = "during", "During play (marked provisional until the session is final)"
    AT_THE_END = "end", "Only once the session is final"


class Combination(models.TextChoices):
    """How a matchpoint event ranks its sessions together (IMP events add their IMPs)."""

    SCALED = engine_events.Combination.SCALED.value, "Sum of matchpoints scaled to a common top"
    AVERAGE = engine_events.Combination.AVERAGE.value, "Average of the session percentages"
    CARRY_FORWARD = engine_events.Combination.CARRY_FORWARD.value, "Final with a carry-forward from the earlier sessions"


class CombinedBy(models.TextChoices):
    PAIRS = "pairs", "Pairs: the same two players"
    PLAYERS = "players", "Players: each player's results, whoever the partner"


class Event(ChecksInProcess, models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="events")
    name = models.CharField(max_length=120)
    # Scoring settings: one field per option of the engine's ScoringOptions.
    method = models.CharField(max_length=16, choices=ScoringMethod, default=ScoringMethod.MATCHPOINTS)
    mp_scale = models.CharField(max_length=8, choices=MatchpointScale, default=MatchpointScale.TWO_ONE)
    line_display = models.CharField(max_length=16, choices=LineDisplay, default=LineDisplay.NEUBERG)
    short_boards = models.CharField(max_length=16, choices=ShortBoards, default=ShortBoards.NEUBERG)
    across_field = models.BooleanField(
        default=False, help_text="Matchpoint across all sections instead of within each."
    )
    adjusted_session_percentage = models.BooleanField(
        default=False, help_text="Ave+ / Ave- give the pair's session percentage when better / worse."
    )
    cross_imps = models.CharField(max_length=8, choices=CrossImps, default=CrossImps.AVERAGE)
    cross_imps_trim = models.PositiveSmallIntegerField(
        default=0, help_text="Cross-IMPs: results left out of the comparisons at each end of the board."
    )
    butler_datum = models.CharField(max_length=16, choices=ButlerDatum, default=ButlerDatum.TRIMMED_MEAN)
    butler_adjusted_imps = models.PositiveSmallIntegerField(
        default=3, help_text="IMPs for Ave+ (and minus for Ave-) under Butler scoring."
    )
    imp_table = models.CharField(max_length=16, default="wbf", help_text="The engine's IMP table name.")
    imp_total = models.CharField(max_length=16, choices=ImpTotal, default=ImpTotal.SUM)
    deal_era = models.CharField(
        max_length=8, choices=DealEra, default=DealEra.CURRENT,
        help_text="The laws each deal is scored under: the current ones, or those of 1935 or 1932.",
    )
    line_decimals = models.PositiveSmallIntegerField(
        null=True, blank=True, choices=LineDecimals,
        help_text="Lines shown to this many decimals, totals adding the shown lines; empty: exact.",
    )
    # NZ Scorer's conventions (RULES 5 and 8), for clubs that reproduce that program.
    not_played = models.CharField(
        max_length=8, choices=NotPlayed, default=NotPlayed.REMOVED,
        help_text="A line marked not played (NP): left out of the board, or compared as a score of 0.",
    )
    cut_figures = models.BooleanField(
        default=False,
        help_text="Figures cut as NZ Scorer prints them: lines to tenths (57.548 -> 57.5), places on whole "
                  "matchpoints; totals from the exact figures.",
    )
    short_totals = models.CharField(
        max_length=8, choices=ShortTotals, default=ShortTotals.AS_LINES,
        help_text="A board short of results (an adjusted score): what the pairs' totals count.",
    )
    phantom_table = models.BooleanField(
        default=False,
        help_text="Lines factored to a full field that counts the phantom's table (NZ Scorer); totals as played.",
    )
    handicap = models.CharField(
        max_length=8, choices=Handicap, default=Handicap.NONE,
        help_text="The share of each pair's handicap added to its percentage, ranked beside the scratch figures.",
    )
    handicap_source = models.CharField(
        max_length=8, choices=HandicapSource, blank=True, default="",
        help_text="Where this event's pair handicaps come from; empty: the club's setting.",
    )
    # Stratification (RULES 15): what puts each pair in a stratum, and the strata's limits.
    strata_by = models.CharField(
        max_length=12, choices=StrataBy, blank=True, default="",
        help_text="Strata A, B, C ... by the higher player's master points held or club rating; empty: none.",
    )
    strata_limits = models.CharField(
        max_length=60, blank=True, validators=[validate_strata_limits],
        help_text='Each lower stratum\'s limit, falling, e.g. "1500, 500": B below 1500, C below 500; A is open.',
    )
    # Not an engine option: how the pairs are split into rankings (RULES 8).
    rankings = models.CharField(max_length=8, choices=Rankings, default=Rankings.AUTO)
    # Table entry from the players' phones.
    table_confirmation = models.BooleanField(
        default=True, help_text="A result sent from a table is final only once the opponents (EW) confirm it.",
    )
    table_shows_traveller = models.BooleanField(
        default=True, help_text="After each board the table's phone shows the board's results so far.",
    )
    live_rankings = models.CharField(max_length=8, choices=LiveRankings, default=LiveRankings.DURING_PLAY)
    # The event's sessions ranked together (RULES 11).
    combination = models.CharField(max_length=16, choices=Combination, default=Combination.SCALED)
    combined_by = models.CharField(max_length=8, choices=CombinedBy, default=CombinedBy.PAIRS)
    sessions_counted = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Each competitor's best N sessions count; empty: every session.",
    )
    minimum_sessions = models.PositiveSmallIntegerField(
        default=1, help_text="Sessions a competitor must play to be ranked; the others are listed unranked.",
    )
    carry_forward_percent = models.PositiveSmallIntegerField(
        default=50, help_text="Carry-forward: the percentage of the earlier sessions' margin over 50 % carried.",
    )
    masterpoint_scale = models.CharField(
        max_length=16, blank=True,
        help_text='This event\'s master point scale (e.g. "county" for a club championship at the EBU, '
        '"championship" at the ABF); "none": no awards; empty: the club\'s.',
    )

    club_path = "club"

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="event_name_unique_in_club"),
            models.CheckConstraint(
                condition=Q(line_decimals__isnull=True) | Q(line_decimals__in=LineDecimals.values),
                name="event_line_decimals_1_or_2",
            ),
            models.CheckConstraint(
                condition=Q(sessions_counted__isnull=True) | Q(sessions_counted__gte=1),
                name="event_sessions_counted_positive",
            ),
            models.CheckConstraint(condition=Q(minimum_sessions__gte=1), name="event_minimum_sessions_positive"),
            models.CheckConstraint(condition=Q(carry_forward_percent__lte=100), name="event_carry_forward_percent"),
            models.CheckConstraint(condition=Q(deal_era__in=DealEra.values), name="event_deal_era_valid"),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        if self.club_id is not None:
            check_masterpoint_scale(self.club.masterpoint_federation, self.masterpoint_scale, "masterpoint_scale")
        if self.strata_by and not self.strata_limits.strip():
            raise ValidationError({"strata_limits": 'give the limits of the lower strata, e.g. "1500, 500"'})

    @property
    def ranks_at_the_end(self) -> bool:
        """Players see the ranking only once a session is final."""
        return self.live_rankings == LiveRankings.AT_THE_END


class Session(KeepsRevisionOnSave, ChecksInProcess, models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="sessions")
    date = models.DateField()
    name = models.CharField(max_length=120)
    published = models.BooleanField(default=False)
    published_at = models.DateTimeField(null=True, blank=True)
    movement_kind = models.CharField(max_length=16, choices=MovementKind)
    movement_description = models.CharField(max_length=200, blank=True)
    tables = models.PositiveSmallIntegerField()
    rounds = models.PositiveSmallIntegerField()
    boards_per_round = models.PositiveSmallIntegerField()
    board_count = models.PositiveSmallIntegerField()
    arrow_switch = models.BooleanField(default=False)
    # An imported file's own master point scale, "federation:scale" ("ebu:club"): it
    # decides the awards when the club has chosen no federation.
    masterpoints_from_file = models.CharField(max_length=24, blank=True, editable=False)
    # The director marks the session final once every result is in and checked: until
    # then pages that refresh themselves say "provisional" and the hands stay hidden.
    final_at = models.DateTimeField(null=True, blank=True)
    # The round clock the director runs on the live page (sessions.phones.services.clock): the
    # minutes a round, the round it times, and the seconds left at ``clock_started_at``
    # while it runs (None: paused, the seconds left as they are). Phones and the grid
    # count down from these on their own, with no request per second.
    round_minutes = models.PositiveSmallIntegerField(default=0, help_text="Minutes a round (0: no clock).")
    clock_round = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    clock_started_at = models.DateTimeField(null=True, blank=True, editable=False)
    clock_seconds_left = models.PositiveIntegerField(default=0, editable=False)
    # The last correction after publication: the pages say "amended" with this time.
    amended_at = models.DateTimeField(null=True, blank=True)
    # A digest of the figures the players and the club's webhooks were last told of (at
    # final, then at each amendment): a write after final that changes none of them tells
    # nobody anything (sessions.clubs.services.amendments). Empty until then.
    told_figures = models.CharField(max_length=64, blank=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Bumped in the same transaction by every write that changes what the session's pages
    # show: the scored session and the rendered pages are cached under it, and it is their
    # ETag (sessions.core.services.revisions). revised_at is their Last-Modified.
    revision = models.PositiveBigIntegerField(default=0, editable=False)
    revised_at = models.DateTimeField(default=timezone.now, editable=False)
    # Drawn afresh by every write but a change of lines (pairs, players, boards, seating,
    # settings, imports): while it stays, a scored session is brought up to date board by
    # board from the change log (sessions.core.selectors.scoring).
    setup_token = models.BigIntegerField(default=new_setup_token, editable=False)

    club_path = "event__club"

    class Meta:
        ordering = ["-date", "name"]
        constraints = [
            models.CheckConstraint(condition=Q(tables__gte=1), name="session_has_tables"),
            models.CheckConstraint(condition=Q(rounds__gte=1), name="session_has_rounds"),
            models.CheckConstraint(condition=Q(boards_per_round__gte=1), name="session_boards_per_round_positive"),
            models.CheckConstraint(condition=Q(board_count__gte=1), name="session_has_boards"),
            models.CheckConstraint(
                condition=Q(published=False) | Q(published_at__isnull=False),
                name="session_published_has_time",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} - {self.name} ({self.date})"

    @property
    def final(self) -> bool:
        return self.final_at is not None

    @property
    def is_mitchell(self) -> bool:
        return self.movement_kind == MovementKind.MITCHELL


class Section(ChecksInProcess, models.Model):
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="sections")
    letter = models.CharField(max_length=2)

    club_path = "session__event__club"

    class Meta:
        ordering = ["letter"]
        constraints = [
            models.UniqueConstraint(fields=["session", "letter"], name="section_letter_unique_in_session"),
            models.CheckConstraint(condition=~Q(letter=""), name="section_has_letter"),
        ]

    def __str__(self) -> str:
        return f"Section {self.letter}"


class Pair(ChecksInProcess, models.Model):
    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="pairs")
    number = models.PositiveSmallIntegerField()
    direction = models.CharField(max_length=2, choices=Direction, blank=True)
    player_1 = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    player_2 = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # Percentage points the event's handicap share adds (RULES 8); null: no handicap.
    handicap = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)

    club_path = "section__session__event__club"

    class Meta:
        ordering = ["section_id", "direction", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["section", "number", "direction"], name="pair_number_unique_in_section"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="pair_number_positive"),
            models.CheckConstraint(
                condition=Q(player_1__isnull=True) | ~Q(player_1=F("player_2")),
                name="pair_players_differ",
            ),
        ]

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        """The movement's name for the pair: "1NS" in a Mitchell, "1" in a Howell."""
        return f"{self.number}{self.direction}"

    @property
    def names(self) -> str:
        return " & ".join(player.name for player in (self.player_1, self.player_2) if player)


class PairLineup(ChecksInProcess, models.Model):
    """Who played for a pair from a round on: a substitute's change of player.

    A pair with no lineup had its two players (``player_1``, ``player_2``) in every round.
    A pair whose players changed during the session has one lineup from round 1 and one
    from each round the players changed; each holds until the next. The pair's own
    players are then those of the most boards (``services.players.pair_change_players``).
    """

    pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="lineups")
    from_round = models.PositiveSmallIntegerField()
    player_1 = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    player_2 = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    club_path = "pair__section__session__event__club"

    class Meta:
        ordering = ["pair_id", "from_round"]
        constraints = [
            models.UniqueConstraint(fields=["pair", "from_round"], name="pairlineup_one_per_round"),
            models.CheckConstraint(condition=Q(from_round__gte=1), name="pairlineup_round_positive"),
            models.CheckConstraint(
                condition=Q(player_1__isnull=True) | ~Q(player_1=F("player_2")), name="pairlineup_players_differ",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.pair} from round {self.from_round}: {self.names}"

    @property
    def players(self) -> tuple[Player | None, Player | None]:
        return self.player_1, self.player_2

    @property
    def names(self) -> str:
        return " & ".join(player.name for player in self.players if player)


class Board(ChecksInProcess, models.Model):
    """One deal of the session. ``section`` is empty for a board every section plays (the
    usual case: the boards are shared or duplicated); a section that plays deals of its
    own has its own boards, and a result always lies on the board its section played."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="boards")
    section = models.ForeignKey(
        Section, null=True, blank=True, on_delete=models.CASCADE, related_name="own_boards",
        help_text="The section that plays this deal alone; empty when all sections play it.",
    )
    number = models.PositiveSmallIntegerField()
    dealer = models.CharField(max_length=1, choices=Seat)
    vulnerability = models.CharField(max_length=4, choices=Vulnerability)
    deal = models.TextField(blank=True, help_text="The hands, e.g. as a PBN deal string.")

    club_path = "session__event__club"

    class Meta:
        ordering = ["number", F("section").asc(nulls_first=True)]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "number"], condition=Q(section__isnull=True), name="board_number_unique_in_session",
            ),
            models.UniqueConstraint(
                fields=["section", "number"], condition=Q(section__isnull=False), name="board_number_unique_in_section",
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="board_number_positive"),
        ]

    def __str__(self) -> str:
        return f"Board {self.number}"


def section_boards(boards: Iterable[Board], section_id: int) -> dict[int, Board]:
    """Board number -> the board a section plays: its own deal where it has one, else the
    session's shared board. ``boards`` are the session's boards, loaded once by the caller."""
    shared = {board.number: board for board in boards if board.section_id is None}
    own = {board.number: board for board in boards if board.section_id == section_id}
    return {**shared, **own}


def sections_with_own_boards(boards: Iterable[Board]) -> set[int]:
    """The ids of the sections that play deals of their own."""
    return {board.section_id for board in boards if board.section_id is not None}


class Seating(ChecksInProcess, models.Model):
    """Who sits where in one round at one table, and which boards they play."""

    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="seatings")
    round = models.PositiveSmallIntegerField()
    table = models.PositiveSmallIntegerField()
    ns_pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="+")
    ew_pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="+")
    boards = models.JSONField(help_text="Board numbers played at this table in this round.")

    club_path = "section__session__event__club"

    class Meta:
        ordering = ["section_id", "round", "table"]
        constraints = [
            models.UniqueConstraint(
                fields=["section", "round", "table"], name="seating_unique_per_round_and_table"
            ),
            models.CheckConstraint(condition=Q(round__gte=1), name="seating_round_positive"),
            models.CheckConstraint(condition=Q(table__gte=1), name="seating_table_positive"),
            models.CheckConstraint(condition=~Q(ns_pair=F("ew_pair")), name="seating_pairs_differ"),
        ]

    def __str__(self) -> str:
        return f"Round {self.round}, table {self.table}: {self.ns_pair} v {self.ew_pair}"
