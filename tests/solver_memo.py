"""The double-dummy solver's answers kept for the test process (tests/conftest.py).

The same hand records (tests/data, the demo) are imported by dozens of tests, and each
import solves every deal again: DDS takes seconds of CPU a session, the largest cost of
the suite. The solver is deterministic, so its answer for a deal is kept the first time it
is asked and given again after: the first call of each deal in a process is DDS's own.
The single solver (calc_dd_table) and the batch solver (calc_all_tables) keep apart, so a
test comparing the two still compares two real solves; a batch solves the deals it has
not seen in one call, in the order and chunks the app asked for. The solver's own tests
(tests/handrecords/test_analysis.py) turn it off with ``real_solver()``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

_single: dict[tuple, Any] = {}
_batch: dict[tuple, Any] = {}
_on = [True]


def _key(deal: Any, exclude: Iterable = ()) -> tuple:
    return deal.to_pbn(), tuple(exclude)


def install() -> None:
    """Wrap endplay.dds's two solvers (the app imports them from there when it calls)."""
    import endplay.dds

    if getattr(endplay.dds.calc_dd_table, "kept_by_tests", False):
        return
    solve_one, solve_many = endplay.dds.calc_dd_table, endplay.dds.calc_all_tables

    def calc_dd_table(deal):
        if not _on[0]:
            return solve_one(deal)
        key = _key(deal)
        if key not in _single:
            _single[key] = solve_one(deal)
        return _single[key]

    def calc_all_tables(deals, exclude=()):
        deals = list(deals)
        if not _on[0]:
            return solve_many(deals, exclude)
        keys = [_key(deal, exclude) for deal in deals]
        missing = {key: deal for key, deal in zip(keys, deals, strict=True) if key not in _batch}
        if missing:
            _batch.update(zip(missing, solve_many(list(missing.values()), exclude), strict=True))
        return [_batch[key] for key in keys]

    calc_dd_table.kept_by_tests = calc_all_tables.kept_by_tests = True  # type: ignore[attr-defined]
    endplay.dds.calc_dd_table, endplay.dds.calc_all_tables = calc_dd_table, calc_all_tables


@contextmanager
def real_solver() -> Iterator[None]:
    """DDS itself for every call in the block."""
    _on[0] = False
    try:
        yield
    finally:
        _on[0] = True
