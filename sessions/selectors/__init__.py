"""Selectors: every read the pages need, in a fixed number of queries."""

from .entry import EntryRow, EntrySheet, board_traveller, table_round_sheet
from .movements import movement_options
from .sessions import director_clubs, provisional_standings, session_change_log, session_progress

__all__ = [
    "EntryRow", "EntrySheet", "board_traveller", "director_clubs", "movement_options",
    "provisional_standings", "session_change_log", "session_progress", "table_round_sheet",
]
