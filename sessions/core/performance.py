"""Helpers for the few places that build hundreds of thousands of objects in one go.

Scoring a national simultaneous pairs (72,000 lines) or importing its file builds that
many tuples, dataclasses and model instances, and none of them form reference cycles.
Python's cyclic garbage collector, triggered by every few hundred allocations, then
walks the ever-growing heap again and again: a third of the time of scoring such a
session. Reference counting still frees everything as usual while it is paused.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def garbage_collection_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for the block, if it was running.

    The caller that paused it resumes it, so nested blocks (or another thread's) never
    leave it paused for good.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
