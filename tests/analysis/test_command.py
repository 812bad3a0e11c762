"""manage.py analyse_boards: the pending boards, one session's, or every board again."""

import pytest
from django.core.management import CommandError, call_command

from sessions.models import AnalysisStatus, BoardAnalysis
from tests.analysis.conftest import NORTH_HOLDS_EVERYTHING, TEN_TRICKS_NS, board_of, give_deal, solved
from tests.factories import make_session


def run(*args) -> str:
    from io import StringIO

    out = StringIO()
    call_command("analyse_boards", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_the_command_analyses_every_pending_board(session, event):
    other = make_session(event)
    give_deal(board_of(session, 1), TEN_TRICKS_NS)
    give_deal(board_of(other, 2), NORTH_HOLDS_EVERYTHING)
    assert run() == "2 boards analysed, 0 failed.\n"
    assert set(BoardAnalysis.objects.values_list("status", flat=True)) == {AnalysisStatus.DONE}
    assert run() == "0 boards analysed, 0 failed.\n"


def test_the_command_can_keep_to_one_session(session, event):
    other = make_session(event)
    give_deal(board_of(session, 1), TEN_TRICKS_NS)
    give_deal(board_of(other, 1), TEN_TRICKS_NS)
    assert run("--session", str(other.pk)) == "1 board analysed, 0 failed.\n"
    assert BoardAnalysis.objects.get().board.session == other


def test_all_analyses_the_done_boards_again(session):
    give_deal(board_of(session, 1), TEN_TRICKS_NS, solved(TEN_TRICKS_NS, 1))
    before = BoardAnalysis.objects.get().analysed_at
    assert run() == "0 boards analysed, 0 failed.\n"
    assert run("--all") == "1 board analysed, 0 failed.\n"
    assert BoardAnalysis.objects.get().analysed_at > before


def test_an_unknown_session_is_an_error(db):
    with pytest.raises(CommandError, match="there is no session 999"):
        run("--session", "999")
