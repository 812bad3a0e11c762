"""The movements a director can choose from when creating a session."""

from __future__ import annotations

from collections.abc import Collection

from sessions.movements import Movement, MovementError, howell, mitchell, suggest_movements


def movement_options(
    *,
    pairs: int,
    boards_per_round: int | None = None,
    rounds: int | None = None,
    arrow_switch_rounds: Collection[int] | None = None,
) -> list[Movement]:
    """The engine's suggestions for ``pairs`` pairs, most usual first.

    With ``boards_per_round`` or ``rounds`` each suggestion is rebuilt with them, keeping
    its shape (tables, arrow-switch, phantom). With ``arrow_switch_rounds`` only the
    Mitchells are offered, switched in exactly those rounds. A suggestion the movement
    library refuses in that shape is left out; MovementError (the library's
    refusals) if none is left, or if the number of pairs cannot make a session.
    """
    suggestions = suggest_movements(pairs)
    if boards_per_round is None and rounds is None and arrow_switch_rounds is None:
        return suggestions
    if arrow_switch_rounds is not None:
        suggestions = [movement for movement in suggestions if movement.kind == "mitchell"]
        if not suggestions:
            raise MovementError(f"only a Mitchell switches arrows, and {pairs} pairs play no Mitchell")
    options, refusals = [], []
    for movement in suggestions:
        try:
            options.append(_reshaped(movement, pairs, boards_per_round, rounds, arrow_switch_rounds))
        except MovementError as error:
            refusals.append(error)
    if not options:
        # Every refusal, once: each names what its kind of movement could play instead.
        raise MovementError("; ".join(dict.fromkeys(str(refusal) for refusal in refusals)))
    # Two suggestions may become the same movement once reshaped: offer it once.
    return list({movement.description: movement for movement in options}.values())


def _reshaped(
    movement: Movement,
    pairs: int,
    boards_per_round: int | None,
    rounds: int | None,
    arrow_switch_rounds: Collection[int] | None,
) -> Movement:
    boards_per_round = boards_per_round or movement.boards_per_round
    rounds = rounds or movement.rounds
    if movement.kind == "howell":
        return howell(pairs, boards_per_round, rounds=rounds)
    # An even Mitchell is a relay when it plays every round and a skip otherwise,
    # which is how the suggestions chose between them.
    return mitchell(
        movement.tables,
        boards_per_round,
        rounds=rounds,
        arrow_switch_rounds=movement.arrow_switch_rounds if arrow_switch_rounds is None else arrow_switch_rounds,
        phantom=movement.phantom,
    )
