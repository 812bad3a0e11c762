"""A session of several sections created in one go: the same movement and boards in each."""

from fractions import Fraction

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from sessions.models import Board, Pair, Result, Seating, section_boards
from sessions.movements import mitchell
from sessions.core.selectors.scoring import session_score
from sessions.core.selectors.engine_input import DIFFERENT_DEALS_NOTE
from sessions.pairs.services.results import result_record
from tests.factories import make_session

# Board 1 in each section of a 3-table Mitchell, as typed by the director.
SECTION_A = ["4S N =", "4S N +1", "3S N +1"]  # NS +420, +450, +170
SECTION_B = ["4S N -1", "4S N =", "4S N +2"]  # NS -50, +420, +480


@pytest.fixture
def two_sections(event):
    return make_session(event, mitchell(3, 2), sections=("A", "B"))


def test_each_section_gets_the_movements_pairs_and_seatings(two_sections):
    sections = list(two_sections.sections.order_by("letter"))

    assert [section.letter for section in sections] == ["A", "B"]
    for section in sections:
        labels = {pair.label for pair in Pair.objects.filter(section=section)}
        assert labels == {"1NS", "2NS", "3NS", "1EW", "2EW", "3EW"}
        seatings = Seating.objects.filter(section=section)
        assert seatings.count() == 9  # 3 rounds at 3 tables
        assert {(s.round, s.table, s.ns_pair.label, s.ew_pair.label) for s in seatings.filter(round=1)} == {
            (1, 1, "1NS", "1EW"), (1, 2, "2NS", "2EW"), (1, 3, "3NS", "3EW"),
        }


def test_the_sections_share_one_set_of_boards(two_sections):
    # 3 sets of 2 boards, played in both sections: one Board row per number.
    assert sorted(Board.objects.filter(session=two_sections).values_list("number", flat=True)) == [1, 2, 3, 4, 5, 6]


def _enter_board_1(session):
    travellers = mitchell(3, 2).traveller(1)
    for letter, texts in (("A", SECTION_A), ("B", SECTION_B)):
        section = session.sections.get(letter=letter)
        for seating, text in zip(travellers, texts):
            result_record(board=session.boards.get(number=1), section=section,
                          ns_pair=seating.ns_pair, ew_pair=seating.ew_pair, text=text)


def _ns_percents(session) -> dict[tuple[str, str], Fraction]:
    scored = session_score(session=session)
    return {
        (result.section.letter, result.text): scored.scored_line(result).ns_percent
        for result in scored.results
    }


def test_lines_are_matchpointed_within_their_section_by_default(two_sections):
    _enter_board_1(two_sections)

    # Each section alone, 3 results: beating 2, 1 or 0 of the 2 others.
    assert _ns_percents(two_sections) == {
        ("A", "4S N +1"): 100, ("A", "4S N ="): 50, ("A", "3S N +1"): 0,
        ("B", "4S N +2"): 100, ("B", "4S N ="): 50, ("B", "4S N -1"): 0,
    }
    fields = [field for field, _ in session_score(session=two_sections).rankings()]
    assert fields == ["A NS", "A EW", "B NS", "B EW"]


def test_lines_are_matchpointed_across_the_field_when_the_event_says_so(event, two_sections):
    event.across_field, event.rankings = True, "one"
    event.save()
    _enter_board_1(two_sections)

    # One field of 6: +480 beats 5, +450 beats 4, each +420 beats 2 and ties 1 (2.5 of 5),
    # +170 beats 1, -50 none.
    assert _ns_percents(two_sections) == {
        ("B", "4S N +2"): 100, ("A", "4S N +1"): 80, ("A", "4S N ="): 50, ("B", "4S N ="): 50,
        ("A", "3S N +1"): 20, ("B", "4S N -1"): 0,
    }
    assert [field for field, _ in session_score(session=two_sections).rankings()] == [""]


# --- sections playing different boards -------------------------------------------------


@pytest.fixture
def different_boards(event):
    """Section A on the shared boards, section B on deals of its own."""
    return make_session(event, mitchell(3, 2), sections=("A", "B"), own_boards=("B",))


def _enter_board_1_on_each_sections_deal(session):
    travellers = mitchell(3, 2).traveller(1)
    for letter, texts in (("A", SECTION_A), ("B", SECTION_B)):
        section = session.sections.get(letter=letter)
        board = section_boards(list(session.boards.all()), section.pk)[1]
        for seating, text in zip(travellers, texts):
            result_record(board=board, section=section, ns_pair=seating.ns_pair, ew_pair=seating.ew_pair, text=text)


