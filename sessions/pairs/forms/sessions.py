"""Forms of the director's pages: they read the request, the services decide."""

from __future__ import annotations

import datetime

from django import forms

from sessions.models import Event, HandicapSource, Pair, Player, ScoringMethod
from sessions.pairs.services.events import EVENT_SETTINGS
from sessions.core.values import parse_number

from sessions.core.forms.imp_tables import IMP_TABLE_CHOICES


class LineForm(forms.Form):
    """One entry row as posted: the row (named by the page), the line it shows, what was typed."""

    TEXT_LENGTH = 60  # Result.text
    LEAD_LENGTH = 8  # Result.lead

    result = forms.IntegerField(required=False, min_value=1, max_value=2**31 - 1)
    version = forms.IntegerField(min_value=1, max_value=2**31 - 1, required=False)
    text = forms.CharField(max_length=TEXT_LENGTH, required=False, strip=True)
    lead = forms.CharField(max_length=LEAD_LENGTH, required=False, strip=True)
    action = forms.ChoiceField(choices=[("save", "Save"), ("delete", "Delete")], required=False)
    # The row as the page showed it (EntryRow.seen): board, table, round and pairs. The
    # line is stored only if the row still is what the director saw when typing it.
    seen = forms.CharField(max_length=200, required=False, strip=False)

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("result") and not cleaned.get("version"):
            raise forms.ValidationError("the line's version is missing: reload the page")
        return cleaned

    def row_errors(self) -> list[str]:
        """The refusals in a director's words, for the row's message."""
        names = {"text": "Result", "lead": "Lead", "result": "Line", "version": "Version", "action": "Action"}
        return [
            f"{names[field]}: {message}" if field in names else message
            for field, messages in self.errors.items() for message in messages
        ]


