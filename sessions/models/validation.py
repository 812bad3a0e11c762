"""Check constraints validated without a query each.

Django's ``full_clean`` asks the database about each CheckConstraint on its own: a query
(inside a savepoint of its own, in a transaction), three round trips per constraint, and
about a millisecond of query building each. A traveller line has ten. ``ChecksInProcess``
decides each plain condition in Python instead, with the database's three-valued logic (a
comparison with NULL is unknown, and an unknown check passes, as ``COALESCE(check, true)``
in Django's own query): field lookups ``exact``, ``in``, ``isnull`` and ``gt``/``gte``/
``lt``/``lte`` on the row's own values or on another field of it (``F``), joined with
``&``, ``|`` and ``~``. A condition it cannot read exactly so (any other lookup or
expression, values of mixed kinds; a ``regex``, whose dialect is the database's: Python's
``$`` also matches before a last newline, PostgreSQL's does not) goes to the database,
all such in one query:
``SELECT COALESCE(<check 1>, true), ...``. The errors are Django's, with the same messages
and codes; the unique constraints are validated as Django does.
``tests/models/test_validation.py`` holds every check of every model to the database's
answer.
"""

from __future__ import annotations

import datetime
import decimal
import logging
import uuid
from contextlib import nullcontext
from typing import Any

from django.core.exceptions import FieldError, ValidationError
from django.db import DatabaseError, connections, router, transaction
from django.db.models import BooleanField, CheckConstraint, F, Q, Value
from django.db.models.functions import Coalesce
from django.db.models.sql import Query
from django.db.models.sql.constants import SINGLE

logger = logging.getLogger(__name__)


class ChecksInProcess:
    """A model mixin: ``validate_constraints`` decides its check constraints in Python where
    it can, and asks the database about the rest in one query (see the module docstring)."""

    def validate_constraints(self, exclude: Any = None) -> None:
        using = router.db_for_write(self.__class__, instance=self)
        errors: dict[str, list[ValidationError]] = {}
        checks = []
        for model_class, constraints in self.get_constraints():  # type: ignore[attr-defined]
            for constraint in constraints:
                # (A concrete parent's checks read its own table's fields: Django's way below.)
                if isinstance(constraint, CheckConstraint) and model_class is type(self):
                    checks.append(constraint)
                    continue
                try:
                    constraint.validate(model_class, self, exclude=exclude, using=using)
                except ValidationError as error:
                    if getattr(error, "code", None) == "unique" and len(constraint.fields) == 1:
                        errors.setdefault(constraint.fields[0], []).append(error)
                    else:
                        errors = error.update_error_dict(errors)
        for constraint in failed_checks(self, checks, exclude, using):
            error = ValidationError(constraint.get_violation_error_message(), code=constraint.violation_error_code)
            errors = error.update_error_dict(errors)
        if errors:
            raise ValidationError(errors)


class Undecided(Exception):
    """A condition, or a value, that Python cannot judge exactly as the database would."""


def failed_checks(instance: Any, checks: list[CheckConstraint], exclude: Any, using: str) -> list[CheckConstraint]:
    """The check constraints ``instance``'s values break. A check that names an excluded
    field is skipped, as Django skips it."""
    values = row_values(instance, exclude)
    failed, undecided = [], []
    for constraint in checks:
        condition = constraint.condition
        if isinstance(condition, Q) and any(name not in values for name in condition.referenced_base_fields):
            continue  # names a field left out of this cleaning
        try:
            if truth(condition, values) is False:
                failed.append(constraint)
        except Undecided:
            undecided.append(constraint)
    failed += failed_in_the_database(instance, undecided, exclude, using)
    return [constraint for constraint in checks if any(constraint is broken for broken in failed)]  # Django's order


def row_values(instance: Any, exclude: Any) -> dict[str, Any]:
    """The values a check reads, by field name (a foreign key's is its id), as Django's
    ``_get_field_expression_map`` gives them to the database."""
    exclude = exclude or set()
    values = {}
    for field in instance._meta.local_concrete_fields:
        if field.name in exclude:
            continue
        # The database's to compare: a generated field (an expression of the others), and
        # JSON (Django's own check reads a JSON None as JSON null, not SQL's NULL).
        opaque = field.generated or field.get_internal_type() == "JSONField"
        values[field.name] = _OPAQUE if opaque else getattr(instance, field.attname)
    if "pk" not in exclude:
        values["pk"] = instance.pk
    return values


