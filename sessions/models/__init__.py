"""The data layer: models split by concern, re-exported here for ``from sessions.models import ...``."""

from .analysis import AnalysisStatus, BoardAnalysis
from .choices import (
    LINE_ACTIONS, ChangeAction, Direction, Doubling, MovementKind, PointsUnit, ResultKind, Seat, Strain, Vulnerability,
)
from .clubs import Club, ClubDirector, Player
from .events import (
    Board,
    ButlerDatum,
    Combination,
    CombinedBy,
    CrossImps,
    Event,
    LineDecimals,
    LineDisplay,
    LiveRankings,
    MatchpointScale,
    Pair,
    PairLineup,
    Rankings,
    ScoringMethod,
    Seating,
    Section,
    Session,
    ShortBoards,
    section_boards,
    sections_with_own_boards,
)
from .imports import ImportJob, ImportStatus
from .results import Result, ResultChange
from .scorepads import DealEra, PadKind, ScorePad
from .tables import EntryStatus, MatchTableEntry, MatchTableLink, TableEntry, TableLink, TableTokenMiss
from .teams import (
    AdjustmentKind,
    BamPoints,
    Match,
    MatchBoard,
    MatchLineChange,
    MatchStatus,
    Room,
    Team,
    TeamAdjustment,
    TeamEvent,
    TeamEventForm,
    TeamScoring,
    TieBreak,
    VpScale,
)

__all__ = [
    "AnalysisStatus", "BoardAnalysis",  # sessions/models/analysis.py
    "LINE_ACTIONS", "Board", "ButlerDatum", "ChangeAction", "Club", "ClubDirector", "Combination", "CombinedBy",
    "CrossImps", "Direction",
    "Doubling", "Event", "LineDecimals", "LineDisplay", "LiveRankings", "MatchpointScale", "MovementKind", "Pair", "PairLineup", "Player",
    "PointsUnit", "Rankings", "Result", "ResultChange", "ResultKind", "ScoringMethod", "Seat", "Seating", "Section",
    "Session", "ShortBoards", "Strain", "Vulnerability", "section_boards", "sections_with_own_boards",
    "EntryStatus", "MatchTableEntry", "MatchTableLink", "TableEntry", "TableLink", "TableTokenMiss",  # sessions/models/tables.py
    "ImportJob", "ImportStatus",  # sessions/models/imports.py
    "DealEra", "PadKind", "ScorePad",  # sessions/models/scorepads.py
    "AdjustmentKind", "BamPoints", "Match", "MatchBoard", "MatchLineChange", "MatchStatus", "Room", "Team", "TeamAdjustment",
    "TeamEvent", "TeamEventForm", "TeamScoring", "TieBreak", "VpScale",  # sessions/models/teams.py
]
