"""Fouled boards: each group of lines that played the same cards is scored on its own.

Board 1 of the conftest session has three results: 1NS v 1EW +420, 3NS v 2EW +450,
2NS v 3EW -50 (full top 4, three results expected, 2 per result beaten).

Not fouled: +450 4, +420 2, -50 0 (NS).
Fouled, {+420, +450} in group 1 and {-50} in group 2. Neuberg (RULES 5):
(M + 1) x E / A - 1 with E = 3 results expected:
  group 1 (A = 2, top 2): +450 M = 2 -> 3 x 3/2 - 1 = 3.5, +420 M = 0 -> 3/2 - 1 = 0.5;
  group 2 (A = 1, top 0): -50 M = 0 -> 1 x 3/1 - 1 = 2 (an average).
"""

from fractions import Fraction

import pytest
from django.core.exceptions import ValidationError

from sessions.models import ChangeAction, Result, ResultChange
from sessions.core.selectors.scoring import session_score
from sessions.pairs.services.results import board_set_groups, result_record

LINES = [("1NS", "1EW", "4S N ="), ("3NS", "2EW", "4S N +1"), ("2NS", "3EW", "4S N -1")]


@pytest.fixture
def board_1(session):
    board = session.boards.get(number=1)
    lines = [
        result_record(board=board, section=session.sections.get(), ns_pair=ns, ew_pair=ew, text=text).result
        for ns, ew, text in LINES
    ]
    return board, lines


def ns_points(session, lines):
    scored = session_score(session=session)
    return [scored.scored_line(line).ns_points for line in lines]


def test_a_board_not_fouled_is_one_comparison(session, board_1):
    _, lines = board_1

    assert ns_points(session, lines) == [2, 4, 0]


def test_a_fouled_board_is_matchpointed_in_groups_and_factored_to_the_full_top(session, board_1):
    board, (made, overtrick, down) = board_1

    board_set_groups(board=board, groups={made.pk: 1, overtrick.pk: 1, down.pk: 2})

    assert ns_points(session, [made, overtrick, down]) == [Fraction(1, 2), Fraction(7, 2), 2]


def test_marking_a_board_not_fouled_again_restores_one_comparison(session, board_1):
    board, lines = board_1
    board_set_groups(board=board, groups={lines[0].pk: 1, lines[1].pk: 1, lines[2].pk: 2})

    board_set_groups(board=board, groups={line.pk: None for line in lines})

    assert ns_points(session, lines) == [2, 4, 0]
    assert set(Result.objects.values_list("group", flat=True)) == {None}


def test_each_changed_line_is_logged(session, board_1, director):
    board, lines = board_1

    changed = board_set_groups(board=board, groups={lines[0].pk: 1, lines[1].pk: 1, lines[2].pk: 2}, by=director)

    assert changed == 3
    logged = ResultChange.objects.filter(action=ChangeAction.REGROUPED).select_related("ns_pair")
    assert sorted((c.ns_pair.label, c.before_text, c.after_text, c.changed_by.username) for c in logged) == [
        ("1NS", "not fouled", "group 1", "director"), ("2NS", "not fouled", "group 2", "director"),
        ("3NS", "not fouled", "group 1", "director"),
    ]


@pytest.mark.parametrize(
    ("groups", "reason"),
    [
        ((1, 1, None), "a fouled board needs a group on every line"),
        ((1, 1, 1), "every line is in the same group"),
        ((0, 1, 2), "groups are numbered from 1"),
    ],
)
def test_groups_that_cannot_describe_a_fouled_board_are_refused(session, board_1, groups, reason):
    board, lines = board_1

    with pytest.raises(ValidationError, match=reason):
        board_set_groups(board=board, groups={line.pk: group for line, group in zip(lines, groups)})

    assert set(Result.objects.values_list("group", flat=True)) == {None}
    assert not ResultChange.objects.filter(action=ChangeAction.REGROUPED).exists()


def test_every_line_of_the_board_must_be_named(session, board_1):
    board, lines = board_1

    with pytest.raises(ValidationError, match="lines changed while you were choosing groups"):
        board_set_groups(board=board, groups={lines[0].pk: 1, lines[1].pk: 2})


def test_a_new_line_on_a_fouled_board_is_saved_with_a_warning(event):
    from sessions.movements import mitchell
    from tests.factories import make_session

    session = make_session(event, mitchell(5, 2))
    board = session.boards.get(number=1)
    section = session.sections.get()
    seatings = [s for s in section.seatings.select_related("ns_pair", "ew_pair").order_by("table") if 1 in s.boards]
    lines = [
        result_record(board=board, section=section, ns_pair=s.ns_pair.label, ew_pair=s.ew_pair.label,
                      text="4S N =").result
        for s in seatings[:2]
    ]
    board_set_groups(board=board, groups={lines[0].pk: 1, lines[1].pk: 2})

    outcome = result_record(board=board, section=section, ns_pair=seatings[2].ns_pair.label,
                            ew_pair=seatings[2].ew_pair.label, text="4S N =")

    assert any("board 1 is marked fouled" in warning for warning in outcome.warnings)
