"""The one seam where ClubScore builds a hot query's SQL once, not on every request.

Django builds a query's SQL anew each time it runs: the filters, the joins of
``select_related``, the columns, the lookups' types. For the few queries of a table
phone's Send and Confirm (30 to 300 phones post at once during a round), that is more
than a third of the post's time, for SQL that differs only in its values (the link's
token, the board, the table). A ``Prepared`` query keeps the SQL and the compiler's
reading of the columns, per database, and runs it again with the new values:

    lines = Prepared(lambda board, section: Result.objects.filter(board=board, section=section))
    lines(board=7, section=2)      # a list of Results, as list(queryset) gives

The function builds the QuerySet from its keyword values, which are ints, strings,
aware dates and times, or tuples of ints (the pk of a model, not the model). The first
time, it is called twice with stand-in values, and the two SQL texts and their
parameters must differ in the stand-ins' places only: a value that does not reach the
query as a parameter (a lookup that changes it, as ``icontains``), or one the function
takes from the clock, is refused with ``PreparedQueryError`` at once. Anything else the
function reads (a setting) is kept as it was then: build from the values alone. A value
the SQL cannot hold as it was built takes Django's own path, built as usual: None (which
the ORM turns into IS NULL), a bool, an int out of 32 bits, or out of its column's kind
where the adapter names it (psycopg's Int2: Django's lookups answer those without
asking), a tuple of more than ``MOST_ITEMS``.

A ``PreparedUpdate`` does the same for an UPDATE (a phone's post bumps its session's
and club's revisions): its function returns the rows and their changes, as
``QuerySet.update`` takes them, and a call answers the rows changed.

What is Django's internal here: the compiler keeps, once its SQL is built, the columns
and models it reads (``select``, ``klass_info``); a copy of it answers ``as_sql`` with the
kept SQL, and the QuerySet's own iterable turns the rows into models, values or tuples
as it always does. ``SPEED_UP = False`` runs every prepared query through the ORM, built
each time: ``tests/core/test_query_speed.py`` runs them both ways and compares, and
``bench/table_posts.py --unprepared`` prints the posts without the seam. Nothing here is
for upstream: a Django that cached compiled queries would make it unnecessary.
"""

from __future__ import annotations

import copy
import threading
import weakref
from datetime import UTC, datetime, timedelta
from collections.abc import Callable, Hashable
from typing import Any, ClassVar, Generic, TypeVar

from django.core.exceptions import EmptyResultSet
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models import QuerySet
from django.db.models.sql import UpdateQuery
from django.db.transaction import TransactionManagementError

#: Off: every prepared query built by the ORM on each call (the seam's test and benchmark).
SPEED_UP = True

#: Stand-in ints: inside every integer column's range (a SmallIntegerField's too, which
#: Django's lookups check), and unlike any constant the app's queries name.
_FIRST_INT = 31_000
_FIRST_DATETIME = datetime(2001, 2, 3, 4, 5, 6, tzinfo=UTC)
_INT_RANGE = (-(2**31), 2**31 - 1)
#: A tuple's SQL is made for its length: a longer one (a whole section's lines) takes
#: Django's path, so that a query keeps a few plans, not one for every length.
MOST_ITEMS = 16

Row = TypeVar("Row")


class PreparedQueryError(Exception):
    """A prepared query's function does not build SQL that only its values change."""


