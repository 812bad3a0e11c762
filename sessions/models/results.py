"""Traveller lines and their audit trail.

A Result is one line of a board's traveller, its score stored from NS's point of view.
``version`` is bumped on every correction: a director's correction names the version
it saw, and a line changed since is never overwritten (optimistic locking).
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from sessions.scoring.scores import ARTIFICIAL_PERCENTAGES

from sessions.models.choices import LINE_ACTIONS, ChangeAction, Doubling, PointsUnit, ResultKind, Seat, Strain
from sessions.models.events import Board, Pair, Section, Session
from sessions.models.validation import ChecksInProcess


def line_constraints(prefix: str) -> list[models.CheckConstraint]:
    """The checks every stored traveller line obeys, whatever holds it (a pairs Result, a
    teams MatchLine): tricks and level in range, and each kind with the fields it needs."""
    return [
        models.CheckConstraint(
            condition=Q(tricks__isnull=True) | Q(tricks__gte=0, tricks__lte=13), name=f"{prefix}_tricks_0_to_13",
        ),
        models.CheckConstraint(
            condition=Q(level__isnull=True) | Q(level__gte=1, level__lte=7), name=f"{prefix}_level_1_to_7",
        ),
        models.CheckConstraint(
            condition=~Q(kind=ResultKind.PLAYED)
            | (Q(level__isnull=False, tricks__isnull=False, ns_score__isnull=False)
               & ~Q(strain="") & ~Q(declarer="")),
            name=f"{prefix}_played_has_contract_and_score",
        ),
        models.CheckConstraint(
            condition=~Q(kind__in=[ResultKind.ASSIGNED, ResultKind.PASSED]) | Q(ns_score__isnull=False),
            name=f"{prefix}_assigned_has_score",
        ),
        models.CheckConstraint(
            condition=~Q(kind=ResultKind.ARTIFICIAL)
            | Q(artificial_ns_percent__in=ARTIFICIAL_PERCENTAGES, artificial_ew_percent__in=ARTIFICIAL_PERCENTAGES),
            name=f"{prefix}_artificial_has_percentages",
        ),
        models.CheckConstraint(
            condition=~Q(kind=ResultKind.WEIGHTED) | Q(weighted_parts__isnull=False), name=f"{prefix}_weighted_has_parts",
        ),
        # One check for both rules (each check costs a full_clean three queries): points
        # assigned have both figures and a unit, and matchpoints are never negative.
        models.CheckConstraint(
            condition=~Q(kind=ResultKind.ASSIGNED_POINTS)
            | (Q(assigned_ns_points__isnull=False, assigned_ew_points__isnull=False)  # (NULL >= 0 would pass)
               & (Q(points_unit=PointsUnit.IMPS)
                  | Q(assigned_ns_points__gte=0, assigned_ew_points__gte=0, points_unit=PointsUnit.MATCHPOINTS))),
            name=f"{prefix}_points_have_figures",
        ),
    ]


class TravellerLine(ChecksInProcess, models.Model):
    """What every stored line holds, whatever holds it (a pairs Result, a teams MatchLine):
    the result in the fields of pairs entry, what was typed and who typed it last."""

    kind = models.CharField(max_length=12, choices=ResultKind)
    # The contract, for a played board.
    level = models.PositiveSmallIntegerField(null=True, blank=True)
    strain = models.CharField(max_length=2, choices=Strain, blank=True)
    doubling = models.CharField(max_length=2, choices=Doubling, blank=True)
    declarer = models.CharField(max_length=1, choices=Seat, blank=True)
    tricks = models.PositiveSmallIntegerField(null=True, blank=True)
    lead = models.CharField(max_length=8, blank=True)
    # NS score in points: played, passed (0) and assigned results.
    ns_score = models.IntegerField(null=True, blank=True)
    artificial_ns_percent = models.PositiveSmallIntegerField(null=True, blank=True)
    artificial_ew_percent = models.PositiveSmallIntegerField(null=True, blank=True)
    # Weighted score: [["2/3", 620], ["1/3", -100]] (weights as exact fractions).
    weighted_parts = models.JSONField(null=True, blank=True)
    # Points the director assigned (kind ASSIGNED_POINTS), in ``points_unit``: matchpoints
    # out of the board's top as the line is shown, or IMPs. Exact decimals, as typed or published.
    assigned_ns_points = models.DecimalField(max_digits=10, decimal_places=4, null=True, blank=True)
    assigned_ew_points = models.DecimalField(max_digits=10, decimal_places=4, null=True, blank=True)
    points_unit = models.CharField(max_length=3, choices=PointsUnit, blank=True)
    entered_text = models.CharField(max_length=60, help_text="What the director typed.")
    text = models.CharField(max_length=60, help_text="The result written the standard way.")
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        abstract = True


class Result(TravellerLine):
    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="results")
    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="results")
    round = models.PositiveSmallIntegerField(null=True, blank=True)
    table = models.PositiveSmallIntegerField(null=True, blank=True)
    ns_pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="+")
    ew_pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="+")
    # Fouled board (RULES 5): lines with the same group played the same cards and are
    # compared only with each other. None: the board was not fouled.
    group = models.PositiveSmallIntegerField(null=True, blank=True)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    club_path = "board__session__event__club"

    class Meta:
        ordering = ["board_id", "table", "round", "id"]  # no join: related orderings cost one
        constraints = [
            models.UniqueConstraint(
                fields=["board", "ns_pair"], name="result_one_per_ns_pair_per_board",
                violation_error_message="this board already has a result for the NS pair: correct that line",
            ),
            models.UniqueConstraint(
                fields=["board", "ew_pair"], name="result_one_per_ew_pair_per_board",
                violation_error_message="this board already has a result for the EW pair: correct that line",
            ),
            models.CheckConstraint(condition=~Q(ns_pair=F("ew_pair")), name="result_pairs_differ"),
            models.CheckConstraint(condition=Q(version__gte=1), name="result_version_positive"),
            models.CheckConstraint(
                condition=Q(group__isnull=True) | Q(group__gte=1), name="result_group_positive",
            ),
            models.CheckConstraint(
                condition=~Q(kind=ResultKind.PASSED) | Q(ns_score=0),
                name="result_passed_scores_zero",
            ),
            *line_constraints("result"),
        ]

    def __str__(self) -> str:
        return f"Board {self.board.number}: {self.ns_pair} v {self.ew_pair} {self.text}"


class ResultChange(ChecksInProcess, models.Model):
    """One entry of a session's change log: who did what to which line, and when.

    A change to a line names its board and pairs; a change to the session itself (its
    seating, settings, publication, an import) has none and says what it touched in
    ``subject`` ("round 2, table 3", "pair 7NS").
    """

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="changes")
    board = models.ForeignKey(Board, null=True, blank=True, on_delete=models.CASCADE, related_name="changes")
    # Kept after the line is deleted, so the log still says which pairs it was.
    result = models.ForeignKey(Result, null=True, blank=True, on_delete=models.SET_NULL, related_name="changes")
    ns_pair = models.ForeignKey(Pair, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    ew_pair = models.ForeignKey(Pair, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    action = models.CharField(max_length=12, choices=ChangeAction)
    subject = models.CharField(max_length=80, blank=True)
    before_text = models.CharField(max_length=200, blank=True)
    after_text = models.CharField(max_length=200, blank=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    changed_at = models.DateTimeField(auto_now_add=True)
    # A line sent from a table's phone and confirmed there: no user, the table instead.
    via_table = models.PositiveSmallIntegerField(null=True, blank=True)

    club_path = "session__event__club"

    class Meta:
        ordering = ["-changed_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(action=ChangeAction.RECORDED) | Q(before_text=""),
                name="resultchange_recorded_has_no_before",
            ),
            models.CheckConstraint(
                condition=~Q(action=ChangeAction.DELETED) | Q(after_text=""),
                name="resultchange_deleted_has_no_after",
            ),
            models.CheckConstraint(
                condition=~Q(action__in=LINE_ACTIONS)
                | Q(board__isnull=False, ns_pair__isnull=False, ew_pair__isnull=False),
                name="resultchange_line_has_board_and_pairs",
            ),
        ]

    @property
    def author(self) -> str:
        """Who made the change, as the change log says it."""
        if self.via_table is not None:
            return f"table {self.via_table} (phone)"
        return str(self.changed_by) if self.changed_by else "-"

    @property
    def about_a_line(self) -> bool:
        return self.board_id is not None

    def __str__(self) -> str:
        if self.board_id is None:
            return f"{self.get_action_display()} {self.subject}".strip()
        return f"{self.get_action_display()} board {self.board.number} {self.ns_pair} v {self.ew_pair}"
