"""An imported file whose sections were matchpointed across the field is stored as such:
the new event's setting and every published line figure agree."""

import pytest

from sessions.formats.usebio_write import write_usebio
from sessions.transfer import results_import
from tests.factories import make_club
from tests.formats.test_across_field import APART, TOGETHER, two_sections


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
