"""The director's forms for hand records: upload a PBN file, or deal at random."""

from django import forms
from django.conf import settings


class HandRecordUploadForm(forms.Form):
    file = forms.FileField(label="Hand-record file (PBN)", help_text="The .pbn file from the dealing program.")

    def clean_file(self):
        upload = self.cleaned_data["file"]
        limit = getattr(settings, "MAX_UPLOAD_BYTES", 10 * 1024 * 1024)
        if upload.size > limit:
            raise forms.ValidationError(f"the file is larger than {limit // (1024 * 1024)} MB: is it a hand record?")
        return upload


class GenerateDealsForm(forms.Form):
    replace = forms.BooleanField(
        required=False, label="Replace the deals the boards already have",
        help_text="Only before the boards are dealt: the old hands are lost.",
    )
