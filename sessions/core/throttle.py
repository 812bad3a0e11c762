"""The table links' guessing throttle: misses (tokens that open nothing) counted per client
address, in THROTTLE_WINDOW seconds.

The count must be the same in every worker and app server, or each of them lets a
guesser through on its own. It lives in the shared cache (Redis) when there is one and
it answers; otherwise (no REDIS_URL: each process's cache is its own memory; or Redis
unreachable) in the database, one row per miss. Only misses are counted or checked:
a valid link never reads the count, so phones that share an address with a guesser (a
club's wifi, an old QR code after a renewal) keep working.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.utils import timezone

from sessions.core import shared_cache
from sessions.models import TableTokenMiss

#: Unknown tokens an address may try in THROTTLE_WINDOW seconds before it must wait.
THROTTLE_MISSES = getattr(settings, "TABLE_TOKEN_MISSES", 20)
THROTTLE_WINDOW = 600


def _count_in_database(address: str) -> int:
    """This miss counted in the database (unless the address is over already): how many now.
    Two queries, three when the miss is stored; old rows go as new ones come."""
    cutoff = timezone.now() - datetime.timedelta(seconds=THROTTLE_WINDOW)
    TableTokenMiss.objects.filter(at__lt=cutoff).delete()
    misses = TableTokenMiss.objects.filter(address=address[:64]).count()
    if misses > THROTTLE_MISSES:
        return misses  # waiting already: no more rows for this address
    TableTokenMiss.objects.create(address=address[:64])
    return misses + 1


def miss(address: str) -> bool:
    """Count a token from ``address`` that opened nothing; True when the address has now
    tried too many and must wait."""
    counted = None
    if shared_cache.is_shared():
        counted = shared_cache.count(f"table-token-misses:{address}", THROTTLE_WINDOW)
    if counted is None:
        counted = _count_in_database(address)
    return counted > THROTTLE_MISSES
