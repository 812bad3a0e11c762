"""Deals onto boards (a hand-record file, random deals) and the analysis that follows."""

import pytest
from django.core.exceptions import ValidationError

from sessions.analysis.services.analysis import analysis_run, analysis_start, deals_generate, hand_records_load
from sessions.handrecords import Analysis, parse_deal
from sessions.models import AnalysisStatus, Board, BoardAnalysis
from sessions.movements import mitchell
from sessions.transfer.exporters import EXPORTERS
from sessions.transfer.services.importing import results_import
from sessions.clubs.services.amendments import AfterCommit
from tests.factories import make_session
from tests.analysis.conftest import (
    NORTH_HOLDS_EVERYTHING,
    TEN_TRICKS_EW,
    TEN_TRICKS_NS,
    board_of,
    give_deal,
    pbn_file,
    solved,
)


def analysis_callbacks(callbacks):
    """What the commit starts besides the unit of work's look at the sessions it touched
    (services.amendments: their players' mails and the club's webhooks, once final)."""
    return [callback for callback in callbacks if not isinstance(callback, AfterCommit)]

DUPLICATED_ACE = "N:AKQ2.543.AK2.543 AT98.76.QJT.QJT9 543.AKQ2.543.AK2 76.JT98.9876.876"  # two spade aces


def deals_of(session):
    return dict(session.boards.values_list("number", "deal"))


