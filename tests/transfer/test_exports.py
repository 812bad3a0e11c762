"""Exports: USEBIO and PBN round trips, the workbook and the CSV files, the command."""

from __future__ import annotations

import csv
import io
import zipfile
from io import StringIO

import openpyxl
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from sessions.formats import parse_results_file
from sessions.formats.to_engine import ranking_fields
from sessions.models import Result
from sessions.scoring.rounding import round_to_places
from sessions.core.selectors.scoring import session_score
from sessions.pairs.services.events import event_update
from sessions.clubs.services.players import pair_set_players, player_add
from sessions.transfer.exporters import EXPORTERS
from sessions.transfer.services.importing import results_import
from tests.factories import make_club
from tests.transfer.helpers import data

ROUND_TRIP_FILES = [
    "usebio/cobalt_mp_pairs_mitchell_03.xml",
    "usebio/cobalt_mp_pairs_mitchell_03_assigned.xml",  # matchpoints the director assigned on a line
    "usebio/cobalt_butler_howell.xml",
    "usebio/uk_00210009+002061.xml",  # an artificial score and a passed-out board
    "usebio/nzscorer_pairs-with-np-passed.xml",  # a board not played
    "usebio/nzscorer_handicap_pairs.xml",  # handicaps: the handicapped percentage published, places scratch
    "usebio/nzscorer_multi-section-multi-movement-pairs.xml",  # lines cut to tenths, missing results as ties
    "usebio/cross-imp-pairs.xml",  # a score that does not follow from its contract
    "pbn/ruter_mp_pairs_sm2.pbn",
    "pbn/magiccontest_butler_median.pbn",
    "pbn/ruter_cross_imp_league.pbn",  # summed cross-IMPs across two sections, one ranking
    "usebio/nzscorer_multi-section-multi-movement-pairs.xml",  # three sections across the field
    "usebio/uk_00202131+001686.xml",  # ScoreBridge: lines to 1 decimal
    "usebio/uk_brian_welwyn_20250409.xml",  # BriAn: no scaling of short boards
]
FORMULA = '=HYPERLINK("http://evil.example","click")'


def results_of(session) -> list[tuple]:
    """Every line as the database holds it, in a fixed order, without ids."""
    return sorted(
        Result.objects.filter(board__session=session).values_list(
            "board__number", "section__letter", "ns_pair__number", "ns_pair__direction", "ew_pair__number",
            "ew_pair__direction", "kind", "level", "strain", "doubling", "declarer", "tricks", "lead", "ns_score",
            "artificial_ns_percent", "artificial_ew_percent", "assigned_ns_points", "assigned_ew_points", "points_unit",
        )
    )


def figures_of(session) -> list[tuple]:
    scored = session_score(session=session)
    lines = [(line.line.board, line.ns_points, line.ew_points, line.datum) for line in scored.result.lines]
    standings = [
        (field, s.pair.split(":")[1], s.total, s.percentage, s.place, s.handicapped, s.handicap_place)
        for field, ranked in scored.result.standings.items() for s in ranked
    ]
    return sorted(lines, key=repr) + sorted(standings, key=repr)


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", ["usebio", "pbn"])
@pytest.mark.parametrize("name", ROUND_TRIP_FILES)
def test_an_export_imports_again_with_the_same_results_and_figures(name, fmt):
    club = make_club()
    first = results_import(club=club, data=data(name), filename=name).session
    _, _, content = EXPORTERS[fmt].render(first)
    again = results_import(club=club, data=content, filename=f"export.{fmt}", event=first.event)
    assert results_of(again.session) == results_of(first)
    assert figures_of(again.session) == figures_of(first)
    # The export published our figures, so the re-import finds nothing to report.
    assert again.comparison.agrees, again.summary()
    assert again.comparison.lines_compared > 0


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "rankings", "winner_type"),
    [
        ("usebio/cobalt_mp_pairs_mitchell_03.xml", "auto", "2"),  # a Mitchell: NS and EW
        ("usebio/cobalt_mp_pairs_mitchell_03.xml", "one", "1"),
        ("pbn/ruter_cross_imp_league.pbn", "one", "1"),  # two Mitchell sections ranked together
        ("usebio/cobalt_butler_howell.xml", "auto", "1"),
    ],
)
def test_the_usebio_export_says_how_the_event_ranks_the_pairs(name, rankings, winner_type):
    club = make_club()
    session = results_import(club=club, data=data(name), filename=name).session
    event_update(event=session.event, rankings=rankings)
    _, _, content = EXPORTERS["usebio"].render(session)
    parsed = parse_results_file(content)
    assert parsed.extra["WINNER_TYPE"] == winner_type
    ours = session_score(session=session).result.standings
    theirs = ranking_fields(parsed)
    assert sorted(sorted(s.pair for s in field) for field in ours.values()) == sorted(
        sorted(key for key, name in theirs.items() if name == field) for field in set(theirs.values())
    )
    again = results_import(club=club, data=content, filename="export.xml", event=session.event)
    assert not any("ranks the pairs otherwise" in note for note in again.notes)


