"""The download buttons of a session, an event or a teams event, from the exports' registry."""

from __future__ import annotations

from django import template
from django.db.models import Model
from django.urls import reverse

from sessions.transfer.exporters import SUBJECTS, exporters_of

register = template.Library()


@register.inclusion_tag("transfer/export_buttons.html")
def export_buttons(kind: str, exported: Model, label: str = "Download the results") -> dict[str, object]:
    """``{% export_buttons "session" session %}``: a link to each export the subject offers as a button."""
    url_name = SUBJECTS[kind].url_name
    buttons = [
        (reverse(url_name, args=[exported.pk, exporter.identifier]), exporter.label)
        for exporter in exporters_of(kind).values() if exporter.button
    ]
    return {"label": label, "buttons": buttons}
