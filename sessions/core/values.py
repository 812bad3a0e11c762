"""Numbers, ids and tokens read straight from a request (its address, its query, a box a
form parses itself): read strictly, None for anything else, so that bad input is a 404
or a message, never a server error.

``str.isdigit()`` says yes to "²", which ``int()`` refuses; ``int()`` reads "٣" and
" 7 ", and refuses 5,000 digits with a ValueError; an id past 2**63 - 1 fits no 64-bit
column (SQLite refuses the parameter outright); PostgreSQL refuses NUL in any text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

#: The largest id a 64-bit column (BigAutoField) holds.
MAX_ID = 2**63 - 1
_NUMBER = re.compile(r"[0-9]{1,19}")  # MAX_ID has 19 digits
#: The tokens the app makes (secrets.token_urlsafe): table and room links, shared pads.
_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def parse_number(text: object, *, least: int = 1, most: int = MAX_ID) -> int | None:
    """The whole number ``text`` writes in ASCII digits, from ``least`` to ``most``; else
    None. By default a positive id: "12" -> 12; "²", "٣", " 7", "-1", "0", 5,000 digits,
    an id past 64 bits -> None."""
    if not isinstance(text, str) or not _NUMBER.fullmatch(text):
        return None
    number = int(text)
    return number if least <= number <= most else None


def chosen_by_place(text: object, options: Sequence[T]) -> T | None:
    """The option a form's box chose by its place (0, 1, ...) in ``options``; else None."""
    place = parse_number(text, least=0, most=len(options) - 1)
    return None if place is None else options[place]


def is_token(text: str) -> bool:
    """Could ``text`` be a token the app made? Anything else opens nothing, unasked."""
    return _TOKEN.fullmatch(text) is not None
