"""Typed names lose invisible controls (U+202E and friends), keep every script's letters."""

import pytest

from sessions.clubs.services.players import player_add, player_find_or_add, player_find_or_add_numbered
from sessions.core.text import clean_name, counted


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("Ann\u202eyliW", "AnnyliW"),
        ("\u2066Bob\u2069 Baker", "Bob Baker"),
        ("Cat\u200b \u200eCole", "Cat Cole"),
        ("  Dan\tDale\n", "Dan Dale"),
        ("Zoë Ørsted-Łukasz", "Zoë Ørsted-Łukasz"),
        ("محمد علي", "محمد علي"),
        ("\u202e", ""),
    ],
)
def test_clean_name_removes_controls_and_keeps_letters(typed, stored):
    assert clean_name(typed) == stored


def test_player_names_are_cleaned_wherever_they_are_typed(club):
    added = player_add(club=club, name="Ann\u202eyliW")
    found = player_find_or_add(club=club, name="Ann\u202dyliW ")
    numbered = player_find_or_add_numbered(club=club, name="Eve\u202e Evans", national_number="12\u202e34")

    assert added.name == "AnnyliW" and found == added
    assert (numbered.name, numbered.national_number) == ("Eve Evans", "1234")


def test_event_and_session_names_are_cleaned_too(club):
    import datetime

    from sessions.movements import mitchell
    from sessions.pairs.services.events import event_create
    from sessions.pairs.services.sessions import session_create

    event = event_create(club=club, name="Tuesday\u202e Pairs")
    session = session_create(event=event, name="Evening\u2066 one", date=datetime.date(2026, 1, 1), movement=mitchell(3, 2))

    assert (event.name, session.name) == ("Tuesday Pairs", "Evening one")


@pytest.mark.parametrize(("count", "noun", "plural", "said"), [
    (0, "line", "", "0 lines"), (1, "line", "", "1 line"), (3, "match", "matches", "3 matches"),
])
def test_counted_says_a_count_with_its_noun_never_with_an_s_in_brackets(count, noun, plural, said):
    assert counted(count, noun, plural) == said
