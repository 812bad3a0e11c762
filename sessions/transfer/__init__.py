"""Results in and out: importing USEBIO/PBN files as sessions, exporting sessions, events and teams events.

A file format is an adapter at the edge: imports go file -> ParsedEvent -> database,
exports database -> (session_score) -> ParsedEvent or tables -> file, every export
from one registry (exporters.EXPORTS). Scoring is always our engine's, through
session_score. A large upload is imported by a job, in the background (jobs.py); the
command and small uploads import at once.
"""

from .exporters import EXPORTERS, EXPORTS
from .importing import ImportRefused, ImportReport, results_import, results_read, results_store
from .to_parsed import ExportRefused, session_to_parsed

__all__ = [
    "EXPORTERS", "EXPORTS", "ExportRefused", "ImportRefused", "ImportReport", "results_import", "results_read", "results_store",
    "session_to_parsed",
]
