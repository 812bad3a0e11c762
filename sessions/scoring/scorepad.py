"""A rubber or Chicago score pad: a night's rubbers (or Chicagos) at one table.

The pad is plain JSON, the same document the phone keeps in its browser, the server
keeps for a signed-in member and the JavaScript scorer (static/js/pad-engine.js)
reads; this module checks it and scores it with ``rubber_sheet`` / ``chicago_sheet``.

    {"kind": "rubber" | "chicago", "era": "current" | "1935" | "1932",
     "names": [north, east, south, west], "first_dealer": "N",
     "rounds": [{"deals": [deal, ...], "stopped": false}, ...]}

A deal is {"declarer": "N", "contract": "4SX", "tricks": 10, "honours": "",
"honours_side": ""} (contract "PASS" and declarer "" for a passed-out deal; honours
one of HONOR_HOLDINGS or ""). A round is one rubber or one Chicago: it ends when a
side wins its second game (rubber), after four deals (Chicago), or when the players
stop an unfinished rubber ("stopped", which scores the unfinished-rubber bonuses).
The next deal then opens the next round with the same names. WE are North-South.

Each player's night total is the sum of their side's net result over the rounds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sessions.scoring.boards import Seat, Side
from sessions.scoring.contracts import is_pass
from sessions.scoring.deal_score import ERAS
from sessions.scoring.errors import ScoringError
from sessions.scoring.rubber import (
    CHICAGO_DEALS,
    RubberDeal,
    ScoreSheet,
    chicago_sheet,
    chicago_vulnerability,
    honors_held,
    rubber_sheet,
)

KINDS = ("rubber", "chicago")
SEATS = ("N", "E", "S", "W")
MAX_NAME = 40
MAX_ROUNDS = 50
MAX_DEALS = 60  # per round: a rubber that long is a typing accident


@dataclass(frozen=True)
class PadDeal:
    """One deal as the pad stores it; ``deal`` is the engine's view of it."""

    declarer: str
    contract: str
    tricks: int
    honours: str = ""
    honours_side: str = ""

    @property
    def passed_out(self) -> bool:
        return is_pass(self.contract)

    @property
    def deal(self) -> RubberDeal:
        if self.passed_out:
            return RubberDeal(None, None)
        honors = honors_held(self.honours, self.honours_side, self.contract) if self.honours else None
        return RubberDeal(Seat(self.declarer), self.contract, self.tricks, honors)

    def as_json(self) -> dict[str, Any]:
        return {"declarer": self.declarer, "contract": self.contract, "tricks": self.tricks,
                "honours": self.honours, "honours_side": self.honours_side}


@dataclass(frozen=True)
class PadRound:
    deals: tuple[PadDeal, ...]
    stopped: bool = False


@dataclass(frozen=True)
class Pad:
    kind: str
    era: str
    names: tuple[str, str, str, str]  # North, East, South, West
    first_dealer: str = "N"
    rounds: tuple[PadRound, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "era": self.era, "names": list(self.names), "first_dealer": self.first_dealer,
            "rounds": [{"deals": [d.as_json() for d in r.deals], "stopped": r.stopped} for r in self.rounds],
        }


@dataclass(frozen=True)
class RoundScore:
    number: int
    round: PadRound
    sheet: ScoreSheet
    first_deal: int  # the deal's number in the night, for the dealer rotation

    @property
    def net(self) -> int:
        """WE (North-South) minus THEY."""
        return self.sheet.total(Side.NS) - self.sheet.total(Side.EW)


@dataclass(frozen=True)
class PadScore:
    pad: Pad
    rounds: tuple[RoundScore, ...]

    def player_totals(self) -> list[tuple[str, int]]:
        """Each seat's name and night total: their side's net summed over the rounds."""
        net = sum(r.net for r in self.rounds)
        return [(name, net if seat in ("N", "S") else -net) for seat, name in zip(SEATS, self.pad.names)]

    @property
    def round_open(self) -> bool:
        """Whether the last round takes more deals (False: the next deal starts a new one)."""
        return bool(self.rounds) and not self.rounds[-1].sheet.finished


def dealer_of(pad: Pad, deal_number: int) -> str:
    """The dealer of the night's ``deal_number``-th deal (1-based): the deal passes to the left."""
    start = SEATS.index(pad.first_dealer)
    return SEATS[(start + deal_number - 1) % 4]


# --- reading the JSON ---------------------------------------------------------------


def _text(value: Any, what: str, limit: int) -> str:
    if not isinstance(value, str):
        raise ScoringError(f"{what} must be text")
    cleaned = " ".join(value.split())
    if len(cleaned) > limit:
        raise ScoringError(f"{what} is longer than {limit} characters")
    return cleaned


