"""Clubs, the directors who run them, and their players."""

import re

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from sessions.scoring.masterpoints import FEDERATIONS

from sessions.models.revisions import KeepsRevisionOnSave
from sessions.models.validation import ChecksInProcess

#: An origin a browser sends for a page: https, a host (letters, digits, dots, dashes) and
#: maybe a port; nothing after it. Anything else could widen a Content-Security-Policy
#: (a "*", a "'self'", a space starting another source, a ";" starting another directive).
FRAME_ORIGIN = re.compile(r"https://[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:[0-9]{1,5})?")


def frame_origin_list(text: str) -> list[str]:
    """The origins of a club's ``frame_origins`` text, one a line, blank lines left out."""
    return [line.strip().lower().rstrip("/") for line in text.splitlines() if line.strip()]


def validate_frame_origins(text: str) -> None:
    wrong = [origin for origin in frame_origin_list(text) if not FRAME_ORIGIN.fullmatch(origin)]
    if wrong:
        raise ValidationError(
            "Give each site as https://host (a port may follow), one a line: %(wrong)s is not one.",
            params={"wrong": wrong[0]}, code="frame_origin",
        )


class MasterPointFederation(models.TextChoices):
    """The national body whose club scale the club's awards follow
    (sessions.scoring.masterpoints: one module each)."""

    NONE = "", "None: no master points"
    EBU = "ebu", "English Bridge Union (black points)"
    NZB = "nzb", "Bridge NZ (C points)"
    ABF = "abf", "Australian Bridge Federation (green points)"
    ACBL = "acbl", "ACBL (open club games)"


class HandicapSource(models.TextChoices):
    """Where a pair's handicap comes from (RULES 14)."""

    TYPED = "typed", "Typed by the director for each pair"
    AVERAGE = "average", "The club's rolling average of each player's percentages"
    RATING = "rating", "The club rating (each player's percentages adjusted for the field)"
    GRADE = "grade", "Each player's national grade, as the club entered it"


#: An event's scale that awards nothing (a social or charity session not pointed).
NO_MASTER_POINTS = "none"


def check_masterpoint_scale(federation: str, scale: str, field: str) -> None:
    """A scale the federation has (empty: its club scale); ValidationError naming the field."""
    if not scale or not federation or scale == NO_MASTER_POINTS:
        return
    scales = FEDERATIONS[federation].SCALES
    if scale not in scales:
        raise ValidationError({field: f"{federation.upper()} scales: {', '.join(scales)} (empty: the club scale)"})


