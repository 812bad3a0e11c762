"""Repairing a session: seating mistakes, late and missing pairs, settings; each re-scored.

Figures are matchpoints on the 2-per-result-beaten scale, worked by hand. With three
results on a board the top is 4 (best 4, middle 2, worst 0); a pair's percentage is its
matchpoints over (boards it played x the full top). With two results on every board the
top is 2.

The conftest session is a 3-table Mitchell of 2 boards a round. Board 1 is played
round 1 at table 1 (1NS v 1EW), round 2 at table 3 (3NS v 2EW), round 3 at table 2
(2NS v 3EW).
"""

from __future__ import annotations

import datetime
from fractions import Fraction

import pytest
from django.core.exceptions import ValidationError

from sessions.models import ChangeAction, Pair, Result, ResultChange, ResultKind, Seating, Session
from sessions.movements import mitchell
from sessions.pairs.selectors.sessions import session_progress
from sessions.core.selectors.scoring import session_score
from sessions.clubs.services.players import pair_set_players, player_add
from sessions.pairs.services.results import result_record
from sessions.pairs.services.sessions import session_publish, session_unpublish
from sessions.pairs.services import results as results_service
from sessions.pairs.services.repair import (
    TableSeating,
    pair_add_late,
    pair_withdraw,
    result_reassign_pairs,
    result_turn_round,
    round_set_seatings,
    seating_turn_round,
    session_change_movement,
    session_delete,
    session_update,
)
from tests.factories import make_session


def record(session, number, ns, ew, text):
    board = session.boards.get(number=number)
    return result_record(board=board, section=session.sections.get(), ns_pair=ns, ew_pair=ew, text=text).result


def percentages(session) -> dict[str, Fraction | None]:
    scored = session_score(session=session)
    return {
        ranked.pair.label: ranked.standing.percentage
        for _, field in scored.rankings() for ranked in field
    }


def seating_of(session, round, table):
    seating = Seating.objects.select_related("ns_pair", "ew_pair").get(
        section__session=session, round=round, table=table
    )
    return seating.ns_pair.label, seating.ew_pair.label, seating.boards


@pytest.fixture
def board_1(session):
    """Board 1 entered: 1NS v 1EW +450 (the top), 3NS v 2EW +420, 2NS v 3EW -50."""
    return [
        record(session, 1, "1NS", "1EW", "4S N +1"),
        record(session, 1, "3NS", "2EW", "4S N ="),
        record(session, 1, "2NS", "3EW", "4S N -1"),
    ]


# --- pairs who sat the wrong way round ---------------------------------------------------


def test_turning_a_table_round_gives_the_ns_score_to_the_pair_that_sat_ns(session, board_1):
    # Before: 1NS took +450 (4 of 4 as NS), 1EW 0 of 4 as EW.
    assert (percentages(session)["1NS"], percentages(session)["1EW"]) == (100, 0)

    repair = seating_turn_round(section=session.sections.get(), round=1, table=1)

    # 1EW sat North-South: the +450 is theirs (4 of 4), 1NS sat East-West (0 of 4).
    assert (percentages(session)["1EW"], percentages(session)["1NS"]) == (100, 0)
    line = Result.objects.get(pk=board_1[0].pk)
    assert (line.ns_pair.label, line.ew_pair.label, line.ns_score, line.version) == ("1EW", "1NS", 450, 2)
    assert seating_of(session, 1, 1) == ("1EW", "1NS", [1, 2])
    assert (repair.tables, repair.lines_moved) == ((1,), 1)


def test_after_turning_round_the_tables_other_board_is_entered_the_new_way(session, board_1):
    seating_turn_round(section=session.sections.get(), round=1, table=1)

    with pytest.raises(ValidationError, match="wrong way round"):
        record(session, 2, "1NS", "1EW", "3NT N =")
    line = record(session, 2, "1EW", "1NS", "3NT N =")

    assert (line.round, line.table) == (1, 1)


