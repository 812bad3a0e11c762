"""Hostile and damaged hand-record files on the director's upload: the reason on the page
(the page's form-error status, 400, never a 500) and the boards' deals unchanged."""

from __future__ import annotations

import tracemalloc

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils.html import escape

from sessions.analysis.services.analysis import hand_records_load
from tests.factories import make_session
from tests.analysis.conftest import NORTH_HOLDS_EVERYTHING, TEN_TRICKS_NS, pbn_file

FIVE_THOUSAND_DIGITS = b"9" * 5000


def hand_records() -> bytes:
    """Boards 1 and 2, as ClubScore writes them (ISO-8859-1, declared)."""
    return pbn_file({1: TEN_TRICKS_NS, 2: NORTH_HOLDS_EVERYTHING})


def with_board(number: bytes) -> bytes:
    data = hand_records()
    assert b'[Board "2"]' in data
    return data.replace(b'[Board "2"]', b'[Board "' + number + b'"]')


def cut_in_a_deal() -> bytes:
    data = hand_records()
    return data[: data.rindex(b'[Deal "') + 20]


REFUSED = {
    "charset=undefined": (
        lambda: hand_records().replace(b"charset=ISO-8859-1", b"charset=undefined"), "unsupported encoding",
    ),
    "board ²": (lambda: with_board(b"\xb2"), "Board '²' is not a number"),  # "²" in ISO-8859-1
    "board of 5,000 digits": (lambda: with_board(FIVE_THOUSAND_DIGITS), "boards are numbered from 1 to 999"),
    "board 40000": (lambda: with_board(b"40000"), "board 40000: boards are numbered from 1 to 999"),
    "board 0": (lambda: with_board(b"0"), "board 0: boards are numbered from 1 to 999"),
    "cut off in a deal": (cut_in_a_deal, "malformed tag '[Deal \"E:T987.JT9.JT' in board 2"),
}


@pytest.fixture
def directing(client, director):
    client.force_login(director)
    return client


def upload(client, session, content: bytes):
    url = reverse("sessions:analysis_upload", args=[session.pk])
    return client.post(url, {"file": SimpleUploadedFile("hands.pbn", content)})


@pytest.mark.parametrize("case", REFUSED)
def test_a_hostile_hand_record_shows_the_reason_and_changes_no_deal(directing, session, case):
    build, reason = REFUSED[case]
    response = upload(directing, session, build())
    assert response.status_code == 400
    assert escape(reason) in response.content.decode()
    assert set(session.boards.values_list("deal", flat=True)) == {""}


@pytest.mark.parametrize("case", REFUSED)
def test_the_hand_record_service_refuses_a_hostile_file_with_the_reason(session, case):
    build, reason = REFUSED[case]
    with pytest.raises(ValidationError) as refused:
        hand_records_load(session=session, data=build())
    assert reason in refused.value.messages[0]
    assert set(session.boards.values_list("deal", flat=True)) == {""}


def test_a_hand_record_with_a_huge_event_name_loads_in_a_small_multiple_of_its_size(
    directing, session, django_capture_on_commit_callbacks
):
    data = hand_records().replace(b'[Event "Test"]', b'[Event "' + b"x" * 2_000_000 + b'"]', 1)
    # The same upload once into another session first, unmeasured: what the first request of
    # its kind in a process builds once (templates, URL patterns, lazy imports) is not the file's.
    with django_capture_on_commit_callbacks(execute=False):
        upload(directing, make_session(session.event), hand_records())
    tracemalloc.start()
    try:
        with django_capture_on_commit_callbacks(execute=False):
            response = upload(directing, session, data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert response.status_code == 302
    assert peak < 10 * len(data), f"{peak / len(data):.1f} times the file"
    assert sorted(number for number, deal in session.boards.values_list("number", "deal") if deal) == [1, 2]
