"""Round robin schedules and the Swiss draw (sessions/movements/teams.py)."""

from itertools import combinations

import pytest

from sessions.movements.teams import round_robin, swiss_draw
from sessions.movements import MovementError


def _meetings(rounds):
    return [frozenset(p) for pairings in rounds for p in pairings if p[1] is not None]


@pytest.mark.parametrize("size", [2, 3, 4, 5, 6, 7, 8, 11, 12, 24])
def test_round_robin_meets_every_other_team_exactly_once(size):
    teams = list(range(1, size + 1))
    rounds = round_robin(teams)

    assert sorted(map(sorted, _meetings(rounds))) == sorted(map(sorted, map(frozenset, combinations(teams, 2))))
    assert len(rounds) == (size - 1 if size % 2 == 0 else size)
    for pairings in rounds:  # every team once a round, playing or sitting out
        seated = [team for pair in pairings for team in pair if team is not None]
        assert sorted(seated) == teams


def test_round_robin_with_an_odd_field_gives_each_team_one_bye():
    rounds = round_robin([1, 2, 3, 4, 5])

    byes = [home for pairings in rounds for home, away in pairings if away is None]
    assert sorted(byes) == [1, 2, 3, 4, 5]


def test_round_robin_does_not_leave_a_team_always_at_home():
    rounds = round_robin(list(range(1, 9)))

    homes = {team: sum(1 for pairings in rounds for home, _ in pairings if home == team) for team in range(1, 9)}
    assert max(homes.values()) < 7


def test_first_swiss_round_is_top_against_top():
    assert swiss_draw([1, 2, 3, 4, 5, 6], []) == ((1, 2), (3, 4), (5, 6))


def test_swiss_pairs_the_leader_with_the_best_team_it_has_not_met():
    assert swiss_draw([1, 2, 3, 4], [(1, 2), (3, 4)]) == ((1, 3), (2, 4))


def test_swiss_backtracks_rather_than_force_a_repeat_at_the_bottom():
    # 1 v 3 then 2 v 4 would leave 5 v 6, who have met: the draw moves 2 down instead.
    assert swiss_draw([1, 2, 3, 4, 5, 6], [(1, 2), (3, 4), (5, 6)]) == ((1, 3), (2, 5), (4, 6))


def test_swiss_repeats_only_when_no_draw_avoids_it():
    # Four teams after three rounds have all met: a repeat is unavoidable, still top v top.
    played = [(1, 2), (3, 4), (1, 3), (2, 4), (1, 4), (2, 3)]
    assert swiss_draw([1, 2, 3, 4], played) == ((1, 2), (3, 4))


def test_swiss_bye_goes_to_the_lowest_team_without_one():
    assert swiss_draw([1, 2, 3, 4, 5], [], had_bye=[5])[-1] == (4, None)
    assert swiss_draw([1, 2, 3, 4, 5], [])[-1] == (5, None)


@pytest.mark.parametrize("teams", [[1], [1, 1, 2]])
def test_swiss_refuses_a_field_it_cannot_draw(teams):
    with pytest.raises(MovementError):
        swiss_draw(teams, [])