def test_turning_a_table_round_is_in_the_change_log(session, board_1, director):
    seating_turn_round(section=session.sections.get(), round=1, table=1, by=director)

    seating = ResultChange.objects.get(action=ChangeAction.SEATING)
    assert seating.subject == "section A, round 1, table 1"
    assert (seating.before_text, seating.after_text) == ("1NS v 1EW, boards 1-2", "1EW v 1NS, boards 1-2")
    assert seating.changed_by == director
    line = ResultChange.objects.get(action=ChangeAction.PAIRS)
    assert (line.board.number, line.ns_pair.label, line.ew_pair.label) == (1, "1EW", "1NS")
    assert line.before_text == "1NS v 1EW: 4S N +1"


def test_turning_one_line_round_leaves_the_seating(session, board_1):
    result_turn_round(result=board_1[1], version=1)

    # 2EW sat NS on board 1 only: +420 is now 2EW's (2 of 4), 3NS takes the EW 2 of 4.
    scored = session_score(session=session)
    line = Result.objects.get(pk=board_1[1].pk)
    assert (line.ns_pair.label, line.ew_pair.label) == ("2EW", "3NS")
    assert (scored.scored_line(line).ns_points, scored.scored_line(line).ew_points) == (2, 2)
    assert seating_of(session, 2, 3) == ("3NS", "2EW", [1, 2])


def test_turning_a_line_seen_at_an_old_version_is_a_conflict(session, board_1):
    results_service.result_correct(result=board_1[0], text="4S N =", version=1)

    with pytest.raises(results_service.ResultConflict):
        result_turn_round(result=board_1[0], version=1)
    assert Result.objects.get(pk=board_1[0].pk).ns_pair.label == "1NS"


# --- two pairs who swapped tables ------------------------------------------------------------


@pytest.fixture
def five_tables(event):
    """A 5-table Mitchell, 3 rounds of 1 board. In round 2, 1EW should play board 3 at
    table 2 and 5EW board 2 at table 1; they swapped tables, and the lines were entered
    as the movement said."""
    session = make_session(event, mitchell(5, 1, rounds=3))
    lines = {
        "b2 r1": record(session, 2, "2NS", "2EW", "NS 140"),
        "b2 r2": record(session, 2, "1NS", "5EW", "NS 110"),  # really 1EW
        "b2 r3": record(session, 2, "5NS", "3EW", "EW 100"),
        "b3 r1": record(session, 3, "3NS", "3EW", "NS 100"),
        "b3 r2": record(session, 3, "2NS", "1EW", "NS 200"),  # really 5EW
        "b3 r3": record(session, 3, "1NS", "4EW", "EW 50"),
    }
    return session, lines


def swapped_round_2(session) -> list[TableSeating]:
    wanted = {1: ("1NS", "1EW", (2,)), 2: ("2NS", "5EW", (3,))}
    return [
        TableSeating(table, *wanted.get(table, (ns, ew, tuple(boards))))
        for table in range(1, 6)
        for ns, ew, boards in [seating_of(session, 2, table)]
    ]


def test_two_pairs_who_swapped_tables_take_each_others_lines(five_tables):
    session, lines = five_tables
    # Board 2 (top 4): +140 4, +110 2, -100 0 for NS; the EW of +110 takes 2.
    # Board 3: +200 4, +100 2, -50 0 for NS; the EW of +200 takes 0.
    before = percentages(session)
    assert (before["5EW"], before["1EW"]) == (50, 0)

    repair = round_set_seatings(section=session.sections.get(), round=2, seatings=swapped_round_2(session))

    after = percentages(session)
    assert (after["1EW"], after["5EW"]) == (50, 0)
    assert repair.tables == (1, 2) and repair.lines_moved == 2
    assert Result.objects.get(pk=lines["b2 r2"].pk).ew_pair.label == "1EW"
    assert Result.objects.get(pk=lines["b3 r2"].pk).ew_pair.label == "5EW"
    assert seating_of(session, 2, 1) == ("1NS", "1EW", [2])
    # The NS pairs and the other lines are as they were.
    assert (after["1NS"], after["2NS"], after["3EW"]) == (before["1NS"], before["2NS"], before["3EW"])
    assert ResultChange.objects.filter(action=ChangeAction.SEATING).count() == 2


