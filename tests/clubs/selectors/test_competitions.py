"""competition_standings: place points over the event's sessions, competitors as the
event's combined ranking recognises them (the sessions of tests/pairs/selectors/test_events.py)."""

from fractions import Fraction

import pytest

from sessions.models import Player
from sessions.clubs.selectors.competitions import competition_standings
from sessions.clubs.services.competitions import competition_create
from tests.pairs.selectors.test_events import BOTTOM, MIDDLE, TOP, played


@pytest.fixture
def two_evenings(event):
    # S1: Ann & Bob 1NS 1st of NS (10), Cat & Dan 2NS 2nd (9).
    played(event, {"1NS": ("Ann", "Bob"), "2NS": ("Cat", "Dan")}, {"1NS": TOP, "2NS": MIDDLE, "3NS": BOTTOM})
    # S2: Ann & Bob 2EW, 2nd of EW (50 %, after 1EW's 100 %): 9; Cat & Dan 1NS, 3rd of NS (0 %): 8.
    played(event, {"2EW": ("Bob", "Ann"), "1NS": ("Cat", "Dan")}, {"1NS": BOTTOM, "2NS": TOP, "3NS": MIDDLE})


def placed(table):
    return [(row.standing.place, row.name, row.standing.total) for row in table.rows if row.standing.ranked]


def test_place_points_add_up_for_the_pairs_the_event_recognises(event, two_evenings):
    table = competition_standings(competition=competition_create(event=event, name="Cup", minimum_sessions=2))
    assert placed(table) == [("1", "Ann & Bob", Fraction(19)), ("2", "Cat & Dan", Fraction(17))]
    assert len(table.rows) == 2 + 8  # each unnamed pair stands alone, below the minimum


def test_why_names_each_session_its_place_in_its_field_and_its_points(event, two_evenings):
    table = competition_standings(competition=competition_create(event=event, name="Cup", minimum_sessions=2))
    why = [(line.view.label, line.contribution.place, line.contribution.field, line.contribution.points)
           for line in table.rows[0].why]
    assert why == [("S1", "1", "NS", 10), ("S2", "2", "EW", 9)]


def test_members_only_leaves_visitors_out_and_ranks_the_members_again(event, two_evenings):
    Player.objects.filter(name="Cat").update(visitor=True)
    competition = competition_create(event=event, name="Members' Cup", members_only=True)
    table = competition_standings(competition=competition)
    # Only Ann & Bob are members: 1st of the members in both fields, 10 + 10.
    assert placed(table) == [("1", "Ann & Bob", Fraction(20))]
    assert [line.contribution.place for line in table.rows[0].why] == ["1", "1"]


def test_the_clubs_own_points_table_and_best_sessions(event, two_evenings):
    competition = competition_create(event=event, name="Ladder", place_points="3, 1", best_sessions=1,
                                     minimum_sessions=1, tie_breaks="wins")
    table = competition_standings(competition=competition)
    ann = next(row for row in table.rows if row.name == "Ann & Bob")
    assert ann.standing.total == 3 and [line.contribution.counted for line in ann.why] == [True, False]
