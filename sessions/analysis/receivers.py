"""Deals stored by other code get analysed too: a results file imported with its deals
creates a Session (its boards are bulk-created, which sends no signal), and a board
saved one at a time (the admin, a correction) may carry a new deal.

The receivers only ask for ``analysis_start`` after the commit; it finds the pending
boards itself, and does nothing when there are none. Connected by
sessions/models/analysis.py, with lazy senders, as the models load.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models.signals import post_save


def _start_after_commit() -> None:
    from .services import analysis_start

    transaction.on_commit(analysis_start)


def session_saved(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    if created and not kwargs.get("raw"):
        _start_after_commit()


def board_saved(sender: Any, instance: Any, update_fields: Any = None, **kwargs: Any) -> None:
    if instance.deal and not kwargs.get("raw") and (update_fields is None or "deal" in update_fields):
        _start_after_commit()


post_save.connect(session_saved, sender="clubsessions.Session", dispatch_uid="analysis_session_saved")
post_save.connect(board_saved, sender="clubsessions.Board", dispatch_uid="analysis_board_saved")