def test_a_round_with_a_pair_at_two_tables_is_refused(five_tables):
    session, lines = five_tables
    wanted = swapped_round_2(session)
    wanted[1] = TableSeating(2, "2NS", "1EW", (3,))  # 1EW now at tables 1 and 2

    with pytest.raises(ValidationError, match="1EW cannot sit at two tables at once"):
        round_set_seatings(section=session.sections.get(), round=2, seatings=wanted)
    assert seating_of(session, 2, 1) == ("1NS", "5EW", [2])
    assert not ResultChange.objects.filter(action=ChangeAction.SEATING).exists()


# --- a table that played the wrong boards -------------------------------------------------


def test_a_table_that_played_other_boards_gets_them_and_is_warned_of_the_repeat(session):
    section = session.sections.get()
    wanted = [TableSeating(t, *seating_of(session, 1, t)[:2], tuple(seating_of(session, 1, t)[2])) for t in (1, 2, 3)]
    wanted[0] = TableSeating(1, "1NS", "1EW", (3, 4))  # table 1 played boards 3-4, not 1-2

    repair = round_set_seatings(section=section, round=1, seatings=wanted)

    assert seating_of(session, 1, 1) == ("1NS", "1EW", [3, 4])
    # 1NS meets boards 3-4 again in round 2 at table 1: the director is told.
    assert any("1NS now plays board 3-4" in warning and "round 2" in warning for warning in repair.warnings)
    line = record(session, 3, "1NS", "1EW", "3NT N =")
    assert (line.round, line.table) == (1, 1)


def test_new_boards_that_would_orphan_a_line_are_refused(session, board_1):
    wanted = [TableSeating(t, *seating_of(session, 1, t)[:2], tuple(seating_of(session, 1, t)[2])) for t in (1, 2, 3)]
    wanted[0] = TableSeating(1, "1NS", "1EW", (3, 4))

    with pytest.raises(ValidationError, match="line on board 1 .*would no longer play"):
        round_set_seatings(section=session.sections.get(), round=1, seatings=wanted)
    assert seating_of(session, 1, 1) == ("1NS", "1EW", [1, 2])


# --- a board scored under the wrong pair numbers ---------------------------------------------


def test_a_line_under_the_wrong_pairs_is_reassigned_and_rescored(session):
    record(session, 1, "1NS", "1EW", "4S N +1")  # +450
    wrong = record(session, 1, "3NS", "2EW", "4S N -1")  # -50, really 2NS v 3EW
    # Two results (top 2): 3NS takes 0 of 2, 2NS has played nothing.
    assert percentages(session)["3NS"] == 0

    line = result_reassign_pairs(result=wrong, ns_pair="2NS", ew_pair="3EW", version=1)

    assert (line.ns_pair.label, line.ew_pair.label, line.round, line.table, line.version) == (
        "2NS", "3EW", 3, 2, 2
    )
    after = percentages(session)
    assert (after["2NS"], after["3EW"]) == (0, 100)
    assert "3NS" not in after  # no board any more: not ranked


def test_reassigning_to_pairs_that_do_not_meet_on_the_board_is_refused(session, board_1):
    with pytest.raises(ValidationError, match="does not play board 1 against"):
        result_reassign_pairs(result=board_1[1], ns_pair="1NS", ew_pair="2EW", version=1)
    assert Result.objects.get(pk=board_1[1].pk).ns_pair.label == "3NS"


# --- late and missing pairs -----------------------------------------------------------------


