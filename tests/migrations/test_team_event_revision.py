"""Migration 0017_teamevent_revision: an existing teams event starts at revision 0, last
revised when the migration ran (its pages had no Last-Modified before: none is later)."""

import datetime

import pytest
from django.utils import timezone

from tests.migrations.test_club_owner import migrate, migrated_back  # noqa: F401 (the fixture)

BEFORE = [("clubsessions", "0016_session_setup_token")]
AFTER = [("clubsessions", "0017_teamevent_revision")]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("migrated_back")
def test_an_existing_teams_event_starts_at_revision_0_revised_when_migrated():
    apps = migrate(BEFORE)
    Club = apps.get_model("clubsessions", "Club")
    TeamEvent = apps.get_model("clubsessions", "TeamEvent")
    club = Club.objects.create(name="North", slug="north")
    TeamEvent.objects.create(club=club, name="Swiss", date=datetime.date(2025, 1, 6), published=True,
                             published_at=timezone.now())
    started = timezone.now()

    apps = migrate(AFTER)

    revision, revised_at = apps.get_model("clubsessions", "TeamEvent").objects.values_list(
        "revision", "revised_at").get()
    assert revision == 0
    assert started <= revised_at <= timezone.now()
