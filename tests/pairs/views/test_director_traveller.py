"""The traveller page for adjusted scores and fouled boards.

Boards of the conftest session: board 1 (none vulnerable) and board 2 (NS vulnerable)
are each played by 1NS v 1EW, 2NS v 3EW and 3NS v 2EW.
"""

from fractions import Fraction

import pytest
from django.urls import reverse

from sessions.models import ChangeAction, Result, ResultChange, ResultKind
from sessions.core.selectors.scoring import session_score
from sessions.pairs.services.results import result_record

from tests.pairs.views.test_director_entry import row_key


def board_url(session, number):
    return reverse("sessions:director_board", args=[session.pk, number])


def test_the_traveller_shows_a_legend_of_the_notations(logged_in, session):
    html = logged_in.get(board_url(session, 1)).content.decode()

    for notation in ["A60/40", "A50/50", "W 2/3 NS 620, 1/3 EW 100", "NP", "NS 420", "EW 100"]:
        assert f"<kbd>{notation}</kbd>" in html, notation


@pytest.mark.parametrize(
    ("number", "typed", "kind", "stored"),
    [
        (1, "A60/40", ResultKind.ARTIFICIAL, (60, 40, None, None)),
        (1, "a 50/50", ResultKind.ARTIFICIAL, (50, 50, None, None)),
        (2, "W 2/3 NS 620, 1/3 EW 100", ResultKind.WEIGHTED, (None, None, None, [["2/3", 620], ["1/3", -100]])),
        (1, "np", ResultKind.NOT_PLAYED, (None, None, None, None)),
        (1, "NS 420", ResultKind.ASSIGNED, (None, None, 420, None)),
        (1, "EW 100", ResultKind.ASSIGNED, (None, None, -100, None)),
    ],
)
def test_adjusted_and_assigned_scores_are_entered_on_the_traveller(logged_in, session, number, typed, kind, stored):
    response = logged_in.post(board_url(session, number), {"row": row_key(session, number, "1NS", "1EW"), "text": typed})

    assert response.status_code == 302
    line = Result.objects.get()
    assert line.kind == kind
    assert (line.artificial_ns_percent, line.artificial_ew_percent, line.ns_score, line.weighted_parts) == stored


def test_an_assigned_score_no_contract_can_make_is_refused_in_place(logged_in, session):
    response = logged_in.post(board_url(session, 1), {"row": row_key(session, 1, "1NS", "1EW"), "text": "NS 620"})

    assert response.status_code == 200
    assert b"620" in response.content and not Result.objects.exists()


@pytest.fixture
def board_1_entered(session):
    board = session.boards.get(number=1)
    lines = {
        ns: result_record(board=board, section=session.sections.get(), ns_pair=ns, ew_pair=ew, text=text).result
        for ns, ew, text in [("1NS", "1EW", "4S N ="), ("3NS", "2EW", "4S N +1"), ("2NS", "3EW", "4S N -1")]
    }
    return board, lines


def groups_url(session, number=1):
    return reverse("sessions:director_board_groups", args=[session.pk, number])


def test_marking_a_board_fouled_scores_each_group_on_its_own(logged_in, session, board_1_entered):
    # +420 and +450 played the same cards, -50 other cards: +450 beats +420 in a group of two,
    # factored to three results: (2 + 1) x 3/2 - 1 = 3.5 and 0.5; -50 alone scores 2.
    _, lines = board_1_entered

    response = logged_in.post(groups_url(session), {
        f"group_{lines['1NS'].pk}": 1, f"group_{lines['3NS'].pk}": 1, f"group_{lines['2NS'].pk}": 2,
    }, follow=True)

    scored = session_score(session=session)
    assert [scored.scored_line(lines[ns]).ns_points for ns in ("1NS", "3NS", "2NS")] == [
        Fraction(1, 2), Fraction(7, 2), 2,
    ]
    html = response.content.decode()
    assert "Board 1 is fouled" in html
    assert ">3.50<" in html and 'title="Fouled board: group 2"' in html
    assert ResultChange.objects.filter(action=ChangeAction.REGROUPED).count() == 3


def test_a_fouled_board_can_be_marked_not_fouled(logged_in, session, board_1_entered):
    _, lines = board_1_entered
    logged_in.post(groups_url(session), {
        f"group_{lines['1NS'].pk}": 1, f"group_{lines['3NS'].pk}": 2, f"group_{lines['2NS'].pk}": 2,
    })

    logged_in.post(groups_url(session), {"not_fouled": "1"})

    assert set(Result.objects.values_list("group", flat=True)) == {None}


def test_groups_that_leave_a_line_out_are_explained_and_not_saved(logged_in, session, board_1_entered):
    _, lines = board_1_entered

    response = logged_in.post(groups_url(session), {
        f"group_{lines['1NS'].pk}": 1, f"group_{lines['3NS'].pk}": 2,
    }, follow=True)

    assert b"a fouled board needs a group on every line" in response.content
    assert set(Result.objects.values_list("group", flat=True)) == {None}


def test_marking_a_board_fouled_needs_a_post(logged_in, session):
    assert logged_in.get(groups_url(session)).status_code == 405
