"""Creating an event and changing its scoring settings.

Nothing scored is stored: every page scores the session on the fly (session_score),
so a changed option shows in the standings at once. The settings are checked twice:
the model's own fields (choices, lengths, the unique name in the club) and the
engine's ScoringOptions, which refuses a combination it cannot score.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from sessions.models import Club, Event
from sessions.scoring.errors import ScoringError
from sessions.selectors.scoring import EVENT_OPTION_FIELDS, scoring_options
from sessions.text import clean_name

#: The Event fields a director may set: the name, one per engine option, the rankings,
#: and how the tables' phones enter results and what the players see meanwhile.
EVENT_SETTINGS = ("name", *EVENT_OPTION_FIELDS, "deal_era", "rankings", "table_confirmation", "table_shows_traveller", "live_rankings")


def _check(event: Event) -> None:
    event.full_clean()
    try:
        scoring_options(event)
    except ScoringError as error:
        raise ValidationError(str(error)) from None


def _apply(event: Event, settings: dict[str, Any]) -> None:
    unknown = set(settings) - set(EVENT_SETTINGS)
    if unknown:
        raise ValidationError(f"not an event setting: {', '.join(sorted(unknown))}")
    for name, value in settings.items():
        setattr(event, name, clean_name(value) if name == "name" else value)


@transaction.atomic
def event_create(*, club: Club, name: str, **settings: Any) -> Event:
    """A new event of the club; settings not given keep the defaults (matchpoints, 2-1 scale)."""
    event = Event(club=club)
    _apply(event, {"name": name, **settings})
    _check(event)
    event.save()
    return event


@transaction.atomic
def event_update(*, event: Event, **settings: Any) -> Event:
    """Change the event's name or scoring settings; its sessions re-score on the next read."""
    _apply(event, settings)
    _check(event)
    event.save(update_fields=list(settings) or None)
    return event
