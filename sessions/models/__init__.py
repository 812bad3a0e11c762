"""The data layer: models split by concern, re-exported here for ``from sessions.models import ...``."""

from .analysis import AnalysisStatus, BoardAnalysis
from .api_keys import ApiKey
from .choices import (
    LINE_ACTIONS, ChangeAction, Direction, Doubling, MovementKind, PointsUnit, ResultKind, Seat, Strain, Vulnerability,
)
from .competitions import Competition
from .clubs import NO_MASTER_POINTS, Club, ClubDirector, HandicapSource, MasterPointFederation, Player
from .events import (
    Board,
    ButlerDatum,
    Combination,
    CombinedBy,
    CrossImps,
    Event,
    Handicap,
    StrataBy,
    LineDecimals,
    LineDisplay,
    LiveRankings,
    MatchpointScale,
    NotPlayed,
    Pair,
    PairLineup,
    Rankings,
    ScoringMethod,
    Seating,
    Section,
    Session,
    ShortBoards,
    ShortTotals,
    section_boards,
    sections_with_own_boards,
)
from .imports import ImportJob, ImportStatus
from .masterpoints import MasterPointAward
from .penalties import PenaltyUnit, ProceduralPenalty
from .mail import MailKind, MailStatus, ResultMail
from .results import Result, ResultChange
from .scorepads import DealEra, PadKind, ScorePad
from .uploads import NationalUpload
from .tables import (
    CallReason, DirectorCall, EntryStatus, MatchTableEntry, MatchTableLink, TableEntry, TableLink, TableTokenMiss,
)
from .webhooks import DeliveryStatus, Webhook, WebhookDelivery, WebhookEvent, WebhookSubject
from .teams import (
    AdjustmentKind,
    BamPoints,
    Match,
    MatchLine,
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
    "ApiKey",  # sessions/models/api_keys.py
    "MailKind", "MailStatus", "ResultMail",  # sessions/models/mail.py
    "DeliveryStatus", "Webhook", "WebhookDelivery", "WebhookEvent", "WebhookSubject",  # sessions/models/webhooks.py
    "LINE_ACTIONS", "Board", "ButlerDatum", "ChangeAction", "Club", "ClubDirector", "Combination", "CombinedBy",
    "CrossImps", "Direction",
    "Doubling", "Event", "Handicap", "LineDecimals", "LineDisplay", "LiveRankings", "MatchpointScale", "MovementKind", "NotPlayed", "Pair", "PairLineup", "Player",
    "PointsUnit", "Rankings", "Result", "ResultChange", "ResultKind", "ScoringMethod", "Seat", "Seating", "Section",
    "Session", "ShortBoards", "ShortTotals", "Strain", "Vulnerability", "section_boards", "sections_with_own_boards",
    "CallReason", "DirectorCall", "EntryStatus", "MatchTableEntry", "MatchTableLink", "TableEntry", "TableLink", "TableTokenMiss",  # sessions/models/tables.py
    "ImportJob", "ImportStatus",  # sessions/models/imports.py
    "HandicapSource", "StrataBy", "MasterPointAward", "MasterPointFederation", "NO_MASTER_POINTS",  # clubs.py, masterpoints.py
    "DealEra", "PadKind", "ScorePad",  # sessions/models/scorepads.py
    "NationalUpload",  # sessions/models/uploads.py
    "PenaltyUnit", "ProceduralPenalty",  # sessions/models/penalties.py
    "Competition",  # sessions/models/competitions.py
    "AdjustmentKind", "BamPoints", "Match", "MatchLine", "MatchLineChange", "MatchStatus", "Room", "Team", "TeamAdjustment",
    "TeamEvent", "TeamEventForm", "TeamScoring", "TieBreak", "VpScale",  # sessions/models/teams.py
]
