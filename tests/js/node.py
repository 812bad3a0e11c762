"""Node.js for the tests of the browser code: found on PATH, or the test fails saying so
(bin/test installs Debian's nodejs when it is missing and it runs as root)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def node_command() -> str:
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node.js is not installed: the browser code's tests need it "
                    "(bin/test installs it as root; else: sudo apt-get install nodejs)")
    return node


def run_node(*args: str, stdin: str | None = None, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``node ARGS`` from the repository's root, its output as text."""
    return subprocess.run([node_command(), *args], cwd=ROOT, input=stdin, capture_output=True, text=True,
                          timeout=timeout, check=False)
