"""The latest scored figures of each session, kept between requests.

Two places: this process's memory, as objects (a national simultaneous pairs of 72,000
lines unpickles in longer than it scores), and Django's shared cache for sessions small
enough to travel (another app server then has them without a query, or brings them up
to date from the change log when they are a few revisions behind: ``SHARE_EVERY``).
Either is only a cache: a process without them scores the session from the database.

An entry is the session's scored figures at a revision, under its setup token
(sessions.core.services.revisions): the same token and a revision at least the one asked
for is a hit; the same token and an older revision is a base that the change log
brings up to date board by board.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sessions.core import shared_cache

#: Lines of scored sessions this process keeps: a simultaneous pairs and a few hundred
#: clubs' sessions, about 180 MB at most (a 72,000-line session takes 87 MB).
LINES_KEPT_HERE = 150_000
#: Sessions of more lines than this stay in the process that scored them (unpickling
#: them would cost more than scoring them again).
LINES_SHARED = 5_000
SHARED_SECONDS = 24 * 60 * 60
#: Figures brought up to date here go to the shared cache again only every so many
#: revisions: another process brings an older shared copy up to date from the change log
#: itself (two queries), and a phone's post no longer pickles the whole session each time.
SHARE_EVERY = 20
#: ... and a larger session only every so many revisions more for each line it holds
#: (one every 10 lines: a 600-line round at 300 tables every 60): pickling its figures
#: (its pairs above all) costs in proportion to its lines, and this keeps that cost a
#: post about constant. A process without a copy catches up from the change log.
LINES_A_REVISION = 10


@dataclass(frozen=True)
class Kept:
    setup_token: int
    revision: int
    last_change: int | None  # the change log's last entry, read before the lines; None: unknown
    scored: Any  # the ScoredSession

    @property
    def lines(self) -> int:
        return len(self.scored.line_ids)

    def serves(self, setup_token: int, revision: int) -> bool:
        """The figures of this revision (or a later one) of the same setup."""
        return self.setup_token == setup_token and self.revision >= revision

    def base_for(self, setup_token: int) -> bool:
        """An earlier revision of the same setup, which the change log can bring up to date."""
        return self.setup_token == setup_token and self.last_change is not None


_here: OrderedDict[int, Kept] = OrderedDict()
_lines_here = 0
_shared_from_here: dict[int, tuple[int, int]] = {}  # session -> (setup token, revision) last shared
_lock = threading.Lock()


def _key(session_id: int) -> str:
    return f"clubscore:scored:{session_id}"


def kept_here(session_id: int) -> Kept | None:
    with _lock:
        kept = _here.get(session_id)
        if kept is not None:
            _here.move_to_end(session_id)
        return kept


def kept_shared(session_ids: Iterable[int]) -> dict[int, Kept]:
    ids = list(session_ids)
    if not ids:
        return {}
    found = shared_cache.get_many(_key(pk) for pk in ids)
    return {pk: found[_key(pk)] for pk in ids if _key(pk) in found}


def keep(session_id: int, kept: Kept, *, share: bool = True) -> None:
    """Keep ``kept`` here, and in the shared cache too unless ``share`` is false (it came from there)."""
    keep_many({session_id: kept}, share=share)


def keep_many(entries: dict[int, Kept], *, share: bool = True) -> None:
    for session_id, kept in entries.items():
        _keep_here(session_id, kept)
    shared = {_key(pk): kept for pk, kept in entries.items() if share and _share_due(pk, kept)}
    if shared:
        shared_cache.set_many(shared, SHARED_SECONDS)


def _share_due(session_id: int, kept: Kept) -> bool:
    """Small enough to travel, and not shared from here at a revision less than
    ``SHARE_EVERY`` before (of the same setup)."""
    if kept.lines > LINES_SHARED:
        return False
    with _lock:
        last = _shared_from_here.get(session_id)
        every = max(SHARE_EVERY, kept.lines // LINES_A_REVISION)
        if last is not None and last[0] == kept.setup_token and kept.revision - last[1] < every:
            return False
        _shared_from_here[session_id] = (kept.setup_token, kept.revision)
        return True


def _keep_here(session_id: int, kept: Kept) -> None:
    global _lines_here
    with _lock:
        older = _here.pop(session_id, None)
        if older is not None:
            _lines_here -= older.lines
            if older.setup_token == kept.setup_token and older.revision > kept.revision:
                kept = older  # another request kept a later revision meanwhile
        _here[session_id] = kept
        _lines_here += kept.lines
        while _lines_here > LINES_KEPT_HERE and len(_here) > 1:
            dropped_id, dropped = _here.popitem(last=False)
            _lines_here -= dropped.lines
            _shared_from_here.pop(dropped_id, None)


def forget_all() -> None:
    """Drop what this process keeps (tests: each starts with nothing kept)."""
    global _lines_here
    with _lock:
        _here.clear()
        _shared_from_here.clear()
        _lines_here = 0
