"""Forms of the rubber and Chicago score pad: they read the request, the pad engine decides.

The same field names are read by static/js/pad.js, which scores in the browser when it
can; these forms serve a phone without JavaScript (the pad then lives in the Django
session) and check what a signed-in member sends to keep on the server.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms

from sessions.models import DealEra, PadKind
from sessions.scoring.errors import ScoringError
from sessions.scoring.scorepad import MAX_NAME, Pad, PadDeal, deal_from_json, pad_from_json

SEAT_CHOICES = (("N", "North"), ("E", "East"), ("S", "South"), ("W", "West"))
LEVEL_CHOICES = (("", "Level"), *((str(n), str(n)) for n in range(1, 8)), ("P", "Passed out"))
STRAIN_CHOICES = (("C", "♣ clubs"), ("D", "♦ diamonds"), ("H", "♥ hearts"), ("S", "♠ spades"), ("NT", "NT"))
DOUBLING_CHOICES = (("", "not doubled"), ("X", "doubled"), ("XX", "redoubled"))
HONOURS_CHOICES = (
    ("", "none"),
    ("four_trumps", "4 trump honours in one hand (100)"),
    ("five_trumps", "5 trump honours in one hand (150)"),
    ("four_aces", "4 aces in one hand at notrump (150)"),
)
SIDE_CHOICES = (("", "(no honours)"), ("NS", "WE (North-South)"), ("EW", "THEY (East-West)"))
MAX_PAD_BYTES = 200_000
#: A pad's JSON nests five deep (pad, rounds, a round, its deals, a deal); a deeper one is
#: no pad, and is refused before parsing (50,000 "[" overflow the parser's stack).
MAX_PAD_DEPTH = 8


class NewPadForm(forms.Form):
    kind = forms.ChoiceField(choices=PadKind.choices, initial=PadKind.RUBBER, widget=forms.RadioSelect, label="Game")
    era = forms.ChoiceField(choices=DealEra.choices, initial=DealEra.CURRENT, widget=forms.RadioSelect, label="Rules")
    north = forms.CharField(max_length=MAX_NAME, label="North (WE)")
    south = forms.CharField(max_length=MAX_NAME, label="South (WE)")
    east = forms.CharField(max_length=MAX_NAME, label="East (THEY)")
    west = forms.CharField(max_length=MAX_NAME, label="West (THEY)")
    first_dealer = forms.ChoiceField(choices=SEAT_CHOICES, initial="N", label="First dealer")

    def pad(self) -> Pad:
        data = self.cleaned_data
        names = [data["north"], data["east"], data["south"], data["west"]]
        try:
            return pad_from_json({"kind": data["kind"], "era": data["era"], "names": names,
                                  "first_dealer": data["first_dealer"], "rounds": []})
        except ScoringError as error:
            raise forms.ValidationError(str(error)) from None


class DealForm(forms.Form):
    """One deal: a new one, or (``round`` and ``deal`` given) a correction of one."""

    round = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)
    deal = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)
    level = forms.ChoiceField(choices=LEVEL_CHOICES, label="Contract")
    # The strain, doubling and declarer are required unless the deal was passed out (clean).
    strain = forms.ChoiceField(choices=STRAIN_CHOICES, required=False, label="Strain")
    doubling = forms.ChoiceField(choices=DOUBLING_CHOICES, required=False, label="Doubled")
    declarer = forms.ChoiceField(choices=SEAT_CHOICES, required=False, label="Declarer")
    tricks = forms.TypedChoiceField(choices=[("", "Tricks"), *((n, str(n)) for n in range(14))], coerce=int, required=False,
                                    empty_value=None, label="Tricks taken")
    honours = forms.ChoiceField(choices=HONOURS_CHOICES, required=False, label="Honours")
    honours_side = forms.ChoiceField(choices=SIDE_CHOICES, required=False, label="Held by")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        if (data.get("round") is None) != (data.get("deal") is None):
            raise forms.ValidationError("A correction names both the rubber and the deal.")
        if data["level"] == "P":
            raw = {"contract": "PASS"}
        else:
            if data.get("tricks") is None or not data.get("strain") or not data.get("declarer"):
                raise forms.ValidationError("Give the strain, the declarer and the tricks taken.")
            raw = {"contract": f"{data['level']}{data['strain']}{data.get('doubling', '')}",
                   "declarer": data["declarer"], "tricks": data["tricks"],
                   "honours": data.get("honours", ""), "honours_side": data.get("honours_side", "")}
        try:
            data["pad_deal"] = deal_from_json(raw)
        except ScoringError as error:
            raise forms.ValidationError(_sentence(str(error))) from None
        return data

    @classmethod
    def initial_for(cls, pad_deal: PadDeal, round_number: int, deal_number: int) -> dict[str, Any]:
        """The form's values to correct a stored deal."""
        initial: dict[str, Any] = {"round": round_number, "deal": deal_number}
        if pad_deal.passed_out:
            return {**initial, "level": "P"}
        contract = pad_deal.deal.contract
        assert contract is not None
        return {**initial, "level": str(contract.level), "strain": contract.strain.value,
                "doubling": contract.doubling.value, "declarer": pad_deal.declarer, "tricks": pad_deal.tricks,
                "honours": pad_deal.honours, "honours_side": pad_deal.honours_side}


class DealChoiceForm(forms.Form):
    """A deal to delete."""

    round = forms.IntegerField(min_value=1)
    deal = forms.IntegerField(min_value=1)


class SavePadForm(forms.Form):
    """A signed-in member keeps a pad: the browser's copy (JSON) or, without JavaScript,
    the server's session copy (``pad`` empty)."""

    client_id = forms.RegexField(regex=r"^[A-Za-z0-9_-]{8,40}$", max_length=40)
    pad = forms.CharField(required=False, max_length=MAX_PAD_BYTES, widget=forms.HiddenInput)

    def clean_pad(self) -> Pad | None:
        text = self.cleaned_data["pad"]
        if not text:
            return None
        if json_depth(text) > MAX_PAD_DEPTH:
            raise forms.ValidationError("The pad is not a pad: it is nested too deeply.")
        try:
            return pad_from_json(json.loads(text))
        except ValueError as error:  # ScoringError is a ValueError, and so is bad JSON
            message = str(error) if isinstance(error, ScoringError) else "the pad is not valid JSON"
            raise forms.ValidationError(_sentence(message)) from None


def json_depth(text: str) -> int:
    """How deep the arrays and objects of JSON ``text`` nest (brackets inside strings
    not counted), in one pass that needs no stack."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _sentence(message: str) -> str:
    return message[:1].upper() + message[1:] + ("" if message.endswith(".") else ".")
