"""Each pair's stratum and its places per stratum in a session's ranking (RULES 15)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction

from sessions.models import Player, StrataBy
from sessions.models.events import strata_limits
from sessions.scoring.session import Standing
from sessions.scoring.strata import pair_stratum, strata_from_limits, stratum_places

from sessions.clubs.selectors.handicaps import club_player_figures
from sessions.core.selectors.scored import ScoredSession


@dataclass(frozen=True)
class PairStratum:
    letter: str  # the lowest stratum the pair qualifies for
    places: tuple[tuple[str, str], ...]  # (stratum, place) in its stratum and each above

    @property
    def places_text(self) -> str:
        return " · ".join(f"{letter} {place}" for letter, place in self.places)


def session_strata(*, scored: ScoredSession) -> dict[Hashable, PairStratum]:
    """Pair id -> its stratum and places, field by field; {} when the event has no strata.

    By master points: no query (the pairs' players are loaded). By club rating: the three
    queries of the club's window before the session (published strata never move)."""
    session = scored.session
    event = session.event
    if not event.strata_by:
        return {}
    strata = strata_from_limits(strata_limits(event.strata_limits))
    if event.strata_by == StrataBy.RATING:
        ratings = {pk: found.rating for pk, found in club_player_figures(club=event.club, before=session).items()}

        def figure(player: Player | None) -> Fraction | None:
            return None if player is None else ratings.get(player.pk)
    else:
        def figure(player: Player | None) -> Fraction | None:
            held = None if player is None else player.masterpoints_held
            return None if held is None else Fraction(held)
    found: dict[Hashable, PairStratum] = {}
    for _, rows in scored.rankings():
        letters = {row.pair.pk: pair_stratum([figure(row.pair.player_1), figure(row.pair.player_2)], strata)
                   for row in rows}
        ranked: list[tuple[Hashable, Fraction, str]] = [
            (row.pair.pk, _score(row.standing, scored.is_matchpoints), letters[row.pair.pk]) for row in rows
        ]
        for pk, places in stratum_places(ranked, strata).items():
            found[pk] = PairStratum(letters[pk], places)
    return found


def _score(standing: Standing, matchpoints: bool) -> Fraction:
    """What ranks the field: the scratch percentage, or the IMPs."""
    return (standing.percentage or Fraction(0)) if matchpoints else standing.total
