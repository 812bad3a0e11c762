"""The director's hand-record pages (load, deal, download, print) and who may use them."""

import pytest
from django.urls import reverse

from sessions.handrecords import parse_deal, read_hand_records
from sessions.models import AnalysisStatus, BoardAnalysis
from tests.analysis.conftest import (
    NORTH_HOLDS_EVERYTHING,
    TEN_TRICKS_EW,
    TEN_TRICKS_NS,
    board_of,
    give_deal,
    pbn_file,
    solved,
)

PAGES = ["analysis_hand_records", "analysis_pbn", "analysis_print"]
ACTIONS = ["analysis_upload", "analysis_generate"]


def url(name, session):
    return reverse(f"sessions:{name}", args=[session.pk])


@pytest.mark.parametrize("name", PAGES + ACTIONS)
def test_anonymous_users_are_sent_to_log_in(client, session, name):
    response = client.post(url(name, session)) if name in ACTIONS else client.get(url(name, session))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("persona", ["outsider", "member"])
@pytest.mark.parametrize("name", PAGES + ACTIONS)
def test_anyone_but_the_clubs_directors_gets_404(client, session, name, persona, request):
    client.force_login(request.getfixturevalue(persona))
    response = client.post(url(name, session)) if name in ACTIONS else client.get(url(name, session))
    assert response.status_code == 404
    assert set(session.boards.values_list("deal", flat=True)) == {""}


@pytest.fixture
def directing(client, director):
    client.force_login(director)
    return client


def test_the_session_page_links_to_its_hand_records(directing, session):
    page = directing.get(reverse("sessions:director_session", args=[session.pk])).content.decode()
    assert url("analysis_hand_records", session) in page


def test_the_hand_record_page_lists_the_boards_and_their_analysis(directing, session):
    give_deal(board_of(session, 1), TEN_TRICKS_NS, solved(TEN_TRICKS_NS, 1))
    give_deal(board_of(session, 2), TEN_TRICKS_EW)
    page = directing.get(url("analysis_hand_records", session)).content.decode()
    assert "NS +430: 3NT+1 NS" in page
    assert "analysing…" in page
    assert page.count("no deal") == 4


def test_uploading_a_file_loads_and_analyses_the_deals(directing, session, django_capture_on_commit_callbacks):
    upload = _upload(pbn_file({1: TEN_TRICKS_NS, 2: NORTH_HOLDS_EVERYTHING}))
    with django_capture_on_commit_callbacks(execute=True):
        response = directing.post(url("analysis_upload", session), {"file": upload}, follow=True)
    page = response.content.decode()
    assert "Loaded 2 deals" in page
    assert "the file has no deal for boards 3-6" in page
    assert list(BoardAnalysis.objects.order_by("board__number").values_list("status", flat=True)) == [
        AnalysisStatus.DONE, AnalysisStatus.DONE]


def test_a_bad_upload_shows_why_and_changes_nothing(directing, session):
    response = directing.post(url("analysis_upload", session), {"file": _upload(b"[Board \"1\"]\r\n[Deal \"N:AKQ\"]\r\n")})
    assert response.status_code == 400
    assert "board 1" in response.content.decode()
    assert set(session.boards.values_list("deal", flat=True)) == {""}


def test_dealing_at_random_and_refusing_to_overwrite(directing, session, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        response = directing.post(url("analysis_generate", session), follow=True)
    assert "Dealt 6 deals" in response.content.decode()
    deals = list(session.boards.values_list("deal", flat=True))
    assert all(parse_deal(deal) for deal in deals)
    again = directing.post(url("analysis_generate", session))
    assert again.status_code == 400
    assert "already have deals" in again.content.decode()
    assert list(session.boards.values_list("deal", flat=True)) == deals


def test_the_pbn_download_holds_the_sessions_deals(directing, session):
    give_deal(board_of(session, 1), TEN_TRICKS_NS)
    give_deal(board_of(session, 4), TEN_TRICKS_EW)
    response = directing.get(url("analysis_pbn", session))
    assert response["Content-Type"] == "application/x-pbn"
    assert response["Content-Disposition"].startswith('attachment; filename="tuesday-pairs-')
    assert read_hand_records(response.content) == {1: parse_deal(TEN_TRICKS_NS), 4: parse_deal(TEN_TRICKS_EW)}


def test_the_printable_sheets_put_four_boards_to_a_page(directing, session):
    for number in range(1, 6):
        give_deal(board_of(session, number), TEN_TRICKS_NS, solved(TEN_TRICKS_NS, 1) if number == 1 else None)
    page = directing.get(url("analysis_print", session)).content.decode()
    assert page.count('class="sheet-page"') == 2
    assert page.count('class="hand-diagram"') == 5
    assert page.count('class="dd-table"') == 1 and "NS +430: 3NT+1 NS" in page
    assert page.count("analysing…") == 4
    assert "@media print" not in page and "handrecords.css" in page


def _upload(data: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("hands.pbn", data, content_type="application/octet-stream")
