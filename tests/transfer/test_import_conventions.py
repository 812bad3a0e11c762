"""NZ Scorer's conventions stated at import: ``import_results FILE --not-played
zero|removed --cut-figures yes|no --short-totals ties|lines --phantom-table yes|no
--handicap none|50|100`` and the upload form's same choices (default: as the file
shows), each instead of the one the importer chooses from the file or its figures. A
bad value is refused with a clear message and nothing is imported."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management.base import CommandError
from django.urls import reverse

from sessions.models import Event, ImportJob, ImportStatus, Session, TeamEvent
from sessions.transfer.services.importing import ImportRefused, results_import
from sessions.transfer.services import jobs
from tests.factories import make_club, make_event
from tests.formats.data_files import DATA_DIR
from tests.transfer.helpers import data, model_counts, run_import

NP_FILE = "usebio/nzscorer_pairs-with-np-passed.xml"  # NZ Scorer: an NP line compared as a 0
HANDICAP_FILE = "usebio/nzscorer_handicap_pairs.xml"  # NZ Scorer: half the handicap
COMPSCORE_FILE = "usebio/cobalt_mp_pairs_mitchell_03.xml"  # none of NZ Scorer's conventions
EVERY_CONVENTION = ["--not-played", "zero", "--cut-figures", "yes", "--short-totals", "ties",
                    "--phantom-table", "yes", "--handicap", "100"]
NZ_SETTINGS = {"not_played": "zero", "cut_figures": True, "short_totals": "ties", "phantom_table": True,
               "handicap": "full"}

pytestmark = pytest.mark.django_db


def _session(output: list[str]) -> Session:
    return Session.objects.get(pk=int(output[-1]))  # the id alone, last


def _settings(event: Event) -> dict[str, object]:
    return {name: getattr(event, name) for name in NZ_SETTINGS}


# --- the command ---------------------------------------------------------------------------


def test_without_options_the_importer_chooses_the_files_conventions():
    output = run_import(DATA_DIR / NP_FILE)
    assert _session(output).event.not_played == "zero"
    assert not any("as you chose" in line for line in output)
    assert "our figures differ from the file's on 0 of 338 traveller lines and 0 of 26 pairs" in output


def test_the_command_overrides_what_the_file_shows_and_says_so():
    output = run_import(DATA_DIR / NP_FILE, "--not-played", "removed")

    event = _session(output).event
    assert event.not_played == "removed"
    assert "note: not played (NP) lines: removed, as you chose (as the file shows: zero)" in output
    # The file's figures follow NZ Scorer's convention: ours now differ where board 19's NP line counts.
    assert "our figures differ from the file's on 9 of 338 traveller lines and 25 of 26 pairs" in output


def test_the_command_sets_every_convention_on_a_file_of_another_program():
    output = run_import(DATA_DIR / COMPSCORE_FILE, *EVERY_CONVENTION)

    assert _settings(_session(output).event) == NZ_SETTINGS
    assert output[-1].isdigit()
    assert "note: handicap: 100, as you chose (as the file shows: none)" in output


@pytest.mark.parametrize(("word", "stored"), [("none", "none"), ("50", "half"), ("100", "full")])
def test_the_handicap_share_is_as_told(word, stored):
    output = run_import(DATA_DIR / HANDICAP_FILE, "--handicap", word)

    assert _session(output).event.handicap == stored
    if word == "50":  # what the file shows: said without "as the file shows"
        assert "note: handicap: 50, as you chose" in output


@pytest.mark.parametrize(("option", "value"), [("--handicap", "75"), ("--not-played", "nil"), ("--cut-figures", "1"),
                                                ("--short-totals", "as_lines"), ("--phantom-table", "true")])
def test_a_bad_value_is_refused_and_nothing_is_imported(option, value):
    before = model_counts()
    with pytest.raises(CommandError, match=f"argument {option}: invalid choice: '{value}'"):
        run_import(DATA_DIR / NP_FILE, option, value)
    assert model_counts() == before


def test_a_teams_file_takes_no_conventions():
    with pytest.raises(CommandError, match="--handicap are for a pairs file"):
        run_import(DATA_DIR / "teams" / "ruter_swiss_teams_salo_2013.pbn", "--handicap", "50")
    assert not TeamEvent.objects.exists()


def test_jobs_take_no_conventions():
    with pytest.raises(CommandError, match="give no file, --club, --event, --sections, conventions, --publish or"):
        run_import("", "--jobs", "--not-played", "zero")


# --- the service ---------------------------------------------------------------------------


@pytest.mark.parametrize(("conventions", "message"), [
    ({"handicap": "75"}, "handicap is none or 50 or 100, not '75'"),
    ({"not_played": "nil"}, "not played \\(NP\\) lines is zero or removed, not 'nil'"),
    ({"scale": "yes"}, "'scale' is not a convention the import can be told: not_played, cut_figures, short_totals, "
                       "phantom_table, handicap"),
])
def test_the_service_refuses_a_bad_convention_and_stores_nothing(conventions, message):
    club = make_club()
    before = model_counts()
    with pytest.raises(ImportRefused, match=f"{message}; nothing was imported"):
        results_import(club=club, data=data(NP_FILE), filename="np.xml", conventions=conventions)
    assert model_counts() == before


def test_a_convention_the_chosen_event_does_not_have_is_refused():
    club = make_club()
    event = make_event(club=club, not_played="removed")
    with pytest.raises(ImportRefused, match="has not played \\(NP\\) lines removed: import into another event for zero"):
        results_import(club=club, data=data(NP_FILE), filename="np.xml", event=event, conventions={"not_played": "zero"})


def test_a_background_job_imports_with_the_conventions_stated(settings):
    settings.IMPORT_BACKGROUND = False
    club = make_club()
    job = jobs.import_job_create(club=club, data=data(COMPSCORE_FILE), filename="big.xml",
                                 conventions={"not_played": "zero", "handicap": "50"})
    assert ImportJob.objects.get(pk=job.pk).conventions == "not_played=zero;handicap=50"

    (ended,) = jobs.import_jobs_run()

    assert ended.status == ImportStatus.DONE
    event = ended.session.event
    assert (event.not_played, event.handicap) == ("zero", "half")


def test_a_background_job_refuses_a_bad_convention_before_it_is_queued():
    with pytest.raises(Exception, match="handicap is none or 50 or 100"):
        jobs.import_job_create(club=make_club(), data=data(COMPSCORE_FILE), filename="big.xml",
                               conventions={"handicap": "75"})
    assert not ImportJob.objects.exists()


# --- the upload form -----------------------------------------------------------------------


def _url(club) -> str:
    return reverse("sessions:transfer_import", kwargs={"club_slug": club.slug})


def _upload(name: str) -> SimpleUploadedFile:
    return SimpleUploadedFile(name.split("/")[-1], data(name))


def test_the_upload_form_offers_each_convention_as_the_file_shows_by_default(client, club, director):
    client.force_login(director)
    page = client.get(_url(club)).content.decode()
    for name in NZ_SETTINGS:
        assert f'name="{name}"' in page
    assert page.count('<option value="" selected>As the file shows</option>') == len(NZ_SETTINGS)


def test_the_upload_form_imports_with_the_conventions_chosen(client, club, director):
    client.force_login(director)

    response = client.post(_url(club), {"file": _upload(COMPSCORE_FILE), "not_played": "zero", "cut_figures": "yes",
                                        "short_totals": "ties", "phantom_table": "yes", "handicap": "100"})

    assert response.status_code == 302
    assert _settings(Session.objects.get(event__club=club).event) == NZ_SETTINGS


def test_the_upload_form_left_as_the_file_shows_keeps_the_files_conventions(client, club, director):
    client.force_login(director)

    response = client.post(_url(club), {"file": _upload(NP_FILE), "not_played": ""})

    assert response.status_code == 302
    assert Session.objects.get(event__club=club).event.not_played == "zero"


def test_the_upload_form_refuses_a_bad_value_and_imports_nothing(client, club, director):
    client.force_login(director)
    before = model_counts()

    response = client.post(_url(club), {"file": _upload(NP_FILE), "handicap": "75"})

    assert response.status_code == 200
    assert "Select a valid choice. 75 is not one of the available choices." in response.content.decode()
    assert model_counts() == before


def test_the_upload_form_refuses_conventions_for_a_teams_file(client, club, director):
    client.force_login(director)

    response = client.post(_url(club), {"file": _upload("teams/ruter_swiss_teams_salo_2013.pbn"), "handicap": "50"})

    assert response.status_code == 200
    assert "A teams file has no pairs conventions to choose" in response.content.decode()
    assert not TeamEvent.objects.exists()
