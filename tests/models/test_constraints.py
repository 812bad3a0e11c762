"""The database itself refuses what no service should ever write."""

import pytest
from django.db import IntegrityError, transaction

from sessions.models import Pair, Result, ResultKind


def raw_line(session, *, ns="1NS", ew="1EW", **fields):
    """A line written straight to the database, past the services' checks."""
    pairs = {p.label: p for p in Pair.objects.filter(section__session=session)}
    values = dict(
        board=session.boards.get(number=1), section=session.sections.get(), ns_pair=pairs[ns],
        ew_pair=pairs[ew], kind=ResultKind.PLAYED, level=4, strain="S", declarer="N", tricks=10,
        ns_score=420, entered_text="4S N =", text="4S N =",
    )
    values.update(fields)
    return Result.objects.create(**values)


def refused(session, **fields):
    with pytest.raises(IntegrityError), transaction.atomic():
        raw_line(session, **fields)


def test_a_second_result_for_the_same_ns_pair_on_a_board_is_refused(session):
    raw_line(session)
    refused(session, ew="2EW")


def test_a_second_result_for_the_same_ew_pair_on_a_board_is_refused(session):
    raw_line(session)
    refused(session, ns="2NS")


@pytest.mark.parametrize("tricks", [14, 99])
def test_more_than_13_tricks_is_refused(session, tricks):
    refused(session, tricks=tricks)


def test_13_tricks_is_allowed(session):
    assert raw_line(session, level=7, tricks=13, ns_score=1510).pk


@pytest.mark.parametrize("level", [0, 8])
def test_a_contract_level_outside_1_to_7_is_refused(session, level):
    refused(session, level=level)


def test_a_pair_cannot_play_itself(session):
    refused(session, ns="1NS", ew="1NS")


def test_a_played_line_needs_its_contract(session):
    refused(session, declarer="")


def test_a_passed_out_board_scores_zero(session):
    refused(session, kind=ResultKind.PASSED, ns_score=50)


def test_an_artificial_score_needs_real_percentages(session):
    refused(session, kind=ResultKind.ARTIFICIAL, artificial_ns_percent=55, artificial_ew_percent=45)


POINTS = dict(kind=ResultKind.ASSIGNED_POINTS, level=None, strain="", declarer="", tricks=None, ns_score=None,
              text="MP 3/1")


@pytest.mark.parametrize(
    "fields",
    [
        dict(assigned_ns_points=None, assigned_ew_points=1, points_unit="MP"),  # a figure missing
        dict(assigned_ns_points=3, assigned_ew_points=1, points_unit=""),  # no unit
        dict(assigned_ns_points=-1, assigned_ew_points=3, points_unit="MP"),  # negative matchpoints
    ],
)
def test_assigned_points_need_both_figures_a_unit_and_matchpoints_from_zero(session, fields):
    refused(session, **POINTS, **fields)


def test_assigned_imps_may_be_negative(session):
    assert raw_line(session, **POINTS, assigned_ns_points=-3, assigned_ew_points=3, points_unit="IMP").pk
