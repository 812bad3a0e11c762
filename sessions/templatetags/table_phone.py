"""What a table's phone shows EW before they confirm NS's line: how it was read, and its score.

    {% load table_phone %}{% result_reading text board_number link %}

"4♠ doubled by North, 10 tricks: NS +590", as a Bridgemate shows it: the engine's parser
and score (the ones that store the line), the suit as its symbol with its name for
screen readers. A pairs table scores under its event's laws (its era); a teams room
under today's, as its preview does.

And ``{% static_part "phones/table/_keypad.html" %}``: a part of the page that reads nothing
from the context, rendered once a process instead of at every post.
"""

from __future__ import annotations

from functools import cache

from django import template
from django.conf import settings
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import SafeString

from sessions.models import TableLink
from sessions.scoring.errors import ScoringError
from sessions.scoring.notation import Assigned, PassedOut, Played, ns_score, parse_result
from sessions.pairs.tables import SUITS, suit_symbol
from sessions.core.text import counted

register = template.Library()

@register.simple_tag
def static_part(name: str) -> SafeString:
    """The template ``name`` rendered without a context (the keypad: some 40 buttons drawn
    by loops), once a process; at each use while DEBUG, so that an edited template shows."""
    return _rendered(name) if not settings.DEBUG else SafeString(render_to_string(name))


@cache
def _rendered(name: str) -> SafeString:
    return SafeString(render_to_string(name))


SEATS = {"N": "North", "E": "East", "S": "South", "W": "West"}
DOUBLING = {"": "", "X": " doubled", "XX": " redoubled"}


def score_text(score) -> str:
    """"NS +420", "EW +50", "0", or the adjusted score's kind (the preview's words too)."""
    if not isinstance(score, int):
        return "an adjusted score"
    if score == 0:
        return "0: no score"
    return f"NS +{score}" if score > 0 else f"EW +{-score}"


def preview_reading(text: str, result, score) -> dict[str, str]:
    """The preview's context for a line the preview has read and scored: the reading too,
    which the phone shows EW if it goes offline."""
    return {"text": text, "score_text": score_text(score), "reading": _reading(result, score)}


def reading_html(text: str, board: int, era: str = "current") -> SafeString | str:
    """The line in words and its score; "" for a text the engine cannot read (never a guess)."""
    try:
        result = parse_result(text, board)
        score = ns_score(result, board, era)
    except (ScoringError, ValueError):
        return ""
    return _reading(result, score)


def _reading(result, score) -> SafeString | str:
    if not isinstance(score, int):
        return "An adjusted score"
    if isinstance(result, PassedOut):
        return format_html("Passed out: <strong>{}</strong>", "no score")
    return format_html("{}: <strong>{}</strong>", _words(result), score_text(score))


def _words(result) -> SafeString | str:
    if isinstance(result, Played):
        contract = result.contract
        strain = suit_symbol(contract.strain) if contract.strain in SUITS else "NT"
        return format_html("{}{}{} by {}, {}", contract.level, strain, DOUBLING[contract.doubling],
                           SEATS[result.declarer], counted(result.tricks, "trick"))
    if isinstance(result, Assigned):
        return "An assigned score"
    return "Not played"


@register.simple_tag
def result_reading(text: str, board: int, link=None) -> SafeString | str:
    era = link.session.event.deal_era if isinstance(link, TableLink) else "current"
    return reading_html(text, board, era)
