"""The director's overview reads: a session's pairs with their players."""

from sessions.movements import mitchell
from sessions.pairs.selectors.sessions import session_pairs, session_progress
from sessions.pairs.services.results import result_record
from tests.factories import make_session


def test_the_pairs_come_with_their_players_in_one_query(event, django_assert_num_queries):
    session = make_session(event, mitchell(7, 2), sections=("A", "B"), pair_players={
        "A:1NS": ["Ann Archer", "Bob Baker"], "B:7EW": ["Cat Cole", "Dan Dale"],
    })

    with django_assert_num_queries(1):
        pairs = list(session_pairs(session=session))
        named = {f"{pair.section.letter}:{pair.label}": pair.names for pair in pairs if pair.names}

    assert named == {"A:1NS": "Ann Archer & Bob Baker", "B:7EW": "Cat Cole & Dan Dale"}
    assert [pair.label for pair in pairs[:3]] == ["1NS", "2NS", "3NS"]  # by section, NS before EW, number


def test_progress_counts_each_sections_deal_apart(event, django_assert_num_queries):
    session = make_session(event, mitchell(3, 2), sections=("A", "B"), own_boards=("B",))
    section_b = session.sections.get(letter="B")
    own_1 = session.boards.get(section=section_b, number=1)
    result_record(board=own_1, section=section_b, ns_pair="1NS", ew_pair="1EW", text="4S N =")

    # 1. boards with their counts  2. seatings  3. lines
    with django_assert_num_queries(3):
        progress = session_progress(session=session)
        board_1 = {(item.board.section.letter if item.board.section else ""): (item.entered, item.expected)
                   for item in progress.boards if item.board.number == 1}

    # Board 1 is played at 3 tables in each section: A's 3 on the shared deal, B's on its own.
    assert board_1 == {"": (0, 3), "B": (1, 3)}
    assert progress.expected == 2 * 18
