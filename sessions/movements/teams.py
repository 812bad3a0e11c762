"""Who plays whom in a teams event: round robin schedules and the Swiss draw.

Pure functions over team ids (ints). A pairing is (home, away); a bye is (team, None).

Round robin: the circle method (one team fixed, the others rotate), so every team
meets every other exactly once in n - 1 rounds (n rounds with a bye when n is odd);
home and away alternate so no team is always home.

Swiss: the next round from the standings (best first). Top meets top: the leader
plays the best-placed team it has not met, and so on down, backtracking only when
the rest of the field could not be paired without a repeat; a repeat is allowed
only when no draw without one exists. With an odd number of teams the bye goes to
the lowest-placed team that has not had one yet.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from sessions.movements.model import MovementError

Pairing = tuple[int, int | None]


def _check_teams(teams: Sequence[int]) -> None:
    if len(teams) < 2:
        raise MovementError("a teams event needs at least two teams")
    if len(set(teams)) != len(teams):
        raise MovementError("a team appears twice in the list")


def round_robin(teams: Sequence[int]) -> tuple[tuple[Pairing, ...], ...]:
    """Every round of a complete round robin: each team meets each other once."""
    _check_teams(teams)
    circle: list[int | None] = list(teams)
    if len(circle) % 2:
        circle.append(None)
    size = len(circle)
    rounds = []
    for round_index in range(size - 1):
        pairings: list[Pairing] = []
        for i in range(size // 2):
            first, second = circle[i], circle[size - 1 - i]
            if i == 0 and round_index % 2:
                first, second = second, first
            pairings.append(_order(first, second))
        rounds.append(tuple(pairings))
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return tuple(rounds)


def _order(first: int | None, second: int | None) -> Pairing:
    if first is None:
        assert second is not None
        return (second, None)
    return (first, second)


def _key(a: int, b: int) -> frozenset[int]:
    return frozenset((a, b))


def swiss_draw(
    ranked: Sequence[int],
    played: Collection[tuple[int, int]],
    had_bye: Collection[int] = (),
) -> tuple[Pairing, ...]:
    """The next Swiss round from the teams ranked best first.

    ``played`` holds the pairs of teams that have met; ``had_bye`` the teams that sat
    out a round. The bye (odd field) is listed last.
    """
    _check_teams(ranked)
    met = {_key(a, b) for a, b in played}
    field = list(ranked)
    bye: list[Pairing] = []
    if len(field) % 2:
        sitter = next((team for team in reversed(field) if team not in had_bye), field[-1])
        field.remove(sitter)
        bye = [(sitter, None)]
    pairs = _pair(field, met, allow_repeats=False, dead_ends=set())
    if pairs is None:
        pairs = _pair(field, met, allow_repeats=True, dead_ends=set())
    assert pairs is not None
    return (*pairs, *bye)


def _pair(
    field: list[int], met: set[frozenset[int]], *, allow_repeats: bool, dead_ends: set[tuple[int, ...]]
) -> list[Pairing] | None:
    """Top against top, backtracking; ``dead_ends`` remembers fields that cannot be paired."""
    if not field:
        return []
    if tuple(field) in dead_ends:
        return None
    top, rest = field[0], field[1:]
    candidates = [team for team in rest if _key(top, team) not in met]
    if allow_repeats:
        candidates += [team for team in rest if _key(top, team) in met]
    for opponent in candidates:
        remaining = [team for team in rest if team != opponent]
        tail = _pair(remaining, met, allow_repeats=allow_repeats, dead_ends=dead_ends)
        if tail is not None:
            return [(top, opponent), *tail]
    dead_ends.add(tuple(field))
    return None
