"""Bridge movements: who plays which boards against whom, at which table, each round.

Pure Python (no Django). ``mitchell`` and ``howell`` build a validated ``Movement``;
``suggest_movements`` lists sensible choices for a number of pairs.
"""

from sessions.movements.howell import howell, howell_round_options
from sessions.movements.mitchell import max_mitchell_rounds, mitchell
from sessions.movements.model import Movement, MovementError, PairCardLine, Seating, board_range
from sessions.movements.suggest import suggest_movements

__all__ = [
    "Movement",
    "MovementError",
    "PairCardLine",
    "Seating",
    "board_range",
    "howell",
    "howell_round_options",
    "max_mitchell_rounds",
    "mitchell",
    "suggest_movements",
]
