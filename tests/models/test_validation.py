"""sessions.models.validation: check constraints decided in Python as the database decides them, the
rest asked in one query, with Django's errors."""

import datetime
import decimal
import itertools
import random

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.db import connection, models
from django.db.models import CheckConstraint, F, Q
from django.test.utils import CaptureQueriesContext, isolate_apps

from sessions.models import Result, ResultKind
from sessions.models.validation import ChecksInProcess, Undecided, failed_checks, row_values, truth


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


def test_a_good_lines_checks_ask_the_database_nothing(session):
    line = _line(session)
    checks = sum(isinstance(c, CheckConstraint) for c in line._meta.constraints)
    unique = len(line._meta.constraints) - checks
    assert checks >= 5

    with CaptureQueriesContext(connection) as captured:
        line.validate_constraints()  # a good line: nothing raised

    asked = [query["sql"] for query in captured if "SAVEPOINT" not in query["sql"]]
    # No query for the checks: one each for the unique constraints (does a line exist?).
    assert len(asked) == unique, asked


#: Conditions Python leaves to the database: a computed value and a lookup it does not read.
UNREAD = [
    CheckConstraint(condition=Q(ns_score__lte=F("tricks") * 100), name="unread_product"),
    CheckConstraint(condition=Q(strain__startswith="S"), name="unread_lookup"),
]


@pytest.mark.parametrize("fields, broken", [
    ({"tricks": 4, "ns_score": 420, "strain": "S"}, ["unread_product"]),
    ({"tricks": 4, "ns_score": 420, "strain": "H"}, ["unread_product", "unread_lookup"]),
    ({"tricks": 10, "ns_score": 420, "strain": "S"}, []),
], ids=["one broken", "both broken", "none broken"])
def test_conditions_python_cannot_read_are_asked_of_the_database_in_one_query(session, fields, broken):
    line = _line(session, **fields)
    for constraint in UNREAD:
        with pytest.raises(Undecided):
            truth(constraint.condition, row_values(line, None))
    against = line._get_field_expression_map(meta=line._meta)
    assert [c.name for c in UNREAD if not Q(c.condition).check(against)] == broken  # Django's own answer

    with CaptureQueriesContext(connection) as captured:
        failed = failed_checks(line, UNREAD, None, "default")

    assert [c.name for c in failed] == broken
    assert len([q for q in captured if "SAVEPOINT" not in q["sql"]]) == 1


def _checks() -> list:
    return [
        pytest.param(model, constraint, id=constraint.name)
        for model in apps.get_app_config("clubsessions").get_models()
        for constraint in model._meta.constraints
        if isinstance(constraint, CheckConstraint)
    ]


def _constants(condition, field) -> list:
    """The values ``condition`` compares ``field`` with, and their neighbours."""
    found: list = []
    for child in condition.children:
        if isinstance(child, Q):
            found += _constants(child, field)
            continue
        key, wanted = child
        if key.partition("__")[0] != field.name or isinstance(wanted, F):
            continue
        for value in wanted if isinstance(wanted, (list, tuple)) else [wanted]:
            if isinstance(value, bool) or value is None:
                continue
            if isinstance(value, (int, decimal.Decimal)):
                found += [value - 1, value, value + 1]
            elif isinstance(value, str):
                found.append(value)
    return found


