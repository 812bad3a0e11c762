"""Results in and out: importing USEBIO/PBN files as sessions, exporting sessions.

A file format is an adapter at the edge: imports go file -> ParsedEvent -> database,
exports database -> (session_score) -> ParsedEvent or tables -> file. Scoring is
always our engine's, through session_score.
"""

from .exporters import EXPORTERS
from .importing import ImportRefused, ImportReport, results_import
from .to_parsed import ExportRefused, session_to_parsed

__all__ = ["EXPORTERS", "ExportRefused", "ImportRefused", "ImportReport", "results_import", "session_to_parsed"]
