"""A club competition's rules: the form reads them; sessions.clubs.services.competitions decides."""

from __future__ import annotations

from django import forms

from sessions.models import Competition
from sessions.clubs.services.competitions import COMPETITION_SETTINGS


class CompetitionForm(forms.ModelForm):
    """Never ``form.save()``: the services save (they check the engine's rules and bump)."""

    minimum_sessions = forms.IntegerField(min_value=0, max_value=999, label="Sessions played to be ranked")
    best_sessions = forms.IntegerField(min_value=1, max_value=999, required=False, label="Sessions counted (best N)")

    class Meta:
        model = Competition
        fields = COMPETITION_SETTINGS
        labels = {"place_points": "Points for 1st, 2nd ...", "tie_breaks": "Tie-breaks, in order"}
