"""Hostile and damaged results files on the upload page and through `manage.py import_results`:
the reason on the page (status 200, no 500) or a CommandError saying it, and nothing stored.
The files themselves, and the readers' side, are in tests/formats/hostile.py and
tests/formats/test_hostile_files.py."""

from __future__ import annotations

import tracemalloc

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management.base import CommandError
from django.urls import reverse
from django.utils.html import escape
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from sessions.formats.common import MAX_PAIR_NUMBER
from sessions.models import ImportJob, ImportStatus, Result, ResultKind, Session
from sessions.transfer.services.importing import ImportRefused, results_import
from tests.formats.data_files import usebio_bytes
from tests.formats.hostile import REFUSED, mutations, once, pbn_event_of, pbn_pair_numbered, usebio_first_line
from tests.transfer.helpers import model_counts, run_import

#: The readers' refusals, and the pair numbers only the importer sees as numbers (PBN's
#: PairId is text to the reader).
UPLOAD_REFUSED = {
    **REFUSED,
    "PBN pair 40000": (lambda: pbn_pair_numbered("40000"), f"pair 40000: pairs are numbered from 1 to {MAX_PAIR_NUMBER}"),
    "PBN pair 0": (lambda: pbn_pair_numbered("0"), "pair 0: pairs are numbered from 1 to 999"),
    "PBN pair ²": (lambda: pbn_pair_numbered("\xb2"), "pair '²' is not a number"),
}


def compscore_cross_imps() -> bytes:
    """The EBU's cross-IMP sample as Compscore3 types it: EVENT_TYPE="CROSS_IMP"."""
    data = once(usebio_bytes("cross-imp-pairs.xml"), b'<EVENT EVENT_TYPE="PAIRS">', b'<EVENT EVENT_TYPE="CROSS_IMP">')
    return once(data, b"<BOARD_SCORING_METHOD>CROSS_IMPS</BOARD_SCORING_METHOD>", b"")


def file_name(content: bytes) -> str:
    return "results.xml" if content.lstrip(b"\xef\xbb\xbf").startswith(b"<") else "results.pbn"


def upload(client, club, content: bytes):
    url = reverse("sessions:transfer_import", args=[club.slug])
    return client.post(url, {"file": SimpleUploadedFile(file_name(content), content)})


def command(tmp_path, content: bytes) -> list[str]:
    path = tmp_path / file_name(content)
    path.write_bytes(content)
    return run_import(path)


# -- refused, on the page and by the command ---------------------------------------------------


@pytest.mark.parametrize("case", UPLOAD_REFUSED)
def test_a_hostile_upload_shows_the_reason_on_the_page_and_stores_nothing(client, club, director, case):
    build, reason = UPLOAD_REFUSED[case]
    client.force_login(director)
    before = model_counts()
    response = upload(client, club, build())
    assert response.status_code == 200
    assert escape(reason) in response.content.decode()
    assert model_counts() == before


@pytest.mark.django_db
@pytest.mark.parametrize("case", UPLOAD_REFUSED)
def test_the_command_refuses_a_hostile_file_with_the_reason_and_stores_nothing(tmp_path, case):
    build, reason = UPLOAD_REFUSED[case]
    before = model_counts()
    with pytest.raises(CommandError) as refused:
        command(tmp_path, build())
    assert reason in str(refused.value)
    assert model_counts() == before


# -- read, on the page and by the command --------------------------------------------------------


def test_a_compscore_cross_imp_file_is_imported_from_the_page(client, club, director):
    client.force_login(director)
    response = upload(client, club, compscore_cross_imps())
    assert response.status_code == 302
    assert Session.objects.get(event__club=club).event.method == "cross_imps"


@pytest.mark.django_db
def test_the_command_imports_a_compscore_cross_imp_file(tmp_path):
    output = command(tmp_path, compscore_cross_imps())
    assert output[1].startswith("scoring: Cross-IMPs")
    assert Session.objects.get(pk=int(output[-1])).event.method == "cross_imps"


def peak_memory(call):
    """(what call() returns, the peak memory it took)."""
    tracemalloc.start()
    try:
        return call(), tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_huge_event_name_is_read_in_a_small_multiple_of_the_files_size(
    client, club, director, django_capture_on_commit_callbacks
):
    # One 2 MB tag value took some 400 MB to read (a 9 MB one, 1.9 GB).
    client.force_login(director)
    content = pbn_event_of(2_000_000)
    with django_capture_on_commit_callbacks() as started:
        response = upload(client, club, content)
    job = ImportJob.objects.get(club=club)
    assert response.url == reverse("sessions:transfer_import_job", args=[job.pk])  # 2 MB: imported by a job

    _, peak = peak_memory(started[0])  # the job, run inline in tests
    assert ImportJob.objects.get(pk=job.pk).status == ImportStatus.DONE
    assert Session.objects.get(event__club=club).event.name == "x" * 100  # cut to the length stored
    assert peak < 10 * len(content), f"{peak / len(content):.1f} times the file"


@pytest.mark.django_db
def test_the_command_reads_a_huge_event_name_in_a_small_multiple_of_the_files_size(tmp_path):
    content = pbn_event_of(2_000_000)
    output, peak = peak_memory(lambda: command(tmp_path, content))
    assert Session.objects.get(pk=int(output[-1])).name == "x" * 120
    assert peak < 10 * len(content), f"{peak / len(content):.1f} times the file"


def test_a_score_some_contract_can_produce_is_imported_as_the_directors_and_said(client, club, director):
    client.force_login(director)
    response = upload(client, club, usebio_first_line("SCORE", "130"))  # 3D N 9 tricks scores 110
    page = client.get(response.url).content.decode()
    assert escape("board 1, 2NS v 3EW: the score NS 130 does not follow from 3D N 9 tricks") in page
    line = Result.objects.get(board__session__event__club=club, board__number=1, ns_pair__number=2)
    assert (line.kind, line.ns_score, line.level) == (ResultKind.ASSIGNED, 130, 3)


@pytest.mark.django_db
def test_the_real_files_directors_scores_are_imported_as_assigned_and_noted(tmp_path):
    output = command(tmp_path, usebio_bytes("nzscorer_multi-section-multi-movement-pairs.xml"))
    notes = [line for line in output if "stands as an assigned score" in line]
    assert [note.split(":")[1].strip() for note in notes] == ["board 16 section B, 3NS v 11EW", "board 18 section C, 14 v 6"]
    session = Session.objects.get(pk=int(output[-1]))
    line = Result.objects.get(board__session=session, board__number=16, section__letter="B", ns_pair__number=3)
    assert (line.kind, line.ns_score, line.text) == (ResultKind.ASSIGNED, -250, "EW 250")


# -- no 500 whatever the file ---------------------------------------------------------------------------


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(content=mutations(st))
def test_any_mutation_of_a_real_file_is_imported_or_refused_with_nothing_stored(club, content):
    before = model_counts()
    try:
        imported = results_import(club=club, data=content, filename="fuzzed")
    except ImportRefused as refused:
        event("refused")
        assert str(refused).startswith("fuzzed")
        assert model_counts() == before
    else:
        event("imported")
        assert imported.lines == Result.objects.filter(board__session=imported.session).count()
