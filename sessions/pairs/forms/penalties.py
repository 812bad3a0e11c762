"""The director's form for a procedural penalty (Law 90): the pair, how much in which
unit (the session's scoring decides which), the board if any, and the reason."""

from __future__ import annotations

from collections.abc import Sequence

from django import forms

from sessions.models import Pair, PenaltyUnit
from sessions.scoring.penalties import UNITS_BY_METHOD


class PenaltyForm(forms.Form):
    pair = forms.ChoiceField(label="Pair")
    amount = forms.DecimalField(min_value=0.01, max_digits=5, decimal_places=2, label="Penalty")
    penalty_unit = forms.ChoiceField(label="In")
    board = forms.IntegerField(min_value=1, max_value=999, required=False, label="On board (blank: the session)")
    reason = forms.CharField(max_length=120, label="Reason (the players read it)")

    def __init__(self, *args, pairs: Sequence[Pair], method: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.pairs = {str(pair.pk): pair for pair in pairs}
        several = len({pair.section_id for pair in pairs}) > 1
        self.fields["pair"].choices = [
            (key, f"{pair.section.letter} {pair.label}" if several else pair.label) for key, pair in self.pairs.items()
        ]
        #: The units the session's scoring takes (a penalty in another counts for nothing).
        self.units = [unit.value for unit in UNITS_BY_METHOD.get(method, ())]
        self.fields["penalty_unit"].choices = [(unit, PenaltyUnit(unit).label) for unit in self.units]

    def chosen_pair(self) -> Pair:
        return self.pairs[self.cleaned_data["pair"]]
