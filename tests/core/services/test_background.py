"""The background worker shared by the analysis and the large imports: one thread per kind
of work, another pass when work arrives meanwhile, failures logged, its connection closed."""

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from sessions.core.services import background
from sessions.core.services.background import BackgroundWorker


@pytest.fixture
def closed(monkeypatch):
    """The threads that closed their database connections, by name."""
    names = []
    spy = type("Spy", (), {"close_all": staticmethod(lambda: names.append(threading.current_thread().name))})
    monkeypatch.setattr(background, "connections", spy)
    return names


def worker(run):
    return BackgroundWorker(name="test-work", path="tests.not.queued", run=run, summary=repr,
                            stopped="the test work stopped")


def test_without_background_the_work_runs_now_and_no_thread_starts():
    passes = []
    assert worker(lambda: passes.append(1)).start(background=False, pending=lambda: True) is None
    assert passes == [1]


def test_nothing_pending_starts_no_thread():
    passes = []
    assert worker(lambda: passes.append(1)).start(background=True, pending=lambda: False) is None
    assert passes == []


def test_the_thread_runs_the_work_and_closes_its_own_connection(closed):
    passes = []
    thread = worker(lambda: passes.append(threading.current_thread().name)).start(background=True, pending=lambda: True)
    assert thread is not None and thread.daemon and thread.name == "test-work"
    thread.join(timeout=10)
    assert passes == ["test-work"] and closed == ["test-work"]


def test_work_arriving_while_the_thread_runs_gets_another_pass_not_a_second_thread(closed):
    release, passes = threading.Event(), []

    def run():
        passes.append(len(passes) + 1)
        release.wait(timeout=10)

    work = worker(run)
    thread = work.start(background=True, pending=lambda: True)
    assert work.start(background=True, pending=lambda: True) is None  # asks the running thread to go round again
    release.set()
    thread.join(timeout=10)
    assert passes == [1, 2]
    assert (work.thread, work.run_again, closed) == (None, False, ["test-work"])


def test_a_failing_pass_is_logged_and_the_thread_still_ends(closed, caplog):
    def run():
        raise RuntimeError("solver crashed")

    work = worker(run)
    work.work()
    assert "the test work stopped" in caplog.text and "solver crashed" in caplog.text
    assert work.thread is None and closed == ["MainThread"]


EXITS_WHILE_A_PASS_RUNS = """
import os, sys, time
sys.path.insert(0, os.getcwd())
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubscore.settings")
import django
django.setup()
from sessions.core.services.background import BackgroundWorker

def run():
    time.sleep(1.0)  # the solver, still busy as the command ends
    with open(sys.argv[1], "a") as done:
        done.write("pass ended\\n")

work = BackgroundWorker(name="exit-test", path="tests.not.queued", run=run, summary=repr, stopped="stopped")
work.start(background=True, pending=lambda: True)
work.start(background=True, pending=lambda: True)  # more work asked: the exit asks for no other pass
print("command done")
"""


def test_a_process_that_exits_lets_its_running_pass_end_and_starts_no_other(tmp_path):
    """A daemon thread cut off inside the double-dummy solver's C code crashed load_demo at
    exit (a segmentation fault about one run in three): the process now waits for the pass."""
    done = tmp_path / "done.txt"
    result = subprocess.run([sys.executable, "-c", EXITS_WHILE_A_PASS_RUNS, str(done)], capture_output=True,
                            text=True, timeout=60, cwd=Path(__file__).resolve().parents[3],
                            env={**os.environ, "DEBUG": "1"})
    assert (result.returncode, result.stdout) == (0, "command done\n"), result.stderr
    assert done.read_text() == "pass ended\n"
