"""Master points follow a final session's places after ANY change that can move one
(RULES 12): the unit of work awards a final session again at the end of every write that
touched it with ``places`` (sessions.core.services.unit_of_work). Each path here, without that
rule, leaves the awards as they were when the session was marked final.

Each test: the awards change, the change log says for whom, and an award computed afresh
afterwards finds nothing more to change (the awards are those of the places as they are)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sessions.models import ChangeAction, Club, MasterPointAward, Pair, Result, ResultChange, Session
from sessions.clubs.services.clubs import club_update
from sessions.pairs.services.events import event_update
from sessions.clubs.services.masterpoints import session_award_masterpoints
from sessions.clubs.services.players import pair_change_players, player_add
from sessions.pairs.services.repair import result_turn_round
from sessions.pairs.services.results import result_correct, result_delete
from sessions.pairs.services.sessions import session_mark_final
from sessions.transfer.services.importing import results_import
from tests.formats.data_files import usebio_bytes

EBU_FILE = "uk_00202711+000827.xml"  # EBUScore, a 19-pair Howell of 26 boards; pair 5 won


def awards(session: Session) -> dict[str, tuple[int, str]]:
    return {award.pair.label: (award.points, award.players)
            for award in MasterPointAward.objects.filter(session=session).select_related("pair") if award.points}


def award_log(session: Session) -> list[ResultChange]:
    return list(session.changes.filter(action=ChangeAction.MASTERPOINTS).order_by("pk"))


@pytest.fixture
def final_session(club: Club) -> Session:
    club.masterpoint_federation = "ebu"
    club.save()
    session = results_import(club=club, data=usebio_bytes(EBU_FILE), filename=EBU_FILE).session
    session_mark_final(session=session)
    assert awards(session)["5"][0] == 36
    return Session.objects.get(pk=session.pk)


def awarded_again(session: Session, change: Callable[[], object]) -> ResultChange:
    """Run ``change`` (one write or several, each awarding again); check the awards moved,
    were logged, and are those of the places now. Returns the first new log entry."""
    before, logged = awards(session), len(award_log(session))
    change()
    after = awards(session)
    assert after != before
    log = award_log(session)
    assert len(log) > logged
    assert session_award_masterpoints(session=Session.objects.get(pk=session.pk)) == ""
    assert awards(session) == after and len(award_log(session)) == len(log)  # nothing left to award
    return log[logged]


def all_new(session: Session, since: int) -> str:
    return " | ".join(entry.before_text for entry in award_log(session)[since:])


def winners_ns_lines(session: Session) -> list[Result]:
    return list(Result.objects.filter(board__session=session, ns_pair__number=5).order_by("pk"))


def test_an_adjustment_to_the_winners_awards_again(final_session):
    def adjust():
        for line in winners_ns_lines(final_session):
            result_correct(result=line, text="A40/60", version=line.version)  # Ave- for NS on every board

    entry = awarded_again(final_session, adjust)
    assert entry.before_text.startswith("5 36 (")  # the pair whose award changed, with what it had
    assert awards(final_session)["5"][0] < 36


def test_deleting_the_winners_best_lines_awards_again(final_session):
    def delete():
        for line in winners_ns_lines(final_session):
            if line.ns_score is not None and line.ns_score > 0:
                result_delete(result=line, version=line.version)

    entry = awarded_again(final_session, delete)
    assert entry.before_text and entry.after_text  # whose award moved, from what, to what


def test_turning_the_winners_lines_round_awards_again(final_session):
    def turn():
        for line in winners_ns_lines(final_session):
            result_turn_round(result=line, version=line.version)

    awarded_again(final_session, turn)
    assert "5 36 (" in all_new(final_session, 1)


def test_a_change_of_players_gives_the_award_to_the_new_players_and_logs_it(final_session, club):
    pair = Pair.objects.get(section__session=final_session, number=5)
    substitute = player_add(club=club, name="Sam Substitute")

    entry = awarded_again(final_session, lambda: pair_change_players(pair=pair, player_1=substitute,
                                                                      player_2=pair.player_2))
    assert awards(final_session)["5"] == (36, Pair.objects.get(pk=pair.pk).names)
    assert "Sam Substitute" in entry.after_text and "Sam Substitute" not in entry.before_text
    assert entry.before_text.startswith("5 36 (")


def test_the_events_scoring_method_moves_places_and_awards(final_session):
    event = final_session.event
    awarded_again(final_session, lambda: event_update(event=event, method="butler"))


def test_the_events_master_point_scale_awards_again(final_session):
    before = awards(final_session)
    awarded_again(final_session, lambda: event_update(event=final_session.event, masterpoint_scale="county"))
    assert {label: points for label, (points, _) in awards(final_session).items()} == {
        label: 2 * points for label, (points, _) in before.items()}


def test_the_events_setting_of_no_master_points_withdraws_the_awards(final_session):
    awarded_again(final_session, lambda: event_update(event=final_session.event, masterpoint_scale="none"))
    assert awards(final_session) == {}


def test_the_clubs_new_scale_awards_its_final_sessions_again(final_session, club):
    awarded_again(final_session, lambda: club_update(club=club, name=club.name, masterpoint_scale="county"))


def test_the_clubs_new_name_awards_nothing_again(final_session, club):
    logged = len(award_log(final_session))
    club_update(club=Club.objects.get(pk=club.pk), name="A New Name")
    assert len(award_log(final_session)) == logged


def test_an_award_names_who_changed_it(final_session, director):
    line = winners_ns_lines(final_session)[0]
    for line in winners_ns_lines(final_session):
        result_correct(result=line, text="A40/60", version=line.version, by=director)
    assert award_log(final_session)[-1].changed_by == director


def test_a_session_not_final_awards_nothing_on_a_change(club):
    club.masterpoint_federation = "ebu"
    club.save()
    session = results_import(club=club, data=usebio_bytes(EBU_FILE), filename=EBU_FILE).session
    line = winners_ns_lines(session)[0]
    result_correct(result=line, text="A40/60", version=line.version)
    assert not MasterPointAward.objects.filter(session=session).exists() and award_log(session) == []
