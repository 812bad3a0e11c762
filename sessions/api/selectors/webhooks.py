"""Reading a club's webhooks and their delivery log."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from sessions.models import Club, Webhook, WebhookDelivery

#: The settings page shows each webhook's latest deliveries, this many.
LOG_LENGTH = 10


def club_webhooks(*, club: Club) -> list[Webhook]:
    """The club's webhooks, each with ``log``: its latest deliveries, newest first (two queries)."""
    webhooks = list(Webhook.objects.filter(club=club).prefetch_related(
        Prefetch("deliveries", queryset=WebhookDelivery.objects.order_by("-created_at", "-pk"), to_attr="all_deliveries"),
    ))
    for webhook in webhooks:
        webhook.log = webhook.all_deliveries[:LOG_LENGTH]  # type: ignore[attr-defined]
    return webhooks


def webhooks_of(*, club: Club) -> QuerySet[Webhook]:
    """The club's webhooks with their club: one is fetched by id from here."""
    return Webhook.objects.select_related("club").filter(club=club)
