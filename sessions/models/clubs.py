"""Clubs, the directors who run them, and their players."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from .revisions import KeepsRevisionOnSave


class Club(KeepsRevisionOnSave, models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    # What the club's public page says about it, set by an owner.
    description = models.CharField(
        max_length=1000, blank=True, help_text="A few lines on the club's public page: where and when it plays."
    )
    website = models.URLField(blank=True, help_text="The club's own website, linked from its public page.")
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="ClubDirector", related_name="directed_clubs"
    )
    # Bumped by every write a page across the club's sessions shows (the club page, event
    # rankings, player pages): their cache key and ETag (sessions.services.revisions).
    revision = models.PositiveBigIntegerField(default=0, editable=False)
    revised_at = models.DateTimeField(default=timezone.now, editable=False)

    #: How get_club_object_or_404 reaches the club from this model ("" = the club itself).
    club_path = ""

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class ClubDirector(models.Model):
    """Membership that lets a user run the club's sessions.

    An owner also manages the club itself: its settings and who directs it. A club keeps
    at least one owner (sessions.services.clubs refuses to remove the last one).
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


class Player(models.Model):
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
