"""An event's exports: the combined ranking (xlsx and CSV), each session's rankings on its
own sheet, read back with openpyxl; the URL and the export_results --event command.

Two published sessions of the views' 3-table Mitchell (boards 1 and 2, the same players):
in the first, 1NS Ann Archer & Bob Baker score 75 %, 2NS Cat Cole & Dan Dale 0 %
(tests/pages.py); in the second the same lines are entered with the players of
1NS and 2NS swapped, so Ann & Bob (2NS) score 0 % and Cat & Dan (1NS) 75 %. Averaged:
37.5 each, tied; 3EW's players score 100 % twice, first.
"""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from io import StringIO

import openpyxl
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from sessions.models import Combination
from sessions.pairs.services.events import event_update
from sessions.pairs.services.sessions import session_publish
from tests.factories import make_session
from tests.pages import NASTY_NAME, PLAYED_LINES, PLAYERS, enter

SWAPPED = {**PLAYERS, "1NS": PLAYERS["2NS"], "2NS": PLAYERS["1NS"]}


@pytest.fixture
def two_sessions(event):
    first = make_session(event, pair_players=PLAYERS)
    enter(first, PLAYED_LINES)
    second = make_session(event, pair_players=SWAPPED)
    enter(second, PLAYED_LINES)
    event_update(event=event, combination=Combination.AVERAGE)
    return session_publish(session=first), session_publish(session=second)


def workbook(content: bytes):
    return openpyxl.load_workbook(io.BytesIO(content))


def rows(sheet) -> list[tuple]:
    return [tuple(row) for row in sheet.iter_rows(values_only=True)]


