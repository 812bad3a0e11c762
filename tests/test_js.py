"""The browser code's own tests (tests/js/*.test.mjs) under ``node --test``: the suite fails
when Node reports a failure, or runs none."""

import re

from tests.js.node import run_node


def test_node_tests_pass():
    result = run_node("--test", "tests/js/")
    report = result.stdout + result.stderr
    assert result.returncode == 0, report
    passed = re.search(r"^# pass (\d+)$", report, re.MULTILINE)
    assert passed and int(passed.group(1)) > 0, report
    assert re.search(r"^# fail 0$", report, re.MULTILINE), report