def test_a_section_on_different_boards_gets_a_board_of_its_own_per_number(different_boards):
    section_b = different_boards.sections.get(letter="B")
    boards = Board.objects.filter(session=different_boards)

    assert sorted(boards.filter(section=None).values_list("number", flat=True)) == [1, 2, 3, 4, 5, 6]
    assert sorted(boards.filter(section=section_b).values_list("number", flat=True)) == [1, 2, 3, 4, 5, 6]
    # The same number deals and vulnerability (the board's number fixes them), another deal.
    own_1 = boards.get(section=section_b, number=1)
    assert (own_1.dealer, own_1.vulnerability) == ("N", "None")


def test_the_database_refuses_a_second_board_of_a_number_in_one_section(different_boards):
    section_b = different_boards.sections.get(letter="B")
    with pytest.raises(IntegrityError), transaction.atomic():
        Board.objects.create(session=different_boards, section=section_b, number=1, dealer="N", vulnerability="None")
    with pytest.raises(IntegrityError), transaction.atomic():
        Board.objects.create(session=different_boards, number=1, dealer="N", vulnerability="None")


def test_a_line_is_refused_on_a_deal_its_section_did_not_play(different_boards):
    section_b = different_boards.sections.get(letter="B")
    shared_1 = different_boards.boards.get(section=None, number=1)

    with pytest.raises(ValidationError, match="section B plays a different deal as board 1"):
        result_record(board=shared_1, section=section_b, ns_pair="1NS", ew_pair="1EW", text="4S N =")
    section_a = different_boards.sections.get(letter="A")
    with pytest.raises(ValidationError, match="section A plays a different deal as board 1"):
        result_record(board=different_boards.boards.get(section=section_b, number=1), section=section_a,
                      ns_pair="1NS", ew_pair="1EW", text="4S N =")
    assert not Result.objects.exists()


def test_different_deals_are_matchpointed_within_their_section(different_boards):
    _enter_board_1_on_each_sections_deal(different_boards)

    assert _ns_percents(different_boards) == {
        ("A", "4S N +1"): 100, ("A", "4S N ="): 50, ("A", "3S N +1"): 0,
        ("B", "4S N +2"): 100, ("B", "4S N ="): 50, ("B", "4S N -1"): 0,
    }
    assert session_score(session=different_boards).note == ""


def test_across_the_field_falls_back_to_each_section_when_the_deals_differ(event, different_boards):
    event.across_field, event.rankings = True, "one"
    event.save()
    _enter_board_1_on_each_sections_deal(different_boards)

    scored = session_score(session=different_boards)
    # Not the across-the-field figures of the shared-boards test above (+480 100%, +450
    # 80%...): each section's three results compared alone, ranked per section.
    assert _ns_percents(different_boards) == {
        ("A", "4S N +1"): 100, ("A", "4S N ="): 50, ("A", "3S N +1"): 0,
        ("B", "4S N +2"): 100, ("B", "4S N ="): 50, ("B", "4S N -1"): 0,
    }
    assert scored.note == DIFFERENT_DEALS_NOTE
    assert [field for field, _ in scored.rankings()] == ["A", "B"]


# --- sections of unequal size ------------------------------------------------------------


def test_a_section_one_pair_short_plays_the_movement_with_a_phantom(event):
    session = make_session(event, mitchell(3, 2), sections=("A", "B"), short_sections=("B",))
    section_b = session.sections.get(letter="B")

    assert {pair.label for pair in section_b.pairs.all()} == {"1NS", "2NS", "3NS", "1EW", "2EW"}
    # 3EW's three seatings are gone: its opponents sit out.
    assert section_b.seatings.count() == 9 - 3
    board_1 = session.boards.get(number=1)
    played = [(s.ns_pair, s.ew_pair) for s in mitchell(3, 2).traveller(1) if s.ew_pair != "3EW"]
    for (ns, ew), text in zip(played, ["4S N =", "4S N +1"]):
        result_record(board=board_1, section=section_b, ns_pair=ns, ew_pair=ew, text=text)

    # Two results on board 1 in B: +450 beats +420 (100% and 0%), the session goes on.
    assert {text: percent for (letter, text), percent in _ns_percents(session).items() if letter == "B"} == {
        "4S N +1": 100, "4S N =": 0,
    }


def test_an_unknown_short_section_is_refused(event):
    with pytest.raises(ValidationError, match="no section C to be short"):
        make_session(event, mitchell(3, 2), sections=("A", "B"), short_sections=("C",))
