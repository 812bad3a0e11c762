"""Cleaning text people type or files bring, before it is stored and shown to others."""

from __future__ import annotations

import unicodedata


def clean_name(text: str) -> str:
    """A name as stored: invisible control and format characters removed, spaces folded.

    Bidirectional controls (U+202E RIGHT-TO-LEFT OVERRIDE and the rest of category Cf:
    U+200E/F, U+202A-E, U+2066-9) and other control characters (Cc) would let a name
    display as something else on every page and export that shows it ("Ann\\u202eyliW"
    reads as "AnnWily"), so they never reach the database. Letters of every script stay.
    """
    kept = "".join(
        " " if char.isspace() else char for char in text if char.isspace() or unicodedata.category(char) not in ("Cc", "Cf")
    )
    return " ".join(kept.split())


#: Letters that carry their mark in the letter itself, so NFKD does not split it off.
_UNSPLIT_LETTERS = str.maketrans({"ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ı": "i", "æ": "ae", "œ": "oe", "þ": "th"})


def search_key(text: str) -> str:
    """A name folded for searching: case and accents ignored ("Wiśniewska" ~ "wisniewska").

    Folded in Python, the same on SQLite and PostgreSQL (which would need the unaccent
    extension to do it in SQL).
    """
    decomposed = unicodedata.normalize("NFKD", text.casefold().translate(_UNSPLIT_LETTERS))
    return " ".join("".join(char for char in decomposed if not unicodedata.combining(char)).split())


def counted(count: int, singular: str, plural: str = "") -> str:
    """"1 line", "3 lines": a count with its noun, never "line(s)"."""
    return f"{count} {singular if count == 1 else plural or singular + 's'}"
