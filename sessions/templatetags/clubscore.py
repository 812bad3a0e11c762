"""Display filters: exact engine figures rounded only here, for the page."""

from collections.abc import Callable
from fractions import Fraction

from django import template
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from sessions.models import Pair, Player

from sessions.scoring.rounding import round_to_places

register = template.Library()


@register.filter
def points(value: Fraction | int | None, places: int = 2) -> str:
    """Matchpoints or IMPs to 2 decimals ("3.50"); empty for no figure."""
    if value is None or value == "":
        return ""
    return str(round_to_places(Fraction(value), int(places)))


@register.filter
def signed(value: int | None) -> str:
    """An NS score as a traveller shows it: "+420", "-50", "0"."""
    if value is None or value == "":
        return ""
    return f"{value:+d}" if value else "0"


@register.filter
def side_score(value: int | None, side: str) -> str:
    """The score in a traveller's NS or EW column: the side that scored it shows it."""
    if value is None or value == "":
        return ""
    if value == 0:
        return "0" if side == "NS" else ""
    mine = value if side == "NS" else -value
    return str(mine) if mine > 0 else ""


@register.filter
def player_link(player: Player | None) -> SafeString | str:
    """A player's name, a link to the player's page (their sessions and percentages)."""
    if player is None:
        return ""
    return format_html('<a href="{}">{}</a>', reverse("sessions:player", args=[player.pk]), player.name)


@register.filter
def player_links(pair: Pair) -> SafeString:
    """"Ann Archer & Bob Baker", each name a link to that player's page."""
    return linked_names(pair, lambda pk: reverse("sessions:player", args=[pk]))


def linked_names(pair: Pair, player_url: Callable[[int], str]) -> SafeString:
    """player_links with the players' addresses from ``player_url`` (a long table builds
    them from one reverse(): sessions.pairs.tables.pk_urls)."""
    players = [player for player in (pair.player_1, pair.player_2) if player]
    return format_html_join(
        " & ", '<a href="{}">{}</a>', ((player_url(player.pk), player.name) for player in players)
    )
