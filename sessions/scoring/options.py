"""The names of the engine's scoring options, as constants.

StrEnum members are their own string values, so an option stored as text (an event's
field, a file's convention) compares equal to its constant; code names the constant,
never the bare string.
"""

from enum import StrEnum


class Method(StrEnum):
    MATCHPOINTS = "matchpoints"
    CROSS_IMPS = "cross_imps"
    BUTLER = "butler"


class LineDisplay(StrEnum):
    NEUBERG = "neuberg"  # lines factored to the full field (EBUScore, ScoreBridge, Ruter)
    AS_PLAYED = "as_played"  # lines as played (Compscore3)


class ShortBoards(StrEnum):
    NEUBERG = "neuberg"
    RATIO = "ratio"  # M x full top / actual top, rounded
    NONE = "none"  # BriAn: every board keeps its own top


class CrossImpsMode(StrEnum):
    AVERAGE = "average"
    SUM = "sum"


class ImpTotal(StrEnum):
    """The IMP total a pair is shown and ranked by (RULES 6)."""

    SUM = "sum"  # the IMPs of its boards added up
    SCALED = "scaled"  # scaled to the session's boards: sum x boards / boards played (Magic Contest, Pianola)
    PER_COMPARISON = "per_comparison"  # IMPs per comparison: sum / comparisons met (Ruter)


class ButlerDatum(StrEnum):
    TRIMMED_MEAN = "trimmed_mean"
    MEDIAN_SMALL = "median_small"  # the median when a board has 3 results or fewer
    MEDIAN = "median"  # the median whatever the number of results (seeds: "Sometimes, the median score is used")


class Scale(StrEnum):
    TWO_ONE = "two_one"  # 2 per result beaten, 1 per tie
    ACBL = "acbl"  # 1 and 1/2


class NotPlayedRule(StrEnum):
    """How a line marked not played (NP) counts on its board (RULES 5)."""

    REMOVED = "removed"  # left out of the board's comparisons (RULES 5)
    ZERO = "zero"  # compared as a score of 0, a pass-out (NZ Scorer)


class ShortTotals(StrEnum):
    """What a pair's total counts on a board short of results (RULES 5)."""

    AS_LINES = "as_lines"  # the line's own factoring (short_boards)
    TIES = "ties"  # each missing result a tie with every result (NZ Scorer; the lines stay Neuberg)


class Handicap(StrEnum):
    """The share of each pair's handicap added to its percentage (RULES 8): the
    handicapped ranking beside the scratch one."""

    NONE = "none"
    HALF = "half"  # NZ Scorer: scratch + handicap / 2
    FULL = "full"
