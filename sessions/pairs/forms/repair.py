"""Forms of the repair pages: they read the request, the repair services decide."""

from __future__ import annotations

import re

from django import forms

from sessions.models import Pair, Player, Seating
from sessions.pairs.services.repair import TableSeating
from sessions.core.values import parse_number

_BOARDS_RE = re.compile(r"^\s*\d+(\s*-\s*\d+)?(\s*[, ]\s*\d+(\s*-\s*\d+)?)*\s*$", re.ASCII)
#: A round's boards as a director writes them: "1-3", "7, 8, 9", "1-2 5".
BOARDS_HELP = "e.g. 7-9 or 7, 8, 9"
MAX_BOARD = 200


def parse_boards(text: str) -> tuple[int, ...]:
    """ "7-9" -> (7, 8, 9); "1, 4" -> (1, 4). ValidationError for anything else."""
    if not _BOARDS_RE.match(text or ""):
        raise forms.ValidationError(f"{text.strip()!r} is not a list of boards ({BOARDS_HELP})")
    numbers: list[int] = []
    for part in re.split(r"\s*[, ]\s*", re.sub(r"\s*-\s*", "-", text.strip())):  # "1 - 3" is "1-3"
        first, _, last = part.partition("-")
        low, high = parse_number(first, most=MAX_BOARD), parse_number(last or first, most=MAX_BOARD)
        if low is None or high is None or low > high:
            raise forms.ValidationError(f"{part} is not a range of boards from 1 ({BOARDS_HELP})")
        numbers.extend(range(low, high + 1))
    return tuple(numbers)


class SessionEditForm(forms.Form):
    name = forms.CharField(max_length=120)
    date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))


class FromRoundForm(forms.Form):
    from_round = forms.IntegerField(min_value=1, max_value=99, label="From round")


class LatePairForm(FromRoundForm):
    """A late pair: the round it starts in and its two players, each a name (from the club's
    list or new) with an optional national number, as on the pairs page; blank: named later."""

    player_1_name = forms.CharField(max_length=120, required=False, label="Player 1")
    player_1_number = forms.CharField(max_length=20, required=False, label="Player 1: national number")
    player_2_name = forms.CharField(max_length=120, required=False, label="Player 2")
    player_2_number = forms.CharField(max_length=20, required=False, label="Player 2: national number")

    def players(self) -> list[tuple[str, str]]:
        """The two typed players (name, national number), or none when both are blank."""
        data = self.cleaned_data
        typed = [(data[f"player_{seat}_name"], data[f"player_{seat}_number"]) for seat in (1, 2)]
        return typed if any(name or number for name, number in typed) else []


class RoundSeatingForm(forms.Form):
    """Every table of one round: NS pair, EW pair and boards (``t<table>_ns`` ...).

    A table with neither pair chosen plays nothing that round (a sit-out)."""

    NO_PAIR = ""

    def __init__(self, *args, tables: int, pairs: list[Pair], seatings: dict[int, Seating], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.tables = tables
        choices = [(self.NO_PAIR, "(nobody)")] + [(pair.label, pair.label) for pair in pairs]
        for table in range(1, tables + 1):
            seating = seatings.get(table)
            self.fields[f"t{table}_ns"] = forms.ChoiceField(
                choices=choices, required=False, label=f"Table {table} North-South",
                initial=seating.ns_pair.label if seating else self.NO_PAIR,
            )
            self.fields[f"t{table}_ew"] = forms.ChoiceField(
                choices=choices, required=False, label=f"Table {table} East-West",
                initial=seating.ew_pair.label if seating else self.NO_PAIR,
            )
            self.fields[f"t{table}_boards"] = forms.CharField(
                max_length=60, required=False, label=f"Table {table} boards", help_text=BOARDS_HELP,
                initial=", ".join(map(str, seating.boards)) if seating else "",
                widget=forms.TextInput(attrs={"size": 10, "autocomplete": "off"}),
            )

    def clean(self):
        cleaned = super().clean()
        for table in range(1, self.tables + 1):
            ns, ew, boards = (cleaned.get(f"t{table}_{part}") for part in ("ns", "ew", "boards"))
            if not ns and not ew:
                continue
            if not ns or not ew:
                self.add_error(f"t{table}_ns", f"table {table}: choose both pairs, or neither for no play")
                continue
            try:
                cleaned[f"t{table}_boards"] = parse_boards(boards or "")
            except forms.ValidationError as error:
                self.add_error(f"t{table}_boards", error)
        return cleaned

    def rows(self) -> list[tuple[int, forms.BoundField, forms.BoundField, forms.BoundField]]:
        return [(t, self[f"t{t}_ns"], self[f"t{t}_ew"], self[f"t{t}_boards"]) for t in range(1, self.tables + 1)]

    def seatings(self) -> list[TableSeating]:
        data = self.cleaned_data
        return [
            TableSeating(table, data[f"t{table}_ns"], data[f"t{table}_ew"], data[f"t{table}_boards"])
            for table in range(1, self.tables + 1)
            if data.get(f"t{table}_ns") and data.get(f"t{table}_ew")
        ]


class LinePairsForm(forms.Form):
    """A line's new pairs (reassign), or turning it round."""

    ns_pair = forms.ChoiceField(label="North-South pair", required=False)
    ew_pair = forms.ChoiceField(label="East-West pair", required=False)
    version = forms.IntegerField(min_value=1, max_value=2**31 - 1, widget=forms.HiddenInput)
    action = forms.ChoiceField(choices=[("reassign", "Reassign"), ("turn", "Turn round")], required=False)

    def __init__(self, *args, pairs: list[Pair], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        choices = [(pair.label, pair.label) for pair in pairs]
        self.fields["ns_pair"].choices = self.fields["ew_pair"].choices = choices

    def clean(self):
        cleaned = super().clean()
        turning = cleaned.get("action") == "turn"
        if not turning and not (cleaned.get("ns_pair") and cleaned.get("ew_pair")):
            raise forms.ValidationError("choose both pairs")
        return cleaned


class PlayerMergeForm(forms.Form):
    merge = forms.ModelChoiceField(queryset=Player.objects.none(), label="The same person's other record")

    def __init__(self, *args, player: Player, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["merge"].queryset = Player.objects.filter(club_id=player.club_id).exclude(pk=player.pk)
