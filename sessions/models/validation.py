"""Check constraints validated in one query, not one query each.

Django's ``full_clean`` asks the database about each CheckConstraint on its own: a query
(inside a savepoint of its own, in a transaction), three round trips per constraint. A
traveller line has nine: a table phone's Send and Confirm each cleaned a line, so about
30 of their 60-80 queries were these checks. ``ChecksInOneQuery`` asks about all of them
at once, ``SELECT COALESCE(<check 1>, true), COALESCE(<check 2>, true), ...`` with the
row's values, and raises the same errors, with the same messages and codes, for the
checks that fail. The other constraints (unique ones) are validated as Django does.
"""

from __future__ import annotations

import logging
from contextlib import nullcontext
from typing import Any

from django.core.exceptions import FieldError, ValidationError
from django.db import DatabaseError, connections, router, transaction
from django.db.models import BooleanField, CheckConstraint, Q, Value
from django.db.models.functions import Coalesce
from django.db.models.sql import Query
from django.db.models.sql.constants import SINGLE

logger = logging.getLogger(__name__)


class ChecksInOneQuery:
    """A model mixin: ``validate_constraints`` asks the database about every check
    constraint in one query (see the module docstring)."""

    def validate_constraints(self, exclude: Any = None) -> None:
        using = router.db_for_write(self.__class__, instance=self)
        errors: dict[str, list[ValidationError]] = {}
        checks = []
        for model_class, constraints in self.get_constraints():  # type: ignore[attr-defined]
            for constraint in constraints:
                if isinstance(constraint, CheckConstraint):
                    checks.append((model_class, constraint))
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


def failed_checks(instance: Any, checks: list, exclude: Any, using: str) -> list[CheckConstraint]:
    """The check constraints ``instance``'s values break, asked in one query. A check that
    names an excluded field is skipped, as Django skips it."""
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
    for index, (_model, constraint) in enumerate(checks):
        condition = constraint.condition
        named = condition.referenced_base_fields if isinstance(condition, Q) else set(values)
        if any(name not in values for name in named):
            continue  # names a field left out of this cleaning
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
