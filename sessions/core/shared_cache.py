"""Django's cache as the app uses it: a cache that cannot be reached (the deployment's
Redis down or restarting) is a miss, logged, never an error page. Every page can be made
without the cache, only slower; the table links' guessing throttle counts in the database
until the cache is back (sessions/core/throttle.py).

A cache that failed is not asked again for CACHE_FAILURE_PAUSE seconds (a circuit
breaker, per process): a Redis that takes connections and never answers costs one
short timeout (the OPTIONS of CACHES in settings), not one on every call of every page.
After the pause the next call asks again, and a failure pauses it again.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.dummy import DummyCache
from django.core.cache.backends.locmem import LocMemCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

T = TypeVar("T")

#: What a cache backend raises when its server cannot be reached or answer.
UNREACHABLE = (RedisError, OSError)


#: time.monotonic() until which the cache is not asked (0: ask).
_paused_until = 0.0


def _unreachable(action: str) -> None:
    global _paused_until
    pause = settings.CACHE_FAILURE_PAUSE
    _paused_until = time.monotonic() + pause
    logger.warning("the cache could not be reached (%s): going on without it for %s s", action, pause, exc_info=True)


def _paused() -> bool:
    return time.monotonic() < _paused_until


def resume() -> None:
    """Ask the cache again from the next call (tests, after changing the cache)."""
    global _paused_until
    _paused_until = 0.0


def _ask(action: str, call: Callable[[], T], default: T) -> T:
    """``call`` on the cache; ``default`` while the cache is paused or when it fails (which pauses it)."""
    if _paused():
        return default
    try:
        return call()
    except UNREACHABLE:
        _unreachable(action)
        return default


def get(key: str, default: Any = None) -> Any:
    return _ask("get", lambda: cache.get(key, default), default)


def get_many(keys: Iterable[str]) -> dict[str, Any]:
    return _ask("get_many", lambda: cache.get_many(list(keys)), {})


def set(key: str, value: Any, timeout: int) -> None:  # noqa: A001 (the cache's own verb)
    _ask("set", lambda: cache.set(key, value, timeout), None)


def set_many(values: Mapping[str, Any], timeout: int) -> None:
    _ask("set_many", lambda: cache.set_many(dict(values), timeout), None)


def add(key: str, value: Any, timeout: int) -> None:
    """Keep ``value`` under ``key`` unless something is kept there already."""
    _ask("add", lambda: cache.add(key, value, timeout), None)


def delete_many(keys: Iterable[str]) -> None:
    _ask("delete_many", lambda: cache.delete_many(list(keys)), None)


def claim(key: str, timeout: int) -> bool:
    """Take ``key`` for ``timeout`` seconds if nobody holds it (the cache's atomic add):
    True when this caller has it. An unreachable cache answers True: without a cache
    there is nothing to share and every caller does its own work."""
    return _ask("add", lambda: bool(cache.add(key, 1, timeout)), True)


def release(key: str) -> None:
    _ask("delete", lambda: cache.delete(key), None)


def is_shared() -> bool:
    """Whether every worker sees the same cache (Redis), not a memory of its own."""
    return not isinstance(caches["default"], (LocMemCache, DummyCache))


def count(key: str, timeout: int) -> int | None:
    """One more in the counter ``key``, which starts at 0 and lives ``timeout`` seconds:
    the new count, or None when the cache did not answer."""
    def counted() -> int:
        cache.add(key, 0, timeout)
        try:
            return cache.incr(key)
        except ValueError:  # the counter expired between add and incr: a new one
            cache.add(key, 1, timeout)
            return 1

    return _ask("count", counted, None)
