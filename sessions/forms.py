"""Forms of the director's pages: they read the request, the services decide."""

from __future__ import annotations

import datetime

from django import forms

from sessions.models import Event


class LineForm(forms.Form):
    """One entry row as posted: the row (named by the page), the line it shows, what was typed."""

    result = forms.IntegerField(required=False)
    version = forms.IntegerField(min_value=1, required=False)
    text = forms.CharField(max_length=60, required=False, strip=True)
    lead = forms.CharField(max_length=8, required=False, strip=True)
    action = forms.ChoiceField(choices=[("save", "Save"), ("delete", "Delete")], required=False)

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("result") and not cleaned.get("version"):
            raise forms.ValidationError("the line's version is missing: reload the page")
        return cleaned


class SessionShapeForm(forms.Form):
    """Step one of a new session: how many pairs, and boards a round if not the suggestion's."""

    pairs = forms.IntegerField(min_value=3, max_value=60)
    boards_per_round = forms.IntegerField(min_value=1, max_value=8, required=False)


class SessionCreateForm(SessionShapeForm):
    event = forms.ModelChoiceField(queryset=Event.objects.none())
    name = forms.CharField(max_length=120)
    date = forms.DateField(initial=datetime.date.today, widget=forms.DateInput(attrs={"type": "date"}))
    movement = forms.TypedChoiceField(coerce=int, widget=forms.RadioSelect)

    def __init__(self, *args, club, movements, pair_labels=(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["event"].queryset = club.events.order_by("name")
        self.fields["movement"].choices = [(i, m.description) for i, m in enumerate(movements)]
        for label in pair_labels:
            for seat in (1, 2):
                self.fields[f"pair_{label}_{seat}"] = forms.CharField(
                    max_length=120, required=False, label=f"{label} player {seat}",
                    widget=forms.TextInput(attrs={"list": "club-players", "autocomplete": "off"}),
                )

    def pair_players(self, labels) -> dict[str, list[str]]:
        return {
            label: [self.cleaned_data.get(f"pair_{label}_{seat}", "") for seat in (1, 2)]
            for label in labels
        }


class PlayerForm(forms.Form):
    name = forms.CharField(max_length=120)
    national_number = forms.CharField(max_length=20, required=False)
