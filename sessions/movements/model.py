"""The movement as data: who sits where, against whom, with which boards, each round.

A movement is built once (by ``mitchell`` or ``howell``) and then only read: the web
app pre-fills travellers from it, checks a traveller line against it, and prints the
table guide cards and the pair cards. ``Movement.validate`` re-checks every rule a
schedule must keep, so a movement built here is never silently wrong.

A missing pair (odd number of pairs) is a *phantom*: it has a label, it is not in
``pairs``, and its seatings are kept apart in ``phantom_seatings``. ``seatings`` holds
only boards that are really played; the pair meeting the phantom sits out that round
and is listed in ``sit_outs``.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import combinations
from types import MappingProxyType

class MovementError(ValueError):
    """A movement that cannot be built or breaks a rule; the message says which. Its own
    error, not the scoring engine's: movements are built before anything is scored."""


@dataclass(frozen=True)
class Seating:
    """One table in one round: the NS pair, the EW pair and the boards they play."""

    round: int
    table: int
    ns_pair: str
    ew_pair: str
    boards: tuple[int, ...]

    @property
    def pairs(self) -> tuple[str, str]:
        return (self.ns_pair, self.ew_pair)

    def direction_of(self, pair: str) -> str | None:
        """ "NS", "EW" or None if the pair is not at this table."""
        if pair == self.ns_pair:
            return "NS"
        if pair == self.ew_pair:
            return "EW"
        return None

    def opponent_of(self, pair: str) -> str:
        return self.ew_pair if pair == self.ns_pair else self.ns_pair


@dataclass(frozen=True)
class PairCardLine:
    """One round of a pair's card: where to go, or that the pair sits out."""

    round: int
    table: int | None  # None: sits out
    direction: str | None  # "NS" / "EW"; None: sits out
    opponents: str | None
    boards: tuple[int, ...]

    @property
    def sits_out(self) -> bool:
        return self.table is None

    def text(self) -> str:
        if self.sits_out:
            return f"Round {self.round}: sit out"
        return (
            f"Round {self.round}: table {self.table} {self.direction} "
            f"v {self.opponents}, boards {board_range(self.boards)}"
        )


def board_range(boards: Iterable[int]) -> str:
    """Boards as printed on a card: (7, 8, 9) -> "7-9", (5,) -> "5"."""
    numbers = sorted(boards)
    if not numbers:
        return ""
    if numbers == list(range(numbers[0], numbers[-1] + 1)) and len(numbers) > 1:
        return f"{numbers[0]}-{numbers[-1]}"
    return ", ".join(str(n) for n in numbers)


