"""Forms of the teams pages: they read the request, the services decide."""

from __future__ import annotations

from django import forms

from sessions.core.forms.imp_tables import IMP_TABLE_CHOICES
from sessions.models import AdjustmentKind, BamPoints, MatchStatus, Player, Room, Team, TeamEvent
from sessions.teams.services.teams import TEAM_EVENT_SETTINGS
from sessions.core.values import parse_number


class IdsField(forms.ModelMultipleChoiceField):
    """Objects chosen by id, each id checked before the query: an id past 64 bits matches
    nothing (Django's own check lets it through to SQLite, which refuses it)."""

    def _check_values(self, value):
        for pk in value:
            if parse_number(str(pk)) is None:
                raise forms.ValidationError(
                    self.error_messages["invalid_pk_value"], code="invalid_pk_value", params={"pk": pk},
                )
        return super()._check_values(value)


class TeamEventForm(forms.ModelForm):
    """A teams event's name, form and scoring; the service saves it (never ``form.save()``)."""

    imp_table = forms.ChoiceField(label="IMP table", choices=IMP_TABLE_CHOICES)

    class Meta:
        model = TeamEvent
        fields = TEAM_EVENT_SETTINGS
        labels = {
            "form": "Form of the event", "scoring": "Scoring", "vp_scale": "Victory point scale",
            "bam_points": "Board-a-match points",
            "boards_per_match": "Boards a match", "bye_vp": "VPs for a bye",
            "tie_break": "A drawn knockout match", "imp_table": "IMP table",
            "table_confirmation": "Phones: the opponents confirm each result",
            "table_shows_imps": "Phones: show each board's IMPs once both rooms have played it",
        }
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),  # what a date box reads
            "form": forms.RadioSelect, "scoring": forms.RadioSelect, "vp_scale": forms.RadioSelect,
            "bam_points": forms.RadioSelect, "tie_break": forms.RadioSelect,
        }

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Board-a-match only: a form that leaves it out (an IMPs event) keeps the default.
        self.fields["bam_points"].required = False

    def clean_bam_points(self) -> int:
        return self.cleaned_data.get("bam_points") or BamPoints.ONE


class TeamForm(forms.Form):
    """A new team: its name, four to six of the club's players and the captain."""

    name = forms.CharField(max_length=120)
    players = IdsField(
        queryset=Player.objects.none(), widget=forms.CheckboxSelectMultiple,
        help_text="Tick four to six players.",
    )
    captain = forms.ModelChoiceField(queryset=Player.objects.none(), required=False)

    def __init__(self, *args, club_players, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["players"].queryset = club_players
        self.fields["captain"].queryset = club_players


class MatchForm(forms.Form):
    """A match set by hand: a single match or a knockout tie (with its carry-over)."""

    round = forms.IntegerField(min_value=1, initial=1)
    home = forms.ModelChoiceField(queryset=Team.objects.none())
    away = forms.ModelChoiceField(queryset=Team.objects.none())
    boards = forms.IntegerField(min_value=1, max_value=128)
    first_board = forms.IntegerField(min_value=1, initial=1)
    carry_over = forms.DecimalField(
        max_digits=6, decimal_places=2, initial=0, required=False,
        help_text="IMPs brought in by the home team (negative: by the away team).",
    )

    def __init__(self, *args, teams, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["home"].queryset = teams
        self.fields["away"].queryset = teams


class AdjustmentForm(forms.Form):
    team = forms.ModelChoiceField(queryset=Team.objects.none())
    kind = forms.ChoiceField(choices=AdjustmentKind.choices)
    vp = forms.DecimalField(max_digits=5, decimal_places=2, label="VPs",
                            help_text="A penalty or fine is taken off: type 3 for a 3-VP penalty.")
    round = forms.IntegerField(min_value=1, required=False, help_text="Empty: the whole event.")
    reason = forms.CharField(max_length=200, required=False)

    def __init__(self, *args, teams, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["team"].queryset = teams


class TotalsForm(forms.Form):
    home_imps = forms.DecimalField(min_value=0, max_digits=7, decimal_places=2, label="Home IMPs")
    away_imps = forms.DecimalField(min_value=0, max_digits=7, decimal_places=2, label="Away IMPs")


class NotPlayedForm(forms.Form):
    status = forms.ChoiceField(choices=[(s, MatchStatus(s).label) for s in (MatchStatus.AVERAGE, MatchStatus.FORFEIT)])
    home_vp = forms.DecimalField(min_value=0, max_digits=5, decimal_places=2, label="Home VPs")
    away_vp = forms.DecimalField(min_value=0, max_digits=5, decimal_places=2, label="Away VPs")


def line_field_name(board: int, room: str) -> str:
    return f"b{board}_{room}"


def version_field_name(board: int, room: str) -> str:
    return f"v{board}_{room}"


def line_id_field_name(board: int, room: str) -> str:
    return f"l{board}_{room}"


class MatchLinesForm(forms.Form):
    """Both rooms of every board of a match: one text field each, in the pairs notation.

    Each box carries, hidden, the text, the version and the id of the line the director
    saw: a box left as it was is not written (whatever a phone stored meanwhile), and a
    box changed over a line changed since, or deleted and entered again (a new id, its
    version 1 again), is refused (the service's check).
    """

    def __init__(
        self, *args, boards: range, initial_lines: dict[tuple[int, str], str],
        initial_versions: dict[tuple[int, str], int] | None = None,
        initial_ids: dict[tuple[int, str], int] | None = None, **kwargs,
    ) -> None:
        super().__init__(*args, **kwargs)
        versions, ids = initial_versions or {}, initial_ids or {}
        for board in boards:
            for room in Room.values:
                label = f"Board {board} {room} room"
                self.fields[line_field_name(board, room)] = forms.CharField(
                    max_length=60, required=False, initial=initial_lines.get((board, room), ""), label=label,
                    show_hidden_initial=True,
                    # The table's headings name the column: the box carries its own name for screen readers.
                    widget=forms.TextInput(attrs={"aria-label": label, "autocomplete": "off", "size": 10}),
                )
                self.fields[version_field_name(board, room)] = forms.IntegerField(
                    min_value=0, required=False, initial=versions.get((board, room), 0), widget=forms.HiddenInput,
                )
                self.fields[line_id_field_name(board, room)] = forms.IntegerField(
                    min_value=1, max_value=2**63 - 1, required=False, initial=ids.get((board, room)),
                    widget=forms.HiddenInput,
                )

    def touched(self, board: int, room: str) -> bool:
        """The director changed this box (from what the page showed)."""
        return line_field_name(board, room) in self.changed_data

    def seen_version(self, board: int, room: str) -> int | None:
        """The version of the line the page showed (0: none); None from a page without versions."""
        return self.cleaned_data.get(version_field_name(board, room))

    def seen_line(self, board: int, room: str) -> int | None:
        """The id of the line the page showed; None when it showed none (or is an older page)."""
        return self.cleaned_data.get(line_id_field_name(board, room))


class SeenMixin(forms.Form):
    """An edit form carries the state the director saw (services.teams.edit_token): the
    service refuses the write if the object changed since the form was opened."""

    seen = forms.CharField(widget=forms.HiddenInput, max_length=32,
                           error_messages={"required": "this form is missing its state: reload the page"})


class TeamEditForm(TeamForm, SeenMixin):
    pass


class MatchEditForm(MatchForm, SeenMixin):
    pass


class AdjustmentEditForm(AdjustmentForm, SeenMixin):
    pass
