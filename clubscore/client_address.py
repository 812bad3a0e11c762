"""The address a request comes from, as far as the deployment can vouch for it.

``TRUSTED_PROXIES`` (settings, from the environment) says how many proxies stand in front
of the app. Each proxy appends the address it was reached from to ``X-Forwarded-For``,
so with N proxies the client is the N-th entry from the right (the last but N of the
chain that ends with ``REMOTE_ADDR``); everything further left was written by the client
and may be forged. With 0 (the default: no proxy) the header is never read.

django-axes counts failed logins by it (``AXES_CLIENT_IP_CALLABLE``) and the table
links' throttle counts unknown tokens by it, so both see the same client.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def _valid(address: str) -> bool:
    try:
        ipaddress.ip_address(address)
    except ValueError:
        return False
    return True


def client_address(request: HttpRequest) -> str:
    """The client's address: from X-Forwarded-For as written by the trusted proxies, else
    the connection's own address."""
    remote = request.META.get("REMOTE_ADDR", "")
    proxies = settings.TRUSTED_PROXIES
    if proxies <= 0:
        return remote
    chain = [entry.strip() for entry in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if entry.strip()]
    if len(chain) < proxies:
        # Fewer entries than proxies: the request did not come through all of them (or the
        # setting is wrong), so no entry is vouched for; the connection's address is.
        return remote
    address = chain[-proxies]
    return address if _valid(address) else remote
