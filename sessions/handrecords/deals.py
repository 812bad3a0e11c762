"""A deal: the four hands of one board, read from and written as a PBN deal string.

PBN (section 3.4.11 of the standard) writes a deal as "N:AKQ2.KJ3.T98.765 <east>
<south> <west>": the first seat, then the hands clockwise, each as spades, hearts,
diamonds, clubs separated by dots. A void is an empty suit ("AKQ2..T98.765432");
"-" in place of a whole hand means the hand is not given. ClubScore keeps complete
deals only, so a deal may leave out at most one hand, which is then the 13 cards the
other three do not hold. Being lenient on input, it also accepts ranks in any order,
lower case, "10" for the ten and "-" for a void suit.

A `Deal` is a frozen value: hands hold their ranks in descending order, so two deals
with the same cards are equal however they were written. Anything that is not a deal
of 52 distinct cards, 13 to each hand, raises DealError naming every problem found.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

from sessions.scoring.boards import Seat, parse_seat
from sessions.scoring.errors import ScoringError

SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)  # clockwise from North, as PBN lists hands
SEAT_NAMES = {Seat.N: "North", Seat.E: "East", Seat.S: "South", Seat.W: "West"}
SUITS = ("S", "H", "D", "C")  # the order of the suits in a PBN hand
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANKS = "AKQJT98765432"  # descending
RANK_NAMES = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "10"}
HIGH_CARD_POINTS = {"A": 4, "K": 3, "Q": 2, "J": 1}
HAND_SIZE = 13
UNKNOWN_HAND = "-"
VOID_DISPLAY = "—"  # how a hand diagram shows a void

#: A card as (suit, rank), e.g. ("C", "7") for the 7 of clubs.
Card = tuple[str, str]
ALL_CARDS: tuple[Card, ...] = tuple((suit, rank) for suit in SUITS for rank in RANKS)


class DealError(ScoringError):
    """A deal that is not 52 distinct cards, 13 to each hand; the message says why."""


def card_name(card: Card) -> str:
    """ "the 7 of clubs", "the ace of spades", "the 10 of hearts"."""
    suit, rank = card
    return f"the {RANK_NAMES.get(rank, rank)} of {SUIT_NAMES[suit]}"


def lead_not_held(deal_text: str, declarer: str, lead: str) -> str | None:
    """Why ``lead`` ("HK") cannot be the opening lead against ``declarer`` ("N") on the
    deal: the card is not in the hand of declarer's left-hand opponent, who leads. None
    when it is there, or when there is nothing to check it against (no deal, or a deal
    that is not a complete one)."""
    if not (deal_text.strip() and declarer and lead):
        return None
    try:
        deal = parse_deal(deal_text)
    except ScoringError:
        return None
    leader = SEATS[(SEATS.index(parse_seat(declarer)) + 1) % len(SEATS)]
    card = (lead[0], lead[1:])
    if card in set(deal[leader].cards()):
        return None
    return (f"{card_name(card)} is not in {SEAT_NAMES[leader]}'s hand, and {SEAT_NAMES[leader]} leads against "
            f"{SEAT_NAMES[parse_seat(declarer)]}: check the lead and the declarer")


def _rank_order(rank: str) -> int:
    return RANKS.index(rank)


def _ranks_of(text: str) -> list[str]:
    """The ranks written in ``text`` ("KT82", "k1082"), in the order given."""
    cleaned = text.strip().upper().replace("10", "T")
    if cleaned == "-":  # a void written as "-", which some programs do
        return []
    for character in cleaned:
        if character not in RANKS:
            raise DealError(f"{character!r} is not a card rank: ranks are {', '.join(RANKS)}")
    return list(cleaned)


class DiagramSuit(NamedTuple):
    """One line of a hand diagram: ("♥", "AK1083"), or ("♣", "—") for a void."""

    symbol: str
    ranks: str

    @property
    def is_red(self) -> bool:
        return self.symbol in (SUIT_SYMBOLS["H"], SUIT_SYMBOLS["D"])


@dataclass(frozen=True)
class Hand:
    """One hand: its ranks in each suit, descending; ``hand["S"]`` is the spades ("AKQ2")."""

    spades: str = ""
    hearts: str = ""
    diamonds: str = ""
    clubs: str = ""

    def __post_init__(self) -> None:
        for field_name in ("spades", "hearts", "diamonds", "clubs"):
            ranks = sorted(_ranks_of(getattr(self, field_name)), key=_rank_order)
            object.__setattr__(self, field_name, "".join(ranks))

    @classmethod
    def from_pbn(cls, text: str) -> Hand:
        """A hand from its PBN form "AKQ2.KJ3.T98.765" (a void is empty)."""
        suits = text.split(".")
        if len(suits) != len(SUITS):
            raise DealError(
                f"hand {text!r} has {len(suits)} suits: write spades.hearts.diamonds.clubs, "
                "leaving a void empty"
            )
        return cls(*suits)

    @classmethod
    def from_cards(cls, cards: Iterable[Card]) -> Hand:
        by_suit: dict[str, list[str]] = {suit: [] for suit in SUITS}
        for suit, rank in cards:
            by_suit[suit].append(rank)
        return cls(*("".join(by_suit[suit]) for suit in SUITS))

    def __getitem__(self, suit: str) -> str:
        return self.suits[SUITS.index(suit.upper())]

    @property
    def suits(self) -> tuple[str, str, str, str]:
        """The ranks of each suit, spades first."""
        return (self.spades, self.hearts, self.diamonds, self.clubs)

    def cards(self) -> Iterator[Card]:
        for suit, ranks in zip(SUITS, self.suits, strict=True):
            for rank in ranks:
                yield (suit, rank)

    def __len__(self) -> int:
        return sum(len(ranks) for ranks in self.suits)

    @property
    def hcp(self) -> int:
        """High-card points: 4 for an ace, 3 a king, 2 a queen, 1 a jack."""
        return sum(HIGH_CARD_POINTS.get(rank, 0) for _, rank in self.cards())

    @property
    def lengths(self) -> tuple[int, int, int, int]:
        """Suit lengths, spades first: (5, 3, 3, 2)."""
        return tuple(len(ranks) for ranks in self.suits)  # type: ignore[return-value]

    def to_pbn(self) -> str:
        return ".".join(self.suits)

    def diagram(self) -> list[DiagramSuit]:
        """The lines of a hand diagram, spades first, "10" for the ten, a dash for a void."""
        return [
            DiagramSuit(SUIT_SYMBOLS[suit], ranks.replace("T", "10") or VOID_DISPLAY)
            for suit, ranks in zip(SUITS, self.suits, strict=True)
        ]


@dataclass(frozen=True)
class Deal:
    """The four hands of a board, North, East, South, West; ``deal["W"]`` is West's hand."""

    north: Hand
    east: Hand
    south: Hand
    west: Hand

    def __post_init__(self) -> None:
        duplicates = _duplicate_cards(self)
        # Missing cards are only worth naming when no card is doubled up.
        problems = duplicates + _wrong_sizes(self) + ([] if duplicates else _missing_cards(self))
        if problems:
            raise DealError("; ".join(problems))

    @classmethod
    def from_hands(cls, hands: dict[Seat, Hand]) -> Deal:
        return cls(*(hands[seat] for seat in SEATS))

    @property
    def hands(self) -> tuple[Hand, Hand, Hand, Hand]:
        return (self.north, self.east, self.south, self.west)

    def __getitem__(self, seat: Seat | str) -> Hand:
        return self.hands[SEATS.index(Seat(seat.upper()))]

    def items(self) -> Iterator[tuple[Seat, Hand]]:
        return zip(SEATS, self.hands, strict=True)

    def hcp(self) -> dict[Seat, int]:
        return {seat: hand.hcp for seat, hand in self.items()}

    def lengths(self) -> dict[Seat, tuple[int, int, int, int]]:
        return {seat: hand.lengths for seat, hand in self.items()}

    def diagram(self) -> dict[Seat, list[DiagramSuit]]:
        """Seat -> the hand's diagram lines, for the board page's template."""
        return {seat: hand.diagram() for seat, hand in self.items()}

    def to_pbn(self, first: Seat | str = Seat.N) -> str:
        """The PBN deal string with the hands clockwise from ``first`` (export format: the dealer)."""
        start = SEATS.index(parse_seat(str(first)))
        seats = [SEATS[(start + offset) % 4] for offset in range(4)]
        return f"{seats[0]}:" + " ".join(self[seat].to_pbn() for seat in seats)


