"""Errors the services raise besides Django's ValidationError."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sessions.models import MatchLine, Result


class ResultConflict(Exception):
    """The line changed since the director saw it; nothing was overwritten.

    ``current`` is the line as it is now (None if it was deleted meanwhile), so the
    page can show it and let the director decide; ``replaced``: it is not the line the
    writer saw but one entered after that one was deleted.
    """

    def __init__(self, current: Result | MatchLine | None, seen_version: int, *, replaced: bool = False) -> None:
        self.current = current
        self.seen_version = seen_version
        if current is None:
            message = "this line was deleted by someone else while you were typing"
        elif replaced:  # deleted and entered again: a new line, whatever its version
            who = current.updated_by or "someone else"
            message = (
                f"this line was deleted and entered again by {who} as {current.text} while you were typing: "
                f"nothing was saved"
            )
        else:
            who = current.updated_by or "someone else"
            message = (
                f"this line was changed by {who} to {current.text} while you were typing "
                f"(version {current.version}, you saw {seen_version}): nothing was saved"
            )
        super().__init__(message)


class EntryClosed(Exception):
    """A table's phone tried to write after the director marked the session (or the teams
    event) final: nothing was stored. Not a ValidationError, so a view never shows it as a
    mistake in what was typed: the phone is told the results are closed (views.table)."""

    def __init__(self, what: str) -> None:
        self.what = what
        super().__init__(
            f"The director has marked this {what} final: this phone can no longer send, confirm or change "
            f"anything, and nothing was recorded. Show the director any result not yet recorded "
            f"(the director can reopen the {what})."
        )
