"""Setting up a club competition over an event's sessions (its rules; no figures kept).

The settings are checked twice: the model's fields (a list of points, tie-breaks named
once each) and the engine's rules (sessions.scoring.competitions), which refuse a
minimum above the sessions counted. The competition's page stands on the club's
revision, so every change bumps it.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError

from sessions.models import Competition, Event
from sessions.scoring.competitions import rank_competition
from sessions.scoring.errors import ScoringError
from sessions.clubs.selectors.competitions import competition_rules
from sessions.core.text import clean_name

from sessions.core.services.unit_of_work import unit, write

#: What a director sets on a competition.
COMPETITION_SETTINGS = ("name", "place_points", "members_only", "minimum_sessions", "best_sessions", "tie_breaks")


def _apply(competition: Competition, settings: dict[str, Any]) -> None:
    unknown = set(settings) - set(COMPETITION_SETTINGS)
    if unknown:
        raise ValidationError(f"not a competition setting: {', '.join(sorted(unknown))}")
    for name, value in settings.items():
        if name in ("place_points", "tie_breaks"):
            value = ",".join(part.strip().lower() for part in str(value or "").split(",") if part.strip())
        setattr(competition, name, clean_name(value) if name == "name" else value)
    competition.full_clean()
    try:
        rank_competition([], competition_rules(competition))  # the engine's own checks of the rules
    except ScoringError as error:
        raise ValidationError(str(error)) from None


@write
def competition_create(*, event: Event, name: str, **settings: Any) -> Competition:
    """A competition over the event's sessions; settings not given keep the defaults
    (10 for 1st ... 1 for 10th, every session counted, Butler then head to head then wins)."""
    competition = Competition(event=event)
    _apply(competition, {"name": name, **settings})
    competition.save()
    unit().touch(clubs=[event.club_id])
    return competition


@write
def competition_update(*, competition: Competition, **settings: Any) -> Competition:
    _apply(competition, settings)
    competition.save()
    unit().touch(clubs=[competition.event.club_id])
    return competition