def test_the_workbook_has_the_combined_table_then_one_sheet_per_session(client, event, two_sessions):
    first, second = two_sessions
    response = client.get(reverse("sessions:transfer_event_export", args=[event.pk, "xlsx"]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="tuesday-pairs-all-sessions.xlsx"'
    book = workbook(response.content)
    assert book.sheetnames == ["Combined", f"S1 {first.name}", f"S2 {second.name}"]
    combined = rows(book["Combined"])
    assert combined[0] == ("Place", "Players", "Played", "S1 2025-03-04", "S2 2025-03-04", "Average %")
    by_name = {row[1]: row for row in combined[1:]}
    # 3EW: 100 % in both sessions. Ann & Bob 75 then 0, Cat & Dan 0 then 75: 37.5 each.
    assert by_name[f"{NASTY_NAME} & Kay King"] == ("1", f"{NASTY_NAME} & Kay King", 2, 100, 100, 100)
    assert by_name["Ann Archer & Bob Baker"][2:] == (2, 75, 0, 37.5)
    assert by_name["Cat Cole & Dan Dale"][2:] == (2, 0, 75, 37.5)
    assert by_name["Ann Archer & Bob Baker"][0] == by_name["Cat Cole & Dan Dale"][0]  # tied
    assert by_name["Ann Archer & Bob Baker"][0].endswith("=")
    # each session's sheet is its rankings, as the session's own workbook has them
    assert rows(book[f"S1 {first.name}"])[0][:4] == ("Field", "Place", "Pair", "Names")


def test_a_session_outside_the_best_n_is_named_in_the_workbook(client, event, two_sessions):
    event_update(event=event, sessions_counted=1)
    response = client.get(reverse("sessions:transfer_event_export", args=[event.pk, "xlsx"]))
    combined = rows(workbook(response.content)["Combined"])
    assert combined[0][-2:] == ("Not counted", "Average %")
    ann = next(row for row in combined if row[1] == "Ann Archer & Bob Baker")
    assert ann[-2:] == ("S2", 75)  # best 1 of 2: 75 counts, the 0 of S2 does not


def test_the_csv_is_the_combined_table(client, event, two_sessions):
    response = client.get(reverse("sessions:transfer_event_export", args=[event.pk, "csv"]))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    table = list(csv.reader(StringIO(response.content.decode("utf-8-sig"))))
    assert table[0] == ["Place", "Players", "Played", "S1 2025-03-04", "S2 2025-03-04", "Average %"]
    ann = next(row for row in table if row[1] == "Ann Archer & Bob Baker")
    assert ann[0].endswith("=") and ann[2:] == ["2", "75.00", "0.00", "37.50"]


def test_unpublished_sessions_are_left_out_for_the_public_and_marked_for_the_director(
    client, event, two_sessions, director
):
    third = make_session(event, pair_players=PLAYERS)
    enter(third, PLAYED_LINES[:3])
    url = reverse("sessions:transfer_event_export", args=[event.pk, "xlsx"])
    assert workbook(client.get(url).content).sheetnames[1:] == [f"S1 {two_sessions[0].name}", f"S2 {two_sessions[1].name}"]
    client.force_login(director)
    book = workbook(client.get(url).content)
    assert book.sheetnames[-1] == f"S3 {third.name}"
    assert rows(book["Combined"])[0][5] == "S3 2025-03-04 (unpublished)"


def test_an_event_without_a_published_session_has_no_export(client, event, session):
    assert client.get(reverse("sessions:transfer_event_export", args=[event.pk, "xlsx"])).status_code == 404


def test_an_unknown_event_format_is_not_found(client, event, two_sessions):
    assert client.get(reverse("sessions:transfer_event_export", args=[event.pk, "usebio"])).status_code == 404


def test_the_command_writes_the_events_workbook(event, two_sessions, tmp_path):
    output = tmp_path / "event.xlsx"
    call_command("export_results", "--event", str(event.pk), "--format", "xlsx", "--output", str(output),
                 stderr=StringIO())
    book = openpyxl.load_workbook(output)
    assert book.sheetnames[0] == "Combined" and len(book.sheetnames) == 3


def test_the_command_prints_the_events_csv(event, two_sessions):
    out = StringIO()
    call_command("export_results", "--event", str(event.pk), "--format", "csv", stdout=out)
    assert out.getvalue().splitlines()[0] == "Place,Players,Played,S1 2025-03-04,S2 2025-03-04,Average %"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--format", "xlsx"], "either a SESSION_ID, a teams EVENT_ID with --teams, or --event EVENT_ID"),
        (["1", "--event", "1", "--format", "xlsx"], "either a SESSION_ID, a teams EVENT_ID with --teams, or --event"),
        (["--event", "{event}", "--teams", "--format", "xlsx"], "either a SESSION_ID, a teams EVENT_ID with --teams"),
        (["--event", "999999", "--format", "xlsx"], "no event 999999"),
        (["--event", "{event}", "--format", "pbn"], "an event exports as csv or xlsx"),
    ],
)
def test_the_command_refuses_what_it_cannot_export(event, two_sessions, arguments, message):
    arguments = [argument.format(event=event.pk) for argument in arguments]
    with pytest.raises(CommandError, match=message):
        call_command("export_results", *arguments, stdout=StringIO())


def test_the_command_still_exports_a_session(two_sessions, tmp_path):
    output = tmp_path / "session.xlsx"
    call_command("export_results", str(two_sessions[0].pk), "--format", "xlsx", "--output", str(output),
                 stderr=StringIO())
    assert openpyxl.load_workbook(output).sheetnames == ["Rankings", "Travellers", "Score cards", "Settings"]


def test_figures_are_rounded_only_in_the_file(event, two_sessions, client):
    # 37.5 is exact; the cell holds the number, shown with two decimals.
    sheet = workbook(client.get(reverse("sessions:transfer_event_export", args=[event.pk, "xlsx"])).content)["Combined"]
    cell = next(row for row in sheet.iter_rows() if row[1].value == "Ann Archer & Bob Baker")[-1]
    assert Decimal(str(cell.value)) == Decimal("37.5") and cell.number_format == "0.00"
