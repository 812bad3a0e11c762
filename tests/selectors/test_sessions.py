"""The director's overview reads: a session's pairs with their players."""

from sessions.movements import mitchell
from sessions.selectors import session_pairs
from tests.factories import make_session


def test_the_pairs_come_with_their_players_in_one_query(event, django_assert_num_queries):
    session = make_session(event, mitchell(7, 2), sections=("A", "B"), pair_players={
        "A:1NS": ["Ann Archer", "Bob Baker"], "B:7EW": ["Cat Cole", "Dan Dale"],
    })

    with django_assert_num_queries(1):
        pairs = list(session_pairs(session=session))
        named = {f"{pair.section.letter}:{pair.label}": pair.names for pair in pairs if pair.names}

    assert named == {"A:1NS": "Ann Archer & Bob Baker", "B:7EW": "Cat Cole & Dan Dale"}
    assert [pair.label for pair in pairs[:3]] == ["1EW", "2EW", "3EW"]  # by section, direction, number
