"""Master points awarded when a session is marked final, and again after an amendment
(RULES 12): the real files imported, scored by ClubScore, then awarded."""

from __future__ import annotations

from decimal import Decimal

import pytest

from sessions.formats.usebio import parse_usebio
from sessions.models import ChangeAction, Club, Event, MasterPointAward, Player, Result, Session
from sessions.core.selectors.scoring import session_score
from sessions.pairs.services.events import event_update
from sessions.clubs.selectors.masterpoints import session_masterpoint_scale
from sessions.clubs.services.masterpoints import session_award_masterpoints
from sessions.pairs.services.results import result_correct, result_record
from sessions.pairs.services.sessions import session_mark_final, session_reopen
from sessions.transfer.services.importing import results_import
from tests.formats.data_files import usebio_bytes

EBU_FILE = "uk_00202711+000827.xml"  # EBUScore, a 19-pair Howell of 26 boards
NZ_FILE = "nzscorer_three_quarter_howell_with_phantom.xml"


def imported(club: Club, name: str) -> Session:
    return results_import(club=club, data=usebio_bytes(name), filename=name).session


def published_awards(name: str) -> dict[str, int]:
    event = parse_usebio(usebio_bytes(name))
    return {pair.number: int(pair.extra.get("MASTER_POINTS_AWARDED") or 0) for pair in event.pairs
            if int(pair.extra.get("MASTER_POINTS_AWARDED") or 0)}


def awards(session: Session) -> dict[str, int]:
    return {award.pair.label: award.points
            for award in MasterPointAward.objects.filter(session=session).select_related("pair") if award.points}


def test_marking_final_awards_the_clubs_federation_scale_as_the_file_did(club):
    club.masterpoint_federation = "ebu"
    club.save()
    session = imported(club, EBU_FILE)
    assert not MasterPointAward.objects.filter(session=session).exists()
    session_mark_final(session=session)
    assert awards(session) == published_awards(EBU_FILE)
    assert set(MasterPointAward.objects.filter(session=session).values_list("point_type", flat=True)) == {"BLACK"}


def test_without_a_club_federation_the_files_own_scale_and_program_decide(club):
    session = imported(club, NZ_FILE)
    assert session.masterpoints_from_file == "nzb:"
    assert session_masterpoint_scale(session).federation == "nzb"
    session_mark_final(session=session)
    assert awards(session) == published_awards(NZ_FILE)


def test_a_club_without_federation_and_a_session_of_its_own_awards_nothing(played_session):
    session_mark_final(session=played_session)
    assert not MasterPointAward.objects.filter(session=played_session).exists()
    assert not played_session.changes.filter(action=ChangeAction.MASTERPOINTS).exists()


def test_an_event_may_override_the_scale_or_award_none(club):
    club.masterpoint_federation = "ebu"
    club.save()
    session = imported(club, EBU_FILE)
    session.event.masterpoint_scale = "county"
    session.event.save()
    session_mark_final(session=session)
    assert awards(session) == {label: 2 * points for label, points in published_awards(EBU_FILE).items()}
    session.event.masterpoint_scale = "none"
    session.event.save()
    session_award_masterpoints(session=Session.objects.get(pk=session.pk))
    assert awards(session) == {}


def test_an_amendment_after_final_awards_again_and_logs_the_change(club):
    club.masterpoint_federation = "ebu"
    club.save()
    session = imported(club, EBU_FILE)
    session_mark_final(session=session)
    before = awards(session)
    # The winners (pair 5) lose every board they played as NS: their place, and the awards, move.
    for line in Result.objects.filter(board__session=session, ns_pair__number=5).order_by("pk"):
        result_correct(result=line, text="7NTX N -13", version=line.version)
    after = awards(session)
    assert after != before and "5" not in after
    log = session.changes.filter(action=ChangeAction.MASTERPOINTS).order_by("id")
    assert log.count() >= 2
    assert "5 36" in log.last().before_text or "5 36" in log[1].before_text


def test_an_ebu_session_outside_the_pinned_boards_is_logged_not_awarded(club, played_session):
    club.masterpoint_federation = "ebu"
    club.save()
    session_mark_final(session=Session.objects.get(pk=played_session.pk))
    assert not MasterPointAward.objects.filter(session=played_session).exists()
    entry = played_session.changes.get(action=ChangeAction.MASTERPOINTS)
    assert "18 to 35 boards" in entry.after_text


def test_reopening_and_marking_final_again_with_nothing_changed_logs_nothing_new(club):
    club.masterpoint_federation = "ebu"
    club.save()
    session = imported(club, EBU_FILE)
    session_mark_final(session=session)
    session_reopen(session=Session.objects.get(pk=session.pk))
    session_mark_final(session=Session.objects.get(pk=session.pk))
    assert session.changes.filter(action=ChangeAction.MASTERPOINTS).count() == 1


@pytest.fixture
def played_session(session):
    """A 3-table Mitchell of 6 boards, board 1 played at every table."""
    for ns, ew, text in (("1NS", "1EW", "4S N +1"), ("3NS", "2EW", "4S N ="), ("2NS", "3EW", "4S N -1")):
        result_record(board=session.boards.get(number=1), section=session.sections.get(), ns_pair=ns, ew_pair=ew,
                      text=text)
    return session


def test_a_stratified_session_awards_each_strata_places_and_each_pair_its_highest(club):
    """RULES 15: the EBUScore Howell of 19 pairs awarded on the ACBL scale (10 tables: 100,
    70, 50, 35, 20, 17, 14, 13 to 8 places, 8= sharing 13 and nothing); its 9 pairs below 10th hold no master points,
    so they form stratum C, awarded as a group of 9 pairs on 5 tables: 50, 35, 25, 18."""
    club.masterpoint_federation = "acbl"
    club.save()
    session = imported(club, EBU_FILE)
    ranked = sorted(((item.standing.rank, item.pair) for _, items in session_score(session=session).rankings()
                     for item in items), key=lambda row: row[0])
    assert [rank for rank, _ in ranked][6:10] == [7, 8, 8, 10]  # two pairs 8=: they share the 8th and 9th awards
    for _, pair in ranked[:10]:
        Player.objects.filter(pk__in=[pair.player_1_id, pair.player_2_id]).update(masterpoints_held=Decimal(2000))
    event_update(event=Event.objects.get(pk=session.event_id), strata_by="masterpoints", strata_limits="1500, 500")
    session_mark_final(session=Session.objects.get(pk=session.pk))
    won = awards(session)
    assert [won.get(pair.label, 0) for _, pair in ranked] == [100, 70, 50, 35, 20, 17, 14, 7, 7, 0,
                                                               50, 35, 25, 18, 0, 0, 0, 0, 0]
