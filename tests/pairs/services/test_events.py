"""Creating an event and changing its scoring settings: checked by the model and the engine."""

from fractions import Fraction

import pytest
from django.core.exceptions import ValidationError

from sessions.models import Event
from sessions.core.selectors.scoring import session_score
from sessions.pairs.services.events import event_create, event_update
from sessions.pairs.services.results import result_record
from tests.factories import make_session


def test_a_new_event_scores_by_matchpoints_on_the_european_scale(club):
    event = event_create(club=club, name="  Friday   Pairs ")

    event.refresh_from_db()
    assert (event.name, event.method, event.mp_scale, event.imp_table) == ("Friday Pairs", "matchpoints", "two_one", "wbf")


def test_an_event_name_is_unique_in_its_club(club, event):
    with pytest.raises(ValidationError):
        event_create(club=club, name=event.name)

    assert Event.objects.filter(club=club).count() == 1


def test_another_club_may_use_the_same_event_name(event, outsider):
    other = event_create(club=outsider.directed_clubs.get(), name=event.name)

    assert other.pk != event.pk


@pytest.mark.parametrize(
    ("setting", "value", "reason"),
    [
        ("method", "rubber", "not a valid choice"),
        ("mp_scale", "three_one", "not a valid choice"),
        ("imp_table", "emp1937", "unknown IMP table 'emp1937'"),
        ("name", "", "cannot be blank"),
        ("club", None, "not an event setting: club"),
        ("combination", "median", "not a valid choice"),
        ("combined_by", "teams", "not a valid choice"),
        ("sessions_counted", 0, "event_sessions_counted_positive"),
        ("minimum_sessions", 0, "event_minimum_sessions_positive"),
        ("carry_forward_percent", 101, "event_carry_forward_percent"),
    ],
)
def test_an_impossible_setting_is_refused_with_the_reason_and_nothing_changes(event, setting, value, reason):
    with pytest.raises(ValidationError) as refused:
        event_update(event=event, **{setting: value})

    assert reason in " ".join(refused.value.messages)
    stored = Event.objects.get(pk=event.pk)
    assert (stored.name, stored.method, stored.mp_scale, stored.imp_table) == ("Tuesday Pairs", "matchpoints", "two_one", "wbf")


def test_changing_the_method_rescores_the_sessions_on_the_next_read(event):
    # Board 1, three results: +450 beats +420 beats -50; IMPs differ from matchpoints.
    session = make_session(event)
    for ns, ew, text in [("1NS", "1EW", "4S N ="), ("3NS", "2EW", "4S N +1"), ("2NS", "3EW", "4S N -1")]:
        result_record(board=session.boards.get(number=1), section=session.sections.get(), ns_pair=ns,
                      ew_pair=ew, text=text)

    before = dict(session_score(session=session).rankings())["NS"][0].standing
    event_update(event=event, method="cross_imps", cross_imps="sum")
    session.refresh_from_db()
    after = dict(session_score(session=session).rankings())["NS"][0].standing

    assert (before.percentage, before.total) == (Fraction(100), Fraction(4))  # 4 of a top of 4
    # +450: 30 more than 420 (1 IMP) and 500 more than -50 (11 IMPs), summed.
    assert (after.percentage, after.total) == (None, Fraction(12))


def test_a_minimum_attendance_above_the_sessions_counted_is_refused(event):
    with pytest.raises(ValidationError, match="cannot exceed the 4 sessions counted"):
        event_update(event=event, sessions_counted=4, minimum_sessions=5)

    stored = Event.objects.get(pk=event.pk)
    assert (stored.sessions_counted, stored.minimum_sessions) == (None, 1)


def test_best_n_with_carry_forward_is_refused(event):
    with pytest.raises(ValidationError, match="best N does not apply"):
        event_update(event=event, combination="carry_forward", sessions_counted=3)

    assert Event.objects.get(pk=event.pk).combination == "scaled"


def test_a_league_table_setting_is_saved(event):
    event_update(event=event, combination="average", combined_by="players", sessions_counted=8, minimum_sessions=4)

    stored = Event.objects.get(pk=event.pk)
    assert (stored.combination, stored.combined_by, stored.sessions_counted, stored.minimum_sessions) == (
        "average", "players", 8, 4,
    )
