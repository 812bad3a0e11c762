"""Recording, refusing, warning about, correcting and deleting traveller lines.

The conftest session is a 3-table Mitchell of 2 boards a round. Board 1 (dealer N,
none vulnerable) is played by 1NS v 1EW (round 1, table 1), 3NS v 2EW (round 2,
table 3) and 2NS v 3EW (round 3, table 2).
"""

import pytest
from django.core.exceptions import ValidationError

from sessions.models import ChangeAction, Result, ResultChange, ResultKind
from sessions.movements import howell, mitchell
from sessions.core.services.errors import ResultConflict
from sessions.pairs.services.results import result_correct, result_delete, result_record
from tests.factories import make_session


def board(session, number):
    return session.boards.get(number=number)


def record(session, number, ns, ew, text, **extra):
    return result_record(
        board=board(session, number), section=session.sections.get(), ns_pair=ns, ew_pair=ew,
        text=text, **extra,
    )


def nothing_saved():
    return not Result.objects.exists() and not ResultChange.objects.exists()


# --- recording ------------------------------------------------------------------


def test_recording_a_made_contract_stores_contract_score_and_seating(session, director):
    outcome = record(session, 1, "1NS", "1EW", "4S N =", by=director)

    line = Result.objects.get()
    assert (line.kind, line.level, line.strain, line.doubling, line.declarer, line.tricks) == (
        ResultKind.PLAYED, 4, "S", "", "N", 10,
    )
    assert line.ns_score == 420  # 4 x 30 + 300 game, none vulnerable
    assert (line.round, line.table, line.version) == (1, 1, 1)
    assert line.updated_by == director
    assert outcome.result == line and outcome.warnings == ()


@pytest.mark.parametrize(
    ("text", "kind", "ns_score"),
    [
        ("4SX N 10", ResultKind.PLAYED, 590),  # 240 doubled + 300 game + 50 insult
        ("3NT= W", ResultKind.PLAYED, -400),  # EW's 400 is NS -400
        ("4H-1 S", ResultKind.PLAYED, -50),
        ("P", ResultKind.PASSED, 0),
        ("NS 420", ResultKind.ASSIGNED, 420),
        ("EW 100", ResultKind.ASSIGNED, -100),
    ],
)
def test_each_notation_is_stored_as_an_ns_score(session, text, kind, ns_score):
    record(session, 1, "1NS", "1EW", text)

    line = Result.objects.get()
    assert (line.kind, line.ns_score) == (kind, ns_score)
    assert line.entered_text == text


def test_an_artificial_score_keeps_both_percentages(session):
    record(session, 1, "1NS", "1EW", "A60/40")

    line = Result.objects.get()
    assert (line.kind, line.artificial_ns_percent, line.artificial_ew_percent, line.ns_score) == (
        ResultKind.ARTIFICIAL, 60, 40, None,
    )


def test_a_weighted_score_keeps_exact_weights(session):
    record(session, 1, "1NS", "1EW", "W 2/3 NS 420, 1/3 EW 50")

    line = Result.objects.get()
    assert line.kind == ResultKind.WEIGHTED
    assert line.weighted_parts == [["2/3", 420], ["1/3", -50]]


def test_not_played_is_a_line_without_a_score(session):
    record(session, 1, "1NS", "1EW", "NP")

    assert Result.objects.get().kind == ResultKind.NOT_PLAYED


def test_a_bare_pair_number_means_the_pair_of_that_direction(session):
    record(session, 1, "1", "1", "4S N =")

    line = Result.objects.get()
    assert (line.ns_pair.label, line.ew_pair.label) == ("1NS", "1EW")


def test_the_lead_is_normalised_to_suit_then_card(session):
    record(session, 1, "1NS", "1EW", "4S N =", lead="♥k")

    assert Result.objects.get().lead == "HK"