@dataclass(frozen=True)
class Movement:
    """A whole schedule. Build it with ``mitchell`` or ``howell``, never by hand."""

    kind: str  # "mitchell" | "howell"
    tables: int
    rounds: int
    boards_per_round: int
    pairs: tuple[str, ...]
    fields: Mapping[str, str]  # pair -> "NS" / "EW" (Mitchell), "" (one field)
    seatings: tuple[Seating, ...]  # the boards really played
    sit_outs: Mapping[int, tuple[str, ...]]  # round -> pairs meeting the phantom
    description: str
    phantom: str | None = None
    phantom_seatings: tuple[Seating, ...] = ()
    #: Complete Howell: every pair meets every other exactly once.
    complete: bool = False
    #: Rounds in which a Mitchell's EW pairs sit NS (and NS pairs EW).
    arrow_switch_rounds: frozenset[int] = field(default_factory=frozenset)

    # -- reading -------------------------------------------------------------

    def boards(self) -> tuple[int, ...]:
        """Every board in play, in order."""
        return tuple(sorted({b for s in self._schedule() for b in s.boards}))

    def seating_for(self, round: int, table: int) -> Seating:
        """The seating at a table in a round (phantom included: the other pair sits out)."""
        for seating in self._schedule():
            if seating.round == round and seating.table == table:
                return seating
        raise MovementError(f"{self.description} has no table {table} in round {round}")

    def short_pair(self) -> str:
        """The pair a section one pair short leaves out (a phantom, whose opponents sit out):
        a Mitchell's highest EW pair, a Howell's highest pair, so the sections of an odd
        field (27 pairs: 14 + 13) play the same movement on the same boards."""
        ew = [pair for pair in self.pairs if pair.endswith("EW")]
        return max(ew or self.pairs, key=lambda pair: int(pair.rstrip("NSEW")))

    def table_card(self, table: int) -> list[Seating]:
        """The table guide card, round by round.

        Rounds in which the phantom sits here are included (one side is
        ``self.phantom``: the other pair sits out), so the card has every round.
        """
        if not 1 <= table <= self.tables:
            raise MovementError(f"{self.description} has no table {table}")
        return sorted(
            (s for s in self._schedule() if s.table == table), key=lambda s: s.round
        )

    def pair_card(self, pair: str) -> list[PairCardLine]:
        """Where a pair goes each round, with its opponents and boards, or "sit out"."""
        if pair not in self.pairs:
            raise MovementError(f"{self.description} has no pair {pair!r}")
        return [self._card_line(pair, round) for round in range(1, self.rounds + 1)]

    def traveller(self, board: int) -> tuple[Seating, ...]:
        """The seatings that play a board, in round order: one traveller line each."""
        if board not in self.boards():
            raise MovementError(f"board {board} is not in play in {self.description}")
        return tuple(
            sorted((s for s in self.seatings if board in s.boards), key=lambda s: s.round)
        )

    def expected_line(self, board: int, ns_pair: str, ew_pair: str) -> Seating | None:
        """The seating in which these pairs, sitting this way round, play this board.

        None when the schedule has no such line: a wrong pair number, the pairs
        entered the wrong way round, or a board they do not play.
        """
        for seating in self.seatings:
            if (
                board in seating.boards
                and seating.ns_pair == ns_pair
                and seating.ew_pair == ew_pair
            ):
                return seating
        return None

    def shares_boards_with(self, round: int, table: int) -> tuple[int, ...]:
        """Other tables playing the same boards that round (a relay: share them)."""
        boards = self.seating_for(round, table).boards
        return tuple(
            s.table
            for s in self.seatings
            if s.round == round and s.table != table and s.boards == boards
        )

    def _schedule(self) -> tuple[Seating, ...]:
        return self.seatings + self.phantom_seatings

    def _card_line(self, pair: str, round: int) -> PairCardLine:
        for seating in self.seatings:
            if seating.round == round and pair in seating.pairs:
                return PairCardLine(
                    round=round,
                    table=seating.table,
                    direction=seating.direction_of(pair),
                    opponents=seating.opponent_of(pair),
                    boards=seating.boards,
                )
        return PairCardLine(round=round, table=None, direction=None, opponents=None, boards=())

    # -- checking ------------------------------------------------------------

    def validate(self) -> None:
        """Raise MovementError naming the first rule the schedule breaks."""
        for check in (
            self._check_places,
            self._check_each_pair_once_per_round,
            self._check_sit_outs,
            self._check_boards_per_table,
            self._check_no_pair_replays_a_board,
            self._check_boards_played_equally,
            self._check_meetings,
            self._check_fields,
        ):
            check()

    def _fail(self, problem: str) -> None:
        raise MovementError(f"{self.description}: {problem}")

    def _check_places(self) -> None:
        seen: set[tuple[int, int]] = set()
        known = set(self.pairs) | ({self.phantom} if self.phantom else set())
        for s in self._schedule():
            if not (1 <= s.round <= self.rounds and 1 <= s.table <= self.tables):
                self._fail(f"round {s.round} table {s.table} is outside the movement")
            if (s.round, s.table) in seen:
                self._fail(f"table {s.table} is seated twice in round {s.round}")
            seen.add((s.round, s.table))
            for pair in s.pairs:
                if pair not in known:
                    self._fail(f"unknown pair {pair!r} at table {s.table} round {s.round}")
            if s.ns_pair == s.ew_pair:
                self._fail(f"pair {s.ns_pair} plays itself at table {s.table} round {s.round}")
        if any(self.phantom in s.pairs for s in self.seatings):
            self._fail("a seating with the phantom is listed as played")
        if any(self.phantom not in s.pairs for s in self.phantom_seatings):
            self._fail("a phantom seating does not include the phantom")

    def _check_each_pair_once_per_round(self) -> None:
        everyone = Counter(self.pairs + ((self.phantom,) if self.phantom else ()))
        for round in range(1, self.rounds + 1):
            present = Counter(p for s in self._schedule() if s.round == round for p in s.pairs)
            for pair in everyone:
                if present[pair] != 1:
                    where = "at two tables" if present[pair] > 1 else "nowhere"
                    self._fail(f"pair {pair} is {where} in round {round}")

    def _check_sit_outs(self) -> None:
        phantom = self.phantom
        for round in range(1, self.rounds + 1):
            expected: tuple[str, ...] = ()
            if phantom is not None:  # else no phantom seatings: _check_places fails any
                expected = tuple(
                    sorted(
                        s.opponent_of(phantom)
                        for s in self.phantom_seatings
                        if s.round == round
                    )
                )
            if tuple(sorted(self.sit_outs.get(round, ()))) != expected:
                self._fail(f"round {round} sit-outs should be {expected}")

    def _check_boards_per_table(self) -> None:
        for s in self._schedule():
            if len(s.boards) != self.boards_per_round or len(set(s.boards)) != len(s.boards):
                self._fail(
                    f"table {s.table} round {s.round} has boards {s.boards}, "
                    f"not {self.boards_per_round} different boards"
                )
        # Tables sharing a set in a round (a relay) pass boards round between
        # them, so each needs a board of its own to start with.
        per_round_board: Counter[tuple[int, int]] = Counter(
            (s.round, b) for s in self.seatings for b in s.boards
        )
        for (round, board), tables in per_round_board.items():
            if tables > self.boards_per_round:
                self._fail(
                    f"board {board} is at {tables} tables in round {round}: they cannot "
                    f"share {self.boards_per_round} board(s) a round"
                )

    def _check_no_pair_replays_a_board(self) -> None:
        played: Counter[tuple[str, int]] = Counter(
            (p, b) for s in self._schedule() for p in s.pairs for b in s.boards
        )
        for (pair, board), times in played.items():
            if times > 1:
                self._fail(f"pair {pair} plays board {board} {times} times")

    def _check_boards_played_equally(self) -> None:
        # Counted with the phantom's tables: the schedule is balanced, and the
        # phantom only removes the plays it would have made.
        times = Counter(b for s in self._schedule() for b in s.boards)
        if len(set(times.values())) > 1:
            detail = ", ".join(f"board {b} {n}x" for b, n in sorted(times.items()))
            self._fail(f"boards are not all scheduled equally often ({detail})")
        expected = set(range(1, len(times) + 1))
        if set(times) != expected:
            self._fail("boards in play are not numbered 1 to the last board")

    def _check_meetings(self) -> None:
        met: Counter[frozenset[str]] = Counter(frozenset(s.pairs) for s in self._schedule())
        for pairing, times in met.items():
            if times > 1:
                a, b = sorted(pairing)
                self._fail(f"pairs {a} and {b} meet {times} times")
        if self.complete:
            everyone = self.pairs + ((self.phantom,) if self.phantom else ())
            for a, b in combinations(everyone, 2):
                if frozenset((a, b)) not in met:
                    self._fail(f"pairs {a} and {b} never meet in a complete Howell")

    def _check_fields(self) -> None:
        if set(self.fields) != set(self.pairs):
            self._fail("every pair needs a field, and only pairs")
        if self.kind != "mitchell":
            return
        line_of = _mitchell_lines(self.pairs, self.phantom)
        for s in self._schedule():
            if line_of[s.ns_pair] == line_of[s.ew_pair]:
                self._fail(f"{s.ns_pair} meets {s.ew_pair}, a pair of its own line")
            switched = s.round in self.arrow_switch_rounds
            if (line_of[s.ns_pair] == "NS") == switched:
                self._fail(
                    f"round {s.round} table {s.table}: {s.ns_pair} sits NS, "
                    + ("but the round is arrow-switched" if switched else "not its line")
                )