@pytest.fixture
def odd_session(event):
    """5 pairs: a 3-table Mitchell with 3EW missing (its opponents sit out)."""
    return make_session(event, mitchell(3, 2, phantom="3EW"))


def test_a_late_pair_takes_the_phantoms_place_from_its_round(odd_session):
    session = odd_session
    section = session.sections.get()
    with pytest.raises(ValidationError, match="no EW pair 3"):
        record(session, 3, "1NS", "3EW", "EW 200")

    late = pair_add_late(section=section, from_round=2)

    assert (late.pair.label, late.rounds) == ("3EW", (2, 3))
    # The phantom's places from round 2: table 1 (boards 3-4 v 1NS), table 2 in round 3.
    assert seating_of(session, 2, 1) == ("1NS", "3EW", [3, 4])
    assert seating_of(session, 3, 2) == ("2NS", "3EW", [1, 2])
    assert not Seating.objects.filter(section=section, round=1, table=3).exists()  # 3NS sat out round 1
    assert session_progress(session=session).expected == 6 * 2 + 2 * 2
    # Board 3: 2NS v 2EW +140, 1NS v 3EW -200, 3NS v 1EW -100 (top 4).
    # EW: 3EW 4 (beat both), 1EW 2, 2EW 0.
    record(session, 3, "2NS", "2EW", "NS 140")
    late = record(session, 3, "1NS", "3EW", "EW 200")
    record(session, 3, "3NS", "1EW", "EW 100")
    scored = session_score(session=session)
    assert scored.scored_line(late).ew_points == 4
    assert percentages(session)["3EW"] == 100
    assert ResultChange.objects.get(action=ChangeAction.MOVEMENT).subject == "pair 3EW"


def test_a_late_pair_is_named_as_it_is_added(odd_session):
    section = odd_session.sections.get()
    member = player_add(club=odd_session.event.club, name="Ann Member", national_number="123")

    late = pair_add_late(section=section, from_round=2, players=[("ann member", ""), ("New Guest", "9")])

    pair = Pair.objects.select_related("player_1", "player_2").get(pk=late.pair.pk)
    assert pair.player_1 == member  # a club member found by name (any case), not added twice
    assert (pair.player_2.name, pair.player_2.national_number) == ("New Guest", "9")
    assert odd_session.event.club.players.count() == 2
    assert ResultChange.objects.get(action=ChangeAction.MOVEMENT).after_text.startswith("Ann Member & New Guest plays")


def test_a_late_pair_whose_player_is_refused_is_not_added(odd_session):
    section = odd_session.sections.get()
    player_add(club=odd_session.event.club, name="Ann Member", national_number="123")

    with pytest.raises(ValidationError, match="national number 123 is Ann Member's"):
        pair_add_late(section=section, from_round=2, players=[("Bob Other", "123"), ("", "")])

    assert not Pair.objects.filter(section=section, number=3, direction="EW").exists()


def test_a_late_pair_after_a_seating_change_takes_the_places_still_free(odd_session):
    section = odd_session.sections.get()
    seating_turn_round(section=section, round=1, table=1)  # the movement's plan no longer holds

    late = pair_add_late(section=section, from_round=2)

    # Rounds 2 and 3 were not changed: the phantom's places there are free, as in the movement.
    assert (late.pair.label, late.rounds, late.unseated) == ("3EW", (2, 3), ())
    assert seating_of(odd_session, 2, 1) == ("1NS", "3EW", [3, 4])
    assert seating_of(odd_session, 3, 2) == ("2NS", "3EW", [1, 2])