def deal_from_json(data: Any) -> PadDeal:
    """A deal from the pad's JSON, checked by the engine (ScoringError says what is wrong)."""
    if not isinstance(data, Mapping):
        raise ScoringError("a deal must be an object")
    contract = _text(data.get("contract", ""), "the contract", 12)
    tricks = data.get("tricks", 0)
    if isinstance(tricks, bool) or not isinstance(tricks, int):
        raise ScoringError(f"tricks must be a whole number, not {tricks!r}")
    declarer = _text(data.get("declarer") or "", "the declarer", 1).upper()
    honours = _text(data.get("honours") or "", "the honours", 12)
    honours_side = _text(data.get("honours_side") or "", "the side holding the honours", 2).upper()
    if is_pass(contract):
        deal = PadDeal("", "PASS", 0)
    else:
        if declarer not in SEATS:
            raise ScoringError(f"{contract} needs a declarer: N, E, S or W")
        if honours and honours_side not in ("NS", "EW"):
            raise ScoringError("say which side held the honours: NS (WE) or EW (THEY)")
        deal = PadDeal(declarer, contract, tricks, honours, honours_side if honours else "")
    played = deal.deal  # refuses an impossible contract, trick count or honours
    if played.contract is not None:
        deal = PadDeal(deal.declarer, str(played.contract), deal.tricks, deal.honours, deal.honours_side)
    return deal


def pad_from_json(data: Any) -> Pad:
    """The whole pad from its JSON, every deal checked; then scored once to refuse a deal
    after the end of a rubber or a fifth Chicago deal."""
    if not isinstance(data, Mapping):
        raise ScoringError("a score pad must be an object")
    kind, era = data.get("kind"), data.get("era", "current")
    if kind not in KINDS:
        raise ScoringError(f"a score pad is a rubber or a chicago, not {kind!r}")
    if era not in ERAS:
        raise ScoringError(f"unknown scoring era {era!r}: use one of {', '.join(ERAS)}")
    names = data.get("names")
    if not isinstance(names, Sequence) or isinstance(names, str) or len(names) != 4:
        raise ScoringError("a score pad needs four names: North, East, South and West")
    cleaned = tuple(_text(name, "a name", MAX_NAME) for name in names)
    if not all(cleaned):
        raise ScoringError("a score pad needs four names: North, East, South and West")
    first_dealer = data.get("first_dealer", "N")
    if first_dealer not in SEATS:
        raise ScoringError("the first dealer is N, E, S or W")
    rounds = data.get("rounds", [])
    if not isinstance(rounds, Sequence) or isinstance(rounds, str) or len(rounds) > MAX_ROUNDS:
        raise ScoringError(f"a score pad holds up to {MAX_ROUNDS} rubbers")
    pad = Pad(kind, era, (cleaned[0], cleaned[1], cleaned[2], cleaned[3]), first_dealer,
              tuple(_round_from_json(r) for r in rounds))
    score_pad(pad)
    return pad


def _round_from_json(data: Any) -> PadRound:
    if not isinstance(data, Mapping):
        raise ScoringError("a rubber must be an object")
    deals = data.get("deals", [])
    if not isinstance(deals, Sequence) or isinstance(deals, str) or len(deals) > MAX_DEALS:
        raise ScoringError(f"a rubber holds up to {MAX_DEALS} deals")
    return PadRound(tuple(deal_from_json(d) for d in deals), bool(data.get("stopped", False)))


# --- scoring ------------------------------------------------------------------------


def round_sheet(pad: Pad, pad_round: PadRound) -> ScoreSheet:
    deals = [d.deal for d in pad_round.deals]
    if pad.kind == "chicago":
        return chicago_sheet(deals, first_dealer=Seat(pad.first_dealer), era=pad.era)
    return rubber_sheet(deals, era=pad.era, abandoned=pad_round.stopped)


def score_pad(pad: Pad) -> PadScore:
    rounds = []
    first = 1
    for number, pad_round in enumerate(pad.rounds, start=1):
        try:
            sheet = round_sheet(pad, pad_round)
        except ScoringError as error:
            raise ScoringError(f"rubber {number}: {error}") from None
        rounds.append(RoundScore(number, pad_round, sheet, first))
        first += len(pad_round.deals)
    return PadScore(pad, tuple(rounds))


# --- changes (each returns a new pad, scored to refuse an impossible one) -------------


