"""The README's commands from a fresh checkout: after bin/setup (which bin/test and
bin/demo run) the database exists, and a script reading import_results' last line gets
the session id and nothing else.

Each test runs the real scripts in subprocesses against a fresh SQLite file named by
DATABASE_URL, with the app's own settings (not the test settings)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.formats.data_files import DATA_DIR

ROOT = Path(__file__).resolve().parents[2]
RESULTS_FILE = DATA_DIR / "usebio" / "cobalt_mp_pairs_mitchell_03.xml"


@pytest.fixture
def fresh_database(tmp_path) -> dict[str, str]:
    """The environment of a shell on a fresh checkout's database: an SQLite file not made yet."""
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    return env


def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)


def test_bin_setup_makes_the_database_so_the_readme_commands_work_and_import_prints_the_id_last(fresh_database):
    before = manage(fresh_database, "import_results", str(RESULTS_FILE))
    assert before.returncode != 0 and "no such table" in before.stderr  # what the issue saw

    setup = subprocess.run(["bin/setup"], cwd=ROOT, env=fresh_database, capture_output=True, text=True, timeout=600)

    assert setup.returncode == 0, setup.stderr
    assert setup.stdout == ""  # quiet
    imported = manage(fresh_database, "import_results", str(RESULTS_FILE))
    assert imported.returncode == 0, imported.stderr
    session_id = imported.stdout.splitlines()[-1]
    assert session_id.isdigit(), imported.stdout
    # django-axes prints "AXES: BEGIN version ..." at every start unless AXES_VERBOSE is off
    # (settings): a script running the command with its output together would read it.
    banner = [line for line in (imported.stdout + imported.stderr).splitlines() if line.startswith("AXES")]
    assert not banner, banner
    exported = manage(fresh_database, "export_results", session_id, "--format", "usebio")
    assert exported.returncode == 0 and "<USEBIO" in exported.stdout, exported.stderr
    links = manage(fresh_database, "table_links", session_id)
    assert links.returncode == 0, links.stderr


def test_bin_setup_never_fails_on_a_server_database_that_does_not_exist_yet():
    """CI runs bin/test with DATABASE_URL naming a database that exists only as the test
    database's name: bin/setup says it did not migrate it and goes on."""
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    env["DATABASE_URL"] = "postgres://postgres@127.0.0.1:5432/clubscore_never_made"

    setup = subprocess.run(["bin/setup"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)

    assert setup.returncode == 0, setup.stderr
    assert setup.stdout == ""
    assert "was not migrated (does it exist?)" in setup.stderr
