"""The code stays ruff clean (rules in ruff.toml), so CI catches what review misses."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing():
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "."], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
