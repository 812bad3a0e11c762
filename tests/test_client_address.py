"""The client's address: X-Forwarded-For is read only as far as the configured proxies
vouch for it (clubscore/client_address.py)."""

import pytest
from django.test import RequestFactory

from clubscore.client_address import client_address


def request(forwarded: str | None, remote: str = "10.0.0.1"):
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **extra)


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (0, None, "10.0.0.1"),
        (0, "203.0.113.9", "10.0.0.1"),  # no proxy: a client's own header is never read
        (1, "203.0.113.9", "203.0.113.9"),
        # A client that sends its own header through one proxy: the proxy appends the real one.
        (1, "198.51.100.66, 203.0.113.9", "203.0.113.9"),
        (1, "198.51.100.66,203.0.113.9 ", "203.0.113.9"),
        (2, "198.51.100.66, 203.0.113.9, 192.0.2.10", "203.0.113.9"),  # CDN, then the TLS proxy
        (1, "2001:db8::7", "2001:db8::7"),
        (1, None, "10.0.0.1"),  # not through the proxy: the connection's address
        (2, "203.0.113.9", "10.0.0.1"),  # fewer entries than proxies: none is vouched for
        (1, "not-an-address", "10.0.0.1"),
        (1, "", "10.0.0.1"),
    ],
)
def test_the_client_is_the_entry_the_last_trusted_proxy_wrote(settings, proxies, forwarded, expected):
    settings.TRUSTED_PROXIES = proxies
    assert client_address(request(forwarded)) == expected
