"""Which master point scale a session follows, and what the director should know
before marking it final (players without a valid national number earn no award the
national body can credit)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sessions.models import NO_MASTER_POINTS, Pair, Session
from sessions.scoring.masterpoints import FEDERATIONS


@dataclass(frozen=True)
class Scale:
    federation: str
    scale: str

    def __str__(self) -> str:
        return f"{FEDERATIONS[self.federation].NAME}, {self.scale} scale"


def session_masterpoint_scale(session: Session) -> Scale | None:
    """The federation and scale the session's awards follow; None: no awards. The
    event's override, else the club's; for a club with no federation, the scale an
    imported file carried (Session.masterpoints_from_file)."""
    event, club = session.event, session.event.club
    if event.masterpoint_scale == NO_MASTER_POINTS:
        return None
    if club.masterpoint_federation:
        module = FEDERATIONS[club.masterpoint_federation]
        return Scale(club.masterpoint_federation, event.masterpoint_scale or club.masterpoint_scale
                     or module.DEFAULT_SCALE)
    federation, _, scale = session.masterpoints_from_file.partition(":")
    if federation in FEDERATIONS:
        module = FEDERATIONS[federation]
        chosen = event.masterpoint_scale or scale
        return Scale(federation, chosen if chosen in module.SCALES else module.DEFAULT_SCALE)
    return None


def national_number_warnings(*, session: Session) -> list[str]:
    """Each player of the session with no national number or one the federation never
    issues, by pair ("Pair 3NS: Ann Archer has no national number"); none when the
    session awards no master points. One query (the pairs with their players)."""
    scale = session_masterpoint_scale(session)
    if scale is None:
        return []
    pattern = re.compile(FEDERATIONS[scale.federation].NATIONAL_NUMBER)
    warnings = []
    pairs = Pair.objects.filter(section__session=session).select_related("section", "player_1", "player_2")
    for pair in pairs.order_by("section__letter", "direction", "number"):
        for player in (pair.player_1, pair.player_2):
            if player is None:
                continue
            number = player.national_number.strip()
            if not number:
                warnings.append(f"Pair {pair.label}: {player.name} has no national number")
            elif not pattern.fullmatch(number):
                warnings.append(f"Pair {pair.label}: {player.name}'s national number {number!r} is not a valid "
                                f"{scale.federation.upper()} number")
    return warnings
