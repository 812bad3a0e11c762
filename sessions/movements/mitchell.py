"""Mitchell movements: NS pairs stay put, EW pairs move up a table, boards move down.

Tables are numbered 1..n and board sets 1..n (set s holds boards
``(s-1)*b+1 .. s*b``). In round 1 table t plays set t against EW pair t.

- Odd n: each round EW move up one table (n -> 1) and boards down one (1 -> n);
  every EW pair meets every NS pair and plays every set once in n rounds.
- Even n, ``even="skip"``: as for odd, but after round n/2 the EW pairs skip a table.
  Without the skip they would meet boards again; with it they can play at most
  n-1 rounds (the skipped NS pair and one set are never met).
- Even n, ``even="relay"``: a bye stand between tables n/2 and n/2+1 and a relay:
  tables 1 and n share a set each round (they swap boards during the round). Boards
  move down through the tables and the bye stand; all n rounds are played and every
  set is played n times. It only balances over all n rounds, so fewer are refused.
  By default (``even=None``) an even Mitchell is a relay when it plays all n rounds
  and a skip when it plays fewer.

Arrow-switch: in the rounds named, the pairs swap directions (the EW pair of the
movement sits NS), so the session has one field and one winner. The usual club
practice, ``arrow_switch_last_round=True``, switches the last round; any set of rounds
can be given with ``arrow_switch_rounds`` (commonly about a quarter of the boards).

An odd number of pairs: name the missing pair with ``phantom`` (e.g. "7NS"); the pair
that would meet it sits out that round. A missing NS pair at the last table is the
usual half table: EW pairs sit out there in turn.
"""

from __future__ import annotations

from collections.abc import Collection

from sessions.movements.model import Movement, MovementError, Seating, build_movement, set_boards

EVEN_OPTIONS = ("skip", "relay")


def mitchell(
    tables: int,
    boards_per_round: int,
    *,
    rounds: int | None = None,
    even: str | None = None,
    arrow_switch_last_round: bool = False,
    arrow_switch_rounds: Collection[int] = (),
    phantom: str | None = None,
) -> Movement:
    """A Mitchell for ``tables`` tables; see the module docstring for the options."""
    _require(tables >= 3, f"a Mitchell needs at least 3 tables, not {tables}")
    _require(boards_per_round >= 1, "a round needs at least one board")
    variant = _variant(tables, rounds, even)
    rounds = _rounds(tables, rounds, variant)
    switched = _switched_rounds(rounds, arrow_switch_last_round, arrow_switch_rounds)
    pairs = tuple(f"{t}{line}" for line in ("NS", "EW") for t in range(1, tables + 1))
    _require(phantom is None or phantom in pairs, f"phantom {phantom!r} is not a pair here")
    one_field = bool(switched)
    return build_movement(
        kind="mitchell",
        tables=tables,
        rounds=rounds,
        boards_per_round=boards_per_round,
        pairs=tuple(p for p in pairs if p != phantom),
        fields={p: "" if one_field else p[-2:] for p in pairs if p != phantom},
        schedule=_schedule(tables, rounds, boards_per_round, variant, switched),
        description=_describe(tables, rounds, boards_per_round, variant, switched, phantom),
        phantom=phantom,
        arrow_switch_rounds=switched,
    )


def max_mitchell_rounds(tables: int, even: str | None = None) -> int:
    """The most rounds a Mitchell can play without a pair meeting a board twice."""
    return tables - 1 if tables % 2 == 0 and even == "skip" else tables


def _variant(tables: int, rounds: int | None, even: str | None) -> str:
    if tables % 2:
        _require(even is None, f"{tables} tables is odd: no skip or relay is needed")
        return "standard"
    _require(
        even in (None, *EVEN_OPTIONS),
        f"even must be 'skip' or 'relay', not {even!r}",
    )
    if even is None:
        return "relay" if rounds in (None, tables) else "skip"
    return even


def _rounds(tables: int, rounds: int | None, variant: str) -> int:
    most = max_mitchell_rounds(tables, None if variant == "standard" else variant)
    if rounds is None:
        return most
    _require(
        1 <= rounds <= most,
        f"a {_name(tables, variant)} plays 1 to {most} rounds, not {rounds}",
    )
    _require(
        variant != "relay" or rounds == tables,
        f"a relay-and-bye Mitchell plays all {tables} rounds (boards are only "
        "played equally often then); use even='skip' for fewer rounds",
    )
    return rounds


def _switched_rounds(rounds: int, last: bool, chosen: Collection[int]) -> frozenset[int]:
    switched = frozenset(chosen) | ({rounds} if last else set())
    for r in switched:
        _require(1 <= r <= rounds, f"cannot arrow-switch round {r}: there are {rounds} rounds")
    return switched


def _schedule(
    tables: int, rounds: int, boards_per_round: int, variant: str, switched: frozenset[int]
) -> list[Seating]:
    schedule = []
    for round in range(1, rounds + 1):
        for table in range(1, tables + 1):
            ns, ew = f"{table}NS", f"{_ew_pair(tables, round, table, variant)}EW"
            if round in switched:
                ns, ew = ew, ns
            board_set = _board_set(tables, round, table, variant)
            schedule.append(Seating(round, table, ns, ew, set_boards(board_set, boards_per_round)))
    return schedule


def _ew_pair(tables: int, round: int, table: int, variant: str) -> int:
    """EW pair at a table: EW pair e starts at table e and moves up one a round."""
    moves = round - 1
    if variant == "skip" and round > tables // 2:
        moves += 1
    return (table - 1 - moves) % tables + 1


def _board_set(tables: int, round: int, table: int, variant: str) -> int:
    """Board set at a table: sets move down one place a round.

    Relay: the places are table 1 (shared with table n), tables 2..n/2, the bye
    stand, tables n/2+1..n-1: n places for n sets.
    """
    place = table - 1
    if variant == "relay":
        if table == tables:
            place = 0
        elif table > tables // 2:
            place = table  # one place further on: the bye stand comes first
    return (place + round - 1) % tables + 1


def _describe(
    tables: int,
    rounds: int,
    boards_per_round: int,
    variant: str,
    switched: frozenset[int],
    phantom: str | None,
) -> str:
    text = f"{_name(tables, variant)}, {rounds} rounds of {boards_per_round} boards"
    if rounds == tables:
        text += f" ({tables * boards_per_round} boards)"
    else:
        text += (
            f" ({rounds * boards_per_round} boards each, "
            f"{tables * boards_per_round} in play)"
        )
    if variant == "skip" and rounds > tables // 2:
        text += f", EW skip a table after round {tables // 2}"
    if variant == "relay":
        text += (
            f", tables 1 and {tables} share boards, bye stand between tables "
            f"{tables // 2} and {tables // 2 + 1}"
        )
    if switched:
        listed = ", ".join(str(r) for r in sorted(switched))
        text += f", arrow-switched in round{'s' if len(switched) > 1 else ''} {listed} (one field)"
    if phantom:
        text += f", {phantom} missing (its opponents sit out)"
    return text


def _name(tables: int, variant: str) -> str:
    suffix = {"standard": "", "skip": " skip", "relay": " relay-and-bye"}[variant]
    return f"{tables}-table{suffix} Mitchell"


def _require(condition: bool, problem: str) -> None:
    if not condition:
        raise MovementError(problem)
