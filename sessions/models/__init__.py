"""The data layer: models split by concern, re-exported here for ``from sessions.models import ...``."""

from sessions.models.analysis import AnalysisStatus, BoardAnalysis
from sessions.models.api_keys import ApiKey
from sessions.models.choices import (
    LINE_ACTIONS, ChangeAction, Direction, Doubling, MovementKind, PointsUnit, ResultKind, Seat, Strain, Vulnerability,
)
from sessions.models.competitions import Competition
from sessions.models.clubs import NO_MASTER_POINTS, Club, ClubDirector, HandicapSource, MasterPointFederation, Player
from sessions.models.events import (
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
from sessions.models.imports import ImportJob, ImportStatus
from sessions.models.masterpoints import MasterPointAward
from sessions.models.penalties import PenaltyUnit, ProceduralPenalty
from sessions.models.mail import MailKind, MailStatus, ResultMail
from sessions.models.results import Result, ResultChange
from sessions.models.scorepads import DealEra, PadKind, ScorePad
from sessions.models.uploads import NationalUpload
from sessions.models.tables import (
    CallReason, DirectorCall, EntryStatus, MatchTableEntry, MatchTableLink, TableEntry, TableLink, TableTokenMiss,
)
from sessions.models.webhooks import DeliveryStatus, Webhook, WebhookDelivery, WebhookEvent, WebhookSubject
from sessions.models.teams import (
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
