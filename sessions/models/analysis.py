"""The double-dummy analysis of a board, stored once and shown on every page.

One row per board that has a deal. ``data`` is ``Analysis.to_dict()`` (plain JSON);
the row also keeps the inputs it was made from (the board's deal text, dealer and
vulnerability as they were), so a deal corrected later is seen, in SQL, to need a new
analysis: a row whose inputs differ from its board's is stale and treated as pending.
"""

from django.db import models
from django.db.models import Q

from sessions.models.choices import Seat, Vulnerability
from sessions.models.events import Board
from sessions.models.validation import ChecksInProcess


class AnalysisStatus(models.TextChoices):
    PENDING = "pending", "Analysing"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class BoardAnalysis(ChecksInProcess, models.Model):
    board = models.OneToOneField(Board, on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(max_length=8, choices=AnalysisStatus, default=AnalysisStatus.PENDING)
    # What was (or is to be) analysed: copies of the board's fields at the time.
    deal = models.TextField()
    dealer = models.CharField(max_length=1, choices=Seat)
    vulnerability = models.CharField(max_length=4, choices=Vulnerability)
    data = models.JSONField(null=True, blank=True, help_text="Analysis.to_dict(): the DD table and par.")
    error = models.TextField(blank=True)
    analysed_at = models.DateTimeField(null=True, blank=True)

    club_path = "board__session__event__club"

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=~Q(status=AnalysisStatus.DONE) | Q(data__isnull=False, analysed_at__isnull=False),
                name="boardanalysis_done_has_data",
            ),
            models.CheckConstraint(
                condition=~Q(status=AnalysisStatus.FAILED) | ~Q(error=""),
                name="boardanalysis_failed_has_error",
            ),
        ]

    def __str__(self) -> str:
        return f"Analysis of {self.board} ({self.status})"

    def is_for(self, board: Board) -> bool:
        """Whether this row was made from the board as it is now (else it is stale)."""
        return (self.deal, self.dealer, self.vulnerability) == (board.deal, board.dealer, board.vulnerability)