def _duplicate_cards(deal: Deal) -> list[str]:
    holders: dict[Card, list[str]] = {}
    for seat, hand in deal.items():
        for card in hand.cards():
            holders.setdefault(card, []).append(SEAT_NAMES[seat])
    return [
        f"{card_name(card)} appears {_times(len(seats))} ({' and '.join(dict.fromkeys(seats))})"
        for card, seats in sorted(holders.items(), key=lambda item: ALL_CARDS.index(item[0]))
        if len(seats) > 1
    ]


def _times(count: int) -> str:
    return {2: "twice", 3: "three times"}.get(count, f"{count} times")


def _wrong_sizes(deal: Deal) -> list[str]:
    return [
        f"{SEAT_NAMES[seat]} has {len(hand)} card{'s' if len(hand) != 1 else ''}"
        for seat, hand in deal.items()
        if len(hand) != HAND_SIZE
    ]


def _missing_cards(deal: Deal) -> list[str]:
    """With no duplicates, the cards nobody holds (named when there are only a few)."""
    held = {card for hand in deal.hands for card in hand.cards()}
    missing = [card for card in ALL_CARDS if card not in held]
    if not missing:
        return []
    if len(missing) > 4:
        return [f"{len(missing)} cards are missing"]
    return [f"{card_name(card)} is missing" for card in missing]


