"""Rubber bridge and Chicago score sheets, deal by deal (RULES.md section 9, seeds/000-001).

Rubber: contract points go below the line, everything else (overtricks, slam, insult,
penalties, honors) above it. A side that reaches 100 below the line wins a game; both
sides' part-scores are then cut off (they still count in the totals). A side that has
won a game is vulnerable. The first side to win two games ends the rubber and scores
700 if the opponents won none, 500 if they won one. An unfinished rubber, when the
players stop, gives 300 to a side that alone has won a game and 100 to a side that
alone has a part-score in the unfinished game.

Chicago: four deals. Deal 1 neither side vulnerable, deals 2 and 3 the dealer's side,
deal 4 both. Contract points accumulate toward game as in rubber; completing a game
scores 300 (not vulnerable) or 500 (vulnerable on that deal) and cuts off both
part-scores. On deal 4 only, a part-score contract made that does not complete a game
scores 100. No rubber bonus.

Honors (both): 100 for four of the five trump honors in one hand, 150 for all five,
or for the four aces at notrump; they go to the side that held them, whether the
contract made or not. ``honors_held`` names the three holdings a score pad offers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from sessions.scoring.boards import Seat, Side, Vulnerability, is_vulnerable
from sessions.scoring.contracts import Contract, Strain, check_tricks, is_pass, parse_contract
from sessions.scoring.deal_score import score_breakdown
from sessions.scoring.errors import ScoringError

GAME = 100
CHICAGO_DEALS = 4


@dataclass(frozen=True)
class Honors:
    """Honors held in one hand: 100 (four trump honors) or 150 (five, or four aces at NT)."""

    side: Side
    points: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "side", Side(self.side))
        if self.points not in (100, 150):
            raise ScoringError(f"honours score 100 or 150, not {self.points}")


#: The holdings that score honors (seeds/001): points, and whether they need a trump suit.
HONOR_HOLDINGS = {
    "four_trumps": (100, True),   # four of the five trump honors in one hand
    "five_trumps": (150, True),   # all five trump honors in one hand
    "four_aces": (150, False),    # all four aces in one hand, notrump only
}


def honors_held(holding: str, side: Side | str, contract: Contract | str) -> Honors:
    """The honors a side scores for ``holding`` (a key of HONOR_HOLDINGS) under ``contract``."""
    if holding not in HONOR_HOLDINGS:
        raise ScoringError(f"unknown honours {holding!r}: use one of {', '.join(HONOR_HOLDINGS)}")
    played = parse_contract(contract) if isinstance(contract, str) else contract
    points, needs_trumps = HONOR_HOLDINGS[holding]
    if needs_trumps and played.strain is Strain.NT:
        raise ScoringError("at notrump there are no trump honours: only the four aces score (150)")
    if not needs_trumps and played.strain is not Strain.NT:
        raise ScoringError("the four aces score honours at notrump only")
    return Honors(Side(side), points)


@dataclass(frozen=True)
class RubberDeal:
    """One deal of a rubber or Chicago: ``contract`` None (or "PASS") for a passed-out deal."""

    declarer: Seat | None
    contract: Contract | str | None
    tricks: int = 0
    honors: Honors | None = None

    def __post_init__(self) -> None:
        contract = self.contract
        if isinstance(contract, str):
            contract = None if is_pass(contract) else parse_contract(contract)
            object.__setattr__(self, "contract", contract)
        if contract is None:
            if self.honors is not None:
                raise ScoringError("a passed-out deal scores no honours")
            return
        if self.declarer is None:
            raise ScoringError(f"{contract} needs a declarer")
        object.__setattr__(self, "declarer", Seat(self.declarer))
        check_tricks(contract, self.tricks, self.declarer)
        if self.honors and contract.strain is Strain.NT and self.honors.points != 150:
            raise ScoringError("at notrump only the four aces score honours (150)")

    @property
    def declaring_side(self) -> Side:
        """The declarer's side: every deal with a contract has one (``__post_init__`` checks)."""
        if self.declarer is None:
            raise ScoringError("a passed-out deal has no declarer")
        return self.declarer.side


@dataclass(frozen=True)
class SheetEntry:
    """One figure on the score sheet: ``game`` is set for below-the-line entries."""

    deal: int | None  # None for end-of-rubber bonuses
    side: Side
    points: int
    label: str
    game: int | None = None

    @property
    def below_the_line(self) -> bool:
        return self.game is not None


@dataclass(frozen=True)
class ScoreSheet:
    """A rubber's or Chicago's sheet so far."""

    entries: tuple[SheetEntry, ...]
    game_winners: tuple[Side, ...]  # who won game 1, game 2, ... (a line is drawn under each)
    finished: bool

    def above(self, side: Side) -> int:
        return sum(e.points for e in self.entries if e.side == side and not e.below_the_line)

    def below_by_game(self, side: Side) -> tuple[int, ...]:
        """Contract points per game: game 1, 2, ... and the game in progress, if any."""
        in_progress = 0 if self.finished else 1
        highest_with_points = max((e.game for e in self.entries if e.game is not None), default=1)
        games = max(highest_with_points, len(self.game_winners) + in_progress)
        return tuple(
            sum(e.points for e in self.entries if e.side == side and e.game == number)
            for number in range(1, games + 1)
        )

    def total(self, side: Side) -> int:
        return sum(e.points for e in self.entries if e.side == side)

    def games_won(self, side: Side) -> int:
        return self.game_winners.count(side)


