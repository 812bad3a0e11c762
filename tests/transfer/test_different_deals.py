"""Sections that played different deals: each section's deals are kept on import, written
by both exporters, and come back the same (deals, lines and figures)."""

from __future__ import annotations

import pytest

from sessions.handrecords.generate import random_deals
from sessions.models import Board, section_boards
from sessions.movements import mitchell
from sessions.core.selectors.scoring import session_score
from sessions.pairs.services.results import result_record
from sessions.transfer.exporters import EXPORTERS
from sessions.transfer.services.importing import results_import
from tests.factories import make_club, make_event, make_session
from tests.transfer.test_exports import figures_of, results_of

# Board 1 in each section of a 3-table Mitchell (NS +420, +450, +170 in A; -50, +420, +480 in B).
TEXTS = {"A": ["4S N =", "4S N +1", "3S N +1"], "B": ["4S N -1", "4S N =", "4S N +2"]}


def deals_by_section(session) -> dict[tuple[str, int], str]:
    """(section letter or "" for the shared boards, number) -> deal."""
    return {
        (board.section.letter if board.section else "", board.number): board.deal
        for board in Board.objects.filter(session=session).select_related("section")
    }


@pytest.fixture
def played(db):
    """Two sections, B on deals of its own; every board dealt; board 1 played in both."""
    session = make_session(make_event(make_club()), mitchell(3, 2), sections=("A", "B"), own_boards=("B",))
    boards = list(session.boards.all())
    for board, deal in zip(boards, random_deals(len(boards), seed=10)):
        board.deal = deal.to_pbn()
        board.save()
    for section in session.sections.all():
        board_1 = section_boards(boards, section.pk)[1]
        for seating, text in zip(mitchell(3, 2).traveller(1), TEXTS[section.letter]):
            result_record(board=board_1, section=section, ns_pair=seating.ns_pair, ew_pair=seating.ew_pair, text=text)
    return session


@pytest.mark.parametrize("fmt", ["usebio", "pbn"])
def test_each_sections_deals_come_back_from_an_export(played, fmt):
    _, _, content = EXPORTERS[fmt].render(played)

    report = results_import(club=make_club(), data=content, filename=f"export.{fmt}")
    again = report.session

    # Board 1 (the only one played) keeps each section's deal, on a board of its own.
    first = deals_by_section(played)
    assert deals_by_section(again) == {("A", 1): first[("", 1)], ("B", 1): first[("B", 1)]}
    assert first[("", 1)] != first[("B", 1)]
    assert not any("another deal" in note for note in report.notes)
    assert results_of(again) == results_of(played)
    assert figures_of(again) == figures_of(played)


@pytest.mark.parametrize("fmt", ["usebio", "pbn"])
def test_an_across_field_event_on_different_deals_comes_back_scored_per_section(played, fmt):
    played.event.across_field, played.event.rankings = True, "one"
    played.event.save()
    _, _, content = EXPORTERS[fmt].render(played)

    again = results_import(club=make_club(), data=content, filename=f"export.{fmt}").session

    scored = session_score(session=again)
    assert scored.note  # the sections could not be compared: scored apart, and said so
    # Each section's three results of board 1 compared alone: 100, 50 and 0 per cent.
    percents = sorted((r.section.letter, r.ns_score, scored.scored_line(r).ns_percent) for r in scored.results)
    assert percents == [
        ("A", 170, 0), ("A", 420, 50), ("A", 450, 100), ("B", -50, 0), ("B", 420, 50), ("B", 480, 100),
    ]
    assert figures_of(again) == figures_of(played)


def test_a_file_whose_sections_share_the_deals_keeps_one_shared_board(db):
    session = make_session(make_event(make_club()), mitchell(3, 2), sections=("A", "B"))
    boards = list(session.boards.all())
    for board, deal in zip(boards, random_deals(len(boards), seed=11)):
        board.deal = deal.to_pbn()
        board.save()
    for section in session.sections.all():
        for seating, text in zip(mitchell(3, 2).traveller(1), TEXTS[section.letter]):
            result_record(board=boards[0], section=section, ns_pair=seating.ns_pair, ew_pair=seating.ew_pair, text=text)
    _, _, content = EXPORTERS["usebio"].render(session)

    again = results_import(club=make_club(), data=content, filename="export.xml").session

    assert deals_by_section(again) == {("", 1): boards[0].deal}
