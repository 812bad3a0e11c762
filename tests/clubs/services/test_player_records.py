"""Editing and merging the club's player records."""

import pytest
from django.core.exceptions import ValidationError

from sessions.models import Pair, PairLineup, Player
from sessions.pairs.selectors.repair import players_entered_twice
from sessions.clubs.services.players import player_add
from sessions.clubs.services.player_records import player_merge, player_update
from sessions.clubs.services.players import pair_change_players
from tests.factories import make_session


def test_a_player_is_renamed_and_numbered(club):
    player = player_add(club=club, name="Anne Smyth")

    player_update(player=player, name=" Anne  Smith ", national_number="42")

    player.refresh_from_db()
    assert (player.name, player.national_number) == ("Anne Smith", "42")


def test_a_national_number_taken_in_the_club_is_refused(club):
    player_add(club=club, name="Bob", national_number="7")
    other = player_add(club=club, name="Carl")

    with pytest.raises(ValidationError):
        player_update(player=other, name="Carl", national_number="7")
    other.refresh_from_db()
    assert other.national_number == ""


def test_merging_moves_every_pair_to_the_record_kept(event):
    first = make_session(event, pair_players={"1NS": ["Ann Smith", "Bob Jones"]})
    second = make_session(event, pair_players={"2EW": ["Carl Wood", "Anne Smith"]})
    keep, merge = Player.objects.get(name="Ann Smith"), Player.objects.get(name="Anne Smith")
    player_update(player=merge, name="Anne Smith", national_number="99")

    moved = player_merge(keep=keep, merge=merge)

    assert moved == 1
    assert not Player.objects.filter(pk=merge.pk).exists()
    pairs = Pair.objects.filter(section__session__in=[first, second]).filter(player_1=keep) | Pair.objects.filter(
        section__session__in=[first, second], player_2=keep
    )
    assert sorted(pair.label for pair in pairs) == ["1NS", "2EW"]
    keep.refresh_from_db()
    assert keep.national_number == "99"  # taken from the merged record, which had one


def test_merging_moves_the_rounds_a_substitute_played(event):
    session = make_session(event, pair_players={"1NS": ["Ann Smith", "Bob Jones"]})
    keep, merge = player_add(club=event.club, name="Carl Wood"), player_add(club=event.club, name="Karl Wood")
    pair = Pair.objects.select_related("section__session__event", "player_1").get(section__session=session, number=1,
                                                                                direction="NS")
    pair_change_players(pair=pair, player_1=pair.player_1, player_2=merge, from_round=3)

    player_merge(keep=keep, merge=merge)

    assert list(PairLineup.objects.filter(pair=pair).values_list("from_round", "player_2__name")) == [
        (1, "Bob Jones"), (3, "Carl Wood"),
    ]


def test_two_records_playing_together_are_not_merged(event):
    make_session(event, pair_players={"1NS": ["Ann Smith", "Anne Smith"]})
    keep, merge = Player.objects.get(name="Ann Smith"), Player.objects.get(name="Anne Smith")

    with pytest.raises(ValidationError, match="play together in pair 1NS"):
        player_merge(keep=keep, merge=merge)
    assert Player.objects.filter(pk=merge.pk).exists()


def test_a_player_entered_in_two_pairs_of_a_session_is_found(event):
    session = make_session(event, pair_players={"1NS": ["Ann Smith", "Bob Jones"], "3EW": ["ann smith", "Dee"]})

    (twice,) = players_entered_twice(session=session)

    assert twice.player.name == "Ann Smith"
    assert [pair.label for pair in twice.pairs] == ["1NS", "3EW"]  # the pairs page order: NS before EW
    assert "Ann Smith is entered twice in this session" in str(twice)
