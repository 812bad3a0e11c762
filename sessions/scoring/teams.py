"""Team matches: IMPs between the two tables, victory points, board-a-match (RULES.md 7).

A match between team A and team B is given board by board as (table 1 NS score,
table 2 NS score), with team A sitting NS at table 1 and EW at table 2, so team A's
swing on a board is table 1's NS score minus table 2's.

Victory point scales:

- ``"20"`` and ``"30"``: the seeds' discrete scales (seeds/000). The tutorial's
  "20 point Victory Point scale for a 7 board match" (seeds/004 Appendix B) is the
  same table band for band, so it has no name of its own.
- ``wbf_vp``: the WBF 2013 continuous scale as the WBF publishes it (RULES.md 7):
  B = 15 x sqrt(boards), tau = (sqrt(5) - 1) / 2,
  winner = 10 + 10 x (1 - tau^(3M/B)) / (1 - tau^3), capped at 20, rounded to 2
  decimals (half up, computed with 40 significant digits); then, as in the published
  tables, a whole-IMP value whose next increment would exceed the previous one is
  raised by 0.01, repeatedly, until no increment grows (8 boards, 40 IMPs: the formula
  rounds to 19.73, the table says 19.74). A fractional margin takes the rounded formula
  held between the table's values at the whole margins either side. loser = 20 - winner.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction
from functools import lru_cache
from numbers import Rational

from sessions.scoring.errors import ScoringError
from sessions.scoring.imps import DEFAULT_IMP_TABLE, imps


@dataclass(frozen=True)
class TeamMatch:
    """IMPs of a match from team A's side: per board, won, lost and the margin."""

    board_imps: tuple[int, ...]

    @property
    def imps_won(self) -> int:
        return sum(value for value in self.board_imps if value > 0)

    @property
    def imps_lost(self) -> int:
        return -sum(value for value in self.board_imps if value < 0)

    @property
    def margin(self) -> int:
        return self.imps_won - self.imps_lost


def _check_ns_score(score: int) -> None:
    if isinstance(score, bool) or not isinstance(score, int):
        raise ScoringError(f"a team match needs each table's NS score in points, not {score!r}")


def _swings(boards: Sequence[tuple[int, int]]) -> list[int]:
    """Team A's point swing on each board: table 1 NS score minus table 2 NS score."""
    swings = []
    for table1, table2 in boards:
        _check_ns_score(table1)
        _check_ns_score(table2)
        swings.append(table1 - table2)
    return swings


def team_match(boards: Sequence[tuple[int, int]], table: str = DEFAULT_IMP_TABLE) -> TeamMatch:
    """IMPs per board for team A from (table 1 NS, table 2 NS) scores."""
    return TeamMatch(tuple(imps(swing, table) for swing in _swings(boards)))


#: Board-a-match scales: points for a won board (a tie scores half): 1, 1/2, 0 (RULES 7)
#: or "2 (won), 1 (tied) and 0 (lost)" (seeds/003).
BAM_WIN_POINTS = (1, 2)


def board_a_match(boards: Sequence[tuple[int, int]], win: int = 1) -> tuple[Fraction, ...]:
    """Team A's board-a-match points per board: ``win`` won, half of it tied, 0 lost."""
    if isinstance(win, bool) or win not in BAM_WIN_POINTS:
        raise ScoringError(f"a board-a-match board is worth 1 or 2 points, not {win!r}")
    return tuple(Fraction(win) if swing > 0 else Fraction(win, 2) if swing == 0 else Fraction(0)
                 for swing in _swings(boards))


# Discrete scales: (lowest winning margin of the band, winner's VP), from seeds/000.
VP_SCALES: dict[str, tuple[tuple[int, int], ...]] = {
    "20": (
        (0, 10), (1, 11), (3, 12), (5, 13), (8, 14), (11, 15),
        (14, 16), (17, 17), (20, 18), (24, 19), (28, 20),
    ),
    "30": (
        (0, 15), (1, 18), (2, 19), (3, 20), (4, 21), (5, 22), (7, 23),
        (9, 24), (11, 25), (14, 26), (17, 27), (20, 28), (24, 29), (28, 30),
    ),
    # TeamsScorer's 20-VP scale for 3-board matches, read from its published file
    # (tests/data/teams/ebu_example_multiple_teams_teamsscorer.xml, 40 matches). Margins
    # 15, 17, 18 and 20 do not occur there: 15 lies inside 14-16 -> 18; 17-20 -> 19 continues
    # the widening bands (1, 1, 1, 2, 2, 2, 2, 3, 3, 4) and agrees with 19 -> 19 and 21 -> 20.
    "3board": (
        (0, 10), (1, 11), (2, 12), (3, 13), (5, 14), (7, 15), (9, 16), (11, 17),
        (14, 18), (17, 19), (21, 20),
    ),
}


