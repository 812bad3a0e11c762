"""What the revision counters need from the models (sessions.core.services.revisions bumps them)."""

from __future__ import annotations

import secrets
from typing import Any

#: The fields only sessions.core.services.revisions writes.
REVISION_FIELDS = ("revision", "revised_at", "setup_token")


def new_setup_token() -> int:
    """A session's setup token: random, so no other session (an id reused) ever has it."""
    return secrets.randbits(62)


class KeepsRevisionOnSave:
    """A full save of a loaded row leaves its revision alone.

    The counter is bumped by an F() update that the loaded instance does not see: writing
    the instance back whole (the admin, a later service) would put the old number back,
    and the next bump would reuse a number whose cached pages showed something else.
    """

    def save(self, *args: Any, **kwargs: Any) -> None:
        state = self._state  # type: ignore[attr-defined]
        if not state.adding and kwargs.get("update_fields") is None and not kwargs.get("force_insert"):
            kwargs["update_fields"] = [
                field.name for field in self._meta.concrete_fields  # type: ignore[attr-defined]
                if not field.primary_key and field.name not in REVISION_FIELDS
            ]
        super().save(*args, **kwargs)  # type: ignore[misc]