@pytest.fixture
def imported(db):
    club = make_club()
    session = results_import(club=club, data=data("usebio/cobalt_mp_pairs_mitchell_03.xml"), filename="x").session
    pair = session.sections.get().pairs.get(number=1, direction="NS")
    pair_set_players(pair=pair, player_1=player_add(club=club, name=FORMULA), player_2=player_add(club=club, name="-1+2"))
    return session


def workbook(session):
    _, content_type, content = EXPORTERS["xlsx"].render(session)
    assert content_type.startswith("application/vnd.openxmlformats")
    return openpyxl.load_workbook(io.BytesIO(content))


def test_the_workbook_holds_the_rankings_as_scored(imported):
    book = workbook(imported)
    assert book.sheetnames == ["Rankings", "Travellers", "Score cards", "Settings"]
    rows = list(book["Rankings"].iter_rows(values_only=True))
    assert rows[0] == ("Field", "Place", "Pair", "Names", "Boards", "Total", "Percentage")
    expected = [
        (field, s.standing.place, s.pair.label, s.standing.boards_played,
         float(round_to_places(s.standing.total, 2)), float(round_to_places(s.standing.percentage, 2)))
        for field, ranked in session_score(session=imported).rankings() for s in ranked
    ]
    assert [(r[0], r[1], r[2], r[4], r[5], r[6]) for r in rows[1:]] == expected


def test_a_handicap_events_workbook_ranks_handicapped_beside_scratch(db):
    session = results_import(club=make_club(), data=data("usebio/nzscorer_handicap_pairs.xml"), filename="h").session
    rows = list(workbook(session)["Rankings"].iter_rows(values_only=True))
    assert rows[0][-3:] == ("Percentage", "Handicapped %", "Handicapped place")
    by_pair = {(r[0], r[2]): r for r in rows[1:]}
    two = by_pair[("NS", "2NS")]  # scratch 53.69 and place 6; with -6.65 / 2: 50.37
    assert (two[1], two[6], two[7]) == ("6", 53.69, 50.37)
    # The file's handicapped NS percentages: 54.69 (3NS), 54.5, 54.18, 53.11, then 2NS's 50.37.
    assert two[8] == "5"


def test_the_workbook_holds_every_traveller_line_and_score_card(imported):
    book = workbook(imported)
    scored = session_score(session=imported)
    travellers = list(book["Travellers"].iter_rows(values_only=True))
    assert len(travellers) - 1 == len(scored.results) == 126
    by_line = {(r[0], r[4], r[5]): r for r in travellers[1:]}
    for result in scored.results:
        row = by_line[(result.board.number, result.ns_pair.label, result.ew_pair.label)]
        ours = scored.scored_line(result)
        assert row[11] == result.ns_score
        assert row[13] == float(round_to_places(ours.ns_points, 2))
        assert row[14] == float(round_to_places(ours.ew_points, 2))
    cards = list(book["Score cards"].iter_rows(values_only=True))
    assert len(cards) - 1 == 2 * len(scored.results)


def test_every_sheet_has_a_frozen_bold_header_autofilter_and_print_titles(imported):
    book = workbook(imported)
    for sheet in book.worksheets:
        assert sheet.freeze_panes == "A2"
        assert sheet.auto_filter.ref == f"A1:{sheet.cell(1, sheet.max_column).column_letter}{sheet.max_row}"
        assert sheet.print_title_rows == "$1:$1"
        assert sheet.page_setup.fitToWidth == 1 and sheet.sheet_properties.pageSetUpPr.fitToPage
        assert all(cell.font.b for cell in sheet[1])
    rankings = book["Rankings"]
    assert rankings["G2"].number_format == "0.00"
    assert rankings.column_dimensions["D"].width > 20