#: Board 1's hand record: West holds JT76 of spades, North the ace, East the 5 3 2.
WELWYN_1 = "N:A98.J92.A75.Q852 532.86.K632.KJT7 KQ4.AKT73.JT.A93 JT76.Q54.Q984.64"


def test_with_a_hand_record_a_lead_not_in_the_leaders_hand_is_refused_and_nothing_saved(session):
    session.boards.filter(number=1).update(deal=WELWYN_1)

    with pytest.raises(ValidationError) as refused:
        record(session, 1, "1NS", "1EW", "4S N =", lead="SA")  # North's ace: East leads against North

    assert refused.value.message_dict["lead"] == [
        "board 1: the ace of spades is not in East's hand, and East leads against North: check the lead and the declarer"
    ]
    assert nothing_saved()
    record(session, 1, "1NS", "1EW", "4S N =", lead="S2")  # East's two
    assert Result.objects.get().lead == "S2"


def test_a_correction_is_checked_against_the_hand_record_too(session):
    session.boards.filter(number=1).update(deal=WELWYN_1)
    line = record(session, 1, "1NS", "1EW", "4S N =", lead="S2").result

    with pytest.raises(ValidationError, match="not in East's hand"):
        result_correct(result=line, text="4S N =", lead="SJ", version=line.version)
    result_correct(result=line, text="4S W -1", lead="SA", version=line.version)  # West declares: North leads

    assert Result.objects.get().lead == "SA"


def test_recording_writes_the_audit_trail(session, director):
    record(session, 1, "1NS", "1EW", "4s n =", lead="hk", by=director)

    change = ResultChange.objects.get()
    assert (change.action, change.before_text, change.after_text) == (ChangeAction.RECORDED, "", "4S N = lead HK")
    assert change.changed_by == director
    assert (change.ns_pair.label, change.ew_pair.label, change.board.number) == ("1NS", "1EW", 1)


def test_in_a_howell_the_pair_sitting_ns_is_the_movements(event):
    session = make_session(event, howell(8, 2))
    seating = session.sections.get().seatings.select_related("ns_pair", "ew_pair").get(round=1, table=1)
    first_board = seating.boards[0]

    record(session, first_board, seating.ns_pair.label, seating.ew_pair.label, "3NT N =")

    assert Result.objects.get().table == 1


# --- refusing -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ns", "ew", "text", "extra", "reason"),
    [
        ("9NS", "1EW", "4S N =", {}, "has no NS pair 9NS"),
        ("1NS", "9", "4S N =", {}, "has no EW pair 9"),
        ("1NS", "2EW", "4S N =", {}, "on board 1 1NS plays 1EW (round 1, table 1)"),
        ("1NS", "1EW", "4S N =", {"round": 2}, "play board 1 in round 1, not round 2"),
        ("1NS", "1EW", "4S N +4", {}, "cannot make 4 overtricks"),
        ("1NS", "1EW", "7NT N +1", {}, "cannot make an overtrick"),
        ("1NS", "1EW", "NS 425", {}, "not a score any contract can produce"),
        ("1NS", "1EW", "NS 620", {}, "on board 1"),  # a vulnerable game on a non-vulnerable board
        ("1NS", "1EW", "", {}, "no result entered"),
        ("1NS", "1EW", "4S N =", {"lead": "Z9"}, "not a card"),
        ("1NS", "1EW", "PASS", {"lead": "HK"}, "a lead goes with a played contract only"),
    ],
)
def test_an_impossible_line_is_refused_with_the_reason_and_nothing_saved(session, ns, ew, text, extra, reason):
    with pytest.raises(ValidationError) as refused:
        record(session, 1, ns, ew, text, **extra)

    assert reason in " ".join(refused.value.messages)
    assert nothing_saved()


