"""Hand records and their double-dummy analysis."""
