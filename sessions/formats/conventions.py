"""ClubScore's scoring settings carried inside the files it writes.

Another program reading our USEBIO or PBN file sees its usual fields; ClubScore reading
it back finds, besides them, every setting the figures were scored with (a
``<?CLUBSCORE_SCORING ...?>`` processing instruction in the USEBIO EVENT, which other
readers skip and the DTD allows, and which older ClubScore files wrote as a leaf element
that is still read; ``% <META name=CLUBSCORE_SCORING content="...">`` lines in the PBN
header, as many as keep each line within the standard's 255 characters, joined by ";"),
so a re-import into a new event scores to the same figures instead of guessing the
conventions from the program's name.

The text is ``name=value`` pairs joined by ";", e.g.
``method=matchpoints;mp_scale=two_one;line_decimals=;rankings=auto``; only known
names are read, and a value that is not a valid choice is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sessions.scoring.deal_score import ERAS
from sessions.scoring.options import (
    ButlerDatum,
    CrossImpsMode,
    Handicap,
    ImpTotal,
    LineDisplay,
    Method,
    NotPlayedRule,
    Scale,
    ShortBoards,
    ShortTotals,
)

from sessions.formats.errors import FormatError

#: Where the settings travel: the key of ParsedEvent.extra, the USEBIO instruction, the PBN META name.
CONVENTIONS_KEY = "CLUBSCORE_SCORING"

RANKINGS = ("auto", "one", "two")  # the Event's rankings choices (RULES 8)

_CHOICES: dict[str, tuple[str, ...]] = {
    "method": tuple(Method),
    "mp_scale": tuple(Scale),
    "line_display": tuple(LineDisplay),
    "short_boards": tuple(ShortBoards),
    "cross_imps": tuple(CrossImpsMode),
    "butler_datum": tuple(ButlerDatum),
    "imp_total": tuple(ImpTotal),
    "not_played": tuple(NotPlayedRule),
    "short_totals": tuple(ShortTotals),
    "handicap": tuple(Handicap),
    "rankings": RANKINGS,
    "deal_era": ERAS,  # the laws the traveller scores follow (the event's deal era)
}
_FLAGS = ("across_field", "adjusted_session_percentage", "cut_figures", "phantom_table")
_NUMBERS = ("butler_adjusted_imps", "cross_imps_trim")
_OPTIONAL_NUMBERS = ("line_decimals",)
_TEXTS = ("imp_table",)
NAMES = (*_CHOICES, *_FLAGS, *_NUMBERS, *_OPTIONAL_NUMBERS, *_TEXTS)


def write_conventions(settings: Mapping[str, Any]) -> str:
    """The settings as the files carry them (names in NAMES; others are left out)."""

    def text(value: Any) -> str:
        if value is None:
            return ""
        if isinstance(value, bool):
            return "1" if value else "0"
        return str(value)

    return ";".join(f"{name}={text(settings[name])}" for name in NAMES if name in settings)


def read_conventions(text: str) -> dict[str, Any]:
    """The settings a file carries; FormatError naming a value that is not a valid choice."""
    settings: dict[str, Any] = {}
    for part in text.split(";"):
        name, sep, value = part.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or name not in NAMES:
            continue
        settings[name] = _value(name, value)
    return settings


def _value(name: str, value: str) -> Any:
    problem = f"the file's ClubScore setting {name}={value[:20]!r} is not valid"
    if name in _CHOICES:
        if value not in _CHOICES[name]:
            raise FormatError(f"{problem}: one of {', '.join(_CHOICES[name])}")
        return value
    if name in _FLAGS:
        if value not in ("0", "1"):
            raise FormatError(f"{problem}: 0 or 1")
        return value == "1"
    if name in _NUMBERS or name in _OPTIONAL_NUMBERS:
        if value == "" and name in _OPTIONAL_NUMBERS:
            return None
        if not (value.isascii() and value.isdigit() and len(value) <= 2):
            raise FormatError(f"{problem}: a small whole number")
        return int(value)
    if not (value.isascii() and value.replace("_", "").isalnum() and len(value) <= 16):
        raise FormatError(f"{problem}: a table's name")
    return value


def carried_era(extra: Mapping[str, str]) -> str:
    """The laws a ClubScore file's traveller scores follow, from its ParsedEvent.extra
    ("current" for any other program's file)."""
    return read_conventions(extra.get(CONVENTIONS_KEY, "")).get("deal_era") or "current"
