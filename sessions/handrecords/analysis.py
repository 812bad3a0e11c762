"""Double-dummy analysis of a deal: the tricks table and par, from the DDS solver.

For each declarer (N, E, S, W) and strain (C, D, H, S, NT) the table gives the tricks
declarer takes with all four hands open and best play on both sides. Par is the
result of best bidding on that table (DDS's DealerPar: the dealer's side may bid
first, so in a hot situation par can depend on who deals), given as the NS score
and the contracts that reach it, "3NT+1 N" or "4SX-2 E".

The solver is endplay's bundle of DDS. It is imported only when a deal is analysed:
it is slow to import, and pages that show a stored analysis never need it. DDS
keeps per-thread state of its own, so calls are serialised with a lock; a web app's
background worker can then call these functions from any thread. Analysis is
seconds of CPU for a session: run it in the background, store ``to_dict()`` (plain
JSON) on the board, and rebuild it with ``Analysis.from_dict``.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sessions.scoring.boards import Seat, Vulnerability, dealer, vulnerability
from sessions.scoring.contracts import MAX_TRICKS, Strain
from sessions.scoring.errors import ScoringError

from sessions.handrecords.deals import SEATS, Deal, parse_deal

if TYPE_CHECKING:  # endplay is imported lazily (see the module docstring)
    from endplay.dds.ddtable import DDTable

STRAINS = (Strain.C, Strain.D, Strain.H, Strain.S, Strain.NT)  # the table's columns
DECLARERS = SEATS  # the table's rows: N, E, S, W
FORMAT_VERSION = 1  # of to_dict(); bump when its shape changes
PASSED_OUT_TEXT = "Passed out"
_DDS_LOCK = threading.Lock()


@dataclass(frozen=True)
class Analysis:
    """The double-dummy table and par of one deal, with the dealer and vulnerability par used."""

    deal: Deal
    dealer: Seat
    vulnerability: Vulnerability
    tricks: tuple[tuple[int, ...], ...]  # tricks[declarer index][strain index], N E S W x C D H S NT
    par_score: int  # from NS's side: -420 when EW's 4S is par
    par_contracts: tuple[str, ...]  # ("3NT+1 N", "3NT+1 S"); empty when par is to pass

    def __post_init__(self) -> None:
        object.__setattr__(self, "dealer", _seat(self.dealer))
        object.__setattr__(self, "vulnerability", _vulnerability(self.vulnerability))
        object.__setattr__(self, "tricks", _checked_table(self.tricks))
        object.__setattr__(self, "par_contracts", tuple(self.par_contracts))
        if isinstance(self.par_score, bool) or not isinstance(self.par_score, int):
            raise ScoringError(f"par score {self.par_score!r} is not a whole number of points")

    def tricks_for(self, strain: Strain | str, declarer: Seat | str) -> int:
        """Double-dummy tricks for ``declarer`` playing in ``strain``."""
        return self.tricks[DECLARERS.index(_seat(declarer))][STRAINS.index(_strain(strain))]

    def rows(self) -> list[tuple[Seat, tuple[int, ...]]]:
        """(declarer, tricks in C D H S NT) for each declarer, N E S W: the table as shown."""
        return list(zip(DECLARERS, self.tricks, strict=True))

    @property
    def par_text(self) -> str:
        """Par for display: "NS +430: 3NT+1 NS", "EW +420: 4S= EW", "Passed out"."""
        if not self.par_contracts:
            return PASSED_OUT_TEXT
        side, points = ("NS", self.par_score) if self.par_score >= 0 else ("EW", -self.par_score)
        return f"{side} +{points}: {', '.join(_merge_partners(self.par_contracts))}"

    def is_for(self, deal: Deal, dealer: Seat | str, vulnerability: Vulnerability | str) -> bool:
        """Whether this analysis still fits a board (a corrected deal needs a new one)."""
        return (self.deal, self.dealer, self.vulnerability) == (deal, _seat(dealer), _vulnerability(vulnerability))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data; ``Analysis.from_dict`` reads it back."""
        return {
            "version": FORMAT_VERSION,
            "deal": self.deal.to_pbn(),
            "dealer": self.dealer.value,
            "vulnerability": self.vulnerability.value,
            "tricks": {seat.value: list(row) for seat, row in self.rows()},
            "par_score": self.par_score,
            "par_contracts": list(self.par_contracts),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Analysis:
        if data.get("version") != FORMAT_VERSION:
            raise ScoringError(f"stored analysis has version {data.get('version')!r}, not {FORMAT_VERSION}: analyse again")
        try:
            tricks = data["tricks"]
            return cls(
                deal=parse_deal(data["deal"]),
                dealer=data["dealer"],
                vulnerability=data["vulnerability"],
                tricks=tuple(tuple(tricks[seat.value]) for seat in DECLARERS),
                par_score=data["par_score"],
                par_contracts=tuple(data["par_contracts"]),
            )
        except (KeyError, TypeError) as error:
            raise ScoringError(f"stored analysis is incomplete or malformed ({error!r}): analyse again") from None


def analyse(deal: Deal, dealer: Seat | str, vulnerability: Vulnerability | str) -> Analysis:
    """The double-dummy table and par of one deal (a fraction of a second of CPU)."""
    from endplay.dds import calc_dd_table

    with _DDS_LOCK:
        table = calc_dd_table(_endplay_deal(deal))
    return _analysis(deal, _seat(dealer), _vulnerability(vulnerability), table)


def analyse_many(deals: Mapping[int, Deal]) -> dict[int, Analysis]:
    """Board number -> Analysis, dealer and vulnerability from the board number.

    Uses DDS's batch solver (CalcAllTables, which shares the work among threads) in
    chunks of the most tables it takes at once.
    """
    from endplay._dds import MAXNOOFTABLES
    from endplay.dds import calc_all_tables

    numbers = sorted(deals)
    tables: list[DDTable] = []
    for chunk in _chunks(numbers, MAXNOOFTABLES):
        with _DDS_LOCK:
            tables.extend(calc_all_tables([_endplay_deal(deals[number]) for number in chunk]))
    return {
        number: _analysis(deals[number], dealer(number), vulnerability(number), table)
        for number, table in zip(numbers, tables, strict=True)
    }


def dd_tricks_for(analysis: Analysis, strain: Strain | str, declarer: Seat | str) -> int:
    """The traveller's "DD tricks" for the contract played: declarer's tricks in its strain."""
    return analysis.tricks_for(strain, declarer)


def result_against_par(analysis: Analysis, ns_score: int) -> int:
    """How far a line's NS score is above (+) or below (-) par, in points."""
    return ns_score - analysis.par_score


# -- endplay conversions ---------------------------------------------------------------


def _analysis(deal: Deal, board_dealer: Seat, board_vulnerability: Vulnerability, table: DDTable) -> Analysis:
    from endplay.dds import par
    from endplay.types import Denom, Player, Vul

    denoms = {Strain.C: Denom.clubs, Strain.D: Denom.diamonds, Strain.H: Denom.hearts,
              Strain.S: Denom.spades, Strain.NT: Denom.nt}  # fmt: skip
    players = dict(zip(DECLARERS, (Player.north, Player.east, Player.south, Player.west), strict=True))
    vuls = {Vulnerability.NONE: Vul.none, Vulnerability.NS: Vul.ns,
            Vulnerability.EW: Vul.ew, Vulnerability.BOTH: Vul.both}  # fmt: skip
    tricks = tuple(tuple(table[denoms[strain], players[seat]] for strain in STRAINS) for seat in DECLARERS)
    with _DDS_LOCK:
        par_list = par(table, vuls[board_vulnerability], players[board_dealer])
    contracts = tuple(_contract_text(contract) for contract in par_list if contract.level > 0)
    return Analysis(deal, board_dealer, board_vulnerability, tricks, par_list.score, contracts)


def _contract_text(contract: Any) -> str:
    """An endplay Contract as "3NT+1 N", "4SX-2 E", "4H= S"."""
    strain = "NT" if contract.denom.name == "nt" else contract.denom.name[0].upper()
    doubling = {"passed": "", "doubled": "X", "redoubled": "XX"}[contract.penalty.name]
    result = "=" if contract.result == 0 else f"{contract.result:+d}"
    return f"{contract.level}{strain}{doubling}{result} {contract.declarer.name[0].upper()}"


def _endplay_deal(deal: Deal) -> Any:
    from endplay.types import Deal as EndplayDeal

    return EndplayDeal(deal.to_pbn())


# -- small helpers ---------------------------------------------------------------------


def _chunks(items: Sequence[int], size: int) -> Iterable[Sequence[int]]:
    return (items[start:start + size] for start in range(0, len(items), size))


def _merge_partners(contracts: Sequence[str]) -> list[str]:
    """("3NT+1 N", "3NT+1 S") -> ["3NT+1 NS"]: the same contract by both partners, once."""
    declarers: dict[str, str] = {}
    for text in contracts:
        contract, _, seat = text.rpartition(" ")
        declarers[contract] = declarers.get(contract, "") + seat
    order = "NSEW"
    return [f"{contract} {''.join(sorted(seats, key=order.index))}" for contract, seats in declarers.items()]


def _checked_table(tricks: Iterable[Iterable[int]]) -> tuple[tuple[int, ...], ...]:
    table = tuple(tuple(row) for row in tricks)
    if len(table) != len(DECLARERS) or any(len(row) != len(STRAINS) for row in table):
        raise ScoringError("a double-dummy table has 4 rows (N, E, S, W) of 5 strains (C, D, H, S, NT)")
    for seat, row in zip(DECLARERS, table, strict=True):
        for strain, value in zip(STRAINS, row, strict=True):
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_TRICKS:
                raise ScoringError(f"{value!r} tricks for {seat} in {strain} is not a number of tricks (0 to 13)")
    return table


def _seat(value: Seat | str) -> Seat:
    try:
        return Seat(str(value).strip().upper())
    except ValueError:
        raise ScoringError(f"{value!r} is not a seat: use N, E, S or W") from None


def _strain(value: Strain | str) -> Strain:
    try:
        return Strain(str(value).strip().upper())
    except ValueError:
        raise ScoringError(f"{value!r} is not a strain: use C, D, H, S or NT") from None


def _vulnerability(value: Vulnerability | str) -> Vulnerability:
    text = str(value).strip()
    aliases = {"ALL": Vulnerability.BOTH, "LOVE": Vulnerability.NONE, "-": Vulnerability.NONE}
    for candidate in Vulnerability:
        if text.upper() == candidate.value.upper():
            return candidate
    if text.upper() in aliases:
        return aliases[text.upper()]
    raise ScoringError(f"{value!r} is not a vulnerability: use None, NS, EW or Both")
