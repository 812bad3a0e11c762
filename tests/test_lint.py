"""The code stays ruff clean (rules in ruff.toml) and the engine mypy clean (mypy.ini),
so CI catches what review misses."""

import subprocess
import sys
from pathlib import Path

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
