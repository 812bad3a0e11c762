"""Every template the code or another template names exists: a template moved or renamed
(templates/<feature>/...) fails here with the file that still names the old path, before
a page would answer TemplateDoesNotExist."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
TEMPLATES = ROOT / "templates"
#: A quoted template name: folders and a file ending in .html or .txt (never a URL).
NAMED = re.compile(r"""["']((?:[a-z_]+/)+[A-Za-z0-9_.-]+\.(?:html|txt))["']""")
#: Templates other packages ship (django-tables2's, Django's own).
ELSEWHERE = ("django_tables2/", "django/", "admin/")


def named_templates() -> list[tuple[str, str]]:
    sources = [*(ROOT / "sessions").rglob("*.py"), *(ROOT / "clubscore").glob("*.py"), *TEMPLATES.rglob("*.html")]
    return [(f"{path.relative_to(ROOT)}", name) for path in sources for name in NAMED.findall(path.read_text())
            if not name.startswith(ELSEWHERE)]


def test_the_scan_finds_the_templates_named():
    assert len(named_templates()) > 150


def test_every_template_named_exists():
    missing = [f"{where}: {name}" for where, name in named_templates() if not (TEMPLATES / name).is_file()]
    assert not missing, "\n".join(missing)


def test_every_template_lives_in_a_feature_or_the_core():
    """templates/<feature>/ as sessions/<feature>/ (CONTRIBUTING, "Layout"), Django's
    registration/ for the login pages, and the project's one base.html."""
    features = {path.name for path in (ROOT / "sessions").iterdir() if (path / "urls.py").is_file() or path.name == "core"}
    stray = [entry.name for entry in TEMPLATES.iterdir() if entry.name not in features | {"registration", "base.html"}]
    assert not stray, stray
