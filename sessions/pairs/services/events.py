"""Creating an event and changing its scoring settings.

Nothing scored is stored: every page scores the session on the fly (session_score),
so a changed option shows in the standings at once. The settings are checked twice:
the model's own fields (choices, lengths, the unique name in the club) and the
engine's ScoringOptions, which refuses a combination it cannot score.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError

from django.contrib.auth.models import AbstractBaseUser

from sessions.models import ChangeAction, Club, Event, ResultChange
from sessions.scoring.errors import ScoringError
from sessions.pairs.selectors.events import EVENT_COMBINED_FIELDS, event_options
from sessions.core.selectors.engine_input import EVENT_OPTION_FIELDS, scoring_options
from sessions.core.text import clean_name

from sessions.core.services.unit_of_work import unit, write

#: The Event fields a director may set: the name, one per engine option, the rankings,
#: how the tables' phones enter results and what the players see meanwhile, and how
#: the event's sessions rank together.
EVENT_SETTINGS = (
    "name", *EVENT_OPTION_FIELDS, "deal_era", "rankings", "table_confirmation", "table_shows_traveller",
    "live_rankings", *EVENT_COMBINED_FIELDS, "masterpoint_scale", "handicap_source",
    "strata_by", "strata_limits",
)


def _check(event: Event) -> None:
    event.full_clean()
    try:
        scoring_options(event)
        event_options(event)
    except ScoringError as error:
        raise ValidationError(str(error)) from None


def _apply(event: Event, settings: dict[str, Any]) -> None:
    unknown = set(settings) - set(EVENT_SETTINGS)
    if unknown:
        raise ValidationError(f"not an event setting: {', '.join(sorted(unknown))}")
    for name, value in settings.items():
        if name == "masterpoint_scale":
            value = (value or "").strip().lower()
        setattr(event, name, clean_name(value) if name == "name" else value)


@write
def event_create(*, club: Club, name: str, **settings: Any) -> Event:
    """A new event of the club; settings not given keep the defaults (matchpoints, 2-1 scale)."""
    event = Event(club=club)
    _apply(event, {"name": name, **settings})
    _check(event)
    event.save()
    unit().touch(clubs=[club])
    return event


@write
def event_update(*, event: Event, by: AbstractBaseUser | None = None, **settings: Any) -> Event:
    """Change the event's name or scoring settings; its sessions re-score on the next read,
    and each session's change log says what changed (a published ranking may move)."""
    before = {name: getattr(event, name) for name in settings}
    _apply(event, settings)
    _check(event)
    event.save(update_fields=list(settings) or None)
    _log_settings(event, before, by)
    unit().touch_event(event, by=by)
    return event


def _log_settings(event: Event, before: dict[str, Any], by: AbstractBaseUser | None) -> None:
    changed = [name for name, value in before.items() if getattr(event, name) != value]
    if not changed:
        return
    was = "; ".join(f"{name}: {before[name]}" for name in changed)
    now = "; ".join(f"{name}: {getattr(event, name)}" for name in changed)
    ResultChange.objects.bulk_create(
        ResultChange(session=session, action=ChangeAction.SETTINGS, subject="event settings",
                     before_text=was[:200], after_text=now[:200], changed_by=by)
        for session in event.sessions.all()
    )
