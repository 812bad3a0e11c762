"""Rows built once for a module's tests, as Django's TestCase.setUpTestData builds them once
for a class: in a transaction opened before the module's first test and rolled back after
its last. Each test still runs in its own savepoint inside it (pytest-django's ``db``), so a
test that writes leaves the next one the rows as built.

Use it only where building is slow and the tests take the rows by primary key (a fresh
instance each, so no test sees another's changed attributes), and never in a module with a
``transaction=True`` test (which would commit the module's rows).

    @pytest.fixture(scope="module")
    def built_pk(django_db_setup, django_db_blocker):
        yield from built_once(django_db_blocker, lambda: make_something().pk)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TypeVar

from django.db import DEFAULT_DB_ALIAS, transaction

T = TypeVar("T")


def built_once(django_db_blocker, build: Callable[[], T]) -> Iterator[T]:
    """A module-scoped fixture's body: build() in a transaction rolled back at the end."""
    with django_db_blocker.unblock():
        outer = transaction.atomic(using=DEFAULT_DB_ALIAS)
        outer._from_testcase = True  # as TestCase's: a durable atomic block may run inside
        outer.__enter__()
        try:
            built = build()
        except BaseException:
            transaction.set_rollback(True, using=DEFAULT_DB_ALIAS)
            outer.__exit__(None, None, None)
            raise
    try:
        yield built
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True, using=DEFAULT_DB_ALIAS)
            outer.__exit__(None, None, None)
