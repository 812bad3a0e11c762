"""The browser code's own tests (tests/js/*.test.mjs) under ``node --test`` (the suite fails
when Node reports a failure, or runs none), and how the pages load it: as ES modules, each
import listed for the service workers' offline copy."""

import re

from tests.js.node import ROOT, run_node


def test_node_tests_pass():
    result = run_node("--test", "tests/js/")
    report = result.stdout + result.stderr
    assert result.returncode == 0, report
    passed = re.search(r"^# pass (\d+)$", report, re.MULTILINE)
    assert passed and int(passed.group(1)) > 0, report
    assert re.search(r"^# fail 0$", report, re.MULTILINE), report


JS = ROOT / "static" / "js"
TEMPLATES = ROOT / "templates"


def imports(module: str) -> set[str]:
    """The modules ``module`` (a file of static/js) imports, and theirs."""
    found: set[str] = set()
    for name in re.findall(r'^import .* from "\./([\w.-]+)";$', (JS / module).read_text(), re.MULTILINE):
        found |= {name} | imports(name)
    return found


def test_every_import_of_a_pages_module_is_preloaded_for_the_offline_copy():
    """The service workers keep the files the page lists (lib.js keepOffline): a module's
    imports are listed as <link rel="modulepreload">, so a reload without network has them."""
    pages = {}
    for path in sorted(TEMPLATES.rglob("*.html")):
        text = path.read_text()
        modules = re.findall(r"""<script type="module" src="\{% static 'js/([\w.-]+)' %\}">""", text)
        if modules:
            preloaded = set(re.findall(r"""<link rel="modulepreload" href="\{% static 'js/([\w.-]+)' %\}">""", text))
            pages[path.relative_to(TEMPLATES).as_posix()] = (set().union(*map(imports, modules)), preloaded)
    assert {"pad/pad.html", "phones/table/page.html", "phones/table/team_page.html", "pairs/director/partials/entry_groups.html"} <= set(pages)
    assert pages["pad/pad.html"][0] == {"lib.js", "pad-engine.js"}
    assert {page: needed - preloaded for page, (needed, preloaded) in pages.items() if needed - preloaded} == {}


def test_every_script_is_a_module():
    """No classic script left but the vendored htmx (and the service workers, which the
    pages register rather than load)."""
    classic = [f"{path.relative_to(TEMPLATES)}: {tag}" for path in sorted(TEMPLATES.rglob("*.html"))
               for tag in re.findall(r"<script\b[^>]*>", path.read_text())
               if 'type="module"' not in tag and "htmx.min.js" not in tag and "application/json" not in tag]
    assert classic == []