def test_pairs_entered_the_wrong_way_round_in_a_howell_are_refused(event):
    session = make_session(event, howell(8, 2))
    seating = session.sections.get().seatings.select_related("ns_pair", "ew_pair").get(round=1, table=1)

    with pytest.raises(ValidationError, match="wrong way round"):
        record(session, seating.boards[0], seating.ew_pair.label, seating.ns_pair.label, "3NT N =")
    assert nothing_saved()


def test_a_second_result_for_the_same_pairs_is_refused(session):
    record(session, 1, "1NS", "1EW", "4S N =")

    with pytest.raises(ValidationError, match="already has a result for 1NS v 1EW"):
        record(session, 1, "1NS", "1EW", "4S N +1")
    assert Result.objects.get().text == "4S N ="


def test_a_section_of_another_session_is_refused(session, event):
    other = make_session(event)

    with pytest.raises(ValidationError, match="not in the session"):
        result_record(
            board=board(session, 1), section=other.sections.get(), ns_pair="1NS", ew_pair="1EW", text="4S N ="
        )


# --- warnings ---------------------------------------------------------------------


@pytest.fixture
def five_tables(event):
    """5-table Mitchell, 2 boards a round: board 1 is played at every table."""
    return make_session(event, mitchell(5, 2))


def lines_of_board_1(session):
    seatings = session.sections.get().seatings.select_related("ns_pair", "ew_pair").order_by("round")
    return [(s.ns_pair.label, s.ew_pair.label) for s in seatings if 1 in s.boards]


def test_a_score_far_outside_the_board_is_saved_with_a_warning(five_tables):
    lines = lines_of_board_1(five_tables)
    for (ns, ew), text in zip(lines, ["4S N =", "4S N +1", "4S N =", "4S S ="]):
        record(five_tables, 1, ns, ew, text)

    outcome = record(five_tables, 1, *lines[4], "7NT N =")

    assert outcome.result.pk is not None
    assert len(outcome.warnings) == 1
    assert "NS +1520 is far from the other results on board 1 (NS +420 to +450)" in outcome.warnings[0]


def test_the_contract_declared_by_the_other_side_elsewhere_is_queried(five_tables):
    lines = lines_of_board_1(five_tables)
    for (ns, ew), text in zip(lines, ["2S N =", "2S S +1", "2S N -1"]):
        record(five_tables, 1, ns, ew, text)

    outcome = record(five_tables, 1, *lines[3], "2S E =")

    assert outcome.warnings == (
        "2S was declared by N, S at the other tables but by E here: check the declarer (NS and EW swapped?)",
    )


def test_an_ordinary_result_has_no_warning(five_tables):
    lines = lines_of_board_1(five_tables)
    for (ns, ew), text in zip(lines, ["4S N =", "4S N +1", "4S N =", "4S S -1"]):
        record(five_tables, 1, ns, ew, text)

    assert record(five_tables, 1, *lines[4], "3NT N +1").warnings == ()


# --- correcting and deleting --------------------------------------------------------


@pytest.fixture
def line(session, director):
    return record(session, 1, "1NS", "1EW", "4S N =", by=director).result


def test_a_correction_replaces_the_result_and_bumps_the_version(line, director):
    outcome = result_correct(result=line, text="4S N +1", version=1, by=director)

    stored = Result.objects.get()
    assert (stored.text, stored.ns_score, stored.version) == ("4S N +1", 450, 2)
    assert outcome.result.version == 2
    change = ResultChange.objects.get(action=ChangeAction.CORRECTED)
    assert (change.before_text, change.after_text, change.changed_by) == ("4S N =", "4S N +1", director)


def test_a_correction_from_a_stale_version_is_a_conflict_and_overwrites_nothing(line, director):
    result_correct(result=line, text="4S N +1", version=1, by=director)

    with pytest.raises(ResultConflict) as conflict:
        result_correct(result=line, text="4S N -1", version=1)

    assert conflict.value.current.text == "4S N +1"
    assert conflict.value.current.version == 2
    assert "changed by director to 4S N +1" in str(conflict.value)
    assert Result.objects.get().text == "4S N +1"
    assert ResultChange.objects.filter(action=ChangeAction.CORRECTED).count() == 1


