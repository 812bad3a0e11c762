"""The IMP tables a director chooses from, in a director's words: one list for the pairs
and the teams event forms."""

from sessions.scoring.imps import IMP_TABLES

#: The IMP tables a director can choose, in a director's words (keys: the engine's names).
IMP_TABLE_NAMES = {
    "wbf": "WBF table (1962, current: up to 24 IMPs)",
    "1961": "1961 table (up to 25 IMPs)",
    "1948": "1948 Copenhagen table (up to 15 IMPs)",
    "emp1938": "1938 European Match Points (up to 12)",
}

#: The IMP table choices of the event forms (pairs and teams), in those words.
IMP_TABLE_CHOICES = [(name, IMP_TABLE_NAMES.get(name, name)) for name in IMP_TABLES]
