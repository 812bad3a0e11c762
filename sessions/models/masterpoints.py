"""Master point awards: what each pair won in a final session, in its federation's unit.

Computed by sessions.clubs.services.masterpoints when the session is marked final and again
after any amendment (each change in the session's change log); both players of the
pair receive the award.
"""

from django.db import models
from django.db.models import Q

from sessions.models.events import Pair, Session
from sessions.models.validation import ChecksInProcess


class MasterPointAward(ChecksInProcess, models.Model):
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="masterpoint_awards")
    pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="masterpoint_awards")
    federation = models.CharField(max_length=8)
    scale = models.CharField(max_length=16)
    # Whole units of the federation (EBU black points, NZ hundredths of a C point ...).
    points = models.PositiveIntegerField()
    point_type = models.CharField(max_length=12)  # as the USEBIO files write it: BLACK, c, GREEN
    # Whom the award went to (the pair's names when awarded): a change of players is a
    # change of award, logged as one.
    players = models.CharField(max_length=120, blank=True, default="")

    club_path = "session__event__club"

    class Meta:
        ordering = ["session_id", "-points", "pair_id"]
        constraints = [
            models.UniqueConstraint(fields=["pair"], name="masterpointaward_one_per_pair"),
            models.CheckConstraint(condition=~Q(point_type=""), name="masterpointaward_has_type"),
        ]

    def __str__(self) -> str:
        return f"{self.pair}: {self.points} {self.point_type}"
