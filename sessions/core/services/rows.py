"""Many rows inserted at once, stored as bulk_create would store them, in a fraction of its time.

bulk_create builds a model instance per row and prepares every field of every row for
the database: for a national simultaneous pairs (72,000 traveller lines) that was two
million field preparations, most of the import's time. ``insert_rows`` takes plain rows,
prepares each distinct value of a column once with the field's own preparation (a
column holds few: kinds, scores, the ids of a few thousand pairs), and sends the rows
through Django's connection, many to a statement. The primary keys are not read back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from django.db import connection, models

#: Rows to a statement, at most (SQLite takes fewer: 999 parameters). PostgreSQL runs
#: each statement apart: a row a statement is several times slower, and longer
#: statements gain nothing more (measured with bench/sim.py's 72,000 lines).
ROWS_PER_STATEMENT = 100

#: The default of a field whose default is made afresh for each row (a token): a row must give it.
_PER_ROW = object()


def insert_rows(model: type[models.Model], rows: Sequence[Mapping[str, object]]) -> None:
    """Insert ``rows`` of ``model``, each a mapping of field attnames (``board_id`` for a
    foreign key) to values, as ``model(**row)`` then ``bulk_create`` would: a field a row
    leaves out takes its default, auto_now and auto_now_add fields the time of the call
    (the same for every row), and each value is prepared by its field for the database.
    The database numbers the rows (an auto primary key); no signals are sent, as with
    bulk_create. Constraints are the database's: a violation raises IntegrityError."""
    fields = [field for field in model._meta.concrete_fields if field is not model._meta.auto_field]
    defaults = _defaults(model, fields)
    per_row = {name for name, default in defaults.items() if default is _PER_ROW}
    for row in rows:
        if not defaults.keys() >= row.keys() >= per_row:
            raise ValueError(
                f"a {model.__name__} row names {sorted(row)}: only its fields, "
                f"and every field whose default is made per row ({sorted(per_row)})"
            )
    columns = [(field.attname, defaults[field.attname], _preparer(field)) for field in fields]
    values = [[prepare(row.get(name, default)) for name, default, prepare in columns] for row in rows]
    size = max(min(connection.ops.bulk_batch_size(fields, values), ROWS_PER_STATEMENT), 1)
    whole = len(values) - len(values) % size
    with connection.cursor() as cursor:
        if whole:
            # One statement over and over: Django's psycopg cursor binds parameters on the
            # client, and reads a statement's text once an executemany, not once a chunk.
            chunks = [_flat(values[start:start + size]) for start in range(0, whole, size)]
            cursor.executemany(_insert_sql(model, fields, size), chunks)
        if whole < len(values):
            cursor.execute(_insert_sql(model, fields, len(values) - whole), _flat(values[whole:]))


def _insert_sql(model: type[models.Model], fields: Sequence[models.Field], rows: int) -> str:
    quote = connection.ops.quote_name
    row = "({})".format(", ".join(["%s"] * len(fields)))
    return "INSERT INTO {} ({}) VALUES {}".format(
        quote(model._meta.db_table), ", ".join(quote(field.column) for field in fields), ", ".join([row] * rows)
    )


def _flat(rows: Sequence[Sequence[object]]) -> list[object]:
    return [value for row in rows for value in row]


def _defaults(model: type[models.Model], fields: Sequence[models.Field]) -> dict[str, object]:
    """Each field's value on a new instance at saving time (pre_save: auto_now is now)."""
    blank = model()
    return {
        field.attname: _PER_ROW if (field.has_default() and callable(field.default)) or field.has_db_default()
        else field.pre_save(blank, add=True)
        for field in fields
    }


def _preparer(field: models.Field) -> Callable[[object], object]:
    """The field's get_db_prep_save (what bulk_create calls on each value), once per
    distinct value (and type: 1 and True are prepared apart): it depends on the value alone."""
    prepared: dict[tuple[type, object], object] = {}

    def prepare(value: object) -> object:
        try:
            return prepared[type(value), value]
        except KeyError:
            result = prepared[type(value), value] = field.get_db_prep_save(value, connection)
            return result
        except TypeError:  # unhashable (a JSON field's list): prepared each time
            return field.get_db_prep_save(value, connection)

    return prepare
