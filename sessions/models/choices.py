"""The fixed vocabularies of the data layer, as TextChoices.

Values match the engine's own spellings (sessions.scoring.boards / contracts), so a
stored value converts to the engine's enum with a plain call: Seat(board.dealer).
"""

from django.db import models


class Direction(models.TextChoices):
    NS = "NS", "North-South"
    EW = "EW", "East-West"
    # A Howell pair has no fixed direction.
    NONE = "", "Either"


class Seat(models.TextChoices):
    N = "N", "North"
    E = "E", "East"
    S = "S", "South"
    W = "W", "West"


class Vulnerability(models.TextChoices):
    NONE = "None", "None"
    NS = "NS", "North-South"
    EW = "EW", "East-West"
    BOTH = "Both", "Both"


class Strain(models.TextChoices):
    CLUBS = "C", "Clubs"
    DIAMONDS = "D", "Diamonds"
    HEARTS = "H", "Hearts"
    SPADES = "S", "Spades"
    NOTRUMP = "NT", "No trumps"


class Doubling(models.TextChoices):
    NONE = "", "Undoubled"
    DOUBLED = "X", "Doubled"
    REDOUBLED = "XX", "Redoubled"


class MovementKind(models.TextChoices):
    MITCHELL = "mitchell", "Mitchell"
    HOWELL = "howell", "Howell"


class ResultKind(models.TextChoices):
    PLAYED = "played", "Played"
    PASSED = "passed", "Passed out"
    ASSIGNED = "assigned", "Assigned score"
    ARTIFICIAL = "artificial", "Artificial adjusted score"
    WEIGHTED = "weighted", "Weighted score"
    # Matchpoints or IMPs the director set on the line (in the event's unit); the
    # adjusted score written on the traveller, if any, stays in the artificial or score fields.
    ASSIGNED_POINTS = "points", "Points assigned by the director"
    NOT_PLAYED = "not_played", "Not played"


class PointsUnit(models.TextChoices):
    MATCHPOINTS = "MP", "Matchpoints"
    IMPS = "IMP", "IMPs"


class ChangeAction(models.TextChoices):
    RECORDED = "recorded", "Recorded"
    CORRECTED = "corrected", "Corrected"
    DELETED = "deleted", "Deleted"
    REGROUPED = "regrouped", "Fouled-board group"
    # A line's pairs changed: reassigned, or turned round (the score moves sides).
    PAIRS = "pairs", "Pairs changed"
    # Changes to the session rather than to one line: no board, no pairs.
    SEATING = "seating", "Seating"
    MOVEMENT = "movement", "Pair added or withdrawn"
    PLAYERS = "players", "Change of player"
    SETTINGS = "settings", "Settings"
    PUBLISHED = "published", "Published"
    UNPUBLISHED = "unpublished", "Unpublished"
    IMPORTED = "imported", "Imported"
    MASTERPOINTS = "masterpoints", "Master points"
    PENALTY = "penalty", "Procedural penalty"
    HANDICAP = "handicap", "Handicap"


#: The change-log actions about one traveller line: they name its board and pairs.
LINE_ACTIONS = (
    ChangeAction.RECORDED, ChangeAction.CORRECTED, ChangeAction.DELETED, ChangeAction.REGROUPED, ChangeAction.PAIRS,
)
