"""Errors the services raise besides Django's ValidationError."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sessions.models import MatchBoard, Result


class ResultConflict(Exception):
    """The line changed since the director saw it; nothing was overwritten.

    ``current`` is the line as it is now (None if it was deleted meanwhile), so the
    page can show it and let the director decide.
    """

    def __init__(self, current: Result | MatchBoard | None, seen_version: int) -> None:
        self.current = current
        self.seen_version = seen_version
        if current is None:
            message = "this line was deleted by someone else while you were typing"
        else:
            who = current.updated_by or "someone else"
            message = (
                f"this line was changed by {who} to {current.text} while you were typing "
                f"(version {current.version}, you saw {seen_version}): nothing was saved"
            )
        super().__init__(message)