class Prepared(Generic[Row]):
    """A read query built by ``build(**values)``, its SQL made once a database (see the module)."""

    #: Every prepared query made by a module (not by ``prepared``), for the seam's test to walk.
    made: ClassVar[list[Prepared]] = []

    def __init__(self, build: Callable[..., QuerySet], *, name: str = "", listed: bool = True) -> None:
        self.build = build
        self.name = name or getattr(build, "__qualname__", repr(build))
        self._plans: dict[tuple, _Plan] = {}
        self._making = threading.Lock()
        if listed:
            Prepared.made.append(self)

    def __repr__(self) -> str:
        return f"Prepared({self.name})"

    def __call__(self, **values: Any) -> list[Row]:
        shape = _shape(values)
        if not SPEED_UP or shape is None:
            return self._unprepared(values)
        key = (connections[DEFAULT_DB_ALIAS].vendor, shape)
        plan = self._plans.get(key)
        if plan is None:
            with self._making:
                plan = self._plans.get(key) or self._plan(DEFAULT_DB_ALIAS, shape)
                self._plans[key] = plan
        answer = plan.run(DEFAULT_DB_ALIAS, values)
        return self._unprepared(values) if answer is None else answer

    def first(self, **values: Any) -> Row | None:
        """The first row (as ``QuerySet.first`` for a query built ordered and sliced), or None."""
        rows = self(**values)
        return rows[0] if rows else None

    def sql(self, **values: Any) -> str:
        """The SQL these values run, as the database gets it (for the tests and the benchmark)."""
        shape = _shape(values)
        if shape is None:
            raise PreparedQueryError(f"{self.name}: these values take Django's own path")
        return self._plan(DEFAULT_DB_ALIAS, shape).sql

    def _unprepared(self, values: dict[str, Any]) -> Any:
        """What the ORM answers, the query built anew."""
        return list(self.build(**values))

    def _compiled(self, built: Any, alias: str) -> Any:
        """The compiler of what ``build`` returned (its SQL made by ``as_sql``)."""
        if not isinstance(built, QuerySet):
            raise PreparedQueryError(f"{self.name} builds {type(built).__name__}, not a QuerySet")
        if built._prefetch_related_lookups:
            raise PreparedQueryError(f"{self.name}: prefetch_related is not prepared (its own queries)")
        return built.query.get_compiler(using=alias)

    def _plan(self, alias: str, shape: tuple) -> _Plan:
        first, second = (self.build(**_stand_ins(shape, turn)) for turn in (0, 1))
        compiler, second_compiler = self._compiled(first, alias), self._compiled(second, alias)
        try:
            sql, params = compiler.as_sql()
            second_sql, second_params = second_compiler.as_sql()
        except EmptyResultSet:
            raise PreparedQueryError(f"{self.name}: Django answers it without SQL: leave it to the ORM") from None
        if sql != second_sql or len(params) != len(second_params):
            raise PreparedQueryError(f"{self.name}: the SQL changes with the values, or with something else")
        places = _places(self.name, shape, params, second_params, connections[alias].ops)
        return self._plan_class(first, compiler, sql, places)

    @property
    def _plan_class(self) -> type[_Plan]:
        return _Plan


class PreparedUpdate(Prepared[int]):
    """An UPDATE, its SQL made once a database as a ``Prepared`` query's: ``build(**values)``
    returns the rows and their changes, ``(queryset, {"field": value or expression})``, as
    ``queryset.update(**changes)`` takes them; a call answers how many rows it changed."""

    def __call__(self, **values: Any) -> int:  # type: ignore[override]
        return super().__call__(**values)  # type: ignore[return-value]

    def _unprepared(self, values: dict[str, Any]) -> int:
        rows, changes = self.build(**values)
        return rows.update(**changes)

    def _compiled(self, built: Any, alias: str) -> Any:
        rows, changes = built
        if not isinstance(rows, QuerySet) or rows.query.is_sliced or rows.query.combinator:
            raise PreparedQueryError(f"{self.name}: an update's rows are a plain QuerySet")
        update = rows.query.chain(UpdateQuery)  # as QuerySet.update makes it
        update.add_update_values(changes)
        update.annotations = {}
        return update.get_compiler(using=alias)

    @property
    def _plan_class(self) -> type[_Plan]:
        return _UpdatePlan


_BY_KEY: dict[Hashable, Prepared] = {}
_BY_KEY_MAKING = threading.Lock()


def prepared(key: Hashable, build: Callable[..., QuerySet], *, name: str = "") -> Prepared:
    """The one ``Prepared(build)`` for ``key``: for a query whose shape the caller's
    arguments choose (a model, the fields read), made the first time it is asked for."""
    found = _BY_KEY.get(key)
    if found is None:
        with _BY_KEY_MAKING:
            found = _BY_KEY.get(key) or Prepared(build, name=name or repr(key), listed=False)
            _BY_KEY[key] = found
    return found