def test_a_late_pair_is_left_unseated_only_where_the_hand_seating_took_its_place(odd_session):
    section = odd_session.sections.get()
    # Round 2 reseated by hand: 1NS (the phantom's opponent) plays 1EW at table 1 on the
    # phantom's boards 3-4; 2NS sits out instead.
    round_set_seatings(section=section, round=2, seatings=[
        TableSeating(1, "1NS", "1EW", (3, 4)), TableSeating(3, "3NS", "2EW", (1, 2)),
    ])

    late = pair_add_late(section=section, from_round=2)

    assert (late.rounds, late.unseated) == ((3,), (2,))
    assert not Seating.objects.filter(section=section, round=2, ew_pair=late.pair).exists()
    assert seating_of(odd_session, 3, 2) == ("2NS", "3EW", [1, 2])
    log = ResultChange.objects.get(action=ChangeAction.MOVEMENT, subject="pair 3EW")
    assert log.after_text == "plays from round 2 (1 rounds); rounds 2 to be seated by hand"


def test_a_late_pair_is_refused_when_the_movement_is_full(session):
    with pytest.raises(ValidationError, match="no free place"):
        pair_add_late(section=session.sections.get(), from_round=2)
    assert Pair.objects.count() == 6


def test_a_pair_that_leaves_has_its_remaining_boards_not_played(session, board_1):
    pair = Pair.objects.get(section__session=session, number=2, direction="EW")
    with pytest.raises(ValidationError, match="2EW has a result on board 1 in round 2"):
        pair_withdraw(pair=pair, from_round=2)
    Result.objects.filter(pk=board_1[1].pk).delete()  # say 2EW left after round 1, line entered by mistake
    before = session_progress(session=session).missing

    outcome = pair_withdraw(pair=pair, from_round=2)

    # 2EW's rounds 2 and 3: board 1-2 v 3NS and boards 5-6 v 1NS, not played.
    assert (outcome.removed, outcome.not_played) == (False, 4)
    not_played = Result.objects.filter(kind=ResultKind.NOT_PLAYED)
    assert sorted(line.board.number for line in not_played) == [1, 2, 5, 6]
    assert session_progress(session=session).missing == before - 4
    # Board 1 now has two results (top 2): +450 2 and -50 0 for NS; the NP is not compared.
    assert (percentages(session)["1NS"], percentages(session)["2NS"]) == (100, 0)


def test_a_pair_that_never_came_leaves_the_movement_and_its_opponents_sit_out(session):
    pair = Pair.objects.get(section__session=session, number=3, direction="EW")

    outcome = pair_withdraw(pair=pair, from_round=1)

    assert outcome.removed
    assert not Pair.objects.filter(pk=pair.pk).exists()
    assert Seating.objects.filter(section__session=session).count() == 6
    assert session_progress(session=session).expected == 12
    # It can come back late, into its own place.
    assert pair_add_late(section=session.sections.get(), from_round=3).pair.label == "3EW"
    assert seating_of(session, 3, 2) == ("2NS", "3EW", [1, 2])


# --- name, date, movement, deletion, publication ----------------------------------------------


def test_renaming_and_redating_a_session_is_logged(session, director):
    session_update(session=session, name="  Tuesday   afternoon ", date=datetime.date(2025, 3, 5), by=director)

    session.refresh_from_db()
    assert (session.name, session.date) == ("Tuesday afternoon", datetime.date(2025, 3, 5))
    change = ResultChange.objects.get(action=ChangeAction.SETTINGS)
    assert change.after_text == "Tuesday afternoon, 2025-03-05"


def test_the_movement_changes_while_no_line_is_entered(session):
    session_change_movement(session=session, movement=mitchell(4, 2))

    session.refresh_from_db()
    assert (session.tables, session.rounds, session.board_count) == (4, 4, 8)
    assert Seating.objects.filter(section__session=session).count() == 16
    assert Pair.objects.filter(section__session=session).count() == 8
    assert ResultChange.objects.get(action=ChangeAction.SETTINGS).subject == "movement"


