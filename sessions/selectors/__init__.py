"""Selectors: every read the pages need, in a fixed number of queries."""

from .cards import PairCard, SessionCards, TableCard, TableCardLine, session_cards
from .entry import EntryRow, EntrySheet, board_traveller, board_travellers, table_round_sheet, table_round_sheets
from .movements import movement_options
from .scored import ScoredSession
from .scoring import session_score
from .sessions import (
    director_clubs,
    latest_event,
    provisional_standings,
    session_change_log,
    session_pairs,
    session_progress,
)

__all__ = [
    "EntryRow", "EntrySheet", "PairCard", "ScoredSession", "SessionCards", "TableCard", "TableCardLine",
    "board_traveller", "board_travellers", "director_clubs", "latest_event", "movement_options", "provisional_standings",
    "session_cards", "session_change_log", "session_pairs", "session_progress", "session_score", "table_round_sheet",
    "table_round_sheets",
]
