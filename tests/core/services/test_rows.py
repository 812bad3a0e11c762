"""insert_rows: many rows in a few statements, stored as Model(**row) then bulk_create
stores them (defaults, auto timestamps, JSON), on SQLite and PostgreSQL alike."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from sessions.models import Result, ResultKind, Seating, TableLink
from sessions.core.services import rows
from sessions.core.services.unit_of_work import unit_of_work


def insert_rows(model, many) -> None:
    """rows.insert_rows as its callers run it: in a unit of work (session_plan.session_store)."""
    with unit_of_work():
        rows.insert_rows(model, many)


#: One line of each kind, as the import gives them (fields it leaves out take their defaults).
LINES = [
    {"kind": ResultKind.PLAYED, "level": 4, "strain": "S", "doubling": "", "declarer": "N", "tricks": 10,
     "lead": "HK", "ns_score": 420, "entered_text": "4S N 10 420", "text": "4S N =", "round": 1, "table": 2},
    {"kind": ResultKind.ASSIGNED, "ns_score": -100, "entered_text": "-100", "text": "NS -100"},
    {"kind": ResultKind.ARTIFICIAL, "artificial_ns_percent": 60, "artificial_ew_percent": 40,
     "entered_text": "A6040", "text": "A60/40"},
    {"kind": ResultKind.NOT_PLAYED, "entered_text": "NP", "text": "NP"},
    {"kind": ResultKind.WEIGHTED, "weighted_parts": [["2/3", 620], ["1/3", -100]], "entered_text": "w", "text": "w"},
]


def stored(queryset, *, leave_out=("id",)) -> list[dict]:
    return [{name: value for name, value in row.items() if name not in leave_out} for row in queryset.values()]


def pairs_of(section):
    return section.pairs.get(number=1, direction="NS"), section.pairs.get(number=2, direction="EW")


@pytest.mark.django_db
def test_inserted_lines_are_stored_field_for_field_as_bulk_create_stores_them(session, director):
    section = session.sections.get()
    ns, ew = pairs_of(section)
    lines = [  # each on a board of its own: a pair has one line a board
        {"board_id": board.pk, "section_id": section.pk, "ns_pair_id": ns.pk, "ew_pair_id": ew.pk,
         "updated_by_id": director.pk, **values}
        for board, values in zip(session.boards.order_by("number"), LINES)
    ]
    Result.objects.bulk_create([Result(**line) for line in lines])
    by_orm = stored(Result.objects.order_by("board__number"), leave_out=("id", "created_at", "updated_at"))
    Result.objects.all().delete()
    started = timezone.now()
    insert_rows(Result, lines)
    finished = timezone.now()
    ours = Result.objects.order_by("board__number")
    assert stored(ours, leave_out=("id", "created_at", "updated_at")) == by_orm
    assert [line["version"] for line in by_orm] == [1] * len(LINES)  # the model's default
    assert ours[4].weighted_parts == [["2/3", 620], ["1/3", -100]]
    for line in ours:
        assert started <= line.created_at <= finished and started <= line.updated_at <= finished  # auto_now(_add)


@pytest.mark.django_db
def test_a_seating_s_boards_are_stored_as_the_same_json_list_from_a_list_or_a_tuple(session):
    section = session.sections.get()
    ns, ew = pairs_of(section)
    Seating.objects.all().delete()
    Seating.objects.bulk_create([Seating(section=section, round=1, table=1, ns_pair=ns, ew_pair=ew, boards=[1, 2])])
    insert_rows(Seating, [
        {"section_id": section.pk, "round": 2, "table": 1, "ns_pair_id": ns.pk, "ew_pair_id": ew.pk, "boards": [1, 2]},
        {"section_id": section.pk, "round": 3, "table": 1, "ns_pair_id": ns.pk, "ew_pair_id": ew.pk, "boards": (1, 2)},
    ])
    seatings = stored(Seating.objects.order_by("round"), leave_out=("id", "round"))
    assert seatings[0] == seatings[1] == seatings[2]
    assert seatings[0]["boards"] == [1, 2]


@pytest.mark.django_db
def test_rows_beyond_one_statement_are_all_stored_in_order(session):
    section = session.sections.get()
    ns, ew = pairs_of(section)
    Seating.objects.all().delete()
    count = 2 * rows.ROWS_PER_STATEMENT + 3  # two whole statements and a short one, on either database
    insert_rows(Seating, [
        {"section_id": section.pk, "round": round_, "table": 1, "ns_pair_id": ns.pk, "ew_pair_id": ew.pk, "boards": [round_]}
        for round_ in range(1, count + 1)
    ])
    assert list(Seating.objects.order_by("pk").values_list("round", "boards")) == [(r, [r]) for r in range(1, count + 1)]


@pytest.mark.django_db
def test_a_row_breaking_a_constraint_raises_integrity_error_and_stores_nothing(session):
    section = session.sections.get()
    ns, ew = pairs_of(section)
    Seating.objects.all().delete()
    seating = {"section_id": section.pk, "round": 1, "table": 1, "ns_pair_id": ns.pk, "ew_pair_id": ew.pk, "boards": [1]}
    with pytest.raises(IntegrityError), transaction.atomic():
        insert_rows(Seating, [seating, {**seating, "boards": [2]}])  # one seating a round and table
    assert not Seating.objects.exists()


@pytest.mark.django_db
def test_a_field_not_of_the_model_is_refused(session):
    with pytest.raises(ValueError, match="only its fields"):
        insert_rows(Seating, [{"section": session.sections.get(), "round": 1}])


@pytest.mark.django_db
def test_a_default_made_afresh_for_each_row_must_be_given(session):
    section = session.sections.get()
    with pytest.raises(ValueError, match=r"default is made per row \(\['token'\]\)"):
        insert_rows(TableLink, [{"session_id": session.pk, "section_id": section.pk, "table": 50}])
    insert_rows(TableLink, [{"session_id": session.pk, "section_id": section.pk, "table": 50, "token": "t" * 32}])
    assert TableLink.objects.get(table=50).token == "t" * 32
