"""Whatever ClubScore exports, it imports back to the same figures, even into a NEW event.

Every real pairs file that imports is imported, exported as USEBIO and as PBN, and the
export imported into a new event of another club: the settings the figures were scored
with travel in the file (formats/conventions.py), so nothing is guessed from a program's
name and every line, total, percentage and place comes back the same.
"""

from __future__ import annotations

import pytest

from sessions.formats import parse_results_file
from sessions.formats.conventions import CONVENTIONS_KEY, read_conventions, write_conventions
from sessions.formats.errors import FormatError
from sessions.core.selectors.scoring import session_score
from sessions.pairs.services.events import event_update
from sessions.transfer.exporters import EXPORTERS
from sessions.transfer.services.importing import results_import
from tests.factories import make_club
from tests.transfer.helpers import data, results_files
from tests.transfer.test_exports import figures_of, results_of

#: The settings of the event, as the Event model holds them.
SETTINGS = ("method", "mp_scale", "line_display", "short_boards", "across_field", "adjusted_session_percentage",
            "cross_imps", "cross_imps_trim", "butler_datum", "butler_adjusted_imps", "imp_table", "line_decimals",
            "imp_total", "rankings", "deal_era", "not_played", "cut_figures", "short_totals", "phantom_table",
            "handicap")


def settings_of(event) -> dict:
    return {name: getattr(event, name) for name in SETTINGS}


def importable(name: str) -> bool:
    """A pairs results file (not the unsupported event type, not a hand record)."""
    return "notsupported" not in name and "hands" not in name


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", ["usebio", "pbn"])
@pytest.mark.parametrize("name", [name for name in results_files() if importable(name)])
def test_an_export_imports_into_a_new_event_with_the_same_figures(name, fmt):
    first = results_import(club=make_club(), data=data(name), filename=name).session
    _, _, content = EXPORTERS[fmt].render(first)

    again = results_import(club=make_club(), data=content, filename=f"export.{fmt}").session

    assert again.event_id != first.event_id
    assert settings_of(again.event) == settings_of(first.event)
    assert results_of(again) == results_of(first)
    assert figures_of(again) == figures_of(first)


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", ["usebio", "pbn"])
def test_settings_changed_by_the_director_travel_too(fmt):
    first = results_import(club=make_club(), data=data("usebio/cobalt_mp_pairs_mitchell_03.xml"),
                           filename="x.xml").session
    event_update(event=first.event, mp_scale="acbl", line_decimals=1, rankings="one",
                 adjusted_session_percentage=True, cross_imps_trim=2)
    _, _, content = EXPORTERS[fmt].render(first)

    again = results_import(club=make_club(), data=content, filename=f"export.{fmt}").session

    assert settings_of(again.event) == settings_of(first.event)
    assert figures_of(again) == figures_of(first)
    assert list(session_score(session=again).result.standings) == [""]  # one ranking


@pytest.mark.django_db
@pytest.mark.parametrize("era", ["1935", "1932"])
@pytest.mark.parametrize("fmt", ["usebio", "pbn"])
def test_an_event_scored_under_older_laws_comes_back_under_them(fmt, era):
    """The file holds the era's scores (a 1932 3NT made is not today's 400) and says which
    laws they follow: the lines come back as played contracts, the figures the same."""
    first = results_import(club=make_club(), data=data("usebio/cobalt_mp_pairs_mitchell_03.xml"),
                           filename="x.xml").session
    event_update(event=first.event, deal_era=era)
    _, _, content = EXPORTERS[fmt].render(first)
    assert f"deal_era={era}" in read_conventions_text(content)

    again = results_import(club=make_club(), data=content, filename=f"export.{fmt}").session

    assert again.event.deal_era == era
    assert settings_of(again.event) == settings_of(first.event)
    assert results_of(again) == results_of(first)  # played lines stay played, stored with today's score
    assert figures_of(again) == figures_of(first)


def read_conventions_text(content: bytes) -> str:
    return parse_results_file(content).extra[CONVENTIONS_KEY]


@pytest.mark.parametrize("fmt", ["usebio", "pbn"])
def test_the_export_carries_every_setting_by_name(db, fmt):
    first = results_import(club=make_club(), data=data("pbn/magiccontest_butler_median.pbn"), filename="m.pbn").session
    _, _, content = EXPORTERS[fmt].render(first)

    carried = read_conventions(parse_results_file(content).extra[CONVENTIONS_KEY])

    assert carried == settings_of(first.event)
    assert carried["butler_datum"] == "median_small"


def test_conventions_read_back_what_they_write():
    settings = {"method": "cross_imps", "across_field": True, "line_decimals": None, "butler_adjusted_imps": 3,
                "imp_table": "wbf", "rankings": "two"}
    assert read_conventions(write_conventions(settings)) == settings
    assert read_conventions("unknown=1;method=butler") == {"method": "butler"}


@pytest.mark.parametrize("text", ["method=golf", "across_field=maybe", "line_decimals=999", "imp_table=<script>"])
def test_a_bad_carried_setting_is_refused_by_name(text):
    with pytest.raises(FormatError, match="is not valid"):
        read_conventions(text)
