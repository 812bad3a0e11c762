"""The table links' guessing throttle: counted per client address (behind the configured
proxies), a valid link always opens, and the count is shared by every worker.

The conftest session is a 3-table Mitchell.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from sessions.services.tables import table_links_ensure
from sessions.views import table as table_views

PROXY = "192.0.2.10"


@pytest.fixture
def link(session):
    return table_links_ensure(session=session)[0]


def page(link) -> str:
    return reverse("sessions:table_page", args=[link.token])


def guess(client: Client, number: int):
    return client.get(f"/t/guess{number:04d}/")


def test_behind_a_proxy_each_client_is_counted_on_its_own(db, settings):
    settings.TRUSTED_PROXIES = 1
    guesser = Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.5")
    for number in range(table_views.THROTTLE_MISSES):
        guess(guesser, number)
    assert guess(guesser, 999).status_code == 429

    another = Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.7")
    assert guess(another, 1000).status_code == 404  # not told to wait for the first one's guesses