def test_a_movement_without_a_pair_that_has_players_is_refused_unless_confirmed(session):
    pair_3ew = session.sections.get().pairs.get(number=3, direction="EW")
    pair_set_players(pair=pair_3ew, player_1=player_add(club=session.event.club, name="Ann Smith"), player_2=None)

    # 5 pairs (3EW a phantom) leave 3EW out: its player would leave the session.
    five_pairs = mitchell(3, 2, phantom="3EW")
    with pytest.raises(ValidationError, match=r"the new movement has no pair A 3EW \(Ann Smith\)"):
        session_change_movement(session=session, movement=five_pairs)
    assert Pair.objects.filter(pk=pair_3ew.pk).exists()
    assert Seating.objects.filter(section__session=session).count() == 9

    session_change_movement(session=session, movement=five_pairs, drop_players=True)

    assert not Pair.objects.filter(pk=pair_3ew.pk).exists()
    log = ResultChange.objects.get(action=ChangeAction.SETTINGS)
    assert "players removed with pairs A 3EW (Ann Smith)" in log.after_text


def test_a_movement_keeping_every_pair_with_players_needs_no_confirmation(session):
    pair_1ns = session.sections.get().pairs.get(number=1, direction="NS")
    pair_set_players(pair=pair_1ns, player_1=player_add(club=session.event.club, name="Bob Jones"), player_2=None)

    session_change_movement(session=session, movement=mitchell(3, 2, phantom="3EW"))

    assert Pair.objects.get(pk=pair_1ns.pk).player_1.name == "Bob Jones"


def test_a_new_movement_that_would_orphan_lines_is_refused(session, board_1):
    with pytest.raises(ValidationError, match="3 line.* are entered: a new movement would orphan them"):
        session_change_movement(session=session, movement=mitchell(4, 2))
    session.refresh_from_db()
    assert session.tables == 3


def test_only_an_unpublished_session_can_be_deleted(session, board_1):
    session_publish(session=session)
    with pytest.raises(ValidationError, match="unpublish it before deleting"):
        session_delete(session=session)

    session_unpublish(session=session)
    session_delete(session=session)

    assert not Session.objects.filter(pk=session.pk).exists()
    assert not Result.objects.exists()


def test_publishing_and_unpublishing_are_logged(session, board_1, director):
    session_publish(session=session, by=director)
    session_publish(session=session, by=director)  # a second tap
    session_unpublish(session=session, by=director)

    actions = list(ResultChange.objects.filter(board__isnull=True).order_by("pk").values_list("action", flat=True))
    assert actions == [ChangeAction.PUBLISHED, ChangeAction.UNPUBLISHED]


# --- a repair racing an entry ------------------------------------------------------------------


def test_a_line_checked_against_a_seating_changed_meanwhile_is_refused_not_stored(session, monkeypatch):
    section = session.sections.get()
    board = session.boards.get(number=2)
    checked = results_service.result_check(board=board, section=section, ns_pair="1NS", ew_pair="1EW", text="NS 110")
    seating_turn_round(section=section, round=1, table=1)  # committed between the check and the save
    monkeypatch.setattr(results_service, "result_check", lambda **kwargs: checked)

    with pytest.raises(ValidationError, match="was changed while this line was being entered"):
        result_record(board=board, section=section, ns_pair="1NS", ew_pair="1EW", text="NS 110")
    assert not Result.objects.exists()


def test_a_line_stored_before_the_repair_moves_with_its_table(session):
    line = record(session, 2, "1NS", "1EW", "NS 110")

    seating_turn_round(section=session.sections.get(), round=1, table=1)

    assert Result.objects.count() == 1
    moved = Result.objects.get()
    assert (moved.pk, moved.ns_pair.label, moved.ns_score) == (line.pk, "1EW", 110)


