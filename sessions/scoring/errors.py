"""The one exception type the engine raises for impossible or malformed input."""


class ScoringError(ValueError):
    """Input that no bridge rule allows; the message says exactly what is wrong."""
