"""Services: every write, each in one transaction (HackSoft style: ``<entity>_<action>``)."""

from .clubs import (
    CLUB_SETTINGS, club_director_add, club_director_remove, club_director_set_owner, club_director_unlock, club_update,
)
from .errors import ResultConflict
from .events import EVENT_SETTINGS, event_create, event_update
from .players import (
    PairPlayersChange,
    pair_change_players,
    pair_name_players,
    pair_set_players,
    player_add,
    player_find_or_add,
    player_find_or_add_numbered,
    session_name_players,
)
from .results import RecordOutcome, board_set_groups, result_correct, result_delete, result_record
from .sessions import session_create, session_publish, session_unpublish

__all__ = [
    "CLUB_SETTINGS", "club_director_add", "club_director_remove", "club_director_set_owner", "club_director_unlock",
    "club_update",
    "EVENT_SETTINGS", "PairPlayersChange", "RecordOutcome", "ResultConflict",
    "board_set_groups", "event_create", "event_update", "pair_change_players", "pair_name_players", "pair_set_players",
    "player_add", "player_find_or_add", "player_find_or_add_numbered", "result_correct",
    "result_delete", "result_record", "session_create", "session_name_players", "session_publish",
    "session_unpublish",
]
