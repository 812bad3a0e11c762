"""sessions.core.tables_speed, the one seam where django-tables2 is sped up: every public table
renders the same HTML with the seam as django-tables2 does without it (SPEED_UP off),
so an upgrade of django-tables2 that breaks what the seam relies on fails here."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.urls import reverse

from sessions.core import tables_speed
from sessions.models import Pair


def _page(client, url: str) -> str:
    for cache in caches.all():  # the page cache would answer the second render with the first
        cache.clear()
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def _urls(session) -> list[str]:
    pair = Pair.objects.filter(section__session=session, direction="NS").order_by("number").first()
    return [
        reverse("sessions:session_results", args=[session.pk]),
        reverse("sessions:session_results", args=[session.pk]) + "?sort=-pct",
        reverse("sessions:board", args=[session.pk, 1]),
        reverse("sessions:scorecard", args=[session.pk, pair.pk]),
        reverse("sessions:session_booklet", args=[session.pk]),
        reverse("sessions:player", args=[pair.player_1_id]),
        reverse("sessions:event_results", args=[session.event_id]),
        reverse("sessions:club", args=[session.event.club.slug]),
    ]


@pytest.mark.parametrize("which", ["played_session", "butler_session"])
def test_every_public_table_renders_the_same_with_the_seam_as_without(client, monkeypatch, request, which):
    session = request.getfixturevalue(which)
    fast = {url: _page(client, url) for url in _urls(session)}
    monkeypatch.setattr(tables_speed, "SPEED_UP", False)
    plain = {url: _page(client, url) for url in _urls(session)}
    for url in fast:
        assert "<table" in fast[url], url
        assert fast[url] == plain[url], url


def test_without_the_seam_a_cell_s_attributes_are_worked_out_each_time(played_session, client, monkeypatch):
    """The switch really switches: off, a column's td attributes are not a fixed string."""
    calls = []
    original = tables_speed._PerCell.__str__
    monkeypatch.setattr(tables_speed, "SPEED_UP", False)
    monkeypatch.setattr(tables_speed._PerCell, "__str__", lambda cell: calls.append(1) or original(cell))
    _page(client, reverse("sessions:session_results", args=[played_session.pk]))
    rows = Pair.objects.filter(section__session=played_session).count()
    assert len(calls) >= rows  # at least one a row
