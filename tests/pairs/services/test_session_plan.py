"""session_store: a new session from a movement or from a file is one plan stored by one
service (sessions.pairs.services.session_plan), so both paths store the same rows for the same
session, and a plan that does not hold together stores nothing."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import IntegrityError, transaction

from sessions.handrecords.deals import parse_deal
from sessions.handrecords.generate import random_deals
from sessions.models import Board, Pair, Result, Seating, Section, Session
from sessions.movements import howell, mitchell
from sessions.pairs.services.results import result_record
from sessions.pairs.services.session_plan import (
    PlannedBoard, PlannedLine, PlannedPair, PlannedSeating, SessionPlan, session_store,
)
from sessions.transfer.services.importing import results_import
from tests.factories import make_event, make_session

#: A made contract for each board: the result does not matter here, only where it is stored.
TEXT = "3NT N ="


def _play_every_board(session: Session) -> None:
    for seating in Seating.objects.filter(section__session=session).select_related("section", "ns_pair", "ew_pair"):
        for number in seating.boards:
            board = (Board.objects.filter(session=session, number=number, section=seating.section).first()
                     or Board.objects.get(session=session, number=number, section=None))
            result_record(board=board, section=seating.section, ns_pair=seating.ns_pair.label,
                          ew_pair=seating.ew_pair.label, text=TEXT, round=seating.round)


def _shape(session: Session) -> dict[str, object]:
    """What a session is, by labels and numbers (no ids)."""
    sections = {section.pk: section.letter for section in Section.objects.filter(session=session)}
    return {
        "session": (session.movement_kind, session.tables, session.rounds, session.boards_per_round,
                    session.board_count),
        "sections": sorted(sections.values()),
        "pairs": sorted((sections[pair.section_id], pair.label, pair.names)
                        for pair in Pair.objects.filter(section__session=session).select_related("player_1", "player_2")),
        "boards": _deals_played(session, sections),
        "seatings": sorted((sections[seating.section_id], seating.round, seating.table, seating.ns_pair.label,
                            seating.ew_pair.label, tuple(seating.boards))
                           for seating in Seating.objects.filter(section__session=session)
                           .select_related("ns_pair", "ew_pair")),
        "lines": sorted((sections[line.section_id], line.board.number, line.round, line.table, line.ns_pair.label,
                         line.ew_pair.label, line.text)
                        for line in Result.objects.filter(section__session=session)
                        .select_related("board", "ns_pair", "ew_pair")),
    }


def _deals_played(session: Session, sections: dict[int, str]) -> list[tuple]:
    """Each section's board of each number (its own, else the shared one): a section's own
    deals may be stored as its own boards and the other sections' as shared, or each as its own."""
    boards = list(Board.objects.filter(session=session))
    own = {(board.section_id, board.number): board for board in boards if board.section_id}
    shared = {board.number: board for board in boards if not board.section_id}
    numbers = {board.number for board in boards}
    played = [(letter, own.get((pk, number)) or shared[number]) for pk, letter in sections.items() for number in numbers]
    return sorted((letter, board.number, board.dealer, board.vulnerability,
                   parse_deal(board.deal).to_pbn() if board.deal else "") for letter, board in played)


@pytest.mark.parametrize("movement, sections, own_boards", [
    (mitchell(4, 2), ("A",), ()),
    (mitchell(3, 3), ("A", "B"), ("B",)),  # B plays deals of its own
    (howell(8, 2), ("A",), ()),
], ids=["mitchell", "two-sections-own-deals", "howell"])
def test_a_movement_and_its_exported_file_store_the_same_session(club, tmp_path, movement, sections, own_boards):
    players = {f"{letter}:{label}" if len(sections) > 1 else label: [f"North {letter}{label}", f"South {letter}{label}"]
               for letter in sections for label in movement.pairs}
    typed = make_session(make_event(club), movement, sections=sections, own_boards=own_boards, pair_players=players)
    boards = list(Board.objects.filter(session=typed).order_by("pk"))
    for board, deal in zip(boards, random_deals(len(boards), seed=27)):  # B's own deals are told apart by them
        board.deal = deal.to_pbn()
    Board.objects.bulk_update(boards, ["deal"])
    _play_every_board(typed)
    path = tmp_path / "session.pbn"  # PBN: its ScoreTable carries each line's round and table (USEBIO's does not)
    call_command("export_results", str(typed.pk), "--format", "pbn", "--output", str(path))

    imported = results_import(club=club, data=path.read_bytes(), filename="session.pbn").session

    assert _shape(imported) == _shape(typed)


