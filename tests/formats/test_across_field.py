"""Sections that play the same boards are scored across the field when the file's own
figures say so, whatever the program usually does (to_engine.published_across_the_field)."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest

from sessions.formats.detect import parse_results_file
from sessions.formats.model import ParsedBoard, ParsedEvent, ParsedLine, ParsedPair
from sessions.formats.to_engine import options_for, to_engine
from sessions.scoring.session import score_session
from tests.formats.data_files import DATA_DIR

NZ_SECTIONS = "usebio/nzscorer_multi-section-multi-movement-pairs.xml"

# Board 1 in two 3-table sections, NS scores (none vulnerable). By hand, on the 2-1 scale:
# apart, each section's top is 4 (3 results); across the field the top is 10 (6 results):
# 450 10, 420 8, 170 6, 140 4, -50 2, -100 0.
SCORES = {"A": (420, 170, -50), "B": (450, 140, -100)}
APART = {"A": (4, 2, 0), "B": (4, 2, 0)}
TOGETHER = {"A": (8, 6, 2), "B": (10, 4, 0)}


def two_sections(published: dict[str, tuple[int, ...]] | None, top: int) -> ParsedEvent:
    pairs, boards = [], []
    for section, scores in SCORES.items():
        lines = []
        for table, score in enumerate(scores, start=1):
            ns = None if published is None else published[section][table - 1]
            lines.append(ParsedLine(
                f"{section}:{table}NS", f"{section}:{table}EW", "", "", None, "", str(score),
                None if ns is None else Decimal(ns), None if ns is None else Decimal(top - ns),
            ))
            for direction in ("NS", "EW"):
                pairs.append(ParsedPair(f"{section}:{table}{direction}", section, str(table), direction, [],
                                        None, None, None))
        boards.append(ParsedBoard(1, section, lines))
    return ParsedEvent("usebio", "EBUScore Pairs", "MP_PAIRS", "matchpoints", "Two sections", "", "", pairs, boards,
                       movement="mitchell", extra={"WINNER_TYPE": "1"})


def test_published_points_from_the_whole_field_mean_across_the_field():
    event = two_sections(TOGETHER, top=10)
    assert options_for(event).across_field
    result = score_session(to_engine(event))
    assert [line.ns_points for line in result.lines] == [8, 6, 2, 10, 4, 0]


def test_published_points_from_each_section_keep_the_sections_apart():
    event = two_sections(APART, top=4)
    assert not options_for(event).across_field
    result = score_session(to_engine(event))
    assert [line.ns_points for line in result.lines] == [4, 2, 0, 4, 2, 0]


def test_without_published_figures_the_programs_convention_stands():
    assert not options_for(two_sections(None, top=0)).across_field


def test_sections_playing_different_boards_are_never_pooled():
    event = two_sections(TOGETHER, top=10)
    event.boards[1].number = 2
    for line in event.boards[1].lines:
        line.published_ns_points, line.published_ew_points = Decimal(2), Decimal(2)
    assert not options_for(event).across_field


def test_sections_with_different_deals_under_one_number_are_never_pooled():
    # The figures say "across the field", but the sections' board 1 are different deals:
    # results on different deals are not compared.
    event = two_sections(TOGETHER, top=10)
    event.boards[0].deal = "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"
    event.boards[1].deal = "N:2.5432.5432.5432 AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876"
    assert event.sections_play_different_deals()
    assert not options_for(event).across_field
    event.boards[1].deal = event.boards[0].deal  # the same deal: pooled, as the figures say
    assert options_for(event).across_field


@pytest.fixture
def nz_as_another_program() -> ParsedEvent:
    """The NZ three-section file (scored across the field) as if a program that scores
    sections apart had written it: only its figures can tell."""
    event = parse_results_file((DATA_DIR / NZ_SECTIONS).read_bytes())
    return replace(event, program="EBUScore Pairs")


def test_a_real_multi_section_file_is_recognised_as_across_the_field_by_its_figures(nz_as_another_program):
    assert options_for(nz_as_another_program).across_field
    assert score_session(to_engine(nz_as_another_program)).top == 64  # 33 results a board

