"""Teams events out: USEBIO teams XML (read back to the same figures), the workbook and CSV."""

import csv
import io
import zipfile
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from openpyxl import load_workbook

from sessions.formats.teams import score_parsed_teams
from sessions.formats.usebio import parse_usebio_teams
from sessions.models import TeamEvent
from sessions.scoring.team_events import MatchSettings
from tests.formats.data_files import DATA_DIR
from tests.once import built_once
from tests.transfer.helpers import run_import

TEAMSSCORER = DATA_DIR / "teams" / "ebu_example_multiple_teams_teamsscorer.xml"


@pytest.fixture(scope="module")
def imported_pk(django_db_setup, django_db_blocker) -> int:
    """The TeamsScorer file imported once for the module (each test reads it in its own
    savepoint, so the one that renames a team leaves the next the file's names)."""
    yield from built_once(django_db_blocker, lambda: int(run_import(TEAMSSCORER)[-1]))


@pytest.fixture
def imported(imported_pk, db):
    return TeamEvent.objects.get(pk=imported_pk)


def _export(event, fmt, tmp_path):
    path = tmp_path / f"out.{fmt}"
    call_command("export_results", str(event.pk), "--teams", "--format", fmt, "--output", str(path),
                 stderr=StringIO())
    return path.read_bytes()


def test_usebio_out_reads_back_to_the_published_figures(imported, tmp_path):
    original = parse_usebio_teams(TEAMSSCORER.read_bytes())

    exported = parse_usebio_teams(_export(imported, "usebio", tmp_path))

    assert [(t.key, t.published_total, t.published_place) for t in exported.teams] == [
        (t.key, t.published_total, t.published_place) for t in original.teams]
    key = lambda m: (m.team, m.opponents, m.first_board)  # noqa: E731
    assert sorted((key(m), m.published_team_score, m.published_opponents_score) for m in exported.matches) == sorted(
        (key(m), m.published_team_score, m.published_opponents_score) for m in original.matches)
    rescored = score_parsed_teams(exported, MatchSettings(vp_scale="3board"))
    assert [o.home_vp for o in rescored.outcomes] == [m.published_team_score for m in exported.matches]
    assert sum(len(m.boards) for m in exported.matches) == 120


def test_the_exported_file_imports_again_to_the_same_figures(imported, tmp_path):
    path = tmp_path / "again.xml"
    path.write_bytes(_export(imported, "usebio", tmp_path))

    output = run_import(path)

    assert "every match's VPs, every team's total and place are the file's" in output
    assert TeamEvent.objects.get(pk=int(output[-1])).vp_scale == "3board"


def test_the_workbook_has_standings_and_one_sheet_per_round(imported, tmp_path):
    workbook = load_workbook(io.BytesIO(_export(imported, "xlsx", tmp_path)), read_only=True)

    assert workbook.sheetnames[0] == "Standings"
    assert workbook.sheetnames[1:] == [f"Round {r}" for r in range(1, len(workbook.sheetnames))]
    rows = list(workbook["Standings"].iter_rows(values_only=True))
    original = {t.key: t for t in parse_usebio_teams(TEAMSSCORER.read_bytes()).teams}
    for place, number, *_, total in rows[1:]:
        assert (place, total) == (original[str(number)].published_place, float(original[str(number)].published_total))
    matches = sum(len(list(workbook[name].iter_rows())) - 1 for name in workbook.sheetnames[1:])
    assert matches == 40


def test_csv_zip_holds_standings_and_matches(imported, tmp_path):
    archive = zipfile.ZipFile(io.BytesIO(_export(imported, "csv", tmp_path)))

    standings = list(csv.reader(io.StringIO(archive.read("standings.csv").decode("utf-8-sig"))))
    matches = list(csv.reader(io.StringIO(archive.read("matches.csv").decode("utf-8-sig"))))
    assert standings[0][:3] == ["Place", "Team", "Name"] and len(standings) == 11
    assert len(matches) == 41


def test_a_formula_like_team_name_stays_text(imported, tmp_path):
    imported.teams.filter(number=1).update(name="=HYPERLINK(1)")

    archive = zipfile.ZipFile(io.BytesIO(_export(imported, "csv", tmp_path)))

    assert "'=HYPERLINK(1)" in archive.read("standings.csv").decode("utf-8-sig")


@pytest.mark.django_db
def test_an_unknown_teams_event_or_format_is_refused(imported, tmp_path):
    with pytest.raises(CommandError, match="no teams event 999999"):
        call_command("export_results", "999999", "--teams", "--format", "usebio")
    with pytest.raises(CommandError, match="exports as csv, pbn, usebio, xlsx, not csv-rankings"):
        call_command("export_results", str(imported.pk), "--teams", "--format", "csv-rankings")


def test_pbn_out_is_ruters_score_table_and_imports_again(db, tmp_path):
    ruter = DATA_DIR / "teams" / "ruter_swiss_teams_salo_2013.pbn"
    event = TeamEvent.objects.get(pk=int(run_import(ruter)[-1]))
    path = tmp_path / "again.pbn"
    path.write_bytes(_export(event, "pbn", tmp_path))

    from sessions.formats.teams_pbn import parse_pbn_teams

    original = parse_pbn_teams(ruter.read_bytes(), boards_per_match=8)
    exported = parse_pbn_teams(path.read_bytes(), boards_per_match=8)
    assert sorted((m.round, m.team, m.opponents, m.published_team_score) for m in exported.matches) == sorted(
        (m.round, m.team, m.opponents, m.published_team_score) for m in original.matches)
    assert sorted((t.key, t.published_total, t.published_place) for t in exported.teams) == sorted(
        (t.key, t.published_total, t.published_place) for t in original.teams)
    output = run_import(path)
    assert "every match's VPs, every team's total and place are the file's" in output


def test_a_weighted_score_is_refused_rather_than_written_wrong(db, tmp_path):
    from sessions.teams.services.teams import match_create, match_record_line
    from tests.factories import make_club, make_team_event

    event = make_team_event(make_club(), teams=2, form="match")
    home, away = event.teams.all()
    match = match_create(event=event, round=1, home=home, away=away, boards=1)
    match_record_line(match=match, board=1, room="open", text="W 1/2 NS 420, 1/2 EW 50")

    with pytest.raises(CommandError, match="weighted score .* cannot be written"):
        _export(event, "usebio", tmp_path)
