"""Migration 0009_club_owner: each club's first director becomes its owner."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("clubsessions", "0008_event_combined")]
AFTER = [("clubsessions", "0009_club_owner")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def migrated_back():
    """Run the test from an older schema, then bring the database back to the latest."""
    yield
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("migrated_back")
def test_each_clubs_oldest_membership_becomes_its_owner():
    apps = migrate(BEFORE)
    User = apps.get_model("auth", "User")
    Club = apps.get_model("clubsessions", "Club")
    ClubDirector = apps.get_model("clubsessions", "ClubDirector")
    ann, bob, cat = (User.objects.create(username=name) for name in ("ann", "bob", "cat"))
    north, south = (Club.objects.create(name=name, slug=name) for name in ("north", "south"))
    Club.objects.create(name="Empty", slug="empty")
    for club, user in [(north, bob), (north, ann), (south, cat), (south, bob)]:
        ClubDirector.objects.create(club=club, user=user)

    apps = migrate(AFTER)

    owners = apps.get_model("clubsessions", "ClubDirector").objects.values_list("club__slug", "user__username", "is_owner")
    assert sorted(owners) == [("north", "ann", False), ("north", "bob", True), ("south", "bob", False), ("south", "cat", True)]