class Club(KeepsRevisionOnSave, ChecksInProcess, models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    # What the club's public page says about it, set by an owner.
    description = models.CharField(
        max_length=1000, blank=True, help_text="A few lines on the club's public page: where and when it plays."
    )
    website = models.URLField(blank=True, help_text="The club's own website, linked from its public page.")
    # The sites that may show the club's results in a frame (its embeds, its sessions' pages):
    # the Content-Security-Policy frame-ancestors of those pages (sessions.core.views.caching).
    frame_origins = models.TextField(
        blank=True, max_length=2000, validators=[validate_frame_origins], verbose_name="Sites that may embed the results",
        help_text="One https:// address a line, e.g. https://www.ourbridgeclub.org.uk: only these may frame the pages.",
    )
    masterpoint_federation = models.CharField(
        max_length=8, choices=MasterPointFederation, blank=True, default="",
        help_text="Master points are awarded on this body's club scale when a session is marked final.",
    )
    masterpoint_scale = models.CharField(
        max_length=16, blank=True,
        help_text="The federation's scale for the club's sessions (e.g. club, county); empty: its club scale.",
    )
    # What a national body's results upload names the club by and charges it (USEBIO
    # CLUB_ID_NUMBER in CLUB, P2P_CHARGE_RATE in EVENT, as EBUScore and Compscore3 write them).
    national_club_number = models.CharField(
        max_length=20, blank=True, validators=[RegexValidator(r"^[0-9A-Za-z-]*$", "letters, digits and - only")],
        verbose_name="club number with the national body",
        help_text="The club's number with its federation (EBU 6 digits), written in the USEBIO export.",
    )
    p2p_charge_rate = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MaxValueValidator(1000)], verbose_name="P2P charge rate",
        help_text="The federation's per-player charge for a session (EBU Pay to Play, in pence), "
                  "written in the USEBIO export; empty: not written.",
    )
    handicap_source = models.CharField(
        max_length=8, choices=HandicapSource, default=HandicapSource.TYPED,
        help_text="Where a handicap event's pair handicaps come from: 50 - the mean of the two players' figures "
                  "(an event may choose another).",
    )
    rating_sessions = models.PositiveSmallIntegerField(
        default=10, validators=[MinValueValidator(1), MaxValueValidator(100)], verbose_name="rating sessions",
        help_text="The club's last so many final matchpoint sessions make its players' averages and ratings.",
    )
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="ClubDirector", related_name="directed_clubs"
    )
    # Bumped by every write a page across the club's sessions shows (the club page, event
    # rankings, player pages): their cache key and ETag (sessions.core.services.revisions).
    revision = models.PositiveBigIntegerField(default=0, editable=False)
    revised_at = models.DateTimeField(default=timezone.now, editable=False)

    #: How get_club_object_or_404 reaches the club from this model ("" = the club itself).
    club_path = ""

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        if self.masterpoint_scale == NO_MASTER_POINTS:
            raise ValidationError({"masterpoint_scale": "no federation: choose None as the federation instead"})
        check_masterpoint_scale(self.masterpoint_federation, self.masterpoint_scale, "masterpoint_scale")


class ClubDirector(ChecksInProcess, models.Model):
    """Membership that lets a user run the club's sessions.

    An owner also manages the club itself: its settings and who directs it. A club keeps
    at least one owner (sessions.clubs.services.clubs refuses to remove the last one).
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    club = models.ForeignKey(Club, on_delete=models.CASCADE)
    is_owner = models.BooleanField(default=False, help_text="Manages the club's settings and its directors.")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "club"], name="clubdirector_once_per_club"),
        ]

    def __str__(self) -> str:
        return f"{self.user} directs {self.club}"


class Player(ChecksInProcess, models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=120)
    national_number = models.CharField(max_length=20, blank=True)
    # A guest named at a table's phone: on the club's list from then on, but not a member.
    visitor = models.BooleanField(default=False)
    # Results by e-mail (issue 24): only to a player who said yes, and only until they say no.
    email = models.EmailField(blank=True)
    email_consent = models.BooleanField(default=False)
    email_consent_at = models.DateTimeField(null=True, blank=True)  # when the yes (or the no) was given
    email_consent_how = models.CharField(max_length=120, blank=True)  # "by the director", "unsubscribe link" ...
    # A national grade on the percentage scale (as the EBU's NGS expresses one): a handicap source (RULES 14).
    grade = models.DecimalField(
        max_digits=5, decimal_places=2, null=True, blank=True,
        validators=[MinValueValidator(0), MaxValueValidator(100)],
        help_text="The player's national grade as a percentage (e.g. 54.20); empty: none.",
    )
    # What stratifies an event by master points (RULES 15), as the club keeps it.
    masterpoints_held = models.DecimalField(
        max_digits=9, decimal_places=2, null=True, blank=True, validators=[MinValueValidator(0)],
        help_text="Master points the player holds (ACBL: e.g. 512.34), for stratified events; empty: none.",
    )

    club_path = "club"

    @property
    def mail_allowed(self) -> bool:
        """Whether results may be mailed to this player: an address and their consent."""
        return bool(self.email) and self.email_consent

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "national_number"],
                condition=~Q(national_number=""),
                name="player_national_number_unique_in_club",
            ),
            models.CheckConstraint(condition=~Q(name=""), name="player_has_name"),
        ]

    def __str__(self) -> str:
        return self.name