def test_a_hand_record_file_puts_each_deal_on_its_board_and_analyses_it_after_the_commit(
    session, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        stored = hand_records_load(session=session, data=pbn_file({1: TEN_TRICKS_NS, 2: TEN_TRICKS_EW}))
    assert analysis_callbacks(callbacks) == [analysis_start]
    assert stored.boards == (1, 2)
    assert parse_deal(board_of(session, 1).deal) == parse_deal(TEN_TRICKS_NS)
    assert parse_deal(board_of(session, 2).deal) == parse_deal(TEN_TRICKS_EW)
    row = BoardAnalysis.objects.get(board__session=session, board__number=1)
    assert row.status == AnalysisStatus.DONE
    assert Analysis.from_dict(row.data).par_score == 430  # board 1: nobody vulnerable
    assert stored.notes == ("the file has no deal for boards 3-6",)


def test_loading_marks_the_boards_pending_and_does_not_analyse_in_the_request(
    session, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):
        hand_records_load(session=session, data=pbn_file({1: TEN_TRICKS_NS}))
    row = BoardAnalysis.objects.get(board__session=session)
    assert (row.status, row.data) == (AnalysisStatus.PENDING, None)


def file_with_bad_board_2(deal: str) -> bytes:
    """A file whose board 1 is good and whose board 2 has ``deal``, written by hand."""
    return pbn_file({1: TEN_TRICKS_NS}) + f'\r\n[Board "2"]\r\n[Deal "{deal}"]\r\n'.encode()


@pytest.mark.parametrize("data, message", [
    (file_with_bad_board_2(DUPLICATED_ACE), "board 2: the ace of spades appears twice"),
    (file_with_bad_board_2(TEN_TRICKS_EW.replace("AKQ2.543.AK2.543", "AKQ2.543.AK2.54X")), "board 2"),
    (file_with_bad_board_2(TEN_TRICKS_EW.replace(" 76.JT98.9876.876", "")), "board 2: a PBN deal has 4 hands"),
    (b"this is not a PBN file", "not a hand-record file"),
])
def test_a_bad_file_is_refused_and_changes_nothing(session, django_capture_on_commit_callbacks, data, message):
    with django_capture_on_commit_callbacks(execute=True):
        hand_records_load(session=session, data=pbn_file({3: NORTH_HOLDS_EVERYTHING}))
    before = deals_of(session)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with pytest.raises(ValidationError, match=message):
            hand_records_load(session=session, data=data)
    assert analysis_callbacks(callbacks) == []
    assert deals_of(session) == before
    assert list(BoardAnalysis.objects.values_list("board__number", "status")) == [(3, AnalysisStatus.DONE)]


def test_boards_beyond_the_session_are_left_out_with_a_note(session, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        stored = hand_records_load(session=session, data=pbn_file({1: TEN_TRICKS_NS, 9: TEN_TRICKS_EW}))
    assert stored.boards == (1,)
    assert "boards 9 of the file are not in this session" in stored.notes[0]
    assert not Board.objects.filter(number=9).exists()


def test_a_file_with_none_of_the_sessions_boards_is_refused(session):
    with pytest.raises(ValidationError, match="the file has boards 7-8 but the session plays boards 1-6"):
        hand_records_load(session=session, data=pbn_file({7: TEN_TRICKS_NS, 8: TEN_TRICKS_EW}))


def test_loading_the_same_deals_again_keeps_their_analysis(session, django_capture_on_commit_callbacks):
    data = pbn_file({1: TEN_TRICKS_NS})
    with django_capture_on_commit_callbacks(execute=True):
        hand_records_load(session=session, data=data)
    first = BoardAnalysis.objects.get()
    with django_capture_on_commit_callbacks(execute=False):
        hand_records_load(session=session, data=data)
    again = BoardAnalysis.objects.get()
    assert (again.status, again.analysed_at) == (AnalysisStatus.DONE, first.analysed_at)


def test_generated_deals_give_every_board_its_own_valid_deal(session, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        stored = deals_generate(session=session, seed=7)
    assert stored.boards == (1, 2, 3, 4, 5, 6)
    deals = [parse_deal(text) for text in deals_of(session).values()]  # each a valid 52-card deal
    assert len(set(deals)) == 6
    assert BoardAnalysis.objects.filter(status=AnalysisStatus.PENDING).count() == 6
    assert analysis_callbacks(callbacks) == [analysis_start]


def test_generating_again_is_refused_unless_the_deals_are_to_be_replaced(session):
    deals_generate(session=session, seed=1)
    first = deals_of(session)
    with pytest.raises(ValidationError, match="boards 1-6 already have deals"):
        deals_generate(session=session, seed=2)
    assert deals_of(session) == first
    deals_generate(session=session, replace=True, seed=2)
    assert all(deals_of(session)[number] != first[number] for number in first)


def test_a_deal_corrected_in_the_admin_is_analysed_again(session, admin_client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        hand_records_load(session=session, data=pbn_file({1: TEN_TRICKS_NS}))
    board = board_of(session, 1)
    form = {"session": session.pk, "number": 1, "dealer": board.dealer, "vulnerability": board.vulnerability,
            "deal": NORTH_HOLDS_EVERYTHING}
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = admin_client.post(f"/admin/clubsessions/board/{board.pk}/change/", form)
    assert response.status_code == 302
    assert analysis_callbacks(callbacks) == [analysis_start]
    row = BoardAnalysis.objects.get()
    assert (row.status, row.deal) == (AnalysisStatus.DONE, NORTH_HOLDS_EVERYTHING)
    assert Analysis.from_dict(row.data).par_score == 1520  # 7NT by NS, nobody vulnerable


def test_a_board_saved_in_the_admin_without_a_new_deal_asks_for_nothing(
    session, admin_client, django_capture_on_commit_callbacks
):
    board = give_deal(board_of(session, 1), TEN_TRICKS_NS, solved(TEN_TRICKS_NS, 1))
    form = {"session": session.pk, "number": 1, "dealer": board.dealer, "vulnerability": board.vulnerability,
            "deal": TEN_TRICKS_NS}
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        admin_client.post(f"/admin/clubsessions/board/{board.pk}/change/", form)
    assert analysis_callbacks(callbacks) == []


def test_deals_stored_by_an_import_are_analysed_after_its_commit(hand_made, django_capture_on_commit_callbacks):
    # Our own PBN export of a session with a dealt board, imported as a new session.
    Board.objects.filter(session=hand_made, number__in=(2, 3)).update(deal="")
    _, _, content = EXPORTERS["pbn"].render(hand_made)
    with django_capture_on_commit_callbacks(execute=False):
        pending = results_import(club=hand_made.event.club, data=content, filename="export.pbn").session
    assert BoardAnalysis.objects.get(board__session=pending).status == AnalysisStatus.PENDING
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        imported = results_import(club=hand_made.event.club, data=content, filename="export.pbn").session
    assert analysis_callbacks(callbacks) == [analysis_start]
    row = BoardAnalysis.objects.get(board__session=imported)
    assert (row.board.number, row.status) == (1, AnalysisStatus.DONE)
    assert Analysis.from_dict(row.data).par_score == 430


def test_a_stored_deal_that_is_not_a_deal_fails_with_the_reason(session):
    give_deal(board_of(session, 1), DUPLICATED_ACE)
    report = analysis_run()
    row = BoardAnalysis.objects.get()
    assert (row.status, report.done) == (AnalysisStatus.FAILED, [])
    assert "the ace of spades appears twice" in row.error
    assert analysis_run().failed == []  # a failed board is not retried by every run


def test_a_board_whose_dealer_is_not_the_usual_one_is_analysed_with_its_own(session):
    board = board_of(session, 1)
    Board.objects.filter(pk=board.pk).update(vulnerability="Both", deal=TEN_TRICKS_NS)
    analysis_run()
    assert Analysis.from_dict(BoardAnalysis.objects.get().data).par_score == 630  # 3NT+1 vulnerable


def test_a_deal_changed_while_it_was_analysed_stays_pending(session, monkeypatch):
    from sessions.analysis.services import analysis as services

    board = give_deal(board_of(session, 1), TEN_TRICKS_NS)
    real = services.analyse_many

    def analyse_then_correct(deals):
        result = real(deals)
        Board.objects.filter(pk=board.pk).update(deal=NORTH_HOLDS_EVERYTHING)
        services.mark_pending([Board.objects.get(pk=board.pk)])
        return result

    monkeypatch.setattr(services, "analyse_many", analyse_then_correct)
    assert analysis_run().done == []
    row = BoardAnalysis.objects.get()
    assert (row.status, row.deal) == (AnalysisStatus.PENDING, NORTH_HOLDS_EVERYTHING)


# --- sections on different boards: hand records per section ------------------------------


@pytest.fixture
def own_deals_session(event):
    return make_session(event, mitchell(3, 2), sections=("A", "B"), own_boards=("B",))


def deals_by_section(session):
    return {(letter or "", number): deal for letter, number, deal
            in session.boards.values_list("section__letter", "number", "deal") if deal}


def test_a_hand_record_file_for_a_section_fills_only_that_sections_deals(own_deals_session):
    section_b = own_deals_session.sections.get(letter="B")

    hand_records_load(session=own_deals_session, data=pbn_file({1: TEN_TRICKS_NS}))
    hand_records_load(session=own_deals_session, data=pbn_file({1: TEN_TRICKS_EW}), section=section_b)

    stored = {key: parse_deal(deal) for key, deal in deals_by_section(own_deals_session).items()}
    assert stored == {("", 1): parse_deal(TEN_TRICKS_NS), ("B", 1): parse_deal(TEN_TRICKS_EW)}


def test_random_deals_for_a_section_leave_the_shared_boards_alone(own_deals_session):
    section_b = own_deals_session.sections.get(letter="B")

    stored = deals_generate(session=own_deals_session, section=section_b, seed=1)

    assert stored.boards == (1, 2, 3, 4, 5, 6)
    assert {letter for letter, _ in deals_by_section(own_deals_session)} == {"B"}


def test_deals_for_a_section_on_the_shared_boards_are_refused(own_deals_session):
    section_a = own_deals_session.sections.get(letter="A")

    with pytest.raises(ValidationError, match="section A plays the shared boards"):
        deals_generate(session=own_deals_session, section=section_a, seed=1)
    assert deals_by_section(own_deals_session) == {}
