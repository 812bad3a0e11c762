"""Forms of a table's phone: they read the request, the table services decide."""

from __future__ import annotations

from django import forms

from sessions.pairs.forms.sessions import LineForm
from sessions.models import CallReason
from sessions.phones.services.tables import CLIENT_KEY_LENGTH, SeatChoice

SEATS = (("N", "North"), ("S", "South"), ("E", "East"), ("W", "West"))


class SendForm(forms.Form):
    """NS send a board's result: the same notation and limits as the director's entry."""

    board = forms.IntegerField(min_value=1, max_value=32767)
    text = forms.CharField(max_length=LineForm.TEXT_LENGTH, strip=True, label="Result")
    lead = forms.CharField(max_length=LineForm.LEAD_LENGTH, required=False, strip=True, label="Lead")
    client_key = forms.CharField(min_length=CLIENT_KEY_LENGTH[0], max_length=CLIENT_KEY_LENGTH[1])
    accept_warnings = forms.BooleanField(required=False)


class EntryKeyForm(forms.Form):
    """A confirmation or refusal names the send by the key the phone gave it."""

    client_key = forms.CharField(min_length=CLIENT_KEY_LENGTH[0], max_length=CLIENT_KEY_LENGTH[1])


class CallForm(forms.Form):
    """A call to the director: the press's key, the round the phone shows, and a reason
    from the phone's buttons (or none)."""

    client_key = forms.CharField(min_length=CLIENT_KEY_LENGTH[0], max_length=CLIENT_KEY_LENGTH[1])
    round = forms.IntegerField(min_value=1, max_value=999, required=False)
    reason = forms.ChoiceField(choices=CallReason.choices, required=False)


class DealForm(forms.Form):
    """A board's hands typed at the table, each "spades.hearts.diamonds.clubs"; the
    table service checks them (one may be left empty: the cards left over)."""

    board = forms.IntegerField(min_value=1, max_value=32767)
    north = forms.CharField(max_length=40, required=False, strip=True, label="North")
    east = forms.CharField(max_length=40, required=False, strip=True, label="East")
    south = forms.CharField(max_length=40, required=False, strip=True, label="South")
    west = forms.CharField(max_length=40, required=False, strip=True, label="West")
    client_key = forms.CharField(min_length=CLIENT_KEY_LENGTH[0], max_length=CLIENT_KEY_LENGTH[1])


class SeatsForm(forms.Form):
    """Who sits where: a player of the club's list, a membership number or a visitor's name, per seat."""

    def __init__(self, *args, players, current: dict[str, int | None], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "(choose)")] + [(str(p.pk), f"{p.name} (visitor)" if p.visitor else p.name) for p in players]
        for seat, name in SEATS:
            self.fields[f"{seat}_player"] = forms.TypedChoiceField(
                choices=choices, coerce=int, empty_value=None, required=False, label=name,
                initial=current.get(seat),
            )
            self.fields[f"{seat}_number"] = forms.CharField(
                max_length=20, required=False, label=f"{name}: or membership number",
                widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
            )
            self.fields[f"{seat}_name"] = forms.CharField(
                max_length=120, required=False, label=f"{name}: or a visitor's name (not on the list)",
                widget=forms.TextInput(attrs={"autocomplete": "off"}),
            )

    def seats(self) -> dict[str, SeatChoice]:
        data = self.cleaned_data
        return {
            seat: SeatChoice(player_id=data[f"{seat}_player"], number=data[f"{seat}_number"], name=data[f"{seat}_name"])
            for seat, _ in SEATS
        }

    def rows(self):
        return [(name, self[f"{seat}_player"], self[f"{seat}_number"], self[f"{seat}_name"]) for seat, name in SEATS]


class TableEmailForm(forms.Form):
    """A player at the table gives their address for their results, and agrees (the service decides)."""

    player = forms.TypedChoiceField(coerce=int, label="Your name")
    email = forms.EmailField(label="Your e-mail address", max_length=254)
    consent = forms.BooleanField(
        required=False, label="I agree to receive my results by e-mail (every mail has a link to stop them)",
    )

    def __init__(self, *args, players: list[tuple[int, str]], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = players
