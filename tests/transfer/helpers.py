"""Shared test helpers: database snapshots, real files, bad files, the import command."""

from __future__ import annotations

import re
from io import StringIO

from django.core.management import call_command

from sessions.models import (
    Board,
    Club,
    ClubDirector,
    Event,
    Pair,
    Player,
    Result,
    ResultChange,
    Seating,
    Section,
    Session,
)
from tests.formats.data_files import DATA_DIR, PAIRS_FILES

MODELS = (Club, ClubDirector, Player, Event, Session, Section, Pair, Board, Seating, Result, ResultChange)
GOOD_USEBIO = "usebio/cobalt_mp_pairs_mitchell_03.xml"


def model_counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


def data(name: str) -> bytes:
    return (DATA_DIR / name).read_bytes()


def results_files() -> list[str]:
    """Every pairs results file, listed (a missing one fails): the teams files are not pairs sessions."""
    return sorted(PAIRS_FILES)


SECTION_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def one_board_file(results: int, sections: int = 1) -> bytes:
    """A PBN file of board 1 played at ``results`` tables, shared among ``sections``: each
    table its own NS and EW pair of two named, numbered players (bench/import_scaling.py)."""
    tables = [results // sections + (index < results % sections) for index in range(sections)]
    lines = ['[Event "Scaling"]', '[Date "2025.03.04"]', '[Board "1"]', '[Dealer "N"]', '[Vulnerable "None"]',
             '[Scoring "MatchPoints"]', '[ScoreTable "Section;PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS"]']
    for section, count in zip(SECTION_LETTERS, tables):
        lines += [f'"{section}" {table} {table} 4S N {9 + table % 3} {(-50, 420, 450)[table % 3]}'
                  for table in range(1, count + 1)]
    lines.append('[TotalScoreTable "Section;PairId;Direction;Names;MemberID1;MemberID2"]')
    for section, count in zip(SECTION_LETTERS, tables):
        for direction in ("NS", "EW"):
            lines += [f'"{section}" {table} {direction} "P {section}{table}{direction}a;P {section}{table}{direction}b" '
                      f'"{section}{table}{direction}1" "{section}{table}{direction}2"' for table in range(1, count + 1)]
    return ("\r\n".join(lines) + "\r\n").encode()


def run_import(path, *args: str) -> list[str]:
    """The import command's output lines."""
    out = StringIO()
    call_command("import_results", str(path), *args, stdout=out)
    return out.getvalue().splitlines()


# --- bad files, each made from a good one --------------------------------------------


def truncated() -> bytes:
    good = data(GOOD_USEBIO)
    return good[: len(good) // 2]


def wrong_root() -> bytes:
    return data(GOOD_USEBIO).replace(b"<USEBIO ", b"<RESULTS ").replace(b"</USEBIO>", b"</RESULTS>")


def without_boards() -> bytes:
    return re.sub(rb"<BOARD[ >].*?</BOARD>", b"", data(GOOD_USEBIO), flags=re.DOTALL)


def unknown_pair() -> bytes:
    return data(GOOD_USEBIO).replace(b"<NS_PAIR_NUMBER>2NS</NS_PAIR_NUMBER>", b"<NS_PAIR_NUMBER>99NS</NS_PAIR_NUMBER>", 1)


def entity_bomb() -> bytes:
    entities = ['<!ENTITY lol "lol">'] + [
        f'<!ENTITY lol{n} "{("&lol" + (str(n - 1) if n > 1 else "") + ";") * 10}">' for n in range(1, 10)
    ]
    return (
        '<?xml version="1.0"?>\n<!DOCTYPE USEBIO [' + "".join(entities) + ']>\n'
        '<USEBIO Version="1.2"><CLUB><CLUB_NAME>&lol9;</CLUB_NAME></CLUB></USEBIO>'
    ).encode()


BAD_FILES = {
    "truncated XML": (truncated, "not well-formed"),
    "wrong root element": (wrong_root, "not <USEBIO>"),
    "no boards": (without_boards, "no BOARD"),
    "unknown pair on a line": (unknown_pair, "99"),
    "entity bomb": (entity_bomb, "entit"),
}