@dataclass
class _GameTracker:
    """Below-the-line state shared by rubber and Chicago: the current game's part-scores."""

    game: int = 1
    part_scores: dict[Side, int] = field(default_factory=lambda: {Side.NS: 0, Side.EW: 0})
    games: dict[Side, int] = field(default_factory=lambda: {Side.NS: 0, Side.EW: 0})

    def add_contract_points(self, side: Side, points: int) -> bool:
        """Add below the line; True (and a new game starts) if this completes a game."""
        self.part_scores[side] += points
        if self.part_scores[side] < GAME:
            return False
        self.games[side] += 1
        self.game += 1
        self.part_scores = {Side.NS: 0, Side.EW: 0}
        return True


def _deal_entries(
    number: int, deal: RubberDeal, vul: Vulnerability, tracker: _GameTracker, era: str
) -> tuple[list[SheetEntry], bool]:
    """The sheet entries of one deal, and whether it completed a game."""
    honors = [SheetEntry(number, deal.honors.side, deal.honors.points, "honours")] if deal.honors else []
    if deal.contract is None:
        return honors, False
    side = deal.declaring_side
    parts = score_breakdown(deal.contract, deal.tricks, is_vulnerable(vul, side), era)
    game = tracker.game
    completed = parts.contract_points > 0 and tracker.add_contract_points(side, parts.contract_points)
    above = [("contract points", parts.contract_points, game), ("overtricks", parts.overtricks, None),
             ("slam bonus", parts.slam_bonus, None), ("insult", parts.insult, None)]
    entries = [SheetEntry(number, side, points, label, where) for label, points, where in above if points]
    if parts.penalty:
        entries.append(SheetEntry(number, side.other, parts.penalty, "undertricks"))
    return entries + honors, completed


def _rubber_vulnerability(tracker: _GameTracker) -> Vulnerability:
    ns, ew = (tracker.games[side] > 0 for side in (Side.NS, Side.EW))
    return {(False, False): Vulnerability.NONE, (True, False): Vulnerability.NS,
            (False, True): Vulnerability.EW, (True, True): Vulnerability.BOTH}[ns, ew]


def _unfinished_bonuses(tracker: _GameTracker) -> Iterable[SheetEntry]:
    """300 for the only side with a game, 100 for the only side with a part-score."""
    with_game = [side for side in Side if tracker.games[side]]
    if len(with_game) == 1:
        yield SheetEntry(None, with_game[0], 300, "unfinished rubber: game")
    with_part = [side for side in Side if tracker.part_scores[side]]
    if len(with_part) == 1:
        yield SheetEntry(None, with_part[0], 100, "unfinished rubber: part-score")


def rubber_sheet(deals: Sequence[RubberDeal], *, era: str = "current", abandoned: bool = False) -> ScoreSheet:
    """Score a rubber deal by deal.

    The rubber bonus is added when a side wins its second game; a deal after that is
    refused. ``abandoned=True`` closes a rubber that is not over with the unfinished
    rubber bonuses.
    """
    tracker = _GameTracker()
    entries: list[SheetEntry] = []
    game_winners: list[Side] = []
    for number, deal in enumerate(deals, start=1):
        if max(tracker.games.values()) == 2:
            raise ScoringError(f"deal {number} comes after the end of the rubber")
        deal_entries, completed = _deal_entries(number, deal, _rubber_vulnerability(tracker), tracker, era)
        entries += deal_entries
        game_winners += [deal.declaring_side] if completed else []
    winner = next((side for side in Side if tracker.games[side] == 2), None)
    if winner is not None:
        bonus = 700 if tracker.games[winner.other] == 0 else 500
        entries.append(SheetEntry(None, winner, bonus, "rubber bonus"))
    elif abandoned:
        entries += _unfinished_bonuses(tracker)
    return ScoreSheet(tuple(entries), tuple(game_winners), finished=winner is not None or abandoned)


def chicago_vulnerability(deal: int, first_dealer: Seat = Seat.N) -> Vulnerability:
    """Deal 1 none, deals 2 and 3 the dealer's side, deal 4 both."""
    if isinstance(deal, bool) or not isinstance(deal, int) or not 1 <= deal <= CHICAGO_DEALS:
        raise ScoringError(f"a Chicago has deals 1 to 4, not {deal!r}")
    if deal == 1:
        return Vulnerability.NONE
    if deal == CHICAGO_DEALS:
        return Vulnerability.BOTH
    dealer = first_dealer
    for _ in range(deal - 1):
        dealer = dealer.next
    return Vulnerability(dealer.side.value)


def chicago_sheet(deals: Sequence[RubberDeal], *, first_dealer: Seat = Seat.N, era: str = "current") -> ScoreSheet:
    """Score a Chicago (four-deal) cycle deal by deal; finished after deal 4."""
    if len(deals) > CHICAGO_DEALS:
        raise ScoringError(f"a Chicago has four deals, not {len(deals)}")
    tracker = _GameTracker()
    entries: list[SheetEntry] = []
    game_winners: list[Side] = []
    for number, deal in enumerate(deals, start=1):
        vul = chicago_vulnerability(number, first_dealer)
        deal_entries, completed = _deal_entries(number, deal, vul, tracker, era)
        entries += deal_entries
        made_part_score = any(e.label == "contract points" for e in deal_entries)
        if completed:
            side = deal.declaring_side
            game_winners.append(side)
            entries.append(SheetEntry(number, side, 500 if is_vulnerable(vul, side) else 300, "game bonus"))
        elif number == CHICAGO_DEALS and made_part_score:
            entries.append(SheetEntry(number, deal.declaring_side, 100, "part-score bonus"))
    return ScoreSheet(tuple(entries), tuple(game_winners), finished=len(deals) == CHICAGO_DEALS)