class _Plan:
    """A prepared query's SQL on one database, and where each value goes in its parameters."""

    def __init__(self, queryset: QuerySet, compiler: Any, sql: str, places: list[Any]) -> None:
        self.queryset, self.compiler, self.sql, self.places = queryset, compiler, sql, places
        self.for_update = compiler.query.select_for_update
        self.wrapped = any(isinstance(place, _Value) and place.wrap is not None for place in places)
        # The columns' converters (dates, decimals, JSON), worked out once a connection:
        # Django works them out again for every query, a call per column.
        self.converters: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def params(self, values: dict[str, Any], connection: Any) -> tuple | None:
        """The parameters for ``values``; None when a value does not fit its column's kind."""
        if self.wrapped and not all(_fits(values, place) for place in self.places):
            return None
        return tuple(_value(values, place, connection.ops) for place in self.places)

    def run(self, alias: str, values: dict[str, Any]) -> list | None:
        """The rows for ``values`` (None: Django's path, see ``params``)."""
        connection = connections[alias]
        params = self.params(values, connection)
        if params is None:
            return None
        if self.for_update and connection.features.has_select_for_update and connection.get_autocommit():
            raise TransactionManagementError("select_for_update cannot be used outside of a transaction.")
        compiler = copy.copy(self.compiler)
        compiler.connection = connection  # this thread's (a compiler holds the one it was made on)
        compiler.as_sql = lambda *args, **kwargs: (self.sql, params)
        converters = self.converters.get(connection)
        if converters is None:
            columns = [column for column, *_ in compiler.select[:compiler.col_count]]
            converters = self.converters[connection] = compiler.get_converters(columns)
        compiler.get_converters = lambda expressions: converters
        return list(self.queryset._iterable_class(_Carrier(self.queryset, compiler)))


class _UpdatePlan(_Plan):
    """An UPDATE's SQL on one database: run, it answers the rows changed."""

    def run(self, alias: str, values: dict[str, Any]) -> int | None:  # type: ignore[override]
        connection = connections[alias]
        params = self.params(values, connection)
        if params is None:
            return None
        with transaction.mark_for_rollback_on_error(using=alias), connection.cursor() as cursor:
            cursor.execute(self.sql, params)
            return cursor.rowcount


class _Value:
    """Where a parameter comes from: the value ``name`` (its item ``item`` for a tuple),
    wrapped as the database's adapter wrapped the stand-in (psycopg's Int2 for a small
    integer column: ``wrap``), or adapted by the database's operations (``adapt``: a
    date and time as SQLite stores it)."""

    __slots__ = ("name", "item", "wrap", "adapt")

    def __init__(self, name: str, item: int | None, wrap: type | None = None, adapt: str = "") -> None:
        self.name, self.item, self.wrap, self.adapt = name, item, wrap, adapt


#: The ranges of the adapters' integer kinds: a value beyond its column's kind takes
#: Django's path (which answers it without asking the database).
_WRAPPED_BITS = {"Int2": 16, "Int4": 32, "Int8": 64}


def _fits(values: dict[str, Any], place: Any) -> bool:
    if not isinstance(place, _Value) or place.wrap is None:
        return True
    value = values[place.name] if place.item is None else values[place.name][place.item]
    bits = _WRAPPED_BITS.get(place.wrap.__name__)
    return bits is None or -(2 ** (bits - 1)) <= value < 2 ** (bits - 1)


def _value(values: dict[str, Any], place: Any, ops: Any) -> Any:
    if isinstance(place, _Value):
        value = values[place.name]
        value = value if place.item is None else value[place.item]
        if place.adapt:
            value = getattr(ops, place.adapt)(value)
        return value if place.wrap is None else place.wrap(value)
    return place


class _Carrier:
    """The QuerySet as its iterable reads it, whose query gives the kept compiler."""

    def __init__(self, queryset: QuerySet, compiler: Any) -> None:
        self._queryset = queryset
        self.query = _QueryView(queryset.query, compiler)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._queryset, name)


