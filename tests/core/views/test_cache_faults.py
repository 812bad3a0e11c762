"""A Redis that takes connections and never answers (hung, or a firewall that swallows
packets): pages answer well under a second, because the cache's timeouts are short and
a cache that just failed is not asked again for a while (sessions/core/shared_cache.py).

The fake server is a socket of the test's own: it accepts every connection, reads
nothing, answers nothing, and lets go of each after a few seconds, so that code without
timeouts ends instead of hanging the suite.
"""

from __future__ import annotations

import socket
import threading
import time

import pytest
from django.test import override_settings
from django.urls import reverse

from clubscore.settings import redis_cache

HOLD_SECONDS = 3.0


class SilentServer:
    """Accepts connections on a free local port and never answers."""

    def __init__(self) -> None:
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.listener.settimeout(0.05)
        self.port = self.listener.getsockname()[1]
        self.accepted = 0
        self.held: list[tuple[socket.socket, float]] = []
        self.running = True
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while self.running:
            try:
                connection, _ = self.listener.accept()
            except (TimeoutError, OSError):
                connection = None
            if connection is not None:
                self.accepted += 1
                self.held.append((connection, time.monotonic()))
            for held in [held for held in self.held if time.monotonic() - held[1] > HOLD_SECONDS]:
                held[0].close()
                self.held.remove(held)

    def stop(self) -> None:
        self.running = False
        self.thread.join()
        for connection, _ in self.held:
            connection.close()
        self.listener.close()


@pytest.fixture
def silent_redis():
    server = SilentServer()
    caches = {"default": redis_cache(f"redis://127.0.0.1:{server.port}/0")}  # as the deployment sets it
    with override_settings(CACHES=caches):
        yield server
    server.stop()


def timed_get(client, url):
    started = time.monotonic()
    response = client.get(url)
    return response, time.monotonic() - started


def test_a_silent_redis_costs_one_short_timeout_then_is_left_alone(client, played_session, silent_redis):
    url = reverse("sessions:session_results", args=[played_session.pk])

    first, first_seconds = timed_get(client, url)
    asked = silent_redis.accepted
    second, second_seconds = timed_get(client, url)

    assert first.status_code == second.status_code == 200
    assert first_seconds < 1.0
    assert second_seconds < 0.5
    assert silent_redis.accepted == asked  # the second page never asked the cache


def test_after_the_pause_the_cache_is_asked_again(client, played_session, silent_redis, settings):
    settings.CACHE_FAILURE_PAUSE = 0.3
    url = reverse("sessions:session_results", args=[played_session.pk])
    client.get(url)
    asked = silent_redis.accepted
    assert asked >= 1

    time.sleep(0.4)
    response, seconds = timed_get(client, url)

    assert response.status_code == 200 and seconds < 1.0
    assert silent_redis.accepted > asked
