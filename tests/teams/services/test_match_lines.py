"""Match-line safety: versions on teams lines (stale edits never overwrite), the change
log, and two writers at once never losing or doubling a line (run on SQLite and on
PostgreSQL with DATABASE_URL)."""

import pytest

from sessions.models import MatchLine, MatchLineChange, Room
from sessions.core.services.errors import ResultConflict
from sessions.teams.services.teams import match_delete_line, match_record_line, round_robin_schedule
from tests.factories import make_team_event, make_user
from tests.pairs.services.test_results import _race


@pytest.fixture
def match(club):
    event = make_team_event(club, teams=2, form="round_robin", boards_per_match=2)
    return round_robin_schedule(event=event)[0]


def record(match, text, **kwargs):
    return match_record_line(match=match, board=1, room=Room.OPEN, text=text, **kwargs).line


def test_a_correction_names_the_version_it_saw_and_bumps_it(match):
    line = record(match, "4S N =", version=0)
    corrected = record(match, "4S N +1", version=line.version)
    assert (corrected.pk, corrected.text, corrected.version) == (line.pk, "4S N +1", 2)


def test_a_stale_correction_is_refused_and_overwrites_nothing(match, director):
    record(match, "4S N =", version=0)
    record(match, "4S N +1", version=1, by=director)

    with pytest.raises(ResultConflict, match=r"changed by director to 4S N \+1 .*version 2, you saw 1") as caught:
        record(match, "4S N -1", version=1)

    assert caught.value.current.text == "4S N +1"
    assert MatchLine.objects.get().text == "4S N +1"


def test_a_new_line_over_one_stored_meanwhile_is_a_conflict_not_a_second_line(match):
    record(match, "4S N =", version=0)
    with pytest.raises(ResultConflict):
        record(match, "3NT N =", version=0)
    assert MatchLine.objects.get().text == "4S N ="


def test_a_stale_deletion_is_refused(match):
    record(match, "4S N =", version=0)
    record(match, "4S N +1", version=1)
    with pytest.raises(ResultConflict):
        match_delete_line(match=match, board=1, room=Room.OPEN, version=1)
    match_delete_line(match=match, board=1, room=Room.OPEN, version=2)
    assert not MatchLine.objects.exists()


def test_the_change_log_says_who_when_before_and_after(match):
    ann, bob = make_user("ann"), make_user("bob")
    record(match, "4S N =", version=0, by=ann)
    record(match, "4S N +1", version=1, lead="HK", by=bob)
    record(match, "4S N +1", version=2, lead="HK", by=bob)  # unchanged: no new version, no entry
    match_delete_line(match=match, board=1, room=Room.OPEN, version=2, by=ann)

    log = list(MatchLineChange.objects.order_by("pk").values_list(
        "action", "board", "room", "before_text", "after_text", "changed_by__username"))
    assert log == [
        ("recorded", 1, "open", "", "4S N =", "ann"),
        ("corrected", 1, "open", "4S N =", "4S N +1 lead HK", "bob"),
        ("deleted", 1, "open", "4S N +1 lead HK", "", "ann"),
    ]
    assert all(change.changed_at for change in MatchLineChange.objects.all())


# --- two writers at once --------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_writers_of_a_new_line_store_one_and_the_other_is_told(club):
    event = make_team_event(club, teams=2, form="round_robin", boards_per_match=2)
    match = round_robin_schedule(event=event)[0]
    for trial in range(15):
        outcomes = _race(
            lambda: record(match, "4S N =", version=0),
            lambda: record(match, "4S N -1", version=0),
        )

        assert sorted(type(o).__name__ for o in outcomes) == ["NoneType", "ResultConflict"], (trial, outcomes)
        winner = ["4S N =", "4S N -1"][outcomes.index(None)]
        assert list(MatchLine.objects.values_list("text", flat=True)) == [winner]
        assert list(MatchLineChange.objects.values_list("action", "after_text")) == [("recorded", winner)]
        MatchLine.objects.all().delete()
        MatchLineChange.objects.all().delete()


@pytest.mark.django_db(transaction=True)
def test_a_correction_racing_a_deletion_ends_in_one_of_them_and_a_conflict(club):
    event = make_team_event(club, teams=2, form="round_robin", boards_per_match=2)
    match = round_robin_schedule(event=event)[0]
    for trial in range(15):
        record(match, "4S N =", version=0)

        outcomes = _race(
            lambda: record(match, "4S N +1", version=1),
            lambda: match_delete_line(match=match, board=1, room=Room.OPEN, version=1),
        )

        assert sorted(type(o).__name__ for o in outcomes) == ["NoneType", "ResultConflict"], (trial, outcomes)
        corrected = outcomes[0] is None
        assert list(MatchLine.objects.values_list("text", flat=True)) == (["4S N +1"] if corrected else [])
        actions = sorted(MatchLineChange.objects.values_list("action", flat=True))
        assert actions == sorted(["recorded", "corrected" if corrected else "deleted"])
        MatchLine.objects.all().delete()
        MatchLineChange.objects.all().delete()