def _parse_first_seat(text: str, deal_text: str) -> Seat:
    try:
        return Seat(text.strip().upper())
    except ValueError:
        raise DealError(
            f"{deal_text!r} is not a PBN deal: it starts with the first seat (N, E, S or W) "
            "and a colon, e.g. \"N:AKQ2.KJ3.T98.765 ...\""
        ) from None


def parse_deal(text: str) -> Deal:
    """A Deal from a PBN deal string: "N:AKQ2.KJ3.T98.765 <2nd> <3rd> <4th>" (clockwise)."""
    first_text, colon, hands_text = text.strip().partition(":")
    if not colon:
        _parse_first_seat("", text)  # raises, explaining the form
    first = _parse_first_seat(first_text, text)
    hand_texts = hands_text.split()
    if len(hand_texts) != len(SEATS):
        raise DealError(f"a PBN deal has 4 hands separated by spaces; {text.strip()!r} has {len(hand_texts)}")
    start = SEATS.index(first)
    written = {SEATS[(start + offset) % 4]: hand_text for offset, hand_text in enumerate(hand_texts)}
    hands = {seat: _parse_hand(seat, hand_text) for seat, hand_text in written.items() if hand_text != UNKNOWN_HAND}
    unknown = [seat for seat in SEATS if seat not in hands]
    if len(unknown) > 1:
        names = " and ".join(SEAT_NAMES[seat] for seat in unknown)
        raise DealError(f"the deal does not give the hands of {names}: a hand record needs at least three hands")
    if unknown:
        hands[unknown[0]] = _remaining_hand(hands.values())
    return Deal.from_hands(hands)


def _parse_hand(seat: Seat, text: str) -> Hand:
    try:
        return Hand.from_pbn(text)
    except DealError as error:
        raise DealError(f"{SEAT_NAMES[seat]}: {error}") from None


def _remaining_hand(hands: Iterable[Hand]) -> Hand:
    """The cards the other three hands do not hold (they are checked as a deal afterwards)."""
    held = Counter(card for hand in hands for card in hand.cards())
    return Hand.from_cards(card for card in ALL_CARDS if card not in held)
