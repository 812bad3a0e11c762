"""The movements a director can choose from when creating a session."""

from __future__ import annotations

from sessions.movements import Movement, howell, mitchell, suggest_movements


def movement_options(*, pairs: int, boards_per_round: int | None = None) -> list[Movement]:
    """The engine's suggestions for ``pairs`` pairs, most usual first.

    With ``boards_per_round`` each suggestion is rebuilt with that many boards a round,
    keeping its shape (tables, rounds, arrow-switch, phantom). MovementError if the
    number of pairs cannot make a session.
    """
    suggestions = suggest_movements(pairs)
    if boards_per_round is None:
        return suggestions
    return [_with_boards_per_round(movement, pairs, boards_per_round) for movement in suggestions]


def _with_boards_per_round(movement: Movement, pairs: int, boards_per_round: int) -> Movement:
    if movement.kind == "howell":
        return howell(pairs, boards_per_round, rounds=movement.rounds)
    # An even Mitchell is a relay when it plays every round and a skip otherwise,
    # which is how the suggestions chose between them.
    return mitchell(
        movement.tables,
        boards_per_round,
        rounds=movement.rounds,
        arrow_switch_rounds=movement.arrow_switch_rounds,
        phantom=movement.phantom,
    )