@pytest.mark.django_db(transaction=True)
def test_a_table_turned_round_while_its_line_is_entered_never_loses_nor_doubles_it(event):
    from tests.pairs.services.test_results import _race

    session = make_session(event)
    section = session.sections.get()
    board = session.boards.get(number=2)
    for trial in range(20):
        ns, ew, _ = seating_of(session, 1, 1)

        outcomes = _race(
            lambda ns=ns, ew=ew: result_record(board=board, section=section, ns_pair=ns, ew_pair=ew, text="NS 110"),
            lambda: seating_turn_round(section=section, round=1, table=1),
        )

        # The turn always happens; the line is either stored first and moved with the
        # table, or refused with the reason (the pairs are now the other way round).
        assert outcomes[1] is None, (trial, outcomes)
        assert outcomes[0] is None or isinstance(outcomes[0], ValidationError), (trial, outcomes)
        now_ns, now_ew, _ = seating_of(session, 1, 1)
        assert (now_ns, now_ew) == (ew, ns)
        lines = list(Result.objects.select_related("ns_pair", "ew_pair"))
        assert len(lines) == (1 if outcomes[0] is None else 0), (trial, outcomes)
        for line in lines:
            assert (line.ns_pair.label, line.ew_pair.label, line.ns_score) == (now_ns, now_ew, 110)
        Result.objects.all().delete()


def test_an_import_is_in_the_new_sessions_change_log(club, director):
    from sessions.transfer.services.importing import results_import
    from tests.formats.data_files import DATA_DIR

    path = DATA_DIR / "usebio" / "cobalt_mp_pairs_mitchell_03.xml"
    report = results_import(club=club, data=path.read_bytes(), filename=path.name, user=director)

    change = ResultChange.objects.get(session=report.session, action=ChangeAction.IMPORTED)
    assert change.subject == "cobalt_mp_pairs_mitchell_03.xml"
    assert change.after_text.startswith("126 lines, 13 pairs, 21 boards")
    assert change.changed_by == director


def test_a_change_of_the_events_scoring_is_in_each_sessions_log(event, director):
    from sessions.pairs.services.events import event_update

    first, second = make_session(event), make_session(event)

    event_update(event=event, method="butler", mp_scale=event.mp_scale, by=director)
    event_update(event=event, method="butler")  # nothing changed: nothing logged

    for session in (first, second):
        change = ResultChange.objects.get(session=session, action=ChangeAction.SETTINGS)
        assert (change.before_text, change.after_text) == ("method: matchpoints", "method: butler")


def test_relay_tables_whose_ew_pairs_swapped_trade_their_lines_on_a_shared_board(event):
    # A 4-table relay Mitchell: tables 1 and 4 share boards 1-2 in round 1. 1EW and 4EW
    # sat at each other's tables: on board 1 the two lines trade their EW pairs, which
    # the one-result-per-pair rule cannot take one row at a time.
    session = make_session(event, mitchell(4, 2, even="relay"))
    at_1 = record(session, 1, "1NS", "1EW", "NS 420")
    at_4 = record(session, 1, "4NS", "4EW", "EW 50")
    # Board 1 (top 2): +420 2 and -50 0 for NS; EW: 4EW 2, 1EW 0.
    assert (percentages(session)["4EW"], percentages(session)["1EW"]) == (100, 0)
    wanted = [TableSeating(t, *seating_of(session, 1, t)[:2], tuple(seating_of(session, 1, t)[2])) for t in (2, 3)]
    wanted += [TableSeating(1, "1NS", "4EW", (1, 2)), TableSeating(4, "4NS", "1EW", (1, 2))]

    repair = round_set_seatings(section=session.sections.get(), round=1, seatings=wanted)

    assert repair.lines_moved == 2
    moved_1, moved_4 = Result.objects.get(pk=at_1.pk), Result.objects.get(pk=at_4.pk)
    assert (moved_1.ew_pair.label, moved_1.ns_score, moved_1.version) == ("4EW", 420, 2)
    assert (moved_4.ew_pair.label, moved_4.ns_score, moved_4.version) == ("1EW", -50, 2)
    assert (percentages(session)["1EW"], percentages(session)["4EW"]) == (100, 0)
    # Their history stays attached to them.
    assert ResultChange.objects.filter(result=moved_1, action=ChangeAction.RECORDED).exists()
