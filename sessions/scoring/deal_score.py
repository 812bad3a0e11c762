"""The score of one deal for the declaring side (Law 77), in the current or a historical era.

``deal_score`` gives the duplicate score (game / part-score bonus included);
``score_breakdown`` gives its components, which the rubber and Chicago sheets need
because only contract points go below the line there.

Eras (seeds/000, "History of contract bridge scoring"; RULES.md section 3). Only the
rules that the seed dates change with the era; everything else (overtrick values,
slam, game and part-score bonuses, doubled contract points) is the current law in
every era.

============  ==========================  ================================  ==========
era           undertricks                 notrump trick values              redoubled
                                                                            insult
============  ==========================  ================================  ==========
"current"     after 1987 (Law 77):        40, 30, 30 ...                    100
              NV 50 / X 100,200,200,300+
              V 100 / X 200,300,300 ...
"1935"        1935-1987: NV 50 /          40, 30, 30 ...                    50
              X 100,200,200,200 ...;
              V 100 / X 200,300,300 ...
"1932"        before 1935: NV 50 /        30, 40, 30, 40, 30, 40, 30        50
              X 100,150,200,250 ...;      (1932 Laws, law 30)
              V 100,150,200 ... /
              X 200,300,400,500 ...
============  ==========================  ================================  ==========

Redoubled undertricks always cost twice the doubled ones. The seed says the redoubled
insult "used to be only 50" and was raised to 100 without dating the change; the
engine gives 50 in both pre-1987 eras and 100 in the current one. In the 1932 era the
30/40 alternation runs on through undoubled notrump overtricks ("notrump tricks bid
and made, and undoubled notrump tricks made but not bid"): 1NT making 9 tricks scores
30 below and 40 + 30 for the overtricks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sessions.scoring.contracts import Contract, Doubling, Strain, check_tricks, is_pass, parse_contract
from sessions.scoring.errors import ScoringError

ERAS = ("current", "1935", "1932")
GAME = 100  # contract points that make a game


@dataclass(frozen=True)
class DealScore:
    """The parts of one deal's score; ``penalty`` goes to the defenders (positive)."""

    contract_points: int = 0
    overtricks: int = 0
    slam_bonus: int = 0
    insult: int = 0
    game_bonus: int = 0  # duplicate: 300/500 for a game, 50 for a part-score
    penalty: int = 0

    @property
    def bonuses_above_the_line(self) -> int:
        """What rubber bridge writes above the line for the declaring side (no game bonus)."""
        return self.overtricks + self.slam_bonus + self.insult

    @property
    def total(self) -> int:
        """The declaring side's duplicate score: positive when made, negative when defeated."""
        made = self.contract_points + self.bonuses_above_the_line + self.game_bonus
        return made - self.penalty


def _check_era(era: str) -> None:
    if era not in ERAS:
        raise ScoringError(f"unknown scoring era {era!r}: use one of {', '.join(ERAS)}")


def _trick_value(strain: Strain, odd_trick: int, era: str) -> int:
    """Undoubled value of the n-th odd trick (1-based) in ``strain``."""
    if strain.is_minor:
        return 20
    if strain.is_major:
        return 30
    if era == "1932":
        return 30 if odd_trick % 2 else 40
    return 40 if odd_trick == 1 else 30


def _trick_score(strain: Strain, first: int, last: int, era: str) -> int:
    """Undoubled value of odd tricks ``first`` to ``last`` inclusive."""
    return sum(_trick_value(strain, n, era) for n in range(first, last + 1))


# Cost of the k-th undertrick (1-based), doubled, by era and vulnerability.
_DOUBLED_UNDERTRICK: dict[tuple[str, bool], Callable[[int], int]] = {
    ("current", False): lambda k: 100 if k == 1 else 200 if k <= 3 else 300,
    ("current", True): lambda k: 200 if k == 1 else 300,
    ("1935", False): lambda k: 100 if k == 1 else 200,
    ("1935", True): lambda k: 200 if k == 1 else 300,
    ("1932", False): lambda k: 50 + 50 * k,
    ("1932", True): lambda k: 100 + 100 * k,
}


def _undoubled_undertrick(k: int, vulnerable: bool, era: str) -> int:
    if not vulnerable:
        return 50
    return 50 + 50 * k if era == "1932" else 100


def undertrick_penalty(down: int, vulnerable: bool, doubling: Doubling, era: str = "current") -> int:
    """What ``down`` undertricks cost the declaring side (a positive number)."""
    _check_era(era)
    if doubling is Doubling.NONE:
        return sum(_undoubled_undertrick(k, vulnerable, era) for k in range(1, down + 1))
    doubled = sum(_DOUBLED_UNDERTRICK[era, vulnerable](k) for k in range(1, down + 1))
    return doubled * (doubling.multiplier // 2)


def _overtrick_score(contract: Contract, over: int, vulnerable: bool, era: str) -> int:
    if contract.doubling is Doubling.NONE:
        return _trick_score(contract.strain, contract.level + 1, contract.level + over, era)
    per_trick = 100 * (contract.doubling.multiplier // 2)
    return over * per_trick * (2 if vulnerable else 1)


def _slam_bonus(level: int, vulnerable: bool) -> int:
    if level == 6:
        return 750 if vulnerable else 500
    if level == 7:
        return 1500 if vulnerable else 1000
    return 0


def _insult(doubling: Doubling, era: str) -> int:
    if doubling is Doubling.REDOUBLED and era == "current":
        return 100
    return 0 if doubling is Doubling.NONE else 50


def _coerce_contract(contract: str | Contract) -> Contract | None:
    """A Contract, or None for a passed-out board."""
    if isinstance(contract, Contract):
        return contract
    return None if is_pass(contract) else parse_contract(contract)


def score_breakdown(
    contract: str | Contract, tricks: int, vulnerable: bool, era: str = "current"
) -> DealScore:
    """The components of the declaring side's score; all zero for a passed-out board."""
    _check_era(era)
    played = _coerce_contract(contract)
    if played is None:
        return DealScore()
    check_tricks(played, tricks)
    over = tricks - played.tricks_needed
    if over < 0:
        return DealScore(penalty=undertrick_penalty(-over, vulnerable, played.doubling, era))
    contract_points = _trick_score(played.strain, 1, played.level, era) * played.doubling.multiplier
    if contract_points >= GAME:
        game_bonus = 500 if vulnerable else 300
    else:
        game_bonus = 50
    return DealScore(
        contract_points=contract_points,
        overtricks=_overtrick_score(played, over, vulnerable, era),
        slam_bonus=_slam_bonus(played.level, vulnerable),
        insult=_insult(played.doubling, era),
        game_bonus=game_bonus,
    )


def deal_score(contract: str | Contract, tricks: int, vulnerable: bool, era: str = "current") -> int:
    """The declaring side's duplicate score: deal_score("4S", 10, True) == 620.

    ``tricks`` is the number of tricks declarer took (0-13); "PASS" scores 0 whatever
    ``tricks`` says.
    """
    return score_breakdown(contract, tricks, vulnerable, era).total
