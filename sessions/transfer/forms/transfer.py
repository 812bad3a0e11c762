"""The upload form: it reads the request; the import service decides."""

from __future__ import annotations

from django import forms
from django.conf import settings

from sessions.models import Club, Event
from sessions.transfer.services.importing import PUBLISH_CHOICES

AS_THE_FILE = ("", "As the file shows")
#: The upload form's choices for NZ Scorer's conventions (sessions.transfer.services.importing
#: CONVENTION_CHOICES: the same words as the command's --not-played ...).
CONVENTION_FIELDS: dict[str, tuple[str, list[tuple[str, str]]]] = {
    "not_played": ("Lines not played (NP)", [
        ("zero", "Compared as a score of 0 (NZ Scorer)"), ("removed", "Left out of the board's comparisons")]),
    "cut_figures": ("Figures cut as NZ Scorer prints them", [
        ("yes", "Yes: lines to tenths, places on whole matchpoints"), ("no", "No: figures as scored")]),
    "short_totals": ("Totals on boards short of results", [
        ("ties", "Each missing result a tie (NZ Scorer)"), ("lines", "The lines' own factoring")]),
    "phantom_table": ("Lines factored to the phantom's table too", [("yes", "Yes (NZ Scorer)"), ("no", "No")]),
    "handicap": ("Handicap applied", [
        ("none", "None: scratch only"), ("50", "50% of each pair's handicap (NZ Scorer)"),
        ("100", "100% of each pair's handicap")]),
}


class ImportForm(forms.Form):
    file = forms.FileField(help_text="A USEBIO (.xml) or PBN (.pbn) results file.")
    event = forms.ModelChoiceField(
        queryset=Event.objects.none(), required=False, empty_label="A new event, as the file's program scores it",
        help_text="Or import into one of the club's events, scored with its settings.",
    )
    sections = forms.ChoiceField(
        required=False, widget=forms.RadioSelect, label="Sections",
        choices=[
            ("", "As the file's own figures show (else apart)"),
            ("together", "Together: every section's results compared across the field"),
            ("apart", "Apart: each section scored on its own"),
        ],
        help_text="For a new event from a file with several sections playing the same boards.",
    )

    publish = forms.ChoiceField(
        required=False, widget=forms.RadioSelect, label="Publish", choices=PUBLISH_CHOICES,
        help_text="Publishing tells the club's webhooks; marking final also sends the players' results mails.",
    )

    def __init__(self, *args, club: Club, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["event"].queryset = club.events.order_by("name")
        for name, (label, choices) in CONVENTION_FIELDS.items():
            self.fields[name] = forms.ChoiceField(required=False, label=label, choices=[AS_THE_FILE, *choices])

    def convention_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in CONVENTION_FIELDS]

    def conventions(self) -> dict[str, str]:
        """The conventions the director stated (none left "as the file shows")."""
        return {name: self.cleaned_data[name] for name in CONVENTION_FIELDS if self.cleaned_data.get(name)}

    def clean_file(self):
        upload = self.cleaned_data["file"]
        limit = settings.MAX_UPLOAD_BYTES
        if upload.size > limit:
            raise forms.ValidationError(
                f"The file is {upload.size / 1048576:.1f} MB: the largest file accepted is {limit / 1048576:.1f} MB."
            )
        return upload


class UploadSentForm(forms.Form):
    """"Mark as sent": the session's revision the director's page showed (and downloaded)."""

    revision = forms.IntegerField(min_value=0, max_value=2**63 - 1, widget=forms.HiddenInput)
