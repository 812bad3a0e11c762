"""A file's players on the club's list: the rule a director's typing follows
(player_find_or_add_numbered), applied in bulk (players_find_or_add): by national number,
else by name (a namesake without a number is given it), else added."""

from __future__ import annotations

import pytest

from sessions.models import Player
from sessions.clubs.services.players import player_add, player_find_or_add_numbered
from sessions.clubs.services.players import players_find_or_add
from sessions.transfer.services.importing import results_import
from tests.factories import make_club
from tests.transfer.helpers import one_board_file

pytestmark = pytest.mark.django_db

#: What the club's list holds before each case: (name, national number), oldest first.
LIST = [("Ann Archer", "100"), ("Bob Baker", ""), ("Bob Baker", ""), ("Cat Cole", "300"), ("Cat Cole", "")]
#: Typed in turn, as a file brings them; the number-owned-by-another-name case is apart.
TYPED = [
    ("Ann Archer", "100"),   # her number
    ("ANN ARCHER", ""),      # her name, any case
    ("Bob Baker", "200"),    # the oldest unnumbered Bob is given 200
    ("Bob Baker", "201"),    # ... and the next one 201
    ("Bob Baker", "202"),    # no unnumbered Bob left: a new one
    ("Cat Cole", "301"),     # the unnumbered Cat, not the one with 300
    ("Dan Dale", ""),        # new
    ("dan dale", ""),        # the Dan just added
    ("Eve Evans", "500"),    # new, numbered
    ("Eve Evans", "500"),    # the same Eve
    ("", ""),                # no player
]


def club_with_list():
    club = make_club()
    for name, number in LIST:
        player_add(club=club, name=name, national_number=number)
    return club


def described(players) -> list[tuple[str, str, int] | None]:
    """Each player as (name, number, its rank among the club's players by age): comparable across clubs."""
    return [
        None if player is None else (player.name, player.national_number, player.club.players.filter(pk__lt=player.pk).count())
        for player in players
    ]


def test_the_bulk_lookup_finds_and_adds_the_players_entry_would():
    typed_one_by_one = club_with_list()
    one_by_one = [player_find_or_add_numbered(club=typed_one_by_one, name=n, national_number=u) for n, u in TYPED]
    in_bulk_club = club_with_list()
    in_bulk = players_find_or_add(club=in_bulk_club, typed=TYPED)

    for player in in_bulk:  # the objects returned are the rows stored
        if player is not None:
            assert Player.objects.get(pk=player.pk).national_number == player.national_number
    assert described(in_bulk) == described(one_by_one)
    listed = sorted(typed_one_by_one.players.values_list("name", "national_number"))
    assert sorted(in_bulk_club.players.values_list("name", "national_number")) == listed
    assert in_bulk[7] is in_bulk[6] and in_bulk[9] is in_bulk[8]  # one object per player


def test_a_number_that_is_another_names_player_is_that_player_in_a_file():
    # Typed by a director, it is refused (tests/clubs/services/test_players.py); programs spell
    # names their own way, and a national number is the member's.
    club = club_with_list()
    (found,) = players_find_or_add(club=club, typed=[("A. Archer", "100")])
    assert found == club.players.get(national_number="100") and found.name == "Ann Archer"


def test_names_from_a_file_lose_invisible_controls_as_typed_ones_do():
    club = make_club()
    (found,) = players_find_or_add(club=club, typed=[("Ann\u202eyliW  Archer", "1\u200b2")])
    assert (found.name, found.national_number) == ("AnnyliW Archer", "12")


def test_an_import_finds_the_clubs_players_and_records_their_numbers():
    club = make_club()
    numbered = player_add(club=club, name="P A1NSa", national_number="A1NS1")
    unnumbered = player_add(club=club, name="P A1EWa")
    results_import(club=club, data=one_board_file(3), filename="three.pbn")

    unnumbered.refresh_from_db()
    assert unnumbered.national_number == "A1EW1"  # the file's number, recorded
    pairs = {pair.label: pair for pair in club.events.get().sessions.get().sections.get().pairs.all()}
    assert pairs["1NS"].player_1 == numbered and pairs["1EW"].player_1 == unnumbered
    assert club.players.count() == 12  # 3 tables, 4 players each: 2 found, 10 added

    results_import(club=club, data=one_board_file(3), filename="again.pbn")
    assert club.players.count() == 12  # the same file again: everyone found
