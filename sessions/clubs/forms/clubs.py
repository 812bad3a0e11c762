"""Forms of the club owner's pages: the club's settings and its directors."""

from __future__ import annotations

from django import forms

from sessions.models import ApiKey, Club, HandicapSource, MasterPointFederation


def _help(name: str) -> str:
    return str(Club._meta.get_field(name).help_text)


def _help_of_key(name: str) -> str:
    return str(ApiKey._meta.get_field(name).help_text)


class ClubSettingsForm(forms.Form):
    """The club's name and what its public page says (club_update cleans and checks).

    A plain form rather than a ModelForm: a refused post must not change the club object
    the page header shows.
    """

    name = forms.CharField(max_length=120)
    description = forms.CharField(
        max_length=1000, required=False, widget=forms.Textarea(attrs={"rows": 4}), help_text=_help("description"),
    )
    # A bare "example.org" becomes https://example.org (Django 6's default, chosen now).
    website = forms.URLField(
        max_length=200, required=False, assume_scheme="https", help_text=_help("website"),
        widget=forms.URLInput(attrs={"placeholder": "https://"}),
    )
    frame_origins = forms.CharField(
        max_length=2000, required=False, label=Club._meta.get_field("frame_origins").verbose_name.capitalize(),
        widget=forms.Textarea(attrs={"rows": 3}), help_text=_help("frame_origins"),
    )
    masterpoint_federation = forms.ChoiceField(
        label="Master points", choices=MasterPointFederation.choices, required=False,
        help_text=_help("masterpoint_federation"),
    )
    masterpoint_scale = forms.CharField(
        label="Master point scale", max_length=16, required=False, help_text=_help("masterpoint_scale"),
    )
    national_club_number = forms.CharField(
        label="Club number with the national body", max_length=20, required=False,
        help_text=_help("national_club_number"),
    )
    p2p_charge_rate = forms.IntegerField(
        label="P2P charge rate", min_value=0, max_value=1000, required=False, help_text=_help("p2p_charge_rate"),
    )
    handicap_source = forms.ChoiceField(
        label="Handicaps from", choices=HandicapSource.choices, required=False, help_text=_help("handicap_source"),
    )
    rating_sessions = forms.IntegerField(
        label="Sessions of the averages and ratings", min_value=1, max_value=100, required=False,
        help_text=_help("rating_sessions"),
    )


class ApiKeyForm(forms.Form):
    prefix = "key"  # its fields' ids stay apart from the settings form's on the same page

    name = forms.CharField(max_length=80, label="Name of the new key", help_text=_help_of_key("name"))


class WebhookForm(forms.Form):
    prefix = "hook"  # apart from the settings form's fields on the same page

    url = forms.URLField(
        max_length=300, label="Address of the new webhook", assume_scheme="https",
        widget=forms.URLInput(attrs={"placeholder": "https://"}),
        help_text="An https address of a public site: told when a session or teams event is published, "
                  "marked final or amended after final.",
    )


class DirectorAddForm(forms.Form):
    identifier = forms.CharField(
        max_length=254, label="Username or e-mail",
        help_text="Of someone who already has a ClubScore account.",
    )
    is_owner = forms.BooleanField(
        required=False, label="Owner too", help_text="Owners also manage the club's settings and its directors.",
    )


class OwnerForm(forms.Form):
    """Make a director an owner (1) or a plain director (0)."""

    is_owner = forms.TypedChoiceField(choices=[("1", "owner"), ("0", "director")], coerce=lambda value: value == "1")