def _mitchell_lines(pairs: Iterable[str], phantom: str | None) -> dict[str, str]:
    """Mitchell pair label -> its line ("NS"/"EW"), read off the label's suffix."""
    return {pair: pair[-2:] for pair in [*pairs, *([phantom] if phantom else [])]}


def set_boards(board_set: int, boards_per_round: int) -> tuple[int, ...]:
    """The boards of a set, sets numbered from 1: set 2 of 3 boards is (4, 5, 6)."""
    first = (board_set - 1) * boards_per_round + 1
    return tuple(range(first, first + boards_per_round))


def build_movement(
    *,
    kind: str,
    tables: int,
    rounds: int,
    boards_per_round: int,
    pairs: tuple[str, ...],
    fields: Mapping[str, str],
    schedule: Iterable[Seating],
    description: str,
    phantom: str | None = None,
    complete: bool = False,
    arrow_switch_rounds: frozenset[int] = frozenset(),
) -> Movement:
    """Split the phantom's tables off a full schedule, list the sit-outs, validate."""
    schedule = sorted(schedule, key=lambda s: (s.round, s.table))
    with_phantom = tuple(s for s in schedule if phantom in s.pairs)
    sit_outs: dict[int, list[str]] = defaultdict(list)
    if phantom is not None:  # else no seating includes it and with_phantom is empty
        for s in with_phantom:
            sit_outs[s.round].append(s.opponent_of(phantom))
    movement = Movement(
        kind=kind,
        tables=tables,
        rounds=rounds,
        boards_per_round=boards_per_round,
        pairs=pairs,
        fields=MappingProxyType(dict(fields)),
        seatings=tuple(s for s in schedule if phantom not in s.pairs),
        sit_outs=MappingProxyType({r: tuple(sorted(p)) for r, p in sorted(sit_outs.items())}),
        description=description,
        phantom=phantom,
        phantom_seatings=with_phantom,
        complete=complete,
        arrow_switch_rounds=arrow_switch_rounds,
    )
    movement.validate()
    return movement