def _with_rounds(pad: Pad, rounds: Sequence[PadRound], changed: int) -> Pad:
    """The pad with ``rounds``, of which only the one at index ``changed`` is new: it alone
    is scored to refuse an impossible change (each rubber scores on its own, and the
    others were scored when the pad was read or changed: a long evening's pad is not
    scored again whole at every deal). A round left empty is dropped."""
    changed_round = rounds[changed]
    if changed_round.deals:
        try:
            round_sheet(pad, changed_round)
        except ScoringError as error:
            raise ScoringError(f"rubber {changed + 1}: {error}") from None
    return Pad(pad.kind, pad.era, pad.names, pad.first_dealer, tuple(r for r in rounds if r.deals))


def add_deal(pad: Pad, deal: PadDeal) -> Pad:
    """Add a deal to the open round, or open the next one if the last is over."""
    rounds = list(pad.rounds)
    last = rounds[-1] if rounds else None
    if (last is not None and not round_sheet(pad, last).finished
            and not (pad.kind == "chicago" and len(last.deals) >= CHICAGO_DEALS)):
        rounds[-1] = PadRound((*last.deals, deal), last.stopped)
    else:
        rounds.append(PadRound((deal,)))
    return _with_rounds(pad, rounds, len(rounds) - 1)


def _locate(pad: Pad, round_number: int, deal_number: int) -> PadRound:
    if not 1 <= round_number <= len(pad.rounds):
        raise ScoringError(f"there is no rubber {round_number}")
    pad_round = pad.rounds[round_number - 1]
    if not 1 <= deal_number <= len(pad_round.deals):
        raise ScoringError(f"rubber {round_number} has no deal {deal_number}")
    return pad_round


def replace_deal(pad: Pad, round_number: int, deal_number: int, deal: PadDeal) -> Pad:
    pad_round = _locate(pad, round_number, deal_number)
    deals = list(pad_round.deals)
    deals[deal_number - 1] = deal
    rounds = list(pad.rounds)
    rounds[round_number - 1] = PadRound(tuple(deals), pad_round.stopped)
    return _with_rounds(pad, rounds, round_number - 1)


def delete_deal(pad: Pad, round_number: int, deal_number: int) -> Pad:
    pad_round = _locate(pad, round_number, deal_number)
    deals = pad_round.deals[: deal_number - 1] + pad_round.deals[deal_number:]
    rounds = list(pad.rounds)
    rounds[round_number - 1] = PadRound(deals, pad_round.stopped)
    return _with_rounds(pad, rounds, round_number - 1)


def stop_round(pad: Pad, stopped: bool = True) -> Pad:
    """Stop (or resume) the last rubber: an unfinished rubber scores its bonuses."""
    if not pad.rounds or pad.kind != "rubber":
        raise ScoringError("only a rubber in progress can be stopped")
    rounds = list(pad.rounds)
    rounds[-1] = PadRound(rounds[-1].deals, stopped)
    return _with_rounds(pad, rounds, len(rounds) - 1)


# --- the sheet as written on paper ----------------------------------------------------


def deal_vulnerabilities(pad: Pad, pad_round: PadRound) -> tuple[str, ...]:
    """The vulnerability of each deal of the round, and of the next deal if it takes one."""
    if pad.kind == "chicago":
        count = min(len(pad_round.deals) + 1, CHICAGO_DEALS)
        return tuple(chicago_vulnerability(n, Seat(pad.first_dealer)).value for n in range(1, count + 1))
    deals = [d.deal for d in pad_round.deals]
    found = []
    for played in range(len(deals) + 1):
        sheet = rubber_sheet(deals[:played], era=pad.era)
        if played and sheet.finished:
            break
        ns, ew = sheet.games_won(Side.NS) > 0, sheet.games_won(Side.EW) > 0
        found.append({(False, False): "None", (True, False): "NS", (False, True): "EW", (True, True): "Both"}[ns, ew])
    return tuple(found)


def sheet_layout(sheet: ScoreSheet) -> dict[str, Any]:
    """The sheet as on paper: what goes above the line for each side (in the order it was
    written), the contract points below it game by game with the game's winner (a line
    is drawn under each won game), the totals and the net (WE minus THEY)."""
    above: dict[str, list[dict[str, Any]]] = {"NS": [], "EW": []}
    for e in sheet.entries:
        if not e.below_the_line:
            above[e.side.value].append({"deal": e.deal, "points": e.points, "label": e.label})
    games = []
    for number in range(1, len(sheet.below_by_game(Side.NS)) + 1):
        below = {side.value: [{"deal": e.deal, "points": e.points} for e in sheet.entries
                              if e.game == number and e.side == side] for side in Side}
        winner = sheet.game_winners[number - 1].value if number <= len(sheet.game_winners) else None
        games.append({"number": number, "below": below, "winner": winner})
    totals = {side.value: sheet.total(side) for side in Side}
    return {"above": above, "games": games, "totals": totals, "net": totals["NS"] - totals["EW"],
            "finished": sheet.finished}
