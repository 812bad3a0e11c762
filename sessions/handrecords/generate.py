"""Random deals for clubs that deal their own boards (or print them for a dealing machine).

Without a seed the shuffle draws on the operating system's randomness
(random.SystemRandom, as the secrets module does), so nobody can predict a session's
hands from the time or an earlier deal. A seed gives a repeatable set, for tests and
benchmarks only.
"""

from __future__ import annotations

import random

from sessions.scoring.errors import ScoringError

from sessions.handrecords.deals import ALL_CARDS, HAND_SIZE, SEATS, Deal, Hand


def random_deals(count: int, seed: int | str | None = None) -> list[Deal]:
    """``count`` independently shuffled deals; the same ``seed`` always gives the same deals."""
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ScoringError(f"{count!r} is not a number of deals: give a whole number, 0 or more")
    generator = random.SystemRandom() if seed is None else random.Random(seed)
    return [_shuffled_deal(generator) for _ in range(count)]


def _shuffled_deal(generator: random.Random) -> Deal:
    pack = list(ALL_CARDS)
    generator.shuffle(pack)
    return Deal.from_hands({
        seat: Hand.from_cards(pack[index * HAND_SIZE:(index + 1) * HAND_SIZE])
        for index, seat in enumerate(SEATS)
    })