def _plan(club, **changes) -> SessionPlan:
    """A one-table plan: pairs 1NS and 1EW play boards 1 and 2, one line on board 1."""
    plan = SessionPlan(
        session=Session(event=make_event(club), name="Planned", date=datetime.date(2026, 11, 27), tables=1, rounds=1,
                        movement_kind="mitchell", movement_description="one table",
                        boards_per_round=2, board_count=2),
        sections=["A"],
        boards=[PlannedBoard(number=1), PlannedBoard(number=2)],
        pairs=[PlannedPair(key="1NS", section="A", number=1, direction="NS"),
               PlannedPair(key="1EW", section="A", number=1, direction="EW")],
        seatings=[PlannedSeating(section="A", round=1, table=1, ns_pair="1NS", ew_pair="1EW", boards=(1, 2))],
        lines=[PlannedLine(board=(None, 1), section="A", ns_pair="1NS", ew_pair="1EW", round=1, table=1,
                           values={"kind": "played", "level": 3, "strain": "NT", "doubling": "", "declarer": "N",
                                   "tricks": 9, "ns_score": 400, "text": "3NT N =", "entered_text": "3NT N ="})],
    )
    for name, value in changes.items():
        setattr(plan, name, value)
    return plan


def test_a_plan_is_stored_whole(club):
    stored = session_store(plan=_plan(club))
    assert _shape(stored.session)["lines"] == [("A", 1, 1, 1, "1NS", "1EW", "3NT N =")]
    assert (Board.objects.get(pk=stored.boards[(None, 2)].pk).dealer,
            Board.objects.get(pk=stored.boards[(None, 2)].pk).vulnerability) == ("E", "NS")  # the engine's board 2
    assert stored.line_ids == list(Result.objects.values_list("pk", flat=True))


@pytest.mark.parametrize("changes, message", [
    ({"sections": ["A", "A"]}, "a section letter is given twice"),
    ({"boards": [PlannedBoard(number=1), PlannedBoard(number=1)]}, "a board is planned twice"),
    ({"pairs": [PlannedPair(key="1NS", section="B", number=1, direction="NS")]}, "no section B in the plan"),
    ({"seatings": [PlannedSeating(section="A", round=1, table=1, ns_pair="1NS", ew_pair="9EW", boards=(1,))]},
     "pair 9EW is not in the plan"),
    ({"lines": [PlannedLine(board=(None, 7), section="A", ns_pair="1NS", ew_pair="1EW", round=1, table=1,
                            values={"kind": "not_played", "text": "NP", "entered_text": "NP"})]},
     "a line on board 7 that the plan does not have"),
    ({"lines": [PlannedLine(board=(None, 1), section="A", ns_pair="1NS", ew_pair="1EW", round=1, table=1,
                            values={"kind": "played", "level": 3, "strain": "NT", "declarer": "Q", "tricks": 9,
                                    "ns_score": 400, "text": "3NT Q", "entered_text": "3NT Q"})]},
     "declarer"),
])
def test_a_plan_that_does_not_hold_together_stores_nothing(club, changes, message):
    plan = _plan(club, **changes)
    with pytest.raises(ValidationError, match=message):
        session_store(plan=plan)
    assert not Session.objects.exists() and not Pair.objects.exists() and not Board.objects.exists()


def test_a_plan_breaking_a_constraint_is_refused_by_the_database_and_stores_nothing(club):
    """Generated rows' constraints are the database's (rows.insert_rows): round 0 breaks one."""
    plan = _plan(club, seatings=[PlannedSeating(section="A", round=0, table=1, ns_pair="1NS", ew_pair="1EW",
                                                boards=(1,))])
    with pytest.raises(IntegrityError), transaction.atomic():
        session_store(plan=plan)
    assert not Session.objects.exists() and not Seating.objects.exists()
