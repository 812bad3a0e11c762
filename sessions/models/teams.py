"""Teams events: teams of four to six, matches between two teams, both rooms' lines.

A teams event is its own model (TeamEvent) rather than a kind of pairs Event: it has
no sessions, sections or movements, and its scoring options (VP scale, board-a-match,
bye VPs, knockout tie-break) mean nothing to pairs. Nothing scored is stored: the
pages score every match from its lines (or its entered totals) on the fly, as pairs
sessions do, so a corrected line shows in the standings at once.

A match is seen from the home team, which sits NS in the open room and EW in the
closed room (the engine's convention, sessions.scoring.team_events).
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone

from sessions.scoring import team_events as engine

from sessions.models.choices import ChangeAction
from sessions.models.clubs import Club, Player
from sessions.models.results import TravellerLine, line_constraints
from sessions.models.revisions import KeepsRevisionOnSave
from sessions.models.validation import ChecksInProcess


class TeamEventForm(models.TextChoices):
    SINGLE_MATCH = "match", "A single match"
    ROUND_ROBIN = "round_robin", "Round robin (each team plays each other)"
    SWISS = "swiss", "Swiss (drawn round by round from the standings)"
    KNOCKOUT = "knockout", "Knockout"


class TeamScoring(models.TextChoices):
    IMPS_TO_VPS = engine.MatchScoring.IMPS_TO_VPS.value, "IMPs converted to victory points"
    BOARD_A_MATCH = engine.MatchScoring.BOARD_A_MATCH.value, "Board-a-match"


class BamPoints(models.IntegerChoices):
    """A board-a-match board's points for a win (a tie scores half)."""

    ONE = 1, "1 / ½ / 0 a board"
    TWO = 2, "2 / 1 / 0 a board (as EBUScoreTeams publishes)"


class VpScale(models.TextChoices):
    TWENTY = "20", "20-VP discrete scale"
    THIRTY = "30", "30-VP discrete scale"
    THREE_BOARDS = "3board", "20-VP scale for 3-board matches (TeamsScorer)"
    WBF_2013 = engine.WBF_2013, "WBF 2013 continuous 20-VP scale"


class TieBreak(models.TextChoices):
    EXTRA_BOARDS = engine.TieBreak.EXTRA_BOARDS.value, "Extra boards are played"
    HIGHER_SEED = engine.TieBreak.HIGHER_SEED.value, "The higher-seeded team goes through"


