"""The layers keep to their jobs (CONTRIBUTING, "House habits"): views check permission,
call a selector or a service and render, so no view module reads the database itself;
selectors read and never reach the services that write; the engine imports no Django.

Checked on the source (``ast``), so a new ORM call in a view fails here, with its line.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SESSIONS = ROOT / "sessions"
#: The feature packages (CONTRIBUTING, "Layout"); the core under them all.
FEATURES = ("pairs", "teams", "phones", "pad", "clubs", "api", "analysis", "transfer")
VIEW_MODULES = sorted(SESSIONS.glob("*/views/*.py")) + sorted((SESSIONS / "api").glob("*.py"))

#: QuerySet (and manager) methods no other object of a view is called by: any call of
#: them is a query built in the view.
QUERYSET_METHODS = {
    "aggregate", "alias", "annotate", "bulk_create", "bulk_update", "dates", "defer", "distinct", "exclude", "exists",
    "extra", "filter", "get_or_create", "in_bulk", "iterator", "only", "order_by", "prefetch_related", "raw",
    "select_for_update", "select_related", "update_or_create", "values_list",
}
#: QuerySet methods that take no argument; with none they are a query (a list's ``count(x)``
#: and a dict's ``get(key)`` take one).
QUERYSET_METHODS_WITHOUT_ARGUMENTS = {"all", "count", "earliest", "first", "last", "latest", "none"}
MANAGERS = {"objects", "_default_manager", "_base_manager"}

#: View modules (paths from the repository's root) that may still call the ORM, each with
#: its reason. Empty: every read a view makes is a selector's.
ALLOWED: dict[str, str] = {}


def orm_calls(source: str) -> list[tuple[int, str]]:
    """The ORM calls in ``source``: (line, code), in line order.

    A view may fetch the row its URL names with ``get_object_or_404`` (on a model or a
    selector's rows, as ``get_club_object_or_404`` does): that is its permission check,
    not a read of the page's figures."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in MANAGERS:
            found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            method = node.func.attr
            bare = not node.args and not node.keywords
            if method in QUERYSET_METHODS or (method in QUERYSET_METHODS_WITHOUT_ARGUMENTS and bare):
                found.append((node.lineno, ast.unparse(node)))
    return sorted(set(found))


@pytest.mark.parametrize(
    "source, expected",
    [
        ("Result.objects.filter(pk=1).exists()",
         ["Result.objects", "Result.objects.filter(pk=1)", "Result.objects.filter(pk=1).exists()"]),
        ("session.sections.count()", ["session.sections.count()"]),
        ("club.players.all()", ["club.players.all()"]),
        ("model._default_manager.get(pk=1)", ["model._default_manager"]),
        ("published_boards().filter(number=3)", ["published_boards().filter(number=3)"]),
        ("links.order_by('-pk').first()", ["links.order_by('-pk')", "links.order_by('-pk').first()"]),
        # Not queries: a dict's get, a list's count, the request's data, a selector's call.
        ("data.get('movement', '')", []),
        ("letters.count('A')", []),
        ("request.GET.get('section', '')", []),
        ("board_deals(boards=published_boards(), session_id=1, number=2)", []),
        ("get_object_or_404(Club, slug=slug)", []),
    ],
)
def test_orm_calls_finds_queries_and_only_queries(source, expected):
    assert sorted(code for _, code in orm_calls(source)) == sorted(expected)


def test_no_view_calls_the_orm():
    """Every read a view needs is a selector's, named for what it reads (sessions/<feature>/selectors/)."""
    calls = [
        f"{path.relative_to(ROOT)}:{line}: {code}"
        for path in VIEW_MODULES if str(path.relative_to(ROOT)) not in ALLOWED
        for line, code in orm_calls(path.read_text())
    ]
    assert not calls, "read these through a selector:\n" + "\n".join(calls)


def test_every_allowed_view_still_calls_the_orm():
    """An allowance with nothing left to allow goes (so the list only shrinks)."""
    idle = [name for name in ALLOWED if not orm_calls((ROOT / name).read_text())]
    assert not idle, idle


def imported_modules(source: str, package: str) -> set[str]:
    """The modules ``source`` imports (and the names it imports from them, as
    module.name), relative imports resolved against ``package``, its own package."""
    modules = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            modules |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0]
                base = f"{parent}.{base}" if base else parent
            modules.add(base)
            modules |= {f"{base}.{alias.name}" for alias in node.names}
    return modules


def reaching(prefixes: str | tuple[str, ...], *folders: str) -> list[str]:
    """The imports of ``prefixes`` (modules or packages) by the modules under ``folders``."""
    prefixes = (prefixes,) if isinstance(prefixes, str) else prefixes
    found = []
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.py")):
            package = ".".join(path.relative_to(ROOT).parts[:-1])
            found += [
                f"{path.relative_to(ROOT)}: {module}" for module in sorted(imported_modules(path.read_text(), package))
                if any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes)
            ]
    return found


