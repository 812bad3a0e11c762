"""Creating a session from a movement, naming players, publishing."""

import pytest
from django.core.exceptions import ValidationError

from sessions.models import Board, Pair, Player, Seating
from sessions.movements import howell, mitchell
from sessions.clubs.services.players import player_add
from sessions.pairs.services.results import result_record
from sessions.pairs.services.sessions import session_publish, session_unpublish
from tests.factories import make_club, make_session


def test_a_mitchell_session_gets_its_pairs_boards_and_seatings(session):
    section = session.sections.get()
    assert sorted(p.label for p in section.pairs.all()) == ["1EW", "1NS", "2EW", "2NS", "3EW", "3NS"]
    assert session.boards.count() == 6
    assert section.seatings.count() == 9  # 3 tables x 3 rounds
    assert (session.movement_kind, session.tables, session.rounds, session.boards_per_round) == (
        "mitchell", 3, 3, 2,
    )


@pytest.mark.parametrize(
    ("number", "dealer", "vulnerability"),
    [(1, "N", "None"), (2, "E", "NS"), (3, "S", "EW"), (4, "W", "Both"), (5, "N", "NS"), (6, "E", "EW")],
)
def test_boards_get_dealer_and_vulnerability_from_their_number(session, number, dealer, vulnerability):
    board = Board.objects.get(session=session, number=number)
    assert (board.dealer, board.vulnerability) == (dealer, vulnerability)


def test_the_stored_seatings_are_the_movements(session):
    movement = mitchell(3, 2)
    stored = {
        (s.round, s.table, s.ns_pair.label, s.ew_pair.label, tuple(s.boards))
        for s in Seating.objects.select_related("ns_pair", "ew_pair")
    }
    assert stored == {(s.round, s.table, s.ns_pair, s.ew_pair, s.boards) for s in movement.seatings}


def test_the_phantom_of_an_odd_howell_gets_no_pair(event):
    session = make_session(event, howell(7, 2))

    labels = {pair.label for pair in Pair.objects.filter(section__session=session)}
    assert labels == {"1", "2", "3", "4", "5", "6", "7"}
    assert all(pair.direction == "" for pair in Pair.objects.all())


def test_several_sections_each_get_the_movement(event):
    session = make_session(event, sections=("A", "B"))

    assert [s.letter for s in session.sections.all()] == ["A", "B"]
    assert Pair.objects.filter(section__session=session).count() == 12
    assert Seating.objects.filter(section__session=session).count() == 18


def test_players_are_taken_from_the_club_list_or_added(event):
    known = player_add(club=event.club, name="Ann Smith", national_number="123")

    session = make_session(event, pair_players={"1NS": ["ann smith", "Bob  Jones"]})

    pair = Pair.objects.get(section__session=session, number=1, direction="NS")
    assert pair.player_1 == known
    assert pair.player_2.name == "Bob Jones"
    assert Player.objects.filter(club=event.club).count() == 2


def test_a_pair_cannot_take_another_clubs_player(event, session):
    from sessions.clubs.services.players import pair_set_players

    stranger = player_add(club=make_club(), name="Stranger")
    pair = session.sections.get().pairs.first()

    with pytest.raises(ValidationError, match="not a player of this club"):
        pair_set_players(pair=pair, player_1=stranger, player_2=None)


def test_a_national_number_is_unique_in_the_club(club):
    player_add(club=club, name="Ann", national_number="42")

    with pytest.raises(ValidationError):
        player_add(club=club, name="Another Ann", national_number="42")
    assert club.players.count() == 1


def test_publishing_an_empty_session_is_refused(session):
    with pytest.raises(ValidationError, match="nothing to publish"):
        session_publish(session=session)
    session.refresh_from_db()
    assert not session.published


def test_publishing_and_unpublishing(session):
    result_record(board=session.boards.get(number=1), section=session.sections.get(),
                  ns_pair="1NS", ew_pair="1EW", text="4S N =")

    session_publish(session=session)
    session.refresh_from_db()
    assert session.published and session.published_at is not None

    session_unpublish(session=session)
    session.refresh_from_db()
    assert not session.published and session.published_at is None
