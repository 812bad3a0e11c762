"""What a pair's handicap and a player's club rating are computed from (RULES 14).

The window is the club's last N matchpoint sessions that are published and final (N the
club's ``rating_sessions``), read in one query and scored by sessions_scores (two more,
none for sessions whose figures are kept), whatever the club's size.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction

from sessions.models import Club, HandicapSource, Pair, ScoringMethod, Session
from sessions.scoring.handicaps import PairFigure, PlayerFigure, pair_handicap, player_figures

from sessions.core.selectors.scored import ScoredSession
from sessions.core.selectors.scoring import sessions_scores


def handicap_source(session: Session) -> str:
    """Where the session's handicaps come from: its event's choice, else its club's."""
    return session.event.handicap_source or session.event.club.handicap_source


def rating_window(*, club: Club, before: Session | None = None) -> list[Session]:
    """The club's last ``rating_sessions`` final matchpoint sessions, oldest first, with
    their events (one query); ``before``: only those dated on or before it, itself left out."""
    sessions = Session.objects.filter(
        event__club=club, event__method=ScoringMethod.MATCHPOINTS, published=True, final_at__isnull=False,
    )
    if before is not None:
        sessions = sessions.filter(date__lte=before.date).exclude(pk=before.pk)
    latest = sessions.select_related("event").order_by("-date", "-final_at", "-pk")[: club.rating_sessions]
    window = list(latest)
    for session in window:
        session.event.club = club  # no query for the club again
    return window[::-1]


def window_figures(window: Sequence[Session], scores: Mapping[int, ScoredSession]) -> dict[Hashable, PlayerFigure]:
    """Each player's (by id) average and club rating over the window's scored sessions.

    A pair counts for its own two players (those of the most boards after a change of
    player); a pair with no percentage (no board scored) counts for no one."""
    sessions = []
    for session in window:
        scored = scores[session.pk]
        figures = []
        for pair in scored.pairs.values():
            standing, _ = scored.standing_of(pair)
            if standing is not None and standing.percentage is not None:
                players = tuple(pk for pk in (pair.player_1_id, pair.player_2_id) if pk is not None)
                figures.append(PairFigure(players, standing.percentage))
        sessions.append(figures)
    return player_figures(sessions)


def club_player_figures(*, club: Club, before: Session | None = None) -> dict[Hashable, PlayerFigure]:
    """Every player's average and club rating over the club's window (three queries)."""
    window = rating_window(club=club, before=before)
    return window_figures(window, sessions_scores(sessions=window))


def computed_handicaps(*, session: Session, pairs: Sequence[Pair]) -> dict[int, Fraction | None]:
    """Each pair's (by id) handicap from the session's source, which is not "typed":
    the players' club averages or ratings over the window before the session, or their
    national grades (RULES 14). A pair with no player named (a phantom) has none."""
    source = handicap_source(session)
    if source == HandicapSource.GRADE:
        expected = {
            player.pk: Fraction(player.grade)
            for pair in pairs for player in (pair.player_1, pair.player_2) if player and player.grade is not None
        }
    else:
        figures = club_player_figures(club=session.event.club, before=session)
        rating = source == HandicapSource.RATING
        expected = {pk: found.rating if rating else found.average for pk, found in figures.items()}
    return {
        pair.pk: pair_handicap([expected.get(pair.player_1_id), expected.get(pair.player_2_id)])
        if pair.player_1_id or pair.player_2_id else None
        for pair in pairs
    }
