"""Points the director assigns on a line: typed on the traveller, refused in the wrong
unit or above the board's top, logged like any other line, scored as assigned.

The conftest session is a 3-table Mitchell: board 1 is played at three tables, so its
top is 4 matchpoints (2 a result beaten).
"""

import uuid
from decimal import Decimal
from fractions import Fraction

import pytest
from django.core.exceptions import ValidationError

from sessions.models import ChangeAction, MatchLine, Result, ResultChange, ResultKind, TableEntry
from sessions.core.selectors.scoring import session_score
from sessions.pairs.services.events import event_update
from sessions.pairs.services.results import result_correct
from sessions.pairs.services.results import fill_line
from sessions.phones.services.tables import table_entry_send, table_links_ensure
from tests.pairs.services.test_results import nothing_saved, record


def test_assigned_matchpoints_are_stored_with_the_ruling_and_logged(session, director):
    record(session, 1, "1NS", "1EW", "a5050 mp 3.5/0.5", by=director)

    line = Result.objects.get()
    assert line.kind == ResultKind.ASSIGNED_POINTS
    assert (line.assigned_ns_points, line.assigned_ew_points, line.points_unit) == (Decimal("3.5"), Decimal("0.5"), "MP")
    assert (line.artificial_ns_percent, line.artificial_ew_percent, line.ns_score) == (50, 50, None)
    assert line.text == "A50/50 MP 3.5/0.5"
    change = ResultChange.objects.get()
    assert (change.action, change.before_text, change.after_text) == (ChangeAction.RECORDED, "", "A50/50 MP 3.5/0.5")


def test_the_session_scores_the_assigned_figures_and_the_board_without_the_line(session):
    record(session, 1, "1NS", "1EW", "MP 3/1")
    record(session, 1, "3NS", "2EW", "4S N =")
    record(session, 1, "2NS", "3EW", "4S N +1")

    scored = session_score(session=session)
    by_text = {line.text: scored.scored_line(line) for line in scored.results}
    assert (by_text["MP 3/1"].ns_points, by_text["MP 3/1"].ew_points) == (3, 1)
    # The other two compared between themselves (2 / 0 of a top of 2), Neuberg to 3 results.
    assert (by_text["4S N +1"].ns_points, by_text["4S N +1"].ew_points) == (Fraction(7, 2), Fraction(1, 2))


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("MP 5/0", "NS cannot be assigned 5 matchpoints: the board's top is 4"),
        ("MP 2/4.5", "EW cannot be assigned 4.5 matchpoints: the board's top is 4"),
        ("IMP 3/-3", "this event is scored in matchpoints: assign the points as MP 23/11"),
        ("MP -1/3", "matchpoints are never negative"),
        ("MP 1.23456/2", "no more than 4 decimal places"),
    ],
)
def test_points_out_of_range_or_in_the_wrong_unit_are_refused_and_nothing_saved(session, text, reason):
    with pytest.raises(ValidationError, match=reason):
        record(session, 1, "1NS", "1EW", text)
    assert nothing_saved()


def test_a_top_is_the_movements_not_the_results_entered_so_far(session):
    # The first line of board 1: three tables will play it, so 4 is within its top.
    record(session, 1, "1NS", "1EW", "MP 4/0")
    assert Result.objects.get().assigned_ns_points == 4
    session_score(session=session)  # the session scores while the board is still short


def test_imps_are_assigned_in_an_imp_event_and_matchpoints_refused(session, event):
    event_update(event=event, method="butler")
    record(session, 1, "1NS", "1EW", "IMP 3/-3")
    assert (Result.objects.get().assigned_ns_points, Result.objects.get().points_unit) == (3, "IMP")
    with pytest.raises(ValidationError, match="this event is scored in IMPs: assign the points as IMP 3/-3"):
        record(session, 1, "3NS", "2EW", "MP 2/2")


def test_a_correction_to_assigned_points_and_back_logs_both_texts(session, director):
    line = record(session, 1, "1NS", "1EW", "4S N =").result

    result_correct(result=line, text="NS 420 MP 2.5/1.5", version=1, by=director)
    stored = Result.objects.get()
    assert (stored.kind, stored.ns_score, stored.assigned_ns_points) == (ResultKind.ASSIGNED_POINTS, 420, Decimal("2.5"))
    result_correct(result=line, text="4S N +1", version=2, by=director)
    stored = Result.objects.get()
    assert (stored.kind, stored.assigned_ns_points, stored.assigned_ew_points, stored.points_unit) == (
        ResultKind.PLAYED, None, None, "",
    )
    corrections = ResultChange.objects.filter(action=ChangeAction.CORRECTED).order_by("pk")
    assert [(change.before_text, change.after_text) for change in corrections] == [
        ("4S N =", "NS 420 MP 2.5/1.5"), ("NS 420 MP 2.5/1.5", "4S N +1"),
    ]


def test_a_teams_room_cannot_hold_assigned_points():
    with pytest.raises(ValidationError, match="points cannot be assigned on a room"):
        fill_line(MatchLine(), "MP 3/1", "", 1)



def test_a_tables_phone_cannot_send_assigned_points(session):
    link = next(link for link in table_links_ensure(session=session) if link.table == 1)

    with pytest.raises(ValidationError, match="only the director assigns a line's points"):
        table_entry_send(link=link, board=session.boards.get(number=1), text="MP 4/0", client_key=uuid.uuid4().hex)
    assert not TableEntry.objects.exists() and nothing_saved()
