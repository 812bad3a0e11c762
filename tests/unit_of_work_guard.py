"""A guard over the connection: writes made by services code outside a unit of work.

Installed for every test (tests/conftest.py): an INSERT, UPDATE or DELETE whose call
stack passes through a feature's services (sessions/*/services) or sessions/transfer while no unit of work is
active (sessions.core.services.unit_of_work) fails the test. Factories and tests that write
rows directly are not services code and are left alone.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.db import connection

from sessions.core.services import unit_of_work

SESSIONS = Path(unit_of_work.__file__).resolve().parents[2]
#: Every feature's services (sessions/<feature>/services/), and the whole of transfer.
WRITERS = (*(str(folder) + "/" for folder in sorted(SESSIONS.glob("*/services"))), str(SESSIONS / "transfer") + "/")
WRITES = ("INSERT", "UPDATE", "DELETE")
#: Writers of what their caller gives them, as the ORM is: the importer's INSERT builder,
#: and the bumps (the unit of work's, and the Django admin's). Their caller is judged.
PRIMITIVES = (str(SESSIONS / "core" / "services" / "rows.py"), str(SESSIONS / "core" / "services" / "revisions.py"))
TESTS = str(Path(__file__).resolve().parent) + "/"


def _services_frame() -> str | None:
    """The innermost frame of services code on the stack (file:line), unless a test's own
    code (a stand-in patched into a service) made the write first."""
    frame = sys._getframe(2)
    while frame is not None:
        name = frame.f_code.co_filename
        if name.startswith(TESTS) and name != __file__:
            return None
        if name.startswith(WRITERS) and name not in PRIMITIVES:
            return f"{name}:{frame.f_lineno} ({frame.f_code.co_name})"
        frame = frame.f_back
    return None


@contextmanager
def writes_outside_a_unit() -> Iterator[list[str]]:
    """The statements services code wrote outside a unit of work while the block ran."""
    found: list[str] = []

    def guard(execute: Callable, sql: str, params: Any, many: bool, context: dict) -> Any:
        if sql.lstrip()[:6].upper() in WRITES and not unit_of_work.active():
            where = _services_frame()
            if where is not None:
                found.append(f"{where}: {sql[:120]}")
        return execute(sql, params, many, context)

    with connection.execute_wrapper(guard):
        yield found
