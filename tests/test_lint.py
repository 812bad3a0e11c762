"""The code stays ruff clean (rules in ruff.toml), the engine mypy clean (mypy.ini) and
the browser code ESLint clean (eslint.config.js), so CI catches what review misses."""

import subprocess
import sys
from pathlib import Path

import pytest

from tests.js.node import run_node

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing():
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "."], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_finds_nothing():
    """The pure packages: scoring, movements, handrecords and formats (the files in mypy.ini)."""
    result = subprocess.run([sys.executable, "-m", "mypy", "--config-file", "mypy.ini"], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


ESLINT = ROOT / "node_modules" / "eslint" / "bin" / "eslint.js"
LINTED = ("static/js", "tests/js", "eslint.config.js")  # as package.json's "lint"


def eslint(*args: str, stdin: str | None = None):
    if not ESLINT.exists():
        pytest.fail("ESLint is not installed: bin/setup installs it (npm ci) when Node.js is here")
    return run_node(str(ESLINT), *args, stdin=stdin, timeout=120)


def test_eslint_finds_nothing():
    result = eslint(*LINTED)
    assert result.returncode == 0, result.stdout + result.stderr


def test_eslint_fails_on_a_lint_error():
    """The lint does run on the browser code: the old dialect (var, ==) fails it."""
    result = eslint("--stdin", "--stdin-filename", "static/js/example.js",
                    stdin='var seats = ["N", "E"];\nexport const north = seats[0] == "N";\n')
    assert result.returncode == 1, result.stdout + result.stderr
    assert "no-var" in result.stdout and "eqeqeq" in result.stdout


def test_every_template_comment_closes_on_its_own_line():
    """Django's ``{# #}`` comment is one line only: a ``{#`` whose ``#}`` comes on a later
    line is not a comment at all, and the page prints it. Longer notes use
    ``{% comment %}``."""
    unclosed = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "templates").rglob("*.html"))
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if "{#" in line and "#}" not in line.split("{#", 1)[1]
    ]
    assert not unclosed, unclosed