SERVICES = tuple(f"sessions.{package}.services" for package in ("core", *FEATURES))
SELECTOR_FOLDERS = [str(path.relative_to(ROOT)) for path in sorted(SESSIONS.glob("*/selectors"))]


def test_no_selector_imports_the_services():
    """Selectors read: a write a page needs is the view's to call, never a selector's."""
    assert len(SELECTOR_FOLDERS) >= 8
    assert not reaching(SERVICES, *SELECTOR_FOLDERS)


def test_the_core_imports_no_feature():
    """The core is under every feature: a feature may use it (and another feature's
    services and selectors), the core never a feature."""
    assert not reaching(tuple(f"sessions.{feature}" for feature in FEATURES), "sessions/core")


#: What may sit at the top of sessions/ besides the core and the features: Django's own
#: places (the app, its admin, models, migrations, commands, template tags, the URL root)
#: and the pure packages (no Django: scoring, formats, movements, hand records).
TOP = {"__init__.py", "admin.py", "apps.py", "urls.py", "models", "migrations", "management", "templatetags",
       "scoring", "formats", "movements", "handrecords", "core", *FEATURES}
LAYERS = {"services", "selectors", "views", "forms"}
#: A feature's (or the core's) own modules beside its layers, each with its reason.
OWN_MODULES = {
    "core": {"converters.py": "the URL converters every feature's urls use",
             "kept_here.py": "objects whose cache key never changes its content, kept in the process",
             "performance.py": "helpers for building many objects at once",
             "permissions.py": "the one club-scoped lookup of every director's page",
             "shared_cache.py": "Django's cache as every feature uses it",
             "query_speed.py": "the one seam that builds a hot query's SQL once",
             "tables_speed.py": "the one seam that speeds up django-tables2",
             "text.py": "cleaning text people type or files bring",
             "throttle.py": "the guessing throttle of every token in an address",
             "values.py": "numbers and tokens read from a request"},
    "pairs": {"tables.py": "the players' tables (django-tables2), teams' pages included"},
    "api": {"access.py": "the API's key check", "endpoints.py": "the API's routes (django-ninja)",
            "schemas.py": "the API's answers"},
    "transfer": {"compare.py": "a file's figures against ours", "exporters.py": "the export registry",
                 "national.py": "the national uploads' files", "renderers.py": "the export formats",
                 "report.py": "an import's report", "seating.py": "a file's seating as a movement",
                 "teams_export.py": "a teams event as files", "to_parsed.py": "a session as the formats' model"},
}


def test_every_module_of_the_app_is_where_the_layout_rule_puts_it():
    """CONTRIBUTING, "Layout": sessions/<feature>/ holds its layers (services/,
    selectors/, views/, forms/, each a package of modules), its urls.py, and only the
    modules of its own listed here; nothing else sits at the top of sessions/."""
    misplaced = sorted(entry.name for entry in SESSIONS.iterdir() if entry.name not in TOP | {"__pycache__"})
    for package in ("core", *FEATURES):
        allowed = LAYERS | {"__init__.py", "urls.py", "__pycache__"} | set(OWN_MODULES.get(package, {}))
        misplaced += [f"{package}/{entry.name}" for entry in (SESSIONS / package).iterdir() if entry.name not in allowed]
        for layer in LAYERS & {entry.name for entry in (SESSIONS / package).iterdir()}:
            misplaced += [f"{package}/{layer}/{entry.name}" for entry in (SESSIONS / package / layer).iterdir()
                          if entry.is_dir() and entry.name != "__pycache__"]
    assert not misplaced, misplaced


def test_every_own_module_listed_exists():
    missing = [f"{package}/{name}" for package, modules in OWN_MODULES.items() for name in modules
               if not (SESSIONS / package / name).is_file()]
    assert not missing, missing


def test_the_engine_imports_no_django():
    assert not reaching("django", "sessions/scoring")


@pytest.mark.parametrize(
    "source, found",
    [
        ("from ..services import results", {"sessions.pairs.services", "sessions.pairs.services.results"}),
        ("from ..services.results import result_record", {"sessions.pairs.services.results"}),
        ("from . import entry", {"sessions.pairs.selectors", "sessions.pairs.selectors.entry"}),
        ("import sessions.pairs.services.results", {"sessions.pairs.services.results"}),
    ],
)
def test_a_selector_reaching_the_services_is_seen_however_imported(source, found):
    assert found <= imported_modules(source, "sessions.pairs.selectors")
