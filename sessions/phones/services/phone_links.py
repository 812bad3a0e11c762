"""A phone's link, pairs table or teams room alike: revoked, or renewed in its place.

Making the links differs (a session's tables come from its seatings, a teams round's
rooms from its matches: ``table_links_ensure`` and ``match_table_links_ensure``); cutting
one off and giving its table a new one is the same for both: each link model names the
fields that say where it is played (``PhoneLink.place_fields``).
"""

from __future__ import annotations

from typing import TypeVar

from django.utils import timezone

from sessions.models.tables import PhoneLink

from sessions.core.services.unit_of_work import write

Link = TypeVar("Link", bound=PhoneLink)


@write
def phone_link_revoke(*, link: Link) -> Link:
    """Cut a link off: its token opens nothing from now on."""
    type(link)._default_manager.filter(pk=link.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())
    link.refresh_from_db()
    return link


@write
def phone_link_renew(*, link: Link) -> Link:
    """A new link for the same table or room; the old one is revoked."""
    phone_link_revoke(link=link)
    return type(link)._default_manager.create(**{name: getattr(link, name) for name in link.place_fields})
