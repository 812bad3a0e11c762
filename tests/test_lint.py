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
