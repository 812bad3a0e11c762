"""Our files, read by others: every PBN and USEBIO export as other programs read them.

Every export (pairs and teams, the demo sessions of ``load_demo`` and each real file of
tests/data imported and exported again) is read back by endplay's PBN reader with the
right boards and deals, passes the PBN 2.1 export-format checker written from the
standard (tests/formats/pbn_checker.py), and its USEBIO twin is held to the element
order, children and values of the real files (tests/formats/usebio_checker.py).
"""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command
from endplay.parsers import pbn as endplay_pbn
from endplay.types import Deal

from sessions.formats import parse_results_file
from sessions.formats.conventions import CONVENTIONS_KEY
from sessions.formats.usebio import parse_usebio_teams
from sessions.models import Board, Result, ResultKind, Session, TeamEvent
from sessions.transfer.exporters import EXPORTERS
from sessions.transfer.services.importing import results_import
from tests.factories import make_club
from tests.formats.data_files import DATA_DIR
from tests.formats.pbn_checker import export_problems
from tests.formats.usebio_checker import usebio_problems
from tests.transfer.helpers import data, results_files, run_import

TEAMSSCORER = DATA_DIR / "teams" / "ebu_example_multiple_teams_teamsscorer.xml"
PAIRS_FILES = [name for name in results_files() if "notsupported" not in name and "hands" not in name]


def hands(deal: Deal) -> tuple[str, ...]:
    return tuple(hand.to_pbn() for hand in (deal.north, deal.east, deal.south, deal.west))


def endplay_boards(content: bytes) -> list[tuple[int, tuple[str, ...]]]:
    """(board number, hands N E S W) of each game, as endplay reads the file."""
    return [(board.board_num, hands(board.deal)) for board in endplay_pbn.loads(content.decode("iso-8859-1"))]


def session_boards(session: Session) -> list[tuple[int, tuple[str, ...]]]:
    """The boards with results, each with its deal (no cards when there is no hand record)."""
    played = Result.objects.filter(board__session=session).values_list("board", flat=True)
    boards = Board.objects.filter(pk__in=played).order_by("number")
    return sorted({(board.number, hands(Deal(board.deal or ""))) for board in boards})


def export(session: Session, fmt: str) -> bytes:
    return EXPORTERS[fmt].render(session)[2]


def check_pbn(session: Session) -> bytes:
    content = export(session, "pbn")
    assert export_problems(content) == []
    assert sorted(endplay_boards(content)) == session_boards(session)
    return content


# --- each real file, imported and exported again ------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("name", PAIRS_FILES)
def test_a_real_file_exported_again_is_pbn_export_format_that_endplay_reads(name):
    session = results_import(club=make_club(), data=data(name), filename=name).session

    check_pbn(session)


@pytest.mark.django_db
@pytest.mark.parametrize("name", PAIRS_FILES)
def test_a_real_file_exported_again_is_usebio_as_the_real_files_write_it(name):
    session = results_import(club=make_club(), data=data(name), filename=name).session

    assert usebio_problems(export(session, "usebio")) == []


# --- the demo sessions ---------------------------------------------------------------------


@pytest.fixture
def demo_sessions(db):
    call_command("load_demo", stdout=StringIO())
    # Sessions 1 and 2 on a fresh database; looked up by club, since a sequence in a
    # database other tests used need not start at 1.
    return list(Session.objects.filter(event__club__slug="demo").order_by("pk"))


def test_the_demo_sessions_export_as_pbn_and_usebio_others_read(demo_sessions):
    for session in demo_sessions:
        assert session.boards.exclude(deal="").exists()  # the demo has hand records: endplay reads them
        check_pbn(session)
        content = export(session, "usebio")
        assert usebio_problems(content) == []
        assert content.count(b"<PLAYER>") == content.count(b"<NATIONAL_ID_NUMBER>") > 0


# --- teams ---------------------------------------------------------------------------------


@pytest.fixture
def teams_event(db):
    return TeamEvent.objects.get(pk=int(run_import(TEAMSSCORER)[-1]))


def _teams_export(event: TeamEvent, fmt: str, tmp_path) -> bytes:
    path = tmp_path / f"out.{fmt}"
    call_command("export_results", str(event.pk), "--teams", "--format", fmt, "--output", str(path),
                 stderr=StringIO())
    return path.read_bytes()


