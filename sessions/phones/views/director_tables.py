"""The director's table links page: each table's phone link, its QR code, renew and revoke.

Thin views over sessions.phones.services.tables, in the style of views/director.py: login
required, every object through get_club_object_or_404 (another club's session or link
is a 404), and each change a POST answered with a redirect and a message. Reading the
page changes nothing: links are made by the "Make links" button (here or on the cards
page), by a table's "Make a new link" after a revoke, or by ``manage.py table_links``.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from sessions.models import Session, TableLink
from sessions.core.permissions import directed_session, get_club_object_or_404
from sessions.pairs.selectors.cards import session_table_links, table_has_live_link, table_is_seated, table_last_link
from sessions.phones.services.phone_links import phone_link_renew, phone_link_revoke
from sessions.phones.services.tables import table_links_ensure



def _link(request: HttpRequest, session: Session, link_id: int) -> TableLink:
    return get_club_object_or_404(request.user, TableLink, pk=link_id, session=session)


def _name(letter: str, table: int) -> str:
    return f"Section {letter}, table {table}"


def _back(session: Session) -> HttpResponse:
    return redirect("sessions:director_table_links", session_id=session.pk)


@login_required
@require_GET
def table_links(request: HttpRequest, session_id: int) -> HttpResponse:
    """Every table that plays: its live link (full URL and QR code) or that it has none."""
    session = directed_session(request, session_id)
    rows = session_table_links(session=session)
    return render(request, "phones/director/table_links.html", {
        "session": session, "rows": rows, "without_link": sum(1 for row in rows if row.link is None),
    })


@login_required
@require_POST
def table_links_make(request: HttpRequest, session_id: int) -> HttpResponse:
    """A live link for every table without one; back to the cards page when asked from there."""
    session = directed_session(request, session_id)
    links = table_links_ensure(session=session)
    messages.success(request, f"Every table has a live link ({len(links)} tables).")
    if request.POST.get("next") == "cards":
        return redirect("sessions:director_cards", session_id=session.pk)
    return _back(session)


def _change_live_link(request: HttpRequest, session_id: int, link_id: int,
                      change: Callable[[HttpRequest, TableLink, str], None]) -> HttpResponse:
    """Renew or revoke a link that is still live; a second click (or another page's) changes nothing."""
    session = directed_session(request, session_id)
    link = _link(request, session, link_id)
    name = _name(link.section.letter, link.table)
    if link.live:
        change(request, link, name)
    else:
        messages.info(request, f"{name}: that link was already renewed or revoked; nothing changed.")
    return _back(session)


def _renew(request: HttpRequest, link: TableLink, name: str) -> None:
    try:
        phone_link_renew(link=link)
    except IntegrityError:  # renewed from another page at the same moment
        messages.error(request, f"{name}: the link changed meanwhile; the page shows the table's link now.")
    else:
        messages.success(request, f"{name}: new link made. The old link no longer opens the table.")


def _revoke(request: HttpRequest, link: TableLink, name: str) -> None:
    phone_link_revoke(link=link)
    messages.success(request, f"{name}: link revoked. The table has no live link until you make a new one.")


@login_required
@require_POST
def table_link_renew_view(request: HttpRequest, session_id: int, link_id: int) -> HttpResponse:
    """A new link for the table; the old one stops opening it at once."""
    return _change_live_link(request, session_id, link_id, _renew)


@login_required
@require_POST
def table_link_revoke_view(request: HttpRequest, session_id: int, link_id: int) -> HttpResponse:
    """Cut the table's link off; the table has no live link until a new one is made."""
    return _change_live_link(request, session_id, link_id, _revoke)


@login_required
@require_POST
def table_link_new(request: HttpRequest, session_id: int, letter: str, table: int) -> HttpResponse:
    """A new link for a table that has none (its last one was revoked)."""
    session = directed_session(request, session_id)
    section = get_object_or_404(session.sections, letter=letter)
    name = _name(section.letter, table)
    if table_has_live_link(section=section, table=table):
        messages.info(request, f"{name} already has a live link; nothing changed.")
        return _back(session)
    last = table_last_link(section=section, table=table)
    if last is None:
        if not table_is_seated(section=section, table=table):
            raise Http404("no such table")
        table_links_ensure(session=session)  # never had a link: make it with the others missing
    else:
        try:
            phone_link_renew(link=last)
        except IntegrityError:  # made from another page at the same moment
            messages.info(request, f"{name} already has a live link; nothing changed.")
            return _back(session)
    messages.success(request, f"{name}: new link made.")
    return _back(session)
