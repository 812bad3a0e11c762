"""The path converters of the app's URLs, registered when the app is ready.

``<int64:...>`` is Django's ``<int:...>`` bounded by what a 64-bit column holds: a
larger number matches no route (a 404) rather than reaching a query, where SQLite
refuses it outright (OverflowError) and the ORM's own range check does not cover a
foreign key or raw SQL.

``<letter:...>`` is a section's letter as stored (one or two characters, never NUL,
which PostgreSQL refuses in any text).
"""

from __future__ import annotations

from django.urls import register_converter

from sessions.core.values import parse_number


class Int64Converter:
    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = parse_number(value, least=0)
        if number is None:
            raise ValueError(f"{value} is past a 64-bit id")  # the resolver's "no match"
        return number

    def to_url(self, value: int) -> str:
        return str(value)


class SectionLetterConverter:
    regex = "[^/\x00]{1,2}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


def register() -> None:
    register_converter(Int64Converter, "int64")
    register_converter(SectionLetterConverter, "letter")
