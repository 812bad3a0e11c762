"""An independent par calculator for the tests: the bidding game solved by brute force.

Par is the result when both sides bid perfectly on the double-dummy table: a side
lets the current contract stand (doubled if it fails) or outbids it, and the
dealer's side may bid first. With 35 contracts and two sides this is a small
game solved exactly by backward induction, scored with the engine's own
deal_score (Law 77), so it shares nothing with DDS's par code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache

from sessions.scoring.boards import Seat, Side, Vulnerability, is_vulnerable
from sessions.scoring.deal_score import deal_score

STRAINS = ("C", "D", "H", "S", "NT")
CONTRACTS = [(level, strain) for level in range(1, 8) for strain in STRAINS]  # bidding order
SEATS_OF = {Side.NS: (Seat.N, Seat.S), Side.EW: (Seat.E, Seat.W)}


def par_score(tricks: Mapping[tuple[Seat, str], int], dealer: Seat, vulnerability: Vulnerability) -> int:
    """The NS par score for a table of tricks[(declarer, strain)]."""
    best = {(side, strain): max(tricks[seat, strain] for seat in SEATS_OF[side])
            for side in Side for strain in STRAINS}

    def played(index: int, side: Side) -> int:
        """NS score when ``side`` plays contract ``index``: undoubled if made, doubled if not."""
        level, strain = CONTRACTS[index]
        taken = best[side, strain]
        doubled = "" if taken >= level + 6 else "X"
        score = deal_score(f"{level}{strain}{doubled}", taken, is_vulnerable(vulnerability, side))
        return score if side is Side.NS else -score

    def choose(side: Side) -> Callable[[list[int]], int]:
        return max if side is Side.NS else min

    @cache
    def after_bid(index: int, side: Side) -> int:
        """Value once ``side`` has bid contract ``index`` and the other side is to decide."""
        other = side.other
        options = [played(index, side)] + [after_bid(higher, other) for higher in range(index + 1, len(CONTRACTS))]
        return choose(other)(options)

    first = dealer.side
    second = first.other
    second_value = choose(second)([0] + [after_bid(index, second) for index in range(len(CONTRACTS))])
    return choose(first)([second_value] + [after_bid(index, first) for index in range(len(CONTRACTS))])
