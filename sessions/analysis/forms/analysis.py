"""The director's forms for hand records: upload a PBN file, or deal at random."""

from django import forms
from django.conf import settings


class SectionDealsMixin(forms.Form):
    """Where sections play different boards, which boards the deals are for."""

    def __init__(self, *args, own_sections: tuple[str, ...] = (), shared: bool = True, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.own_sections = own_sections
        if own_sections:
            choices = ([("", "the shared boards")] if shared else []) + [
                (letter, f"section {letter}'s own boards") for letter in own_sections
            ]
            self.fields["section"] = forms.ChoiceField(choices=choices, required=False, label="Boards")


class HandRecordUploadForm(SectionDealsMixin):
    file = forms.FileField(label="Hand-record file (PBN)", help_text="The .pbn file from the dealing program.")

    def clean_file(self):
        upload = self.cleaned_data["file"]
        limit = getattr(settings, "MAX_UPLOAD_BYTES", 10 * 1024 * 1024)
        if upload.size > limit:
            raise forms.ValidationError(f"the file is larger than {limit // (1024 * 1024)} MB: is it a hand record?")
        return upload


class GenerateDealsForm(SectionDealsMixin):
    replace = forms.BooleanField(
        required=False, label="Replace the deals the boards already have",
        help_text="Only before the boards are dealt: the old hands are lost.",
    )
