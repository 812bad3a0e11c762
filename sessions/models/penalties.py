"""Procedural penalties (Law 90) given to a pair of a pairs session.

A penalty lowers the penalised pair's total only: the board's matchpoints (or IMPs)
stay as scored, for that pair's opponents and for everyone else (RULES 13). It is kept
in the unit the director gave it in: matchpoints or percent of a top in a matchpointed
session, IMPs in an IMP one (sessions.scoring.penalties turns it into the pair's loss).
"""

from django.conf import settings
from django.db import models
from django.db.models import Q

from sessions.models.events import Pair
from sessions.models.validation import ChecksInProcess


class PenaltyUnit(models.TextChoices):
    MATCHPOINTS = "MP", "matchpoints"
    TOP_PERCENT = "TOP", "% of a top"
    IMPS = "IMP", "IMPs"


class ProceduralPenalty(ChecksInProcess, models.Model):
    """One penalty: the pair, how much in which unit, the board it was given on (or none:
    the session), and why."""

    pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="penalties")
    amount = models.DecimalField(max_digits=5, decimal_places=2)
    unit = models.CharField(max_length=3, choices=PenaltyUnit)
    board = models.PositiveSmallIntegerField(null=True, blank=True, help_text="The board it was given on, if any.")
    reason = models.CharField(max_length=120)
    given_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="+")
    given_at = models.DateTimeField(auto_now_add=True)

    club_path = "pair__section__session__event__club"

    class Meta:
        ordering = ["pair_id", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="proceduralpenalty_amount_positive"),
            models.CheckConstraint(condition=~Q(unit="TOP") | Q(amount__lte=100),
                                   name="proceduralpenalty_top_percent_at_most_100"),
            models.CheckConstraint(condition=~Q(reason=""), name="proceduralpenalty_has_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.pair}: {self.text}"

    @property
    def text(self) -> str:
        """ "25% of a top on board 7: slow play", "3 IMPs: mobile phone"."""
        amount = f"{self.amount:f}".rstrip("0").rstrip(".")
        figure = f"{amount}% of a top" if self.unit == PenaltyUnit.TOP_PERCENT else f"{amount} {PenaltyUnit(self.unit).label}"
        where = f" on board {self.board}" if self.board else ""
        return f"{figure}{where}: {self.reason}"
