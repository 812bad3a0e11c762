"""Filters of the results mails (templates/clubs/mail/)."""

from django import template

from sessions.clubs.selectors.mail import PlayerResults

register = template.Library()


@register.filter
def board_url(results: PlayerResults, number: int) -> str:
    """The absolute address of a board's traveller, for a link in a mail."""
    return results.board_url(int(number))


FIGURE_NAMES = {"place": "Place", "percent": "Percentage", "imps": "IMPs", "partner": "Partner", "vp": "VPs"}


@register.filter
def figure_name(name: str) -> str:
    """The name an amended mail gives a figure that changed ("percent" -> "Percentage")."""
    return FIGURE_NAMES.get(name, name)
