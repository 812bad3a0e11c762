"""The analysis in a background thread: it runs the same service, on its own connection."""

import threading

import pytest
from django.db import connections

from sessions.services import analysis as services
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

    monkeypatch.setattr(services, "connections", type("Spy", (), {"close_all": staticmethod(close_all)}))
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


def test_deals_arriving_while_the_thread_works_get_another_pass(monkeypatch):
    # analysis_start, called while the thread works, asks it to go round again rather
    # than start a second thread; the thread stops once a pass ends with no such request.
    passes = []

    def run():
        passes.append(len(passes) + 1)
        if len(passes) == 1:
            services._run_again = True  # what analysis_start does when the worker is alive
        return services.AnalysisReport()

    monkeypatch.setattr(services, "connections", type("Spy", (), {"close_all": staticmethod(lambda: None)}))
    services._work(run)
    assert passes == [1, 2]
    assert (services._worker, services._run_again) == (None, False)


def test_a_failing_pass_is_logged_and_the_thread_still_ends(monkeypatch, caplog):
    def run():
        raise RuntimeError("solver crashed")

    monkeypatch.setattr(services, "connections", type("Spy", (), {"close_all": staticmethod(lambda: None)}))
    services._work(run)
    assert "background analysis of the pending boards stopped" in caplog.text
    assert services._worker is None
