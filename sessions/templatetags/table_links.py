"""A table's phone link as the director prints or shows it: the full URL and its QR code.

    {% load table_links %}
    {% table_link_url link as url %}{{ url }} {% qr_svg url %}

The URL is built from the request (``request.build_absolute_uri``), so it names the
host the director reached the site at; the QR code is an inline SVG made by segno.
"""

from __future__ import annotations

import segno
from django import template
from django.http import HttpRequest
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from sessions.models import MatchTableLink, TableLink

register = template.Library()

#: Medium error correction: a printed card survives a crease or a coffee ring.
QR_ERROR = "m"


def table_page_url(request: HttpRequest, link: TableLink | MatchTableLink) -> str:
    """The full address of the table's phone page (a pairs table's or a teams room's)."""
    name = "sessions:team_table_page" if isinstance(link, MatchTableLink) else "sessions:table_page"
    return request.build_absolute_uri(reverse(name, args=[link.token]))


def qr_svg(url: str) -> SafeString:
    """The URL's QR code as inline SVG, sized by CSS (class "qr"); never a Micro QR."""
    code = segno.make_qr(url, error=QR_ERROR)
    # segno writes only the modules' path, nothing of the URL: safe to insert as is.
    return mark_safe(code.svg_inline(scale=4, svgclass="qr", omitsize=True))


@register.simple_tag(takes_context=True)
def table_link_url(context: template.Context, link: TableLink | MatchTableLink) -> str:
    return table_page_url(context["request"], link)


@register.simple_tag(name="qr_svg")
def qr_svg_tag(url: str) -> SafeString:
    return qr_svg(url)
