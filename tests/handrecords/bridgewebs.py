"""The Bridgewebs Welwyn hand record and its own double-dummy figures, read independently.

Bridgewebs writes two forms of the same table per board: DoubleDummyTricks, 20 hex
digits (declarers N, S, E, W; strains NT, S, H, D, C in each group of five), and an
OptimumResultTable (PBN 2.1 section 5.7) of "declarer strain tricks" rows. This reader
is deliberately separate from the code under test: a regex over the raw text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tests.formats.data_files import DATA_DIR

WELWYN = DATA_DIR / "pbn" / "bridgewebs_hands_welwyn.pbn"
HEX_SEATS = "NSEW"
HEX_STRAINS = ("NT", "S", "H", "D", "C")


@dataclass(frozen=True)
class PublishedBoard:
    number: int
    dealer: str
    vulnerable: str
    deal: str
    hex_tricks: dict[tuple[str, str], int]  # (declarer, strain) -> tricks
    table_tricks: dict[tuple[str, str], int]


def _tag(game: str, name: str) -> str:
    match = re.search(rf'^\[{name} "([^"]*)"\]', game, re.MULTILINE)
    assert match, name
    return match.group(1)


def _hex_tricks(digits: str) -> dict[tuple[str, str], int]:
    assert len(digits) == 20
    return {
        (seat, strain): int(digits[5 * seat_index + strain_index], 16)
        for seat_index, seat in enumerate(HEX_SEATS)
        for strain_index, strain in enumerate(HEX_STRAINS)
    }


def _table_tricks(game: str) -> dict[tuple[str, str], int]:
    after = game.split("[OptimumResultTable", 1)[1].split("\n", 1)[1]
    rows = re.findall(r"^([NESW]) (NT|[SHDC]) (\d+)\s*$", after.split("[", 1)[0], re.MULTILINE)
    return {(seat, strain): int(tricks) for seat, strain, tricks in rows}


def published_boards() -> list[PublishedBoard]:
    text = WELWYN.read_text(encoding="iso-8859-1").replace("\r\n", "\n")
    games = [game for game in re.split(r"\n\s*\n", text) if "[Deal " in game]
    return [
        PublishedBoard(
            number=int(_tag(game, "Board")),
            dealer=_tag(game, "Dealer"),
            vulnerable=_tag(game, "Vulnerable"),
            deal=_tag(game, "Deal"),
            hex_tricks=_hex_tricks(_tag(game, "DoubleDummyTricks")),
            table_tricks=_table_tricks(game),
        )
        for game in games
    ]
