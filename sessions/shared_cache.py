"""Django's cache as the app uses it: a cache that cannot be reached (the deployment's
Redis down or restarting) is a miss, logged, never an error page. Every page can be made
without the cache, only slower; the table links' guessing throttle counts in the database
until the cache is back (sessions/throttle.py).

A cache that failed is not asked again for CACHE_FAILURE_PAUSE seconds (a circuit
breaker, per process): a Redis that takes connections and never answers costs one
short timeout (the OPTIONS of CACHES in settings), not one on every call of every page.
After the pause the next call asks again, and a failure pauses it again.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Mapping
from typing import Any

from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.dummy import DummyCache
from django.core.cache.backends.locmem import LocMemCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

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


def get(key: str, default: Any = None) -> Any:
    if _paused():
        return default
    try:
        return cache.get(key, default)
    except UNREACHABLE:
        _unreachable("get")
        return default


def get_many(keys: Iterable[str]) -> dict[str, Any]:
    if _paused():
        return {}
    try:
        return cache.get_many(list(keys))
    except UNREACHABLE:
        _unreachable("get_many")
        return {}


def set(key: str, value: Any, timeout: int) -> None:  # noqa: A001 (the cache's own verb)
    if _paused():
        return
    try:
        cache.set(key, value, timeout)
    except UNREACHABLE:
        _unreachable("set")


def set_many(values: Mapping[str, Any], timeout: int) -> None:
    if _paused():
        return
    try:
        cache.set_many(dict(values), timeout)
    except UNREACHABLE:
        _unreachable("set_many")


def add(key: str, value: Any, timeout: int) -> None:
    """Keep ``value`` under ``key`` unless something is kept there already."""
    if _paused():
        return
    try:
        cache.add(key, value, timeout)
    except UNREACHABLE:
        _unreachable("add")


def delete_many(keys: Iterable[str]) -> None:
    if _paused():
        return
    try:
        cache.delete_many(list(keys))
    except UNREACHABLE:
        _unreachable("delete_many")


def claim(key: str, timeout: int) -> bool:
    """Take ``key`` for ``timeout`` seconds if nobody holds it (the cache's atomic add):
    True when this caller has it. An unreachable cache answers True: without a cache
    there is nothing to share and every caller does its own work."""
    if _paused():
        return True
    try:
        return bool(cache.add(key, 1, timeout))
    except UNREACHABLE:
        _unreachable("add")
        return True


def release(key: str) -> None:
    if _paused():
        return
    try:
        cache.delete(key)
    except UNREACHABLE:
        _unreachable("delete")


def is_shared() -> bool:
    """Whether every worker sees the same cache (Redis), not a memory of its own."""
    return not isinstance(caches["default"], (LocMemCache, DummyCache))


def count(key: str, timeout: int) -> int | None:
    """One more in the counter ``key``, which starts at 0 and lives ``timeout`` seconds:
    the new count, or None when the cache did not answer."""
    if _paused():
        return None
    try:
        cache.add(key, 0, timeout)
        try:
            return cache.incr(key)
        except ValueError:  # the counter expired between add and incr: a new one
            cache.add(key, 1, timeout)
            return 1
    except UNREACHABLE:
        _unreachable("count")
        return None
