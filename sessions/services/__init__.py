"""Services: every write, each in one transaction (HackSoft style: ``<entity>_<action>``)."""

from .errors import ResultConflict
from .players import pair_set_players, player_add, player_find_or_add
from .results import RecordOutcome, result_correct, result_delete, result_record
from .scoring import ScoredSession, session_score
from .sessions import session_create, session_publish, session_unpublish

__all__ = [
    "RecordOutcome", "ResultConflict", "ScoredSession", "pair_set_players", "player_add",
    "player_find_or_add", "result_correct", "result_delete", "result_record", "session_create",
    "session_publish", "session_score", "session_unpublish",
]
