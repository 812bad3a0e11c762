"""Where a pair's handicap comes from, and the club rating (RULES 8, "Handicaps" and
"Club rating").

Pure Python: the caller gives the club's recent sessions as each pair's players and
scratch percentage, oldest first, and gets each player's plain average, club rating, and
a pair's handicap from its two players' figures. Exact arithmetic (fractions); the only
rounding is ``stored_handicap``, the figure a pair keeps (two decimals, as USEBIO's
HANDICAP).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from sessions.scoring.errors import ScoringError

#: The field's average: a player with no figure counts as this, a pair at it has no handicap.
PAR = Fraction(50)
#: The largest handicap either way, in percentage points: a typed one beyond it is refused,
#: a computed one is cut to it (a pair averaging 80 % would otherwise give away 30 points).
HANDICAP_LIMIT = 25


@dataclass(frozen=True)
class PairFigure:
    """One pair of a scored session: its named players (an empty seat left out) and its
    scratch percentage."""

    players: tuple[Hashable, ...]
    percentage: Fraction


@dataclass(frozen=True)
class PlayerFigure:
    """A player's figures over the window: the plain average of their session percentages,
    the club rating (each session adjusted by its field's strength), and how many sessions."""

    average: Fraction
    rating: Fraction
    sessions: int


def _averages(sessions: Sequence[Sequence[PairFigure]]) -> dict[Hashable, list[Fraction]]:
    played: dict[Hashable, list[Fraction]] = defaultdict(list)
    for session in sessions:
        for pair in session:  # a percentage below 0 (a procedural penalty) counts as it is
            for player in pair.players:
                played[player].append(pair.percentage)
    return played


def _mean(figures: Iterable[Fraction]) -> Fraction:
    figures = list(figures)
    return sum(figures, Fraction(0)) / len(figures)


def player_figures(sessions: Sequence[Sequence[PairFigure]]) -> dict[Hashable, PlayerFigure]:
    """Every player's average and club rating over the sessions given (the window).

    The rating of one session is the player's percentage plus the strength of the rest of
    the field over par: the mean plain average of the session's other players (a player
    with no other session in the window counts as par), minus 50. The club rating is the
    mean of those over the player's sessions in the window. One pass, no iteration: the
    strengths are the plain averages, so a figure never depends on the order it is read in.
    """
    played = _averages(sessions)
    average = {player: _mean(figures) for player, figures in played.items()}
    adjusted: dict[Hashable, list[Fraction]] = defaultdict(list)
    for session in sessions:
        everyone = [player for pair in session for player in pair.players]
        for pair in session:
            others = [average[player] for player in everyone if player not in pair.players]
            strength = _mean(others) if others else PAR
            for player in pair.players:
                adjusted[player].append(pair.percentage + strength - PAR)
    return {
        player: PlayerFigure(average=average[player], rating=_mean(adjusted[player]), sessions=len(played[player]))
        for player in played
    }


def pair_handicap(figures: Sequence[Fraction | None]) -> Fraction:
    """A pair's handicap from its players' figures (plain averages, club ratings or
    national grades, all on the percentage scale): par minus their mean, so a pair
    expected to score 56 % gives 6 points away (-6) and one expected to score 45 % gets 5.
    A player without a figure counts as par; the result is cut to +-HANDICAP_LIMIT."""
    if len(figures) != 2:
        raise ScoringError(f"a pair has two players, not {len(figures)}")
    expected = _mean(PAR if figure is None else Fraction(figure) for figure in figures)
    return max(Fraction(-HANDICAP_LIMIT), min(Fraction(HANDICAP_LIMIT), PAR - expected))


def stored_handicap(handicap: Fraction) -> Decimal:
    """The figure a pair keeps: two decimals, halves away from zero (-6.125 -> -6.13)."""
    exact = Decimal(handicap.numerator) / Decimal(handicap.denominator)
    return exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