def test_the_teams_pbn_export_is_export_format_that_endplay_reads(teams_event, tmp_path):
    content = _teams_export(teams_event, "pbn", tmp_path)

    assert export_problems(content) == []
    games = endplay_pbn.loads(content.decode("iso-8859-1"))
    assert len(games) == 240  # a game per board per room (tests/transfer/test_teams_pbn_export.py)
    first = games[0]
    assert first.board_num == 1 and first.contract is not None
    assert {"Room", "Round", "HomeTeam", "VisitTeam", "ScoreTable", "TotalScoreTable"} <= set(first.info)
    assert len(first.info["ScoreTable"]["rows"]) == 40 and len(first.info["TotalScoreTable"]["rows"]) == 10


def test_the_teams_usebio_export_is_as_the_real_files_write_it(teams_event, tmp_path):
    content = _teams_export(teams_event, "usebio", tmp_path)

    assert usebio_problems(content) == []
    assert len(parse_usebio_teams(content).matches) == 40


# --- single points ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_passed_out_line_is_pass_in_the_pbn_score_table_and_score_0_in_usebio():
    name = "usebio/nzscorer_pairs-with-np-passed.xml"
    session = results_import(club=make_club(), data=data(name), filename=name).session
    assert Result.objects.filter(board__session=session, kind=ResultKind.PASSED).exists()

    pbn = export(session, "pbn").decode("iso-8859-1")
    usebio = export(session, "usebio").decode()

    assert " Pass " in pbn and "PASS" not in pbn
    assert "<SCORE>PASS</SCORE>" not in usebio and "<CONTRACT>PASS</CONTRACT>" in usebio


@pytest.mark.django_db
def test_not_played_lines_are_left_out_of_usebio_and_come_back_on_import():
    name = "usebio/nzscorer_pairs-with-np-passed.xml"
    session = results_import(club=make_club(), data=data(name), filename=name).session
    not_played = Result.objects.filter(board__session=session, kind=ResultKind.NOT_PLAYED).count()
    assert not_played

    content = export(session, "usebio")
    again = results_import(club=make_club(), data=content, filename="again.xml").session

    assert b">NP<" not in content
    assert Result.objects.filter(board__session=again, kind=ResultKind.NOT_PLAYED).count() == not_played


@pytest.mark.django_db
def test_mitchell_pair_numbers_read_as_the_lines_name_them():
    name = "usebio/cobalt_mp_pairs_mitchell_03.xml"
    session = results_import(club=make_club(), data=data(name), filename=name).session
    assert session.is_mitchell
    content = export(session, "usebio").decode()

    pairs = set(re.findall(r"<PAIR_NUMBER>([^<]*)</PAIR_NUMBER>", content))
    lines = set(re.findall(r"<(?:NS|EW)_PAIR_NUMBER>([^<]*)</(?:NS|EW)_PAIR_NUMBER>", content))
    assert lines and lines <= pairs  # cobalt finds each pair's boards by this text
    assert "2NS" in pairs and "2EW" in pairs  # as Compscore3 wrote them


@pytest.mark.django_db
def test_cross_imps_are_written_cross_imp_as_compscore_writes_them_and_read_back():
    name = "pbn/ruter_cross_imp_league.pbn"
    session = results_import(club=make_club(), data=data(name), filename=name).session

    content = export(session, "usebio")

    assert b'EVENT_TYPE="CROSS_IMP"' in content
    assert parse_results_file(content).scoring == "cross_imps"


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", ["usebio", "pbn"])
def test_our_settings_travel_where_other_readers_ignore_them(fmt):
    name = "usebio/cobalt_mp_pairs_mitchell_03.xml"
    session = results_import(club=make_club(), data=data(name), filename=name).session

    content = export(session, fmt)

    carried = parse_results_file(content).extra[CONVENTIONS_KEY]
    assert "method=matchpoints" in carried and "deal_era=" in carried
    if fmt == "usebio":
        assert b"<CLUBSCORE_SCORING>" not in content and b"<?CLUBSCORE_SCORING " in content
    else:
        assert all(len(line) <= 253 for line in content.split(b"\r\n"))


@pytest.mark.django_db
def test_a_usebio_file_written_the_old_way_still_gives_its_settings():
    name = "usebio/cobalt_mp_pairs_mitchell_03.xml"
    session = results_import(club=make_club(), data=data(name), filename=name).session
    content = export(session, "usebio").decode()
    carried = parse_results_file(content.encode()).extra[CONVENTIONS_KEY]
    old = re.sub(r"<\?CLUBSCORE_SCORING [^?]*\?>\s*", "", content).replace(
        "<PROGRAM_NAME>", f"<CLUBSCORE_SCORING>{carried}</CLUBSCORE_SCORING><PROGRAM_NAME>", 1)

    assert parse_results_file(old.encode()).extra[CONVENTIONS_KEY] == carried