@pytest.mark.django_db(transaction=True)
def test_a_phones_confirmation_racing_the_director_stores_one_line_and_the_directors_wins(club):
    from sessions.models import EntryStatus, MatchTableEntry
    from sessions.phones.services.team_tables import match_table_confirm, match_table_links_ensure, match_table_send

    event = make_team_event(club, teams=2, form="round_robin", boards_per_match=2)
    match = round_robin_schedule(event=event)[0]
    link = next(link for link in match_table_links_ensure(event=event, round=1) if link.room == Room.OPEN)
    director = make_user("td")
    for trial in range(10):
        sent = f"race-key-{trial:08d}"
        match_table_send(link=link, board=1, text="4S N =", client_key=sent)

        outcomes = _race(
            lambda sent=sent: match_table_confirm(link=link, client_key=sent),
            lambda: record(match, "4S N +2", version=0, by=director),
        )

        entry = MatchTableEntry.objects.get(client_key=sent)
        stored = MatchLine.objects.get()  # one line, never two
        if outcomes[1] is None:  # the director came first (or alone): the phone's entry is superseded
            assert (stored.text, entry.status, outcomes[0]) == ("4S N +2", EntryStatus.SUPERSEDED, None)
        else:  # the phone came first: the director is told, nothing overwritten
            assert isinstance(outcomes[1], ResultConflict) and outcomes[0] is None
            assert (stored.text, entry.status) == ("4S N =", EntryStatus.CONFIRMED)
        assert MatchLineChange.objects.count() == 1
        MatchLine.objects.all().delete()
        MatchLineChange.objects.all().delete()


def test_a_line_deleted_and_entered_again_is_not_the_line_a_stale_page_saw(match):
    """B saves 3NT N =; A's page shows it (its id, version 1); B deletes it and enters 4S S +1,
    a new line at version 1 again; A's write from the old page is refused."""
    b = make_user("b")
    seen = record(match, "3NT N =", version=0, by=b)
    match_delete_line(match=match, board=1, room=Room.OPEN, version=1, line_id=seen.pk, by=b)
    again = record(match, "4S S +1", version=0, by=b)
    assert again.version == seen.version == 1

    with pytest.raises(ResultConflict, match=r"deleted and entered again by b as 4S S \+1") as caught:
        record(match, "1C W -3", version=1, line_id=seen.pk)
    assert caught.value.current == again
    with pytest.raises(ResultConflict):
        match_delete_line(match=match, board=1, room=Room.OPEN, version=1, line_id=seen.pk)

    assert list(MatchLine.objects.values_list("text", flat=True)) == ["4S S +1"]
    record(match, "1C W -3", version=1, line_id=again.pk)  # from a page that showed the new line
    assert MatchLine.objects.get().text == "1C W -3"


@pytest.mark.django_db(transaction=True)
def test_a_stale_correction_racing_a_delete_and_re_entry_never_overwrites_the_new_line(club):
    """Director A corrects from a page showing 3NT N = (version 1) while director B deletes it
    and enters 4S S +1 (a new line, version 1 again). A waits a little longer each trial, so
    A lands before, between and after B's two writes: exactly one of them wins, and a write
    always replaces the line its writer saw (the change log's "before" is what A saw)."""
    import time

    event = make_team_event(club, teams=2, form="round_robin", boards_per_match=2)
    match = round_robin_schedule(event=event)[0]
    b = make_user("b")
    for trial, delay in enumerate([0, 0.002, 0.005, 0.01, 0.02, 0.04, 0.08, 0.15] * 2):
        seen = record(match, "3NT N =", version=0, by=b)

        def a_corrects(seen=seen, delay=delay):
            time.sleep(delay)
            record(match, "1C W -3", version=seen.version, line_id=seen.pk)

        def b_deletes_and_enters_again(seen=seen):
            match_delete_line(match=match, board=1, room=Room.OPEN, version=seen.version, line_id=seen.pk, by=b)
            record(match, "4S S +1", version=0, by=b)

        outcomes = _race(a_corrects, b_deletes_and_enters_again)

        assert sorted(type(o).__name__ for o in outcomes) == ["NoneType", "ResultConflict"], (trial, outcomes)
        winner = "1C W -3" if outcomes[0] is None else "4S S +1"
        assert list(MatchLine.objects.values_list("text", flat=True)) == [winner], trial
        corrections = MatchLineChange.objects.filter(after_text="1C W -3")
        assert [c.before_text for c in corrections] == (["3NT N ="] if outcomes[0] is None else []), trial
        MatchLine.objects.all().delete()
        MatchLineChange.objects.all().delete()
