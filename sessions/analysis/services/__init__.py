"""Writes, each in one unit of work (sessions.core.services.unit_of_work)."""
