"""The engine is pure Python: importable and usable with no Django loaded at all."""

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "sessions" / "scoring"


def test_engine_imports_and_scores_without_django():
    code = (
        "import sys\n"
        "from sessions.scoring import deal_score, imps\n"
        "from sessions.scoring.masterpoints import session_awards\n"
        "assert deal_score('4S', 10, False) == 420\n"
        "assert imps(-720) == -12\n"
        "loaded = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "print(loaded)\n"
    )
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_no_engine_module_imports_django():
    for path in ENGINE.rglob("*.py"):  # the masterpoints package too
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            assert not any(n.split(".")[0] == "django" for n in names), path.name
