"""The movements offered for a new session, reshaped by the director's rounds and arrow-switch rounds."""

import pytest

from sessions.movements import MovementError
from sessions.pairs.selectors.movements import movement_options


def test_rounds_reshape_the_suggestions_and_drop_those_that_cannot_play_them():
    # 10 pairs: a Howell plays 5, 7 or 9 rounds, a 5-table Mitchell 1 to 5.
    options = movement_options(pairs=10, rounds=4, boards_per_round=3)

    assert {(m.kind, m.tables, m.rounds, m.boards_per_round) for m in options} == {("mitchell", 5, 4, 3)}
    assert len({m.description for m in options}) == len(options)  # each offered once


def test_arrow_switch_rounds_offer_only_mitchells_switched_in_those_rounds():
    options = movement_options(pairs=10, arrow_switch_rounds={4, 5})

    assert options and all(m.kind == "mitchell" for m in options)
    assert all(m.arrow_switch_rounds == {4, 5} for m in options)


def test_when_every_suggestion_is_refused_each_refusal_is_given_once():
    with pytest.raises(MovementError) as refused:
        movement_options(pairs=10, rounds=12)

    assert "12-round Howell" in str(refused.value) and "plays 1 to 5 rounds, not 12" in str(refused.value)


def test_a_howell_only_number_of_pairs_cannot_switch_arrows():
    with pytest.raises(MovementError, match="only a Mitchell switches arrows"):
        movement_options(pairs=4, arrow_switch_rounds={2})
