"""Migration 0022_pair_lineup: an existing pair has no lineup, so its two players are
credited with every round (what it was), and a lineup is one per pair and round."""

import datetime

import pytest
from django.db import IntegrityError, transaction

from tests.migrations.test_club_owner import migrate, migrated_back  # noqa: F401 (the fixture)

BEFORE = [("clubsessions", "0021_imp_total_import_sections")]
AFTER = [("clubsessions", "0022_pair_lineup")]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("migrated_back")
def test_an_existing_pair_keeps_its_players_for_every_round():
    apps = migrate(BEFORE)
    club = apps.get_model("clubsessions", "Club").objects.create(name="North", slug="north")
    event = apps.get_model("clubsessions", "Event").objects.create(club=club, name="Pairs")
    session = apps.get_model("clubsessions", "Session").objects.create(
        event=event, date=datetime.date(2025, 1, 6), name="Monday", movement_kind="mitchell",
        tables=1, rounds=3, boards_per_round=2, board_count=6,
    )
    section = apps.get_model("clubsessions", "Section").objects.create(session=session, letter="A")
    Player = apps.get_model("clubsessions", "Player")
    ann, bob, cat = (Player.objects.create(club=club, name=name) for name in ("Ann", "Bob", "Cat"))
    apps.get_model("clubsessions", "Pair").objects.create(section=section, number=1, direction="NS",
                                                         player_1=ann, player_2=bob)

    apps = migrate(AFTER)

    pair = apps.get_model("clubsessions", "Pair").objects.get()
    PairLineup = apps.get_model("clubsessions", "PairLineup")
    assert not PairLineup.objects.exists()  # no lineup: its players in every round
    assert (pair.player_1_id, pair.player_2_id) == (ann.pk, bob.pk)
    PairLineup.objects.create(pair=pair, from_round=1, player_1_id=ann.pk, player_2_id=bob.pk)
    with pytest.raises(IntegrityError), transaction.atomic():
        PairLineup.objects.create(pair=pair, from_round=1, player_1_id=ann.pk, player_2_id=cat.pk)
