"""Display filters: exact engine figures rounded only here, for the page."""

from fractions import Fraction

from django import template

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