def _check_margin(margin: int | Fraction | Decimal) -> None:
    if isinstance(margin, bool) or not isinstance(margin, (Rational, Decimal)):
        raise ScoringError(f"an IMP margin must be an exact number, not {margin!r}")


def victory_points(margin: int, scale: str = "20") -> tuple[int, int]:
    """(team's VP, opponents' VP) on a discrete scale for the team's IMP margin."""
    _check_margin(margin)
    if scale not in VP_SCALES:
        raise ScoringError(f"unknown VP scale {scale!r}: use one of {', '.join(VP_SCALES)}")
    bands = VP_SCALES[scale]
    total = 2 * bands[0][1]
    winner = max(vp for lowest, vp in bands if abs(margin) >= lowest)
    return (winner, total - winner) if margin >= 0 else (total - winner, winner)


_CENT = Decimal("0.01")


def _wbf_winner_vp(size: Fraction | Decimal, boards: int) -> Decimal:
    """The winner's VP for a margin of ``size`` IMPs (size >= 0)."""
    with localcontext() as context:
        context.prec = 40
        if not isinstance(size, Decimal):
            size = Decimal(size.numerator) / Decimal(size.denominator)
        tau = (Decimal(5).sqrt() - 1) / 2
        blitz = 15 * Decimal(boards).sqrt()
        if size >= blitz:
            return Decimal(20).quantize(_CENT)
        share = (1 - (3 * size / blitz * tau.ln()).exp()) / (1 - tau**3)
        return (10 + 10 * share).quantize(_CENT, rounding=ROUND_HALF_UP)


@lru_cache(maxsize=128)
def wbf_table(boards: int) -> tuple[Decimal, ...]:
    """The published WBF 2013 winner's VPs for 0, 1, 2 ... IMPs up to the first 20.00.

    The rounded formula, then each value whose next increment exceeds its previous one
    raised by 0.01 until no increment grows ("each extra IMP leads to a non-increasing
    fractional gain in VPs", WBF Scoring Panel). Raising a value only shrinks the
    increment after it and grows the one before, so the passes end.
    """
    blitz = math.ceil(15 * math.sqrt(boards))
    while _wbf_winner_vp(Fraction(blitz - 1), boards) == 20:
        blitz -= 1  # float sqrt near a whole number: find the first 20.00 exactly
    values = [_wbf_winner_vp(Fraction(margin), boards) for margin in range(blitz + 1)]
    raised = True
    while raised:
        raised = False
        for margin in range(1, len(values) - 1):
            if values[margin + 1] - values[margin] > values[margin] - values[margin - 1]:
                values[margin] += _CENT
                raised = True
    return tuple(values)


def _published_winner_vp(size: Fraction | Decimal, boards: int) -> Decimal:
    """The table's value at a whole margin; a fractional margin takes the rounded
    formula, kept within the table's values at the whole margins either side."""
    table = wbf_table(boards)
    whole = int(size)
    if whole >= len(table) - 1:
        return table[-1]
    if whole == size:
        return table[whole]
    return min(max(_wbf_winner_vp(size, boards), table[whole]), table[whole + 1])


def wbf_vp(margin: int | Fraction | Decimal, boards: int) -> tuple[Decimal, Decimal]:
    """(team's VP, opponents' VP) on the WBF 2013 continuous 20-VP scale, as published."""
    _check_margin(margin)
    if isinstance(boards, bool) or not isinstance(boards, int) or boards < 1:
        raise ScoringError(f"a match needs a whole number of boards (1 or more), not {boards!r}")
    size = abs(margin) if isinstance(margin, Decimal) else abs(Fraction(margin))
    winner = _published_winner_vp(size, boards)
    loser = Decimal(20) - winner
    return (winner, loser) if margin >= 0 else (loser, winner)
