"""A club competition over an event's sessions: place points, members only, a minimum
attendance, the best N sessions and the tie-breaks in order (sessions.scoring.competitions).

It ranks the competitors the event's combined ranking recognises (by pair or by player,
as the event says), from each session's own places: settings only, no figures kept.
"""

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from sessions.scoring.competitions import DEFAULT_POINTS, TIE_BREAKS

from sessions.models.events import Event
from sessions.models.validation import ChecksInProcess


def number_list(text: str) -> list[int]:
    return [int(part) for part in text.replace(" ", "").split(",") if part]


def name_list(text: str) -> list[str]:
    return [name.strip().lower() for name in text.split(",") if name.strip()]


def validate_place_points(text: str) -> None:
    try:
        points = number_list(text)
    except ValueError:
        points = []
    if not points or any(value < 0 or value > 1000 for value in points):
        raise ValidationError("Give the points of 1st, 2nd ... separated by commas (e.g. 10,9,8,7,6,5,4,3,2,1).")


def validate_tie_breaks(text: str) -> None:
    names = name_list(text)
    if any(name not in TIE_BREAKS for name in names) or len(set(names)) != len(names):
        raise ValidationError(f"Name each tie-break once, in order, from: {', '.join(TIE_BREAKS)}.")


class Competition(ChecksInProcess, models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="competitions")
    name = models.CharField(max_length=120)
    place_points = models.CharField(
        max_length=200, default=",".join(map(str, DEFAULT_POINTS)), validators=[validate_place_points],
        help_text="Points for 1st, 2nd ... in each session's field; places below the list score nothing.",
    )
    members_only = models.BooleanField(
        default=False, help_text="Visitors take no points: each session's members are ranked again among themselves.",
    )
    minimum_sessions = models.PositiveSmallIntegerField(default=0, help_text="Fewer sessions: listed without a place.")
    best_sessions = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Only the best N count (empty: all).")
    tie_breaks = models.CharField(max_length=60, default=",".join(TIE_BREAKS), blank=True,
                                  validators=[validate_tie_breaks], help_text="In order: " + ", ".join(TIE_BREAKS))

    club_path = "event__club"

    class Meta:
        ordering = ["event_id", "name", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(best_sessions__isnull=True) | Q(best_sessions__gte=1),
                                   name="competition_best_at_least_one"),
            models.CheckConstraint(condition=Q(best_sessions__isnull=True) | Q(minimum_sessions__lte=models.F("best_sessions")),
                                   name="competition_minimum_within_best"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def points(self) -> tuple[int, ...]:
        return tuple(number_list(self.place_points))

    @property
    def tie_break_order(self) -> tuple[str, ...]:
        return tuple(name_list(self.tie_breaks))
