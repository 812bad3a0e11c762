"""session_score reads lines as rows (StoredLine), not as Results: the same figures as
scoring the loaded Results (score_loaded, the path of an event's combined ranking and
a player's history), on sessions with sections, adjustments, averages and boards not
played; and the Results a page shows are loaded one board or one pair at a time."""

from fractions import Fraction

import pytest

from sessions.models import DealEra, Pair, Result
from sessions.core.selectors.scoring import session_score
from sessions.core.selectors.engine_input import pairs_in_order, results_in_order
from sessions.core.selectors.scoring import score_loaded
from sessions.pairs.services.results import board_set_groups, result_record
from tests.factories import make_session

# Every kind of line: played, passed, assigned, Ave+/Ave-/Ave, weighted, not played.
TEXTS = ["4S N =", "4S N +1", "3NT S -1", "P", "NS 300", "A60/40", "A40/60", "A50/50", "NP", "4H E =", "5DX W -2"]


def enter_everything(session) -> None:
    """Every board played at every table of every section, the lines taking each kind in turn."""
    boards = {board.number: board for board in session.boards.all()}
    count = 0
    for section in session.sections.order_by("letter"):
        for seating in section.seatings.select_related("ns_pair", "ew_pair").order_by("round", "table"):
            for number in seating.boards:
                result_record(
                    board=boards[number], section=section, ns_pair=seating.ns_pair.label,
                    ew_pair=seating.ew_pair.label, text=TEXTS[count % len(TEXTS)],
                )
                count += 1


def scored_both_ways(session):
    """(session_score's, score_loaded's) for the session."""
    pairs = list(pairs_in_order().filter(section__session=session))
    results = list(results_in_order().filter(board__session=session))
    return session_score(session=session), score_loaded(session=session, pairs=pairs, results=results)


def assert_same_figures(rows, loaded) -> None:
    assert rows.line_ids == loaded.line_ids
    assert rows.result == loaded.result  # every line's figures, every standing, the top
    assert rows.rankings() == loaded.rankings()
    for result in loaded.results:
        assert rows.scored_line(result) == loaded.scored_line(result)


@pytest.mark.parametrize("across_field", [True, False])
def test_rows_score_as_the_loaded_results_with_sections_and_adjustments(event, across_field):
    event.across_field = across_field
    event.save()
    session = make_session(event, sections=("A", "B"))
    enter_everything(session)

    rows, loaded = scored_both_ways(session)

    assert_same_figures(rows, loaded)
    scored = [line for line in rows.result.lines if line.ns_points is not None]
    assert any(line.ns_percent == 60 for line in scored)  # the averages reached the engine
    assert any(line.ns_points is None for line in rows.result.lines)  # and the boards not played


def test_rows_score_as_the_loaded_results_with_weighted_and_fouled_lines(event, session):
    enter_everything(session)
    board = session.boards.get(number=1)
    weighted = Result.objects.filter(board=board, kind="played").first()
    weighted.kind, weighted.weighted_parts = "weighted", [["2/3", 620], ["1/3", -100]]
    weighted.save()
    lines = list(board.results.order_by("pk"))
    board_set_groups(board=board, groups={line.pk: (1 if index % 2 else 2) for index, line in enumerate(lines)})

    rows, loaded = scored_both_ways(session)

    assert_same_figures(rows, loaded)
    assert any(isinstance(line.ns_points, Fraction) and line.ns_points.denominator > 1 for line in rows.result.lines)


def test_rows_score_under_the_events_deal_era(event, session):
    event.deal_era = DealEra.values[-1]
    event.save()
    enter_everything(session)

    rows, loaded = scored_both_ways(session)

    assert_same_figures(rows, loaded)
    shown = rows.results_where(board=session.boards.get(number=1))
    assert [line.ns_score for line in shown] == [
        line.ns_score for line in loaded.results if line.board.number == 1
    ]


def test_a_boards_or_a_pairs_results_are_one_query(session, django_assert_num_queries):
    enter_everything(session)
    scored = session_score(session=session)
    board = session.boards.get(number=1)
    pair = Pair.objects.get(section__session=session, number=2, direction="EW")

    with django_assert_num_queries(1):
        on_board = scored.results_where(board=board)
        [(line.ns_pair.names, line.section.letter, line.board.number) for line in on_board]
    with django_assert_num_queries(1):
        of_pair = scored.results_where(pair=pair)

    assert [line.pk for line in on_board] == [line.pk for line in scored.results if line.board_id == board.pk]
    assert [line.pk for line in of_pair] == [
        line.pk for line in scored.results if pair.pk in (line.ns_pair_id, line.ew_pair_id)
    ]
    assert all(scored.scored_line(line) is not None for line in on_board + of_pair)
