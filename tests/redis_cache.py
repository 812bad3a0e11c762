"""A test's own Django cache on the Redis server every CI machine runs: its keys carry a
prefix of the test's own and are deleted afterwards, one by one. Never ``cache.clear()``
there: that is a FLUSHDB, which empties the keys of the tests another xdist worker (or
another checkout) runs at the same moment on the same server."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from redis import Redis

KEPT_CLIENT = "clubscore.redis_cache.RedisCache"  # the deployment's backend (clubscore/settings.py)


@contextmanager
def redis_caches(location: str, backend: str = KEPT_CLIENT) -> Iterator[dict]:
    """CACHES settings of a cache on Redis at ``location`` under a new prefix; its keys
    are deleted when the block ends."""
    caches = {"default": {"BACKEND": backend, "LOCATION": location, "KEY_PREFIX": f"clubscore-test-{uuid.uuid4().hex}"}}
    try:
        yield caches
    finally:
        delete_keys(caches)


def keys(caches: dict) -> list[bytes]:
    """The keys the cache of these settings holds on its server."""
    default = caches["default"]
    return list(Redis.from_url(default["LOCATION"]).scan_iter(match=f"{default['KEY_PREFIX']}:*"))


def delete_keys(caches: dict) -> None:
    server = Redis.from_url(caches["default"]["LOCATION"])
    for key in keys(caches):
        server.delete(key)
