"""Results in and out: importing USEBIO/PBN files as sessions, exporting sessions, events and teams events.

A file format is an adapter at the edge: imports go file -> ParsedEvent -> database,
exports database -> (session_score) -> ParsedEvent or tables -> file, every export
from one registry (exporters.EXPORTS). Scoring is always our engine's, through
session_score. A large upload is imported by a job, in the background (services/jobs.py); the
command and small uploads import at once.
"""
