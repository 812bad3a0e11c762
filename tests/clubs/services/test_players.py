"""Naming a pair's players after the session is made: from the club's list or new."""

import pytest
from django.core.exceptions import ValidationError

from sessions.models import ChangeAction, Pair, PairLineup, Player, ResultChange
from sessions.clubs.services.players import pair_name_players, pair_set_players, player_add, session_name_players
from sessions.clubs.services.players import pair_change_players


def pair_of(session, label="1NS") -> Pair:
    return next(pair for pair in Pair.objects.filter(section__session=session).select_related(
        "section__session__event__club", "player_1", "player_2") if pair.label == label)


def test_names_from_the_club_list_are_reused_and_new_ones_added(session, club):
    known = player_add(club=club, name="Ann Archer")

    change = pair_name_players(pair=pair_of(session), players=[("ann archer", ""), ("Bob  Baker", "")])

    pair = pair_of(session)
    assert pair.player_1 == known
    assert pair.player_2.name == "Bob Baker" and pair.player_2.club == club
    assert (change.before, change.after, change.changed) == ("", "Ann Archer & Bob Baker", True)


def test_a_national_number_finds_the_player_it_belongs_to(session, club):
    numbered = player_add(club=club, name="Cat Cole", national_number="1234")
    player_add(club=club, name="Cat Cole")  # a namesake without a number

    pair_name_players(pair=pair_of(session), players=[("Cat Cole", "1234"), ("", "")])

    assert pair_of(session).player_1 == numbered


def test_a_number_typed_for_a_known_unnumbered_player_is_recorded_on_them(session, club):
    player = player_add(club=club, name="Dan Dale")

    pair_name_players(pair=pair_of(session), players=[("Dan Dale", "777"), ("", "")])

    player.refresh_from_db()
    assert pair_of(session).player_1 == player and player.national_number == "777"
    assert Player.objects.count() == 1


def test_a_new_name_with_a_number_is_added_with_it(session, club):
    pair_name_players(pair=pair_of(session), players=[("Eve Evans", "55"), ("", "")])

    assert club.players.get().national_number == "55"


def test_a_number_that_is_someone_elses_is_refused(session, club):
    player_add(club=club, name="Fay Ford", national_number="99")

    with pytest.raises(ValidationError, match="national number 99 is Fay Ford's, not Gil Grant's"):
        pair_name_players(pair=pair_of(session), players=[("Gil Grant", "99"), ("", "")])

    assert pair_of(session).player_1 is None and Player.objects.count() == 1


def test_one_player_cannot_be_both_seats(session):
    with pytest.raises(ValidationError, match="cannot be both players of pair 1NS"):
        pair_name_players(pair=pair_of(session), players=[("Hal Hunt", ""), ("hal hunt", "")])


def test_an_unchanged_seat_keeps_its_player_even_with_a_namesake_on_the_list(session, club):
    pair_name_players(pair=pair_of(session), players=[("Ivy Irwin", "12"), ("", "")])
    namesake = player_add(club=club, name="Ivy Irwin")
    first = pair_of(session).player_1

    change = pair_name_players(pair=pair_of(session), players=[("Ivy Irwin", ""), ("", "")])

    assert pair_of(session).player_1 == first != namesake
    assert not change.changed


def test_blank_names_clear_the_seats(session):
    pair_name_players(pair=pair_of(session), players=[("Jo Jones", ""), ("Kay King", "")])

    change = pair_name_players(pair=pair_of(session), players=[("", ""), ("", "")])

    assert (pair_of(session).player_1, pair_of(session).player_2) == (None, None)
    assert change.after == ""


def test_naming_several_pairs_is_all_or_nothing_and_says_which_pair(session, club):
    player_add(club=club, name="Lee Long", national_number="5")
    pairs = [pair_of(session, "1NS"), pair_of(session, "2NS")]

    with pytest.raises(ValidationError, match="pair 2NS: national number 5 is Lee Long's"):
        session_name_players(pairs=pairs, players={
            pairs[0].pk: [("Max Moss", ""), ("", "")], pairs[1].pk: [("Ned North", "5"), ("", "")],
        })

    assert pair_of(session, "1NS").player_1 is None
    assert not Player.objects.filter(name="Max Moss").exists()


def test_naming_several_pairs_reports_only_the_changed_ones(session):
    pairs = [pair_of(session, "1NS"), pair_of(session, "2NS")]

    changes = session_name_players(pairs=pairs, players={
        pairs[0].pk: [("Olga Owen", ""), ("", "")], pairs[1].pk: [("", ""), ("", "")],
    })

    assert [change.pair.label for change in changes] == ["1NS"]


