"""Values whose cache key names their content for good, kept in this process's memory too.

A table's setup (its seatings with their pairs and players, its section's deals) is kept
in the shared cache under the session's setup token, which any change of the setup draws
anew: what such a key holds never changes. Unpickling it was about a sixth of a phone's
post (some 130 model instances each time), so each process also keeps the objects
themselves, for the last ``MOST_KEPT`` keys it read, and asks the shared cache only for
a key it has not seen (another process may have loaded it).

The objects are shared by every request of the process, as the kept scored figures are
(sessions.core.selectors.kept_scores): nobody may change them, not even by reading a
relation they were not loaded with (tests/core/test_kept_here.py walks a table's evening
and compares each kept object with the copy in the shared cache).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from sessions.core import shared_cache

T = TypeVar("T")

#: Keys kept in this process: a 300-table session's tables (about 60 KB of objects each)
#: with their sections and rounds; the least recently read goes first.
MOST_KEPT = 1_000

_here: OrderedDict[str, Any] = OrderedDict()
_lock = threading.Lock()


def get_or_load(key: str, load: Callable[[], T], timeout: int) -> T:
    """What ``key`` holds: from this process's memory, else from the shared cache, else
    ``load()``ed and kept in both (``timeout`` seconds in the shared cache). The key must
    name its content for good (a setup token in it); the value must not be changed."""
    with _lock:
        if key in _here:
            _here.move_to_end(key)
            return _here[key]
    value = shared_cache.get(key)
    if value is None:
        value = load()
        shared_cache.set(key, value, timeout)
    _keep(key, value)
    return value


def _keep(key: str, value: Any) -> None:
    with _lock:
        _here[key] = value
        _here.move_to_end(key)
        while len(_here) > MOST_KEPT:
            _here.popitem(last=False)


def kept_keys() -> list[str]:
    """The keys this process keeps, the least recently read first (tests)."""
    with _lock:
        return list(_here)


def kept(key: str) -> Any:
    """The object kept here under ``key``, or None (tests)."""
    with _lock:
        return _here.get(key)


def forget_all() -> None:
    """Drop what this process keeps (tests: each starts with nothing kept)."""
    with _lock:
        _here.clear()