class TeamEvent(KeepsRevisionOnSave, ChecksInProcess, models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="team_events")
    name = models.CharField(max_length=120)
    date = models.DateField()
    form = models.CharField(max_length=16, choices=TeamEventForm, default=TeamEventForm.SWISS)
    scoring = models.CharField(max_length=8, choices=TeamScoring, default=TeamScoring.IMPS_TO_VPS)
    vp_scale = models.CharField(max_length=8, choices=VpScale, default=VpScale.WBF_2013)
    bam_points = models.PositiveSmallIntegerField(
        "Board-a-match points", choices=BamPoints, default=BamPoints.ONE,
        help_text="Board-a-match only: the points of a won board.",
    )
    imp_table = models.CharField(max_length=16, default="wbf", help_text="The engine's IMP table name.")
    boards_per_match = models.PositiveSmallIntegerField(default=8)
    bye_vp = models.DecimalField(
        max_digits=5, decimal_places=2, default=12,
        help_text="VPs for a team with a bye (odd number of teams).",
    )
    tie_break = models.CharField(max_length=16, choices=TieBreak, default=TieBreak.EXTRA_BOARDS)
    # Table entry from the players' phones (as the pairs events' settings of the same names).
    table_confirmation = models.BooleanField(
        default=True, help_text="A result sent from a table is final only once the opponents (EW) confirm it.",
    )
    table_shows_imps = models.BooleanField(
        default=True, help_text="Once both rooms have played a board, the tables' phones show its IMPs.",
    )
    published = models.BooleanField(default=False)
    published_at = models.DateTimeField(null=True, blank=True)
    # The director marks the event final once every match is in and checked: as for a
    # pairs session, the players' downloads wait for it.
    final_at = models.DateTimeField(null=True, blank=True)
    # As Session.told_figures: the standings the players and webhooks were last told of.
    told_figures = models.CharField(max_length=64, blank=True, editable=False)
    # The round clock, as a pairs session's (sessions.phones.services.clock): the director runs it
    # on the event's page, the rooms' phones show it.
    round_minutes = models.PositiveSmallIntegerField(default=0, help_text="Minutes a round (0: no clock).")
    clock_round = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    clock_started_at = models.DateTimeField(null=True, blank=True, editable=False)
    clock_seconds_left = models.PositiveIntegerField(default=0, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Bumped in the same transaction by every write that changes what the event's public
    # pages show: the rendered pages are cached under it, and it is their ETag
    # (sessions.core.services.revisions). revised_at is their Last-Modified.
    revision = models.PositiveBigIntegerField(default=0, editable=False)
    revised_at = models.DateTimeField(default=timezone.now, editable=False)

    club_path = "club"

    class Meta:
        ordering = ["-date", "name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="teamevent_name_unique_in_club"),
            models.CheckConstraint(condition=Q(boards_per_match__gte=1), name="teamevent_has_boards"),
            models.CheckConstraint(condition=Q(bye_vp__gte=0), name="teamevent_bye_vp_not_negative"),
            models.CheckConstraint(
                condition=Q(published=False) | Q(published_at__isnull=False),
                name="teamevent_published_has_time",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def final(self) -> bool:
        return self.final_at is not None

    @property
    def match_settings(self) -> engine.MatchSettings:
        return engine.MatchSettings(engine.MatchScoring(self.scoring), self.vp_scale, self.imp_table, self.bam_points)


class Team(ChecksInProcess, models.Model):
    event = models.ForeignKey(TeamEvent, on_delete=models.CASCADE, related_name="teams")
    number = models.PositiveSmallIntegerField(help_text="The team's number, also its seed.")
    name = models.CharField(max_length=120)
    captain = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    players = models.ManyToManyField(Player, related_name="teams", blank=True)

    club_path = "event__club"

    class Meta:
        ordering = ["event_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="team_number_unique_in_event"),
            models.UniqueConstraint(fields=["event", "name"], name="team_name_unique_in_event"),
            models.CheckConstraint(condition=Q(number__gte=1), name="team_number_positive"),
            models.CheckConstraint(condition=~Q(name=""), name="team_has_name"),
        ]

    def __str__(self) -> str:
        return self.name


class MatchStatus(models.TextChoices):
    PLAYED = "played", "Played (scored from its boards or IMP totals)"
    AVERAGE = "average", "Not played: each team gets the VPs stated"
    FORFEIT = "forfeit", "Forfeited: the VPs stated (the non-offending team's award)"
    BYE = "bye", "Bye"


class Match(ChecksInProcess, models.Model):
    event = models.ForeignKey(TeamEvent, on_delete=models.CASCADE, related_name="matches")
    round = models.PositiveSmallIntegerField()
    home = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    away = models.ForeignKey(Team, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    first_board = models.PositiveSmallIntegerField(default=1)
    boards = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=8, choices=MatchStatus, default=MatchStatus.PLAYED)
    # IMP totals, when only those are known (no board lines); null: score from the boards.
    home_imps = models.DecimalField(max_digits=7, decimal_places=2, null=True, blank=True)
    away_imps = models.DecimalField(max_digits=7, decimal_places=2, null=True, blank=True)
    # VPs given by the director to a match not played (average, forfeit) or a bye.
    home_vp_awarded = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)
    away_vp_awarded = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)
    # A knockout's carry-over, in IMPs to the home team (negative: to the away team).
    carry_over = models.DecimalField(max_digits=6, decimal_places=2, default=0)

    club_path = "event__club"

    class Meta:
        ordering = ["event_id", "round", "id"]
        verbose_name_plural = "matches"
        constraints = [
            models.CheckConstraint(condition=Q(round__gte=1), name="match_round_positive"),
            models.CheckConstraint(condition=Q(boards__gte=1), name="match_has_boards"),
            models.CheckConstraint(condition=Q(first_board__gte=1), name="match_first_board_positive"),
            models.CheckConstraint(condition=~Q(home=F("away")), name="match_teams_differ"),
            models.CheckConstraint(
                condition=Q(status=MatchStatus.BYE, away__isnull=True)
                | (~Q(status=MatchStatus.BYE) & Q(away__isnull=False)),
                name="match_bye_has_no_opponent",
            ),
            models.CheckConstraint(
                condition=Q(home_imps__isnull=True, away_imps__isnull=True)
                | Q(home_imps__gte=0, away_imps__gte=0),
                name="match_imp_totals_both_and_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(status=MatchStatus.PLAYED)
                | Q(home_vp_awarded__isnull=False, status=MatchStatus.BYE)
                | Q(home_vp_awarded__isnull=False, away_vp_awarded__isnull=False),
                name="match_not_played_has_vps",
            ),
        ]

    def __str__(self) -> str:
        return f"Round {self.round}: {self.home} v {self.away or 'bye'}"

    @property
    def board_numbers(self) -> range:
        return range(self.first_board, self.first_board + self.boards)


class Room(models.TextChoices):
    OPEN = "open", "Open room (home NS)"
    CLOSED = "closed", "Closed room (home EW)"


class MatchLine(TravellerLine):
    """One room's line on one board of a match, in the notation of pairs entry (the
    table keeps its first name, clubsessions_matchboard).

    ``version`` is bumped on every correction, as a pairs Result's: a writer names the
    version it saw, and a line changed since is never overwritten.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="lines")
    board = models.PositiveSmallIntegerField()
    room = models.CharField(max_length=6, choices=Room)
    version = models.PositiveIntegerField(default=1)

    club_path = "match__event__club"

    class Meta:
        db_table = "clubsessions_matchboard"
        ordering = ["match_id", "board", "room"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "board", "room"], name="matchboard_one_line_per_room",
                violation_error_message="this board already has a line for that room: correct it instead",
            ),
            models.CheckConstraint(condition=Q(board__gte=1), name="matchboard_board_positive"),
            models.CheckConstraint(condition=Q(version__gte=1), name="matchboard_version_positive"),
            *line_constraints("matchboard"),
        ]

    def __str__(self) -> str:
        return f"Board {self.board} {self.room}: {self.text}"


class MatchLineChange(ChecksInProcess, models.Model):
    """One entry of a match's change log: who recorded, corrected or deleted which room's line.

    Kept by board and room rather than by line, so a deleted line's history stays. A line
    confirmed on a table's phone has no user: ``via_room`` names the room's phone instead.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="changes")
    board = models.PositiveSmallIntegerField()
    room = models.CharField(max_length=6, choices=Room)
    action = models.CharField(max_length=12, choices=ChangeAction)
    before_text = models.CharField(max_length=80, blank=True)
    after_text = models.CharField(max_length=80, blank=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    via_room = models.CharField(max_length=6, choices=Room, blank=True)
    changed_at = models.DateTimeField(auto_now_add=True)

    club_path = "match__event__club"

    class Meta:
        ordering = ["-changed_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(action__in=[ChangeAction.RECORDED, ChangeAction.CORRECTED, ChangeAction.DELETED]),
                name="matchlinechange_line_action",
            ),
            models.CheckConstraint(
                condition=~Q(action=ChangeAction.RECORDED) | Q(before_text=""),
                name="matchlinechange_recorded_has_no_before",
            ),
            models.CheckConstraint(
                condition=~Q(action=ChangeAction.DELETED) | Q(after_text=""),
                name="matchlinechange_deleted_has_no_after",
            ),
        ]

    @property
    def author(self) -> str:
        """Who made the change, as the change log says it."""
        if self.via_room:
            return f"{self.get_via_room_display().split(' (')[0].lower()} phone"
        return str(self.changed_by) if self.changed_by else "-"

    def __str__(self) -> str:
        return f"{self.get_action_display()} board {self.board} {self.room}"


class AdjustmentKind(models.TextChoices):
    """A bye is a Match (status bye) with the event's bye VPs, so the draw sees it."""

    PENALTY = "penalty", "VP penalty"
    FINE = "fine", "Fine (VPs)"
    OTHER = "other", "Other"


class TeamAdjustment(ChecksInProcess, models.Model):
    """VPs added to (or, negative, taken from) a team's total, with the reason."""

    event = models.ForeignKey(TeamEvent, on_delete=models.CASCADE, related_name="adjustments")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="adjustments")
    round = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Empty: the whole event.")
    kind = models.CharField(max_length=8, choices=AdjustmentKind)
    vp = models.DecimalField(max_digits=5, decimal_places=2)
    reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    club_path = "event__club"

    class Meta:
        ordering = ["event_id", "round", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(vp=0), name="teamadjustment_not_zero"),
            models.CheckConstraint(
                condition=~Q(kind__in=["penalty", "fine"]) | Q(vp__lt=0),
                name="teamadjustment_penalty_takes_vps",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team}: {self.vp:+} VP ({self.get_kind_display()})"