def truth(condition: Any, values: dict[str, Any]) -> bool | None:
    """``condition`` on the row's ``values`` in SQL's logic: True, False or None (unknown)."""
    if not isinstance(condition, Q) or condition.connector not in (Q.AND, Q.OR):
        raise Undecided(condition)
    answers, undecided = [], None
    for child in condition.children:
        try:
            answers.append(truth(child, values) if isinstance(child, Q) else _lookup(child, values))
        except Undecided as error:
            undecided = error
    deciding = False if condition.connector == Q.AND else True  # what decides an AND, an OR alone
    if deciding in answers:
        answer: bool | None = deciding
    elif undecided is not None:
        raise undecided
    else:
        answer = None if None in answers else not deciding
    if condition.negated and answer is not None:
        return not answer
    return answer


#: Kinds of value Python compares as the database does; values of two kinds are undecided.
#: (A float beside a decimal is one: the database compares them as floats, Python exactly.)
_KINDS = (bool, (int, decimal.Decimal), float, str, datetime.datetime, datetime.date, datetime.time, uuid.UUID)
_ORDERED = {1, 2, 4, 5, 6}  # numbers and times: strings are ordered by the database's collation


def _lookup(child: Any, values: dict[str, Any]) -> bool | None:
    if not isinstance(child, tuple) or len(child) != 2:
        raise Undecided(child)
    key, wanted = child
    name, _, lookup = key.partition("__")
    lookup = lookup or "exact"
    if name not in values or "__" in lookup:
        raise Undecided(key)  # a related field's, or a transform's
    value = _plain(values[name])
    if isinstance(wanted, F):
        if wanted.name not in values:
            raise Undecided(wanted)
        wanted = _plain(values[wanted.name])
    elif hasattr(wanted, "resolve_expression"):
        raise Undecided(wanted)
    elif lookup == "exact" and wanted is None:
        lookup, wanted = "isnull", True  # Django reads field=None as field IS NULL
    if lookup == "isnull" and isinstance(wanted, bool):
        return (value is None) == wanted
    if lookup == "in":
        choices = [_plain(choice) for choice in wanted if choice is not None]  # Django drops NULL from IN
        if not choices:
            raise Undecided(key)
        if value is None:
            return None
        return any(_compare("exact", value, choice) for choice in choices)
    if value is None or wanted is None:
        return None
    return _compare(lookup, value, wanted)


#: A value only the database compares (see row_values).
_OPAQUE = object()


def _plain(value: Any) -> Any:
    if value is _OPAQUE or hasattr(value, "resolve_expression"):
        raise Undecided(value)  # an expression waiting to be saved (F() + 1): the database's
    return value


def _kind(value: Any) -> int:
    for index, kind in enumerate(_KINDS):
        if isinstance(value, kind):
            return index
    raise Undecided(value)


def _compare(lookup: str, value: Any, wanted: Any) -> bool:
    kind = _kind(value)
    if kind != _kind(wanted) or (lookup != "exact" and kind not in _ORDERED):
        raise Undecided(lookup)
    try:
        if lookup == "exact":
            return value == wanted
        if lookup == "gt":
            return value > wanted
        if lookup == "gte":
            return value >= wanted
        if lookup == "lt":
            return value < wanted
        if lookup == "lte":
            return value <= wanted
    except TypeError as error:  # a naive and an aware time
        raise Undecided(lookup) from error
    raise Undecided(lookup)


def failed_in_the_database(instance: Any, checks: list[CheckConstraint], exclude: Any, using: str) -> list[CheckConstraint]:
    """The check constraints among ``checks`` that ``instance``'s values break, asked of the
    database in one query."""
    if not checks:
        return []
    query = Query(None)
    values = instance._get_field_expression_map(meta=instance._meta, exclude=exclude)
    given: set[str] = set()

    def give(names) -> None:
        # Only the values the checks name: each one given is an expression to resolve.
        for name in names:
            if name in values and name not in given:
                query.add_annotation(values[name], name, select=False)
                given.add(name)

    asked = []
    for index, constraint in enumerate(checks):
        condition = constraint.condition
        named = condition.referenced_base_fields if isinstance(condition, Q) else set(values)
        give(named)
        check = Coalesce(Q(condition), Value(True), output_field=BooleanField())
        try:
            try:
                query.add_annotation(check, f"check_{index}")
            except FieldError:  # a field the names above missed, or one left out of this cleaning
                give(values)
                query.add_annotation(check, f"check_{index}")
        except FieldError:  # names a field left out of this cleaning
            continue
        asked.append(constraint)
    if not asked:
        return []
    connection = connections[using]
    savepoint = transaction.atomic(using=using) if connection.in_atomic_block else nullcontext()
    try:
        with savepoint:
            row = query.get_compiler(using=using).execute_sql(SINGLE)
    except DatabaseError as error:  # as Django's own check: the database decides at the save
        logger.warning("Got a database error checking %s's constraints: %s", type(instance).__name__, error)
        return []
    return [constraint for constraint, passed in zip(asked, row) if not passed]