class _QueryView:
    def __init__(self, query: Any, compiler: Any) -> None:
        self._query, self._compiler = query, compiler

    def get_compiler(self, *args: Any, **kwargs: Any) -> Any:
        return self._compiler

    def __getattr__(self, name: str) -> Any:
        return getattr(self._query, name)


# --- stand-ins ----------------------------------------------------------------------------


def _shape(values: dict[str, Any]) -> tuple | None:
    """What the SQL depends on in ``values``: each value's kind (and a tuple's length); None
    when one of them cannot be a parameter of the SQL as built (see the module)."""
    shape = []
    for name in sorted(values):
        value = values[name]
        if type(value) is tuple and 0 < len(value) <= MOST_ITEMS and all(_plain_int(item) for item in value):
            shape.append((name, "ints", len(value)))
        elif _plain_int(value):
            shape.append((name, "int", None))
        elif type(value) is str:
            shape.append((name, "str", None))
        elif type(value) is datetime and value.tzinfo is not None:
            shape.append((name, "datetime", None))
        else:
            return None
    return tuple(shape)


def _plain_int(value: Any) -> bool:
    return type(value) is int and _INT_RANGE[0] <= value <= _INT_RANGE[1]


def _stand_ins(shape: tuple, turn: int) -> dict[str, Any]:
    """Values unlike any other of the query, different at each ``turn``."""
    values: dict[str, Any] = {}
    count = 0

    def next_int() -> int:
        nonlocal count
        count += 1
        return _FIRST_INT + 2 * count + turn

    for name, kind, length in shape:
        if kind == "ints":
            values[name] = tuple(next_int() for _ in range(length))
        elif kind == "int":
            values[name] = next_int()
        elif kind == "datetime":
            values[name] = _FIRST_DATETIME + timedelta(microseconds=next_int())
        else:
            values[name] = f"\x1f{name}.{turn}\x1f"
    return values


def _kind(value: Any) -> type | None:
    """A parameter's kind as a stand-in: int (or an adapter's int, as psycopg's Int2), str
    or datetime."""
    if isinstance(value, int) and not isinstance(value, bool):
        return int
    return next((kind for kind in (str, datetime) if isinstance(value, kind)), None)


def _sources(shape: tuple, turn: int, ops: Any) -> dict[tuple[type | None, Any], _Value]:
    """Each stand-in of ``turn`` (by kind and value), and the value it stands in for; a
    date and time also as the database's operations adapt it (SQLite's text)."""
    sources = {}
    for name, values in _stand_ins(shape, turn).items():
        items = enumerate(values) if isinstance(values, tuple) else [(None, values)]
        for item, stand_in in items:
            sources[(_kind(stand_in), stand_in)] = _Value(name, item)
            if isinstance(stand_in, datetime):
                adapted = ops.adapt_datetimefield_value(stand_in)
                sources[(_kind(adapted), adapted)] = _Value(name, item, adapt="adapt_datetimefield_value")
    return sources


def _places(name: str, shape: tuple, params: tuple, second_params: tuple, ops: Any) -> list:
    """Each parameter's source: a value's stand-in at both turns, or the same constant."""
    first_sources, second_sources = _sources(shape, 0, ops), _sources(shape, 1, ops)
    places, reached = [], set()
    for first, second in zip(params, second_params):
        one, other = first_sources.get((_kind(first), first)), second_sources.get((_kind(second), second))
        if one is None and other is None and type(first) is type(second) and first == second:
            places.append(first)  # a constant of the query
        elif (one is not None and other is not None and type(first) is type(second)
              and (one.name, one.item, one.adapt) == (other.name, other.item, other.adapt)):
            wrap = None if type(first) in (int, str, datetime) else type(first)
            places.append(_Value(one.name, one.item, wrap, one.adapt))
            reached.add(one.name)
        else:
            raise PreparedQueryError(f"{name}: a parameter is neither one of the values nor a constant "
                                     f"({first!r}, then {second!r}): build the query from its values only")
    missing = {value_name for value_name, _, _ in shape} - reached
    if missing:
        raise PreparedQueryError(f"{name}: {', '.join(sorted(missing))} do not reach the SQL as parameters "
                                 "(a lookup that changes the value?): leave them to the ORM")
    return places