#: Values of each kind of field beside those a check names: ids that meet, empty and
#: other text, the edges of a 64-digit hexadecimal check (capitals, a last newline).
OTHERS = {
    "int": [0, 1, 2], "bool": [True, False],
    "text": ["", "x", "0123456789abcdef" * 4, "0123456789ABCDEF" * 4, "0123456789abcdef" * 4 + "\n"],
    "json": [{}, [1], 0], "datetime": [datetime.datetime(2026, 11, 28, 12, tzinfo=datetime.timezone.utc)],
    "date": [datetime.date(2026, 11, 28)], "decimal": [decimal.Decimal("0.5")],
}
FIELD_KINDS = {
    "AutoField": "int", "BigAutoField": "int", "IntegerField": "int", "BigIntegerField": "int",
    "SmallIntegerField": "int", "PositiveIntegerField": "int", "PositiveSmallIntegerField": "int",
    "ForeignKey": "int", "OneToOneField": "int", "CharField": "text", "TextField": "text",
    "SlugField": "text", "EmailField": "text", "URLField": "text", "BooleanField": "bool", "JSONField": "json",
    "DateTimeField": "datetime", "DateField": "date", "DecimalField": "decimal",
}


def _rows(model, condition) -> list[dict]:
    """Every combination of None, the field's own choices, the values the check names and
    their neighbours, and a few others, for the fields the check names (a fixed sample of
    them where there are more than 120)."""
    fields = {field.name: field for field in model._meta.local_concrete_fields}
    named = sorted(condition.referenced_base_fields)
    choices = []
    for name in named:
        field = fields[name]
        kind = FIELD_KINDS.get(field.get_internal_type())
        assert kind, f"a check names a {field.get_internal_type()}: give it values here"
        values = [None, *OTHERS[kind], *_constants(condition, field), *[v for v, _label in field.flatchoices][:3]]
        choices.append(list({repr(value): value for value in values}.values()))
    rows = list(itertools.product(*choices))
    if len(rows) > 120:
        rows = random.Random(0).sample(rows, 120)
    return [{fields[name].attname: value for name, value in zip(named, row)} for row in rows]


def _has_regex(condition) -> bool:
    return any(_has_regex(child) if isinstance(child, Q) else child[0].endswith("__regex")
               for child in condition.children)


@pytest.mark.parametrize("model, constraint", _checks())
def test_every_check_of_every_model_is_decided_in_python_as_the_database_decides(db, model, constraint):
    condition = constraint.condition
    json_named = any(model._meta.get_field(name).get_internal_type() == "JSONField"
                     for name in condition.referenced_base_fields)
    for values in _rows(model, condition):
        row = model()
        for attname, value in values.items():
            setattr(row, attname, value)
        database = Q(condition).check(row._get_field_expression_map(meta=model._meta))
        try:
            answer = truth(condition, row_values(row, None))
        except Undecided:
            # Only JSON and regular expressions are the database's to compare.
            assert json_named or _has_regex(condition), (constraint.name, values)
            continue
        assert (answer is not False) == database, (constraint.name, values)


def test_every_model_with_check_constraints_decides_them_in_python():
    """A new model with a check gets the mixin too, or its full_clean asks a query a check."""
    slow = [model.__name__ for model in apps.get_app_config("clubsessions").get_models()
            if any(isinstance(c, CheckConstraint) for c in model._meta.constraints)
            and not issubclass(model, ChecksInProcess)]
    assert slow == []


@isolate_apps("tests")
def test_a_concrete_parents_checks_are_validated_as_django_does(db):
    """Multi-table inheritance (none in the app yet): the parent's checks read the
    parent's fields, which Django validates with the parent's own field map."""

    class Parent(ChecksInProcess, models.Model):
        level = models.IntegerField()

        class Meta:
            app_label = "tests"
            constraints = [CheckConstraint(condition=Q(level__gte=1), name="parent_level_positive",
                                           violation_error_message="the level is at least 1")]

    class Child(Parent):
        tricks = models.IntegerField()

        class Meta:
            app_label = "tests"
            constraints = [CheckConstraint(condition=Q(tricks__lte=13), name="child_tricks_13",
                                           violation_error_message="13 tricks at most")]

    with pytest.raises(ValidationError) as raised:
        Child(level=0, tricks=14).validate_constraints()
    assert raised.value.messages == ["the level is at least 1", "13 tricks at most"]
    Child(level=1, tricks=13).validate_constraints()  # both hold: nothing raised
