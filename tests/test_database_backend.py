"""The PostgreSQL backend (clubscore/postgresql): a kept connection's health check asks
the server nothing while the connection is sound, and still replaces one the server
has ended."""

from __future__ import annotations

import select
import time
from unittest import mock

import psycopg
import pytest
from django.core.signals import request_started
from django.db import connection
from django.db.backends.postgresql.base import DatabaseWrapper as DjangoPostgreSQL

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the backend is PostgreSQL's"),
    pytest.mark.django_db(transaction=True),  # an idle connection, as between requests
]


def _backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def test_a_sound_connection_is_checked_without_a_round_trip():
    _backend_pid()
    with mock.patch.object(DjangoPostgreSQL, "is_usable", autospec=True) as django_check:
        assert connection.is_usable()
    django_check.assert_not_called()


def test_a_connection_the_server_ended_is_replaced_at_the_next_request():
    pid = _backend_pid()
    with psycopg.connect(**connection.get_connection_params(), autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    poller = select.poll()
    poller.register(connection.connection.fileno(), select.POLLIN)
    deadline = time.monotonic() + 5
    while not poller.poll(50) and time.monotonic() < deadline:
        pass  # the server's farewell is on its way
    request_started.send(sender=None)  # a new request: the connection is checked at its first use
    assert _backend_pid() != pid
