"""sessions.models.validation: a line's check constraints asked in one query, with Django's errors."""

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.db.models import CheckConstraint
from django.test.utils import CaptureQueriesContext

from sessions.models import Result, ResultKind


def _line(session, **fields) -> Result:
    section = session.sections.get()
    pairs = {pair.label: pair for pair in section.pairs.all()}
    values = {"kind": ResultKind.PLAYED, "level": 4, "strain": "S", "declarer": "N", "tricks": 10, "ns_score": 420,
              "round": 1, "table": 1, **fields}
    return Result(board=session.boards.get(number=1), section=section, ns_pair=pairs["1NS"], ew_pair=pairs["1EW"],
                  **values)


def _djangos_errors(line: Result) -> dict:
    """Each check constraint asked on its own, as Django's validate_constraints does."""
    errors: dict = {}
    for constraint in line._meta.constraints:
        if isinstance(constraint, CheckConstraint):
            try:
                constraint.validate(Result, line)
            except ValidationError as error:
                errors = error.update_error_dict(errors)
    return ValidationError(errors).message_dict


@pytest.mark.parametrize("fields", [
    {"tricks": 14, "level": 8},  # two checks broken: tricks and level out of range
    {"kind": ResultKind.ARTIFICIAL, "level": None, "tricks": None, "strain": "", "declarer": "", "ns_score": None,
     "artificial_ns_percent": 45, "artificial_ew_percent": 55},
    {"kind": ResultKind.ASSIGNED, "ns_score": None, "level": None, "tricks": None, "strain": "", "declarer": ""},
], ids=["out of range", "artificial with other percentages", "assigned without score"])
def test_a_broken_line_gets_the_errors_django_gives_check_by_check(session, fields):
    line = _line(session, **fields)
    expected = _djangos_errors(line)
    assert expected  # the case breaks at least one check

    with pytest.raises(ValidationError) as raised:
        line.validate_constraints()

    assert raised.value.message_dict == expected


def test_every_check_of_a_line_is_one_query(session):
    line = _line(session)
    checks = sum(isinstance(c, CheckConstraint) for c in line._meta.constraints)
    unique = len(line._meta.constraints) - checks
    assert checks >= 5

    with CaptureQueriesContext(connection) as captured:
        line.validate_constraints()  # a good line: nothing raised

    asked = [query["sql"] for query in captured if "SAVEPOINT" not in query["sql"]]
    # One query for every check, and one each for the unique constraints (does a line exist?).
    assert len(asked) == 1 + unique, asked
