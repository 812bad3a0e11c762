"""Small factories for test data: real rows, made through the services where they exist."""

from __future__ import annotations

import datetime
import itertools

from django.contrib.auth import get_user_model

from sessions.models import Club, ClubDirector, Event, Session
from sessions.movements import Movement, howell, mitchell
from sessions.pairs.services.sessions import session_create

_numbers = itertools.count(1)


def make_user(username: str | None = None, password: str = "pw"):
    return get_user_model().objects.create_user(username or f"user{next(_numbers)}", password=password)


def make_club(*, directors=(), name: str | None = None) -> Club:
    """A club directed by ``directors``, the first of whom owns it (as migration 0007 made it)."""
    number = next(_numbers)
    club = Club.objects.create(name=name or f"Club {number}", slug=f"club-{number}")
    for index, user in enumerate(directors):
        ClubDirector.objects.create(user=user, club=club, is_owner=index == 0)
    return club


def make_event(club: Club, **settings) -> Event:
    return Event.objects.create(club=club, name=settings.pop("name", f"Event {next(_numbers)}"), **settings)


def make_session(
    event: Event,
    movement: Movement | None = None,
    *,
    sections: tuple[str, ...] = ("A",),
    own_boards: tuple[str, ...] = (),
    short_sections: tuple[str, ...] = (),
    pair_players=None,
) -> Session:
    """A session from ``movement`` (default: a 3-table Mitchell of 2 boards a round)."""
    return session_create(
        event=event,
        name=f"Session {next(_numbers)}",
        date=datetime.date(2025, 3, 4),
        movement=movement or mitchell(3, 2),
        section_letters=sections,
        own_boards=own_boards,
        short_sections=short_sections,
        pair_players=pair_players,
    )


def small_mitchell() -> Movement:
    return mitchell(3, 2)


def small_howell() -> Movement:
    return howell(8, 2)


def make_team_event(club: Club, *, teams: int = 4, **settings):
    """A teams event of ``teams`` teams of four of the club's players (through the services)."""
    from sessions.models import Player
    from sessions.teams.services.teams import team_add, team_event_create

    event = team_event_create(
        club=club, name=settings.pop("name", f"Teams {next(_numbers)}"), date=datetime.date(2025, 3, 5), **settings
    )
    for number in range(1, teams + 1):
        players = [Player.objects.create(club=club, name=f"Player {number}-{seat} {next(_numbers)}") for seat in range(4)]
        team_add(event=event, name=f"Team {number}", players=players, captain=players[0])
    return event
