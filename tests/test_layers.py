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
VIEW_MODULES = sorted((ROOT / "sessions" / "views").glob("*.py")) + sorted((ROOT / "sessions" / "api").glob("*.py"))

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
    """Every read a view needs is a selector's, named for what it reads (sessions/selectors/)."""
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


def reaching(prefix: str, folder: str) -> list[str]:
    """The imports of ``prefix`` (a module or package) by the modules under ``folder``."""
    found = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        package = ".".join(path.relative_to(ROOT).parts[:-1])
        found += [
            f"{path.relative_to(ROOT)}: {module}" for module in sorted(imported_modules(path.read_text(), package))
            if module == prefix or module.startswith(prefix + ".")
        ]
    return found


def test_no_selector_imports_the_services():
    """Selectors read: a write a page needs is the view's to call, never a selector's."""
    assert not reaching("sessions.services", "sessions/selectors")


def test_the_engine_imports_no_django():
    assert not reaching("django", "sessions/scoring")


@pytest.mark.parametrize(
    "source, found",
    [
        ("from ..services import results", {"sessions.services", "sessions.services.results"}),
        ("from ..services.results import result_record", {"sessions.services.results"}),
        ("from . import kept_scores", {"sessions.selectors", "sessions.selectors.kept_scores"}),
        ("import sessions.services.results", {"sessions.services.results"}),
    ],
)
def test_a_selector_reaching_the_services_is_seen_however_imported(source, found):
    assert found <= imported_modules(source, "sessions.selectors")