# --- a change of player from a round on -----------------------------------------------------


@pytest.fixture
def named(session, club):
    """1NS named Ann Archer & Bob Baker for the whole session (3 rounds of 2 boards); Carl Cole on the list."""
    ann, bob, carl = (player_add(club=club, name=name) for name in ("Ann Archer", "Bob Baker", "Carl Cole"))
    pair_set_players(pair=pair_of(session), player_1=ann, player_2=bob)
    return ann, bob, carl


def spells(pair):
    return [(lineup.from_round, lineup.names) for lineup in PairLineup.objects.filter(pair=pair).order_by("from_round")]


def test_a_substitute_from_round_2_keeps_round_1_for_the_player_who_left(session, named):
    ann, bob, carl = named

    change = pair_change_players(pair=pair_of(session), player_1=ann, player_2=carl, from_round=2)

    pair = pair_of(session)
    assert spells(pair) == [(1, "Ann Archer & Bob Baker"), (2, "Ann Archer & Carl Cole")]
    assert (pair.player_1, pair.player_2) == (ann, carl)  # the players of the most boards (4 of 6)
    assert (change.before, change.after, change.changed) == ("Ann Archer & Bob Baker", "Ann Archer & Carl Cole", True)
    log = ResultChange.objects.get(action=ChangeAction.PLAYERS)
    assert (log.subject, log.before_text) == ("pair 1NS", "Ann Archer & Bob Baker")
    assert log.after_text == "round 1 Ann Archer & Bob Baker; rounds 2-3 Ann Archer & Carl Cole"


def test_a_substitute_for_the_last_round_leaves_the_pair_its_players(session, named):
    ann, bob, carl = named

    pair_change_players(pair=pair_of(session), player_1=carl, player_2=bob, from_round=3)

    pair = pair_of(session)
    assert (pair.player_1, pair.player_2) == (ann, bob)  # 4 boards against Carl's 2
    assert spells(pair) == [(1, "Ann Archer & Bob Baker"), (3, "Carl Cole & Bob Baker")]


def test_the_player_back_for_a_later_round_is_a_change_of_its_own(session, named):
    ann, bob, carl = named
    pair_change_players(pair=pair_of(session), player_1=ann, player_2=carl, from_round=2)

    pair_change_players(pair=pair_of(session), player_1=ann, player_2=bob, from_round=3)

    pair = pair_of(session)
    assert spells(pair) == [(1, "Ann Archer & Bob Baker"), (2, "Ann Archer & Carl Cole"), (3, "Ann Archer & Bob Baker")]
    assert (pair.player_1, pair.player_2) == (ann, bob)


def test_undoing_a_change_leaves_one_lineup_the_whole_session(session, named):
    ann, bob, carl = named
    pair_change_players(pair=pair_of(session), player_1=ann, player_2=carl, from_round=2)

    change = pair_change_players(pair=pair_of(session), player_1=bob, player_2=ann, from_round=2)  # seats swapped

    pair = pair_of(session)
    assert spells(pair) == [] and change.changed
    assert (pair.player_1, pair.player_2) == (ann, bob)  # the earlier round's seats


def test_a_change_from_round_1_names_the_whole_session(session, named):
    ann, bob, carl = named
    pair_change_players(pair=pair_of(session), player_1=ann, player_2=carl, from_round=2)

    session_name_players(pairs=[pair_of(session)], players={pair_of(session).pk: [("Carl Cole", ""), ("Bob Baker", "")]})

    pair = pair_of(session)
    assert spells(pair) == [] and (pair.player_1, pair.player_2) == (carl, bob)


def test_the_directors_names_from_a_round_are_a_change_of_player(session, named):
    ann, bob, carl = named
    pair = pair_of(session)

    changes = session_name_players(pairs=[pair], players={pair.pk: [("Ann Archer", ""), ("Carl Cole", "")]}, from_round=3)

    assert [change.pair.label for change in changes] == ["1NS"]
    assert spells(pair_of(session)) == [(1, "Ann Archer & Bob Baker"), (3, "Ann Archer & Carl Cole")]


@pytest.mark.parametrize("from_round", [0, 4])
def test_a_change_of_player_outside_the_sessions_rounds_is_refused(session, named, from_round):
    ann, bob, carl = named
    with pytest.raises(ValidationError, match="rounds 1 to 3"):
        pair_change_players(pair=pair_of(session), player_1=ann, player_2=carl, from_round=from_round)
    assert spells(pair_of(session)) == []
