"""Pairs sessions: setting one up, entering and repairing its results, publishing it, its players' pages."""
