"""The handicaps the director types on a session's pairs page (RULES 14)."""

from __future__ import annotations

from decimal import Decimal

from django import forms

from sessions.models import Pair
from sessions.scoring.handicaps import HANDICAP_LIMIT


class HandicapsForm(forms.Form):
    """Each pair's handicap in percentage points (``h<pk>``, empty: none); the button
    pressed: save what was typed, or compute them from the event's source."""

    action = forms.ChoiceField(choices=[("save", "Save handicaps"), ("compute", "Compute handicaps")], initial="save")

    def __init__(self, *args, pairs: list[Pair], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.pairs = pairs
        for pair in pairs:
            self.fields[f"h{pair.pk}"] = forms.DecimalField(
                required=False, min_value=-HANDICAP_LIMIT, max_value=HANDICAP_LIMIT, max_digits=4, decimal_places=2,
                initial=pair.handicap, label=f"Pair {pair.label} handicap",
                widget=forms.NumberInput(attrs={"step": "0.01", "size": 6}),
            )

    def rows(self) -> list[tuple[Pair, forms.BoundField]]:
        return [(pair, self[f"h{pair.pk}"]) for pair in self.pairs]

    def handicaps(self) -> dict[int, Decimal | None]:
        return {pair.pk: self.cleaned_data[f"h{pair.pk}"] for pair in self.pairs}
