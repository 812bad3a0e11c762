"""A line of points the director assigned, through import and export.

usebio/cobalt_mp_pairs_mitchell_03_assigned.xml (tests/data/README.md) is a Compscore3 file
whose line 2NS v 3EW of board 1 is an A5050 published at 6.50 / 3.50 on a top of 10,
not the 5 / 5 an Ave gives: the import must reproduce it, and the exports carry it.
"""

from decimal import Decimal

import pytest

from sessions.formats import parse_results_file
from sessions.formats.usebio import ASSIGNED_POINTS
from sessions.models import Result, ResultKind
from sessions.pairs.services.results import result_correct
from sessions.transfer.exporters import EXPORTERS
from sessions.transfer.services.importing import results_import
from tests.factories import make_club
from tests.formats.usebio_checker import usebio_problems
from tests.transfer.helpers import data
from tests.transfer.test_exports import figures_of, results_of

ASSIGNED_FILE = "usebio/cobalt_mp_pairs_mitchell_03_assigned.xml"


def ruled_line(session) -> Result:
    return Result.objects.get(board__session=session, board__number=1, ns_pair__number=2, ns_pair__direction="NS")


@pytest.fixture
def imported(db):
    return results_import(club=make_club(), data=data(ASSIGNED_FILE), filename="assigned.xml")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "board", "ns_pair", "figures", "text"),
    [
        (ASSIGNED_FILE, 1, "2NS", (Decimal("6.5"), Decimal("3.5")), "A50/50 MP 6.5/3.5"),  # Compscore3
        ("usebio/uk_00210009+002061_assigned.xml", 18, "8NS", (Decimal("9.25"), Decimal("4.75")),
         "A50/50 MP 9.25/4.75"),  # EBUScore: lines to 2 decimals
    ],
)
def test_an_a5050_published_at_other_figures_imports_as_the_directors_points(name, board, ns_pair, figures, text):
    imported = results_import(club=make_club(), data=data(name), filename="assigned.xml")
    line = Result.objects.get(board__session=imported.session, board__number=board, ns_pair__number=int(ns_pair[:-2]),
                              ns_pair__direction=ns_pair[-2:])

    assert line.kind == ResultKind.ASSIGNED_POINTS
    assert (line.assigned_ns_points, line.assigned_ew_points, line.points_unit) == (*figures, "MP")
    assert (line.artificial_ns_percent, line.artificial_ew_percent) == (50, 50)  # the ruling, kept
    assert line.text == text
    assert imported.comparison.agrees, imported.summary()
    assert any("1 adjusted lines carry points the director assigned" in note for note in imported.notes)


def test_an_a5050_published_at_its_average_stays_an_artificial_score(db):
    # BriAn's A5050 at 4.0 / 4.0 on a top of 8 is what the rule gives: nothing is assigned.
    session = results_import(club=make_club(), data=data("usebio/uk_brian_welwyn_20250409.xml"), filename="b.xml").session
    kinds = set(Result.objects.filter(board__session=session).values_list("kind", flat=True))
    assert ResultKind.ARTIFICIAL in kinds and ResultKind.ASSIGNED_POINTS not in kinds


def test_usebio_writes_the_ruling_with_the_assigned_points_as_compscore_does(imported):
    content = EXPORTERS["usebio"].render(imported.session)[2]

    assert usebio_problems(content) == []
    text = content.decode()
    start = text.index("<SCORE>A5050</SCORE>")  # the file's only adjusted score
    line = text[text.rindex("<TRAVELLER_LINE>", 0, start):text.index("</TRAVELLER_LINE>", start)]
    assert "<NS_PAIR_NUMBER>2NS</NS_PAIR_NUMBER>" in line and "<EW_PAIR_NUMBER>3EW</EW_PAIR_NUMBER>" in line
    assert "<SCORE>A5050</SCORE>" in line
    assert "<NS_MATCH_POINTS>6.50</NS_MATCH_POINTS>" in line and "<EW_MATCH_POINTS>3.50</EW_MATCH_POINTS>" in line
    assert f"<?{ASSIGNED_POINTS}" in line
    parsed = parse_results_file(content)
    assert [line.assigned for board in parsed.boards for line in board.lines].count(True) == 1


def test_pbn_writes_the_assigned_points_in_the_mp_columns_without_percentages(imported):
    content = EXPORTERS["pbn"].render(imported.session)[2].decode("iso-8859-1")

    rows = [row.split() for row in content.split("\r\n") if " A= A= " in row]  # the one Ave: Score_NS, Score_EW
    assert len(rows) == 1
    assert rows[0][-6:] == ["A=", "A=", "6.50", "3.50", "-", "-"]  # MP_NS, MP_EW, Percentage_NS, Percentage_EW


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", ["usebio", "pbn"])
def test_points_equal_to_what_the_ruling_gives_come_back_as_they_went(fmt):
    # A5050 at 5 / 5 on a top of 10 is what an Ave gives: only the file's own mark says "assigned".
    first = results_import(club=make_club(), data=data(ASSIGNED_FILE), filename="assigned.xml").session
    line = ruled_line(first)
    result_correct(result=line, text="A50/50 MP 5/5", version=line.version)
    content = EXPORTERS[fmt].render(first)[2]

    again = results_import(club=make_club(), data=content, filename=f"again.{fmt}").session

    assert figures_of(again) == figures_of(first)
    kind = ruled_line(again).kind
    # USEBIO carries the mark; a PBN reader sees an Ave at its average, the same figures.
    assert kind == (ResultKind.ASSIGNED_POINTS if fmt == "usebio" else ResultKind.ARTIFICIAL)
    if fmt == "usebio":
        assert results_of(again) == results_of(first)


@pytest.mark.django_db
def test_an_assigned_line_without_a_ruling_is_written_as_an_ave_with_its_points():
    first = results_import(club=make_club(), data=data(ASSIGNED_FILE), filename="assigned.xml").session
    line = ruled_line(first)
    result_correct(result=line, text="MP 7/2", version=line.version)
    content = EXPORTERS["usebio"].render(first)[2]

    again = results_import(club=make_club(), data=content, filename="again.xml").session

    assert ruled_line(again).text == "A50/50 MP 7/2"
    assert figures_of(again) == figures_of(first)