def test_user_text_is_never_a_formula_in_the_workbook(imported):
    names = [cell for row in workbook(imported)["Rankings"].iter_rows(min_row=2) for cell in row if cell.column == 4]
    risky = next(cell for cell in names if FORMULA in cell.value)
    assert risky.value == f"{FORMULA} & -1+2" and risky.data_type == "s"
    cards = workbook(imported)["Score cards"]
    first = next(row for row in cards.iter_rows(min_row=2) if row[1].value.startswith("="))
    assert first[1].data_type == "s" and first[1].quotePrefix


def test_the_settings_sheet_lists_the_event_options(imported):
    settings = dict(workbook(imported)["Settings"].iter_rows(min_row=2, values_only=True))
    assert settings["Method"] == "Matchpoints"
    assert settings["Line display"].startswith("Lines as played")  # Compscore3's convention
    assert settings["Line decimals"] == "exact"
    assert settings["Sessions counted"] == "every session"  # an empty best N: not "exact"
    assert settings["Combination"] == "Sum of matchpoints scaled to a common top"


def csv_rows(content: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))


def test_the_rankings_csv_matches_the_scored_session_and_guards_formulas(imported):
    filename, content_type, content = EXPORTERS["csv-rankings"].render(imported)
    assert filename.endswith("-rankings.csv") and content_type.startswith("text/csv")
    rows = csv_rows(content)
    scored = [(s.standing.place, s.pair.label, str(round_to_places(s.standing.percentage, 2)))
              for _, ranked in session_score(session=imported).rankings() for s in ranked]
    assert [(r[1], r[2], r[6]) for r in rows[1:]] == scored
    assert any(row[3] == f"'{FORMULA} & -1+2" for row in rows)


def test_the_csv_zip_holds_rankings_and_traveller_lines(imported):
    filename, _, content = EXPORTERS["csv"].render(imported)
    assert filename.endswith(".zip")
    archive = zipfile.ZipFile(io.BytesIO(content))
    assert sorted(archive.namelist()) == ["rankings.csv", "travellers.csv"]
    travellers = csv_rows(archive.read("travellers.csv"))
    assert travellers[0][:6] == ["Board", "Section", "Round", "Table", "NS", "EW"]
    assert len(travellers) - 1 == 126


def test_the_export_command_writes_text_to_stdout_and_binary_to_a_file(imported, tmp_path):
    out = StringIO()
    call_command("export_results", str(imported.pk), "--format", "usebio", stdout=out)
    assert out.getvalue().startswith("<?xml") and "<USEBIO" in out.getvalue()
    with pytest.raises(CommandError, match="--output"):
        call_command("export_results", str(imported.pk), "--format", "xlsx", stdout=StringIO())
    target = tmp_path / "out.xlsx"
    call_command("export_results", str(imported.pk), "--format", "xlsx", "--output", str(target), stderr=StringIO())
    assert openpyxl.load_workbook(target).sheetnames[0] == "Rankings"
    with pytest.raises(CommandError, match="no session"):
        call_command("export_results", "999999", "--format", "pbn", stdout=StringIO())


@pytest.mark.parametrize(("from_round", "named"), [(3, ["Ann Archer", "Bob Baker"]), (2, ["Ann Archer", "Sub Stitute"])])
def test_the_usebio_export_names_the_players_of_the_most_boards(event, from_round, named):
    """Bob Baker leaves 1NS before ``from_round`` of 3 (2 boards a round): a substitute for the
    last round leaves Ann and Bob the pair's players (4 boards of 6); one from round 2
    plays 4 boards, and is named. The other stays in the change log."""
    from sessions.models import ChangeAction, ResultChange
    from sessions.clubs.services.players import pair_change_players
    from sessions.pairs.services.results import result_record
    from tests.factories import make_session

    session = make_session(event, pair_players={"1NS": ["Ann Archer", "Bob Baker"]})
    pair = session.sections.get().pairs.select_related("section__session__event", "player_1").get(
        number=1, direction="NS")
    pair_change_players(pair=pair, player_1=pair.player_1, player_2=player_add(club=event.club, name="Sub Stitute"),
                        from_round=from_round)
    result_record(board=session.boards.get(number=1), section=session.sections.get(), ns_pair="1NS", ew_pair="1EW",
                  text="4S N =")

    _, _, content = EXPORTERS["usebio"].render(session)

    parsed = parse_results_file(content)
    pair_1ns = next(p for p in parsed.pairs if (p.number, p.direction) == ("1", "NS"))
    assert [player.name for player in pair_1ns.players] == named
    assert "Bob Baker" in ResultChange.objects.get(session=session, action=ChangeAction.PLAYERS).after_text
