"""ClubScore's scoring engine: pure Python, no Django import anywhere in this package.

``from sessions.scoring import deal_score, imps`` works without Django settings.
"""

# --- single deal, teams, rubber ---------------------------------------------------------
from sessions.scoring.boards import Seat, Side, Vulnerability, dealer, is_vulnerable, parse_seat, vulnerability

# --- pairs scoring (matchpoints, cross-IMPs, Butler, sessions, ranking) -----------------
from sessions.scoring.butler import butler_board, butler_boards, butler_datum, trim_count
from sessions.scoring.contracts import Contract, Doubling, Strain, parse_contract
from sessions.scoring.crossimps import cross_imps_board, cross_imps_boards
from sessions.scoring.deal_score import ERAS, DealScore, deal_score, score_breakdown, undertrick_penalty
from sessions.scoring.errors import ScoringError
from sessions.scoring.events import (
    CombinedScore,
    CombinedStanding,
    Combination,
    EventOptions,
    EventResult,
    EventSession,
    SessionEntry,
    combine_sessions,
)
from sessions.scoring.imps import IMP_TABLES, imps
from sessions.scoring.matchpoints import matchpoint_board, matchpoint_boards, neuberg, ratio_scaled
from sessions.scoring.notation import (
    PASSED_OUT,
    Assigned,
    PassedOut,
    Played,
    Result,
    format_result,
    ns_score,
    parse_result,
    producible_ns_scores,
)
from sessions.scoring.ranking import format_points, place_labels, place_numbers
from sessions.scoring.rubber import Honors, RubberDeal, ScoreSheet, SheetEntry, chicago_sheet, chicago_vulnerability, rubber_sheet
from sessions.scoring.scores import NOT_PLAYED, Artificial, LineScore, NotPlayed, Weighted
from sessions.scoring.session import Line, ScoredLine, ScoringOptions, SessionInput, SessionResult, Standing, score_session
from sessions.scoring.teams import VP_SCALES, TeamMatch, board_a_match, team_match, victory_points, wbf_vp

__all__ = [
    # single deal, teams, rubber
    "ERAS", "IMP_TABLES", "NOT_PLAYED", "PASSED_OUT", "VP_SCALES",
    "Artificial", "Assigned", "Contract", "DealScore", "Doubling", "Honors", "LineScore",
    "NotPlayed", "PassedOut", "Played", "Result", "RubberDeal", "ScoreSheet", "ScoringError",
    "Seat", "SheetEntry", "Side", "Strain", "TeamMatch", "Vulnerability", "Weighted",
    "board_a_match", "chicago_sheet", "chicago_vulnerability", "deal_score", "dealer",
    "format_result", "imps", "is_vulnerable", "ns_score", "parse_contract", "parse_result",
    "parse_seat", "producible_ns_scores", "rubber_sheet", "score_breakdown", "team_match",
    "undertrick_penalty", "victory_points", "vulnerability", "wbf_vp",
    # pairs scoring
    "Line", "ScoredLine", "ScoringOptions", "SessionInput", "SessionResult", "Standing",
    "butler_board", "butler_boards", "butler_datum", "cross_imps_board", "cross_imps_boards",
    "format_points", "matchpoint_board", "matchpoint_boards",
    "neuberg", "place_labels", "place_numbers", "ratio_scaled", "score_session", "trim_count",
    # events of several sessions
    "Combination", "CombinedScore", "CombinedStanding", "EventOptions", "EventResult", "EventSession",
    "SessionEntry", "combine_sessions",
]
