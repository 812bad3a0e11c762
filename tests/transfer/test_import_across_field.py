"""An imported file whose sections were matchpointed across the field is stored as such:
the new event's setting and every published line figure agree; the director may say
(``import_results --sections together|apart``, the upload form's choice)."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management.base import CommandError
from django.urls import reverse

from sessions.formats.usebio_write import write_usebio
from sessions.models import Session
from sessions.core.selectors.scoring import session_score
from sessions.transfer.services.importing import ImportRefused, results_import
from tests.factories import make_club, make_event
from tests.formats.test_across_field import APART, TOGETHER, two_sections
from tests.transfer.helpers import one_board_file, run_import


@pytest.mark.django_db
def test_a_two_section_file_scored_across_the_field_imports_across_the_field():
    report = results_import(club=make_club(), data=write_usebio(two_sections(TOGETHER, top=10)), filename="two.xml")
    assert report.session.event.across_field
    assert "the sections are matchpointed across the field (one field), as the file's figures are" in report.notes
    assert report.comparison.line_differences == ()


@pytest.mark.django_db
def test_a_two_section_file_scored_apart_imports_apart():
    report = results_import(club=make_club(), data=write_usebio(two_sections(APART, top=4)), filename="two.xml")
    assert not report.session.event.across_field
    assert report.comparison.line_differences == ()


# --- the director says: --sections together|apart, and the upload form's choice --------


def two_sections_without_figures(path):
    """Board 1 at 6 tables, 3 in each of sections A and B; no published figures."""
    path.write_bytes(one_board_file(6, sections=2))
    return path


@pytest.mark.django_db
@pytest.mark.parametrize(("choice", "together"), [("together", True), ("apart", False)])
def test_import_results_sections_option_scores_the_sections_as_told(tmp_path, choice, together):
    output = run_import(two_sections_without_figures(tmp_path / "two.pbn"), "--sections", choice)
    session = Session.objects.get(pk=int(output[-1]))  # the id alone, last
    assert session.event.across_field is together
    assert any(line.startswith(f"note: the sections are scored {choice}, as you chose") for line in output)
    top = session_score(session=session).result.top
    assert top == (10 if together else 4)  # 6 results compared, or 3


@pytest.mark.django_db
def test_without_sections_a_file_with_no_figures_scores_its_sections_apart(tmp_path):
    output = run_import(two_sections_without_figures(tmp_path / "two.pbn"))
    assert not Session.objects.get(pk=int(output[-1])).event.across_field


@pytest.mark.django_db
def test_sections_apart_overrides_what_the_files_figures_show_and_says_so():
    report = results_import(club=make_club(), data=write_usebio(two_sections(TOGETHER, top=10)), filename="two.xml",
                            sections="apart")
    assert not report.session.event.across_field
    assert "the sections are scored apart, as you chose (as the file shows: together)" in report.notes
    assert report.comparison.line_differences != ()


@pytest.mark.django_db
def test_sections_that_contradict_the_chosen_event_are_refused(tmp_path):
    club = make_club()
    event = make_event(club=club, across_field=False)
    with pytest.raises(ImportRefused, match="scores its sections apart"):
        results_import(club=club, data=one_board_file(6, sections=2), filename="two.pbn", event=event,
                       sections="together")


def test_the_command_refuses_an_unknown_sections_choice(tmp_path):
    with pytest.raises(CommandError, match="invalid choice"):
        run_import(two_sections_without_figures(tmp_path / "two.pbn"), "--sections", "pooled")


def test_the_upload_form_offers_the_sections_choice(client, club, director):
    client.force_login(director)
    url = reverse("sessions:transfer_import", kwargs={"club_slug": club.slug})
    assert 'name="sections"' in client.get(url).content.decode()
    upload = SimpleUploadedFile("two.pbn", one_board_file(6, sections=2))
    response = client.post(url, {"file": upload, "sections": "together"})
    assert response.status_code == 302
    assert Session.objects.get().event.across_field