class SessionShapeForm(forms.Form):
    """Step one of a new session: how many pairs in how many sections, and rounds, boards a
    round and arrow-switch rounds if not the suggestion's."""

    MOST_PAIRS_A_SECTION = 60
    SECTION_LETTERS = "ABCD"

    pairs = forms.IntegerField(min_value=3, max_value=MOST_PAIRS_A_SECTION * len(SECTION_LETTERS))
    sections = forms.IntegerField(min_value=1, max_value=len(SECTION_LETTERS), required=False)
    rounds = forms.IntegerField(min_value=1, max_value=MOST_PAIRS_A_SECTION, required=False)
    boards_per_round = forms.IntegerField(min_value=1, max_value=8, required=False)
    arrow_switch = forms.CharField(max_length=60, required=False, strip=True)

    def clean_sections(self) -> int:
        return self.cleaned_data.get("sections") or 1

    def clean_arrow_switch(self) -> frozenset[int] | None:
        """"6 7" or "6, 7" -> {6, 7}; empty -> None (the suggestion's own switching)."""
        typed = self.cleaned_data.get("arrow_switch", "").replace(",", " ").split()
        rounds = [parse_number(word, most=self.MOST_PAIRS_A_SECTION) for word in typed]
        if None in rounds:
            raise forms.ValidationError("give the arrow-switch rounds as numbers, for example 6 7")
        return frozenset(rounds) or None

    def clean(self):
        cleaned = super().clean()
        pairs, sections = cleaned.get("pairs"), cleaned.get("sections")
        if pairs and sections:
            if -(-pairs // sections) > self.MOST_PAIRS_A_SECTION:
                self.add_error("pairs", f"a section has at most {self.MOST_PAIRS_A_SECTION} pairs: add a section")
            elif pairs // sections < 3:
                self.add_error("sections", f"a section needs at least 3 pairs, not {pairs // sections}")
        return cleaned

    def section_letters(self) -> str:
        return self.SECTION_LETTERS[: self.cleaned_data["sections"]]

    def pairs_a_section(self) -> int:
        """The pairs of the largest section: the movement every section plays."""
        return -(-self.cleaned_data["pairs"] // self.cleaned_data["sections"])

    def short_sections(self) -> str:
        """The sections one pair short when the pairs do not split equally (27 in 2: 14 +
        13): the last ones, each playing the movement with a phantom."""
        spare = self.pairs_a_section() * self.cleaned_data["sections"] - self.cleaned_data["pairs"]
        letters = self.section_letters()
        return letters[len(letters) - spare:] if spare else ""


class MovementShapeForm(SessionShapeForm):
    """A new movement for an existing session: the pairs of each section and the boards a
    round. The session keeps its sections, so the shape form's sections, rounds and
    arrow-switch boxes are left out rather than silently ignored."""

    sections = None  # type: ignore[assignment]
    rounds = None  # type: ignore[assignment]
    arrow_switch = None  # type: ignore[assignment]

    def clean_sections(self) -> int:
        return 1


class SessionCreateForm(SessionShapeForm):
    event = forms.ModelChoiceField(queryset=Event.objects.none(), required=False, empty_label="(a new event)")
    new_event = forms.CharField(
        max_length=120, required=False, label="or a new event",
        help_text="Its name; it scores by matchpoints until you change its settings.",
    )
    name = forms.CharField(max_length=120)
    date = forms.DateField(
        initial=datetime.date.today,
        # ISO is the only value an <input type="date"> reads, whatever the locale.
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    movement = forms.TypedChoiceField(coerce=int, widget=forms.RadioSelect)

    BOARD_CHOICES = [("same", "same boards"), ("different", "different boards")]
    #: Each section's boards choice: "deals_B" (not "boards_", which boards_per_round starts with).
    DEALS_PREFIX = "deals_"

    def __init__(self, *args, club, movements, pair_labels=(), letters="", **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["event"].queryset = club.events.order_by("name")
        self.fields["movement"].choices = [(i, m.description) for i, m in enumerate(movements)]
        # With several sections, each plays the shared boards or deals of its own.
        for letter in letters if len(letters) > 1 else "":
            self.fields[f"{self.DEALS_PREFIX}{letter}"] = forms.ChoiceField(
                choices=self.BOARD_CHOICES, initial="same", required=False,  # not given: the same boards
                widget=forms.RadioSelect, label=f"Section {letter}",
            )
        for label in pair_labels:
            for seat in (1, 2):
                self.fields[self._pair_field(label, seat)] = forms.CharField(
                    max_length=120, required=False, label=f"{label.replace(':', ' ')} player {seat}",
                    widget=forms.TextInput(attrs={"list": "club-players", "autocomplete": "off"}),
                )

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("event") and cleaned.get("new_event"):
            raise forms.ValidationError("choose an event or name a new one, not both")
        if not cleaned.get("event") and not cleaned.get("new_event") and "event" not in self.errors:
            self.add_error("event", "choose the event, or name a new one")
        return cleaned

    def board_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith(self.DEALS_PREFIX)]

    def own_boards(self) -> tuple[str, ...]:
        """The sections that play deals of their own (different boards)."""
        return tuple(
            name.removeprefix(self.DEALS_PREFIX) for name in self.fields
            if name.startswith(self.DEALS_PREFIX) and self.cleaned_data.get(name) == "different"
        )

    @staticmethod
    def _pair_field(label: str, seat: int) -> str:
        # "A:1NS" (a pair of section A) -> "pair_A-1NS_1": a colon is awkward in ids and selectors.
        return f"pair_{label.replace(':', '-')}_{seat}"

    def pair_players(self, labels) -> dict[str, list[str]]:
        return {
            label: [self.cleaned_data.get(self._pair_field(label, seat), "") for seat in (1, 2)]
            for label in labels
        }


class PlayerForm(forms.Form):
    name = forms.CharField(max_length=120)
    national_number = forms.CharField(max_length=20, required=False)
    masterpoints_held = forms.DecimalField(
        required=False, min_value=0, max_digits=9, decimal_places=2, label="Master points held",
        help_text=str(Player._meta.get_field("masterpoints_held").help_text),
    )
    grade = forms.DecimalField(
        required=False, min_value=0, max_value=100, max_digits=5, decimal_places=2, label="National grade (%)",
        help_text=str(Player._meta.get_field("grade").help_text),
    )


#: Every option explained for the director who has to choose it.
EVENT_HELP = {
    "masterpoint_scale": (
        "Empty: the club's scale (its settings). Or a scale of the club's federation for this event: "
        "EBU club, district, county, regional, national; ABF club, supervised, championship; "
        "\"none\" for an event that awards no master points (RULES 12)."
    ),
    "method": (
        "Matchpoints: each result is compared with the others on the same board (the usual club "
        "pairs game). Cross-IMPs: each result is IMPed against every other result on the board. "
        "Butler: each result is IMPed against the board's datum, an average of the scores."
    ),
    "mp_scale": (
        "Matchpoints only. Both scales give the same percentages; only the figures differ. "
        "European: 2 for each result beaten and 1 for each tie (top = 2 x (results - 1)). "
        "ACBL: 1 and a half (top = results - 1)."
    ),
    "line_display": (
        "Matchpoints only: how a traveller shows a board that has fewer results than usual. "
        "Session percentages and totals are the same either way."
    ),
    "short_boards": (
        "Matchpoints only: a board played fewer times than usual (a sit-out, a board not played) "
        "is scaled up to the full top. Neuberg's formula is the standard; ratio scaling multiplies "
        "by full top / actual top and rounds, as some programs do for a Howell with a phantom. "
        "No scaling leaves every board out of its own top (as BriAn does): a pair's percentage "
        "is still fair, but a short board weighs less in its total."
    ),
    "across_field": (
        "Several sections playing the same boards: compare every result with all the sections "
        "(one big field) instead of within its own section."
    ),
    "adjusted_session_percentage": (
        "Ave+ normally scores 60 % and Ave- 40 %. Tick to give a pair with Ave+ its own session "
        "percentage when that is better than 60 %, and a pair with Ave- its own when worse than "
        "40 % (EBU and ACBL club practice)."
    ),
    "cross_imps": (
        "Cross-IMPs only: add up a result's IMPs against every other result (Ruter, JFR), or "
        "average them over the number of comparisons (Compscore3, EBU files)."
    ),
    "butler_datum": (
        "Butler only: the datum is the mean of the board's NS scores without the highest and "
        "lowest, rounded to the nearest 10. Some programs take the median when a board has only "
        "3 results or fewer; some always take the median."
    ),
    "cross_imps_trim": (
        "Cross-IMPs only: leave this many results out at each end of every board (the highest and "
        "the lowest NS scores) when comparing, so one wild result weighs less. Usually 0: every "
        "result against every other."
    ),
    "butler_adjusted_imps": (
        "Butler only: IMPs for Ave+, and minus that for Ave- (Ave scores 0). Usually 3."
    ),
    "imp_table": "Cross-IMPs and Butler: keep the WBF table unless you are replaying an old event.",
    "imp_total": (
        "Cross-IMPs and Butler: a pair's total is its IMPs added up (the usual choice). To show "
        "totals as another program does: scaled to the session's boards, so a pair that missed "
        "boards (a phantom's bye) is shown at its average on them (Magic Contest, Pianola); or "
        "IMPs per comparison, the total divided by the results it was compared with (Ruter)."
    ),
    "deal_era": (
        "The laws each deal is scored under. Keep the current laws unless you replay an old event "
        "or play a historical evening: 1935-1987 (lighter doubled undertricks, redoubled insult 50) "
        "or 1932 (notrump tricks 30 and 40 alternately, undertricks rising by 50 or 100). "
        "The score table page lists the era's values."
    ),
    "line_decimals": (
        "Keep exact unless you want your results to match another program's to the last "
        "decimal: EBUScore rounds every traveller line to 2 decimals and adds up the rounded "
        "lines, ScoreBridge does so with 1 decimal. A total can then differ by 0.01."
    ),
    "not_played": (
        "A line marked not played (NP): usually left out, so the board has one result fewer and "
        "is scaled up. NZ Scorer compares it as a score of 0, like a passed-out board."
    ),
    "cut_figures": (
        "Matchpoints only, to match NZ Scorer to the last decimal: each traveller line shown cut "
        "(not rounded) to tenths (57.548 shows 57.5), pairs placed on their totals cut to whole "
        "matchpoints (899.4 ties 899); the percentages stay exact."
    ),
    "short_totals": (
        "Matchpoints only: a board with fewer results than the field (an adjusted score) is "
        "scaled as the lines are (Neuberg, the standard). NZ Scorer shows the lines by Neuberg "
        "but counts, in the pairs' totals, each missing result as a tie with every result."
    ),
    "phantom_table": (
        "Matchpoints only: with a phantom pair, no board has a result from every table. Tick to "
        "show the lines factored to a full field that counts the phantom's table, as NZ Scorer "
        "does (a 3/4 Howell of 11 pairs: 6 tables, top 10); percentages stay as played."
    ),
    "strata_by": (
        "ACBL-style strata (RULES 15): each pair goes in the lowest stratum its higher player qualifies "
        "for, by the master points held (entered on the players' list) or by the club rating, and is "
        "ranked in that stratum and every one above it. Empty: no strata."
    ),
    "strata_limits": (
        "The lower strata's limits, falling: \"1500, 500\" makes A open, B below 1500 and C below 500."
    ),
    "handicap_source": (
        "Where each pair's handicap comes from (RULES 14): typed by the director on the pairs page, or "
        "50 - the mean of the two players' figures: the club's rolling average, its club rating, or the "
        "national grades entered on the players' list. Empty: the club's setting."
    ),
    "handicap": (
        "A handicap event: each pair's handicap (percentage points, as an imported file gives "
        "it) adds this share to its percentage, and the handicapped ranking is shown beside "
        "the scratch one, which still decides the places. NZ Scorer adds half the handicap."
    ),
    "rankings": (
        "By the movement: a Mitchell has a North-South and an East-West ranking, a Howell or an "
        "arrow-switched Mitchell one. Choose one ranking to list every pair together (a league "
        "or a multi-section event with one winner), or NS and EW for two winners."
    ),
    "table_confirmation": (
        "A result sent from a table's phone by North-South is recorded only once East-West "
        "confirm it on the same phone (as with a Bridgemate). Untick to record it as sent."
    ),
    "table_shows_traveller": (
        "After sending a board, the table's phone shows the board's results so far (the "
        "traveller). Untick if the players should not see the other tables' results."
    ),
    "live_rankings": (
        "During play: the players' results page, once published, shows the ranking as the "
        "results come in, marked provisional until you mark the session final. Only at the "
        "end: the published ranking stays hidden until you mark the session final."
    ),
    "combination": (
        "Matchpoints only (IMP events add up their IMPs). Scaled matchpoints: each session "
        "counts its percentage times the top of the largest session, and the totals add up, so "
        "attendance counts (a league). Average: the average of the percentages played. "
        "Carry-forward: the last session is the final, and each pair carries into it a share of "
        "how far its earlier sessions' average was above or below 50 %."
    ),
    "combined_by": (
        "Pairs: a pair is the same pair from one session to the next when both players are the "
        "same (enter the players of every pair). Players: each player is ranked with the results "
        "of every partnership, as in an individual series."
    ),
    "sessions_counted": (
        "A series: each pair's (or player's) best N sessions count, the others are shown in "
        "brackets. Leave empty to count every session."
    ),
    "minimum_sessions": (
        "Pairs or players who played fewer sessions are listed after the others, without a place."
    ),
    "carry_forward_percent": (
        "Carry-forward only: the share, in percent, of the earlier sessions' margin over 50 % "
        "carried into the final (50: a pair on 58 % carries 4 %)."
    ),
}

#: Headings that group the options on the page: (heading, fields).
EVENT_SECTIONS = (
    ("Event", ("name", "method", "deal_era")),
    ("Matchpoints", ("mp_scale", "line_display", "short_boards", "adjusted_session_percentage")),
    ("IMPs", ("cross_imps", "cross_imps_trim", "butler_datum", "butler_adjusted_imps", "imp_table", "imp_total")),
    ("Totals and rankings", ("line_decimals", "rankings")),
    ("Sections", ("across_field",)),
    ("Another program's conventions (NZ Scorer) and handicaps", (
        "not_played", "cut_figures", "short_totals", "phantom_table", "handicap", "handicap_source",
    )),
    ("Table entry", ("table_confirmation", "table_shows_traveller", "live_rankings")),
    ("Several sessions ranked together", (
        "combination", "combined_by", "sessions_counted", "minimum_sessions", "carry_forward_percent",
    )),
    ("Master points", ("masterpoint_scale",)),
    ("Stratification (ACBL)", ("strata_by", "strata_limits")),
)

#: Radio buttons for every setting with a few named choices.
EVENT_RADIOS = (
    "method", "mp_scale", "line_display", "short_boards", "cross_imps", "butler_datum", "line_decimals", "rankings",
    "live_rankings", "deal_era", "imp_total", "not_played", "short_totals", "handicap",
)
EXACT_LINES = "Exact: lines and totals are not rounded (the usual choice)"


class EventForm(forms.ModelForm):
    """An event's name and scoring settings; the services save them (never ``form.save()``)."""

    imp_table = forms.ChoiceField(label="IMP table", choices=IMP_TABLE_CHOICES)
    butler_adjusted_imps = forms.IntegerField(min_value=0, max_value=24, label="Butler IMPs for Ave+")
    sessions_counted = forms.IntegerField(
        min_value=1, max_value=999, required=False, label="Sessions counted (best N)",
    )
    minimum_sessions = forms.IntegerField(min_value=1, max_value=999, label="Sessions played to be ranked")
    carry_forward_percent = forms.IntegerField(min_value=0, max_value=100, label="Carry-forward (%)")
    cross_imps_trim = forms.IntegerField(min_value=0, max_value=5, label="Cross-IMPs: results left out at each end")

    class Meta:
        model = Event
        fields = EVENT_SETTINGS
        labels = {
            "method": "Scoring", "mp_scale": "Matchpoint scale", "line_display": "Traveller lines",
            "short_boards": "Boards with fewer results", "across_field": "Matchpoint across all sections",
            "adjusted_session_percentage": "Ave+ / Ave- at the session percentage",
            "cross_imps": "Cross-IMPs", "butler_datum": "Butler datum", "imp_table": "IMP table",
            "imp_total": "IMP totals",
            "not_played": "Lines not played (NP)", "cut_figures": "Figures cut as NZ Scorer prints them",
            "short_totals": "Totals on boards short of results",
            "phantom_table": "Lines factored to the phantom's table too", "handicap": "Handicap applied",
            "line_decimals": "Rounding of traveller lines", "rankings": "Rankings",
            "table_confirmation": "The opponents confirm each result sent from a table",
            "table_shows_traveller": "Show the board's results at the table after each board",
            "live_rankings": "Players see the ranking", "deal_era": "Deal scores",
            "combination": "Sessions ranked together by", "combined_by": "Ranked as",
            "masterpoint_scale": "Master point scale", "handicap_source": "Handicaps from",
            "strata_by": "Strata by", "strata_limits": "Strata limits",
        }
        help_texts = EVENT_HELP
        widgets = {name: forms.RadioSelect for name in EVENT_RADIOS}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for name in ("imp_table", "butler_adjusted_imps", "cross_imps_trim", "sessions_counted", "minimum_sessions",
                     "carry_forward_percent"):
            self.fields[name].help_text = EVENT_HELP[name]
        for name in EVENT_RADIOS:
            self.fields[name].choices = [c for c in self.fields[name].choices if c[0] != ""]
        self.fields["handicap_source"].choices = [("", "The club's setting"), *HandicapSource.choices]
        # Line decimals: empty means exact, the first and usual choice.
        self.fields["line_decimals"].choices = [("", EXACT_LINES), *reversed(self.fields["line_decimals"].choices)]

    def sections(self) -> list[tuple[str, list[forms.BoundField], bool]]:
        """(heading, fields, applies): a section that does not apply to the event's scoring
        (the IMP settings of a matchpoint event, the matchpoint ones of an IMP event) is
        shown folded away, kept in the form for a director who changes the scoring."""
        imps = self._method() != ScoringMethod.MATCHPOINTS
        return [
            (heading, [self[name] for name in names], heading not in (_MATCHPOINT_ONLY if imps else _IMP_ONLY))
            for heading, names in EVENT_SECTIONS
        ]

    def _method(self) -> str:
        """The scoring as posted (a refused form shows what was typed), else as saved."""
        if self.is_bound and self.data.get("method") in ScoringMethod.values:
            return self.data["method"]
        return self.instance.method or ScoringMethod.MATCHPOINTS


#: Sections of the event form that apply to one kind of scoring only.
_MATCHPOINT_ONLY = ("Matchpoints",)
_IMP_ONLY = ("IMPs",)


class PairPlayersForm(forms.Form):
    """The players of every pair of a session: a name (from the club list or new) and an
    optional national number per seat; fields ``p<pk>_<seat>_name`` / ``_number``."""

    def __init__(self, *args, pairs: list[Pair], rounds: int = 1, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.pairs = pairs
        # A substitute: the names typed hold from that round on, the earlier rounds keep theirs.
        self.fields["from_round"] = forms.TypedChoiceField(
            coerce=int, initial=1, required=False, empty_value=1, label="The changes hold from",
            choices=[(1, "round 1: the whole session")] + [(r, f"round {r} on") for r in range(2, rounds + 1)],
        )
        for pair in pairs:
            for seat, player in ((1, pair.player_1), (2, pair.player_2)):
                self.fields[f"p{pair.pk}_{seat}_name"] = forms.CharField(
                    max_length=120, required=False, initial=player.name if player else "",
                    label=f"{pair.label} player {seat}",
                    widget=forms.TextInput(attrs={"list": "club-players", "autocomplete": "off"}),
                )
                self.fields[f"p{pair.pk}_{seat}_number"] = forms.CharField(
                    max_length=20, required=False, initial=player.national_number if player else "",
                    label=f"{pair.label} player {seat} national number",
                    widget=forms.TextInput(attrs={"size": 8, "autocomplete": "off"}),
                )

    def rows(self) -> list[tuple[Pair, list[tuple[forms.BoundField, forms.BoundField]]]]:
        return [
            (pair, [(self[f"p{pair.pk}_{seat}_name"], self[f"p{pair.pk}_{seat}_number"]) for seat in (1, 2)])
            for pair in self.pairs
        ]

    def typed_players(self) -> dict[int, list[tuple[str, str]]]:
        data = self.cleaned_data
        return {
            pair.pk: [(data[f"p{pair.pk}_{seat}_name"], data[f"p{pair.pk}_{seat}_number"]) for seat in (1, 2)]
            for pair in self.pairs
        }


class BoardGroupsForm(forms.Form):
    """A fouled board: the group of every line of the board (``group_<result pk>``)."""

    not_fouled = forms.BooleanField(required=False)

    def __init__(self, *args, results, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.results = list(results)
        for result in self.results:
            self.fields[f"group_{result.pk}"] = forms.IntegerField(
                min_value=1, max_value=9, required=False, initial=result.group,
                label=f"Group of {result.ns_pair.label} v {result.ew_pair.label}",
            )

    def groups(self) -> dict[int, int | None]:
        if self.cleaned_data["not_fouled"]:
            return {result.pk: None for result in self.results}
        return {result.pk: self.cleaned_data[f"group_{result.pk}"] for result in self.results}
