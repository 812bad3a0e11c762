"""The analysis in a background thread: it runs the same service, on its own connection."""

import threading

import pytest
from django.db import connections

from sessions.analysis.services import analysis as services
from sessions.core.services import background
from sessions.models import AnalysisStatus, BoardAnalysis
from tests.analysis.conftest import TEN_TRICKS_NS, board_of, give_deal
from tests.factories import make_club, make_event, make_session, make_user


@pytest.mark.django_db(transaction=True)  # the thread reads what the test committed
def test_the_background_thread_analyses_the_pending_boards_and_closes_its_connection(settings, monkeypatch):
    settings.ANALYSIS_BACKGROUND = True
    session = make_session(make_event(make_club(directors=[make_user()])))
    give_deal(board_of(session, 1), TEN_TRICKS_NS)
    closed_by = []

    def close_all():
        closed_by.append(threading.current_thread().name)
        connections.close_all()

    monkeypatch.setattr(background, "connections", type("Spy", (), {"close_all": staticmethod(close_all)}))
    thread = services.analysis_start()
    assert thread is not None and thread.daemon
    thread.join(timeout=60)
    assert not thread.is_alive()
    assert BoardAnalysis.objects.get().status == AnalysisStatus.DONE
    assert closed_by == ["board-analysis"]


@pytest.mark.django_db(transaction=True)
def test_no_thread_is_started_when_nothing_is_pending(settings):
    settings.ANALYSIS_BACKGROUND = True
    make_session(make_event(make_club()))
    assert services.analysis_start() is None