def test_an_impossible_correction_changes_nothing(line):
    with pytest.raises(ValidationError, match="cannot make 4 overtricks"):
        result_correct(result=line, text="4S N +4", version=1)

    assert (Result.objects.get().text, Result.objects.get().version) == ("4S N =", 1)


def test_a_correction_that_changes_nothing_keeps_the_version_and_logs_nothing(line):
    result_correct(result=line, text="4s n 10", version=1)

    assert Result.objects.get().version == 1
    assert not ResultChange.objects.filter(action=ChangeAction.CORRECTED).exists()


def test_deleting_a_line_keeps_it_in_the_log(line, director):
    result_delete(result=line, version=1, by=director)

    assert not Result.objects.exists()
    change = ResultChange.objects.get(action=ChangeAction.DELETED)
    assert (change.before_text, change.after_text, change.result) == ("4S N =", "", None)
    assert (change.ns_pair.label, change.ew_pair.label) == ("1NS", "1EW")


def test_deleting_a_line_changed_meanwhile_is_a_conflict(line):
    result_correct(result=line, text="4S N +1", version=1)

    with pytest.raises(ResultConflict):
        result_delete(result=line, version=1)
    assert Result.objects.exists()


def test_correcting_a_deleted_line_is_a_conflict_with_no_current_line(line):
    result_delete(result=line, version=1)

    with pytest.raises(ResultConflict) as conflict:
        result_correct(result=line, text="4S N +1", version=1)
    assert conflict.value.current is None


def test_a_line_entered_by_someone_else_at_the_same_moment_is_refused_with_the_reason(session, monkeypatch):
    from sessions.pairs.services import results

    record(session, 1, "1NS", "1EW", "4S N =")
    # The other director's line lands just after the service looked for one: the save
    # finds it (the database's unique constraint), and the service says whose line it is.
    looks = []
    real = results._refuse_duplicate

    def too_early(*args):
        looks.append(args)
        if len(looks) > 1:
            real(*args)

    monkeypatch.setattr(results, "_refuse_duplicate", too_early)

    with pytest.raises(ValidationError, match=r"board 1 already has a result for 1NS v 1EW \(4S N =\)"):
        record(session, 1, "1NS", "1EW", "4S N +1")
    assert len(looks) == 2
    assert Result.objects.get().text == "4S N ="


# --- two directors at once ------------------------------------------------------------


def _race(*actions):
    """Run the actions in threads released together; each returns what it raised or None."""
    import threading

    from django.db import connection

    barrier = threading.Barrier(len(actions))
    outcomes = [None] * len(actions)

    def run(index, action):
        try:
            barrier.wait()
            action()
        except Exception as error:  # noqa: BLE001 - the test inspects every outcome
            outcomes[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, action)) for i, action in enumerate(actions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_a_deletion_racing_a_correction_ends_in_one_of_them_and_a_conflict(event):
    session = make_session(event)
    for trial in range(25):
        line = record(session, 1, "1NS", "1EW", "4S N =").result

        outcomes = _race(
            lambda line=line: result_correct(result=line, text="4S N +1", version=1),
            lambda line=line: result_delete(result=line, version=1),
        )

        # Exactly one wins; the other is told the line changed (never an IntegrityError).
        assert sorted(type(o).__name__ for o in outcomes) == ["NoneType", "ResultConflict"], (trial, outcomes)
        corrected, deleted = outcomes[0] is None, outcomes[1] is None
        assert Result.objects.exists() == corrected
        actions = list(ResultChange.objects.filter(board__number=1).values_list("action", flat=True))
        assert sorted(actions) == sorted(
            ["recorded"] + (["corrected"] if corrected else []) + (["deleted"] if deleted else []))
        Result.objects.all().delete()
        ResultChange.objects.all().delete()
