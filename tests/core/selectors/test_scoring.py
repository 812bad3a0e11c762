"""session_score: the stored lines through the engine, in a fixed number of queries."""

from fractions import Fraction

import pytest

from sessions.models import Result
from sessions.core.selectors.scoring import session_score
from sessions.pairs.services.results import result_record


def enter(session, number, ns, ew, text):
    return result_record(
        board=session.boards.get(number=number), section=session.sections.get(),
        ns_pair=ns, ew_pair=ew, text=text,
    ).result


def test_board_lines_are_matchpointed_against_each_other(session):
    # Board 1 is played by 1NS-1EW, 3NS-2EW and 2NS-3EW: top 4 on the 2-1 scale.
    top = enter(session, 1, "2NS", "3EW", "4S N +1")
    tied = [enter(session, 1, "1NS", "1EW", "4S N ="), enter(session, 1, "3NS", "2EW", "4S N =")]

    scored = session_score(session=session)

    assert scored.scored_line(top).ns_points == 4
    assert [scored.scored_line(line).ns_points for line in tied] == [1, 1]
    assert scored.scored_line(top).ew_points == 0


def test_a_mitchell_has_an_ns_and_an_ew_ranking(session):
    enter(session, 1, "2NS", "3EW", "4S N +1")
    enter(session, 1, "1NS", "1EW", "4S N =")
    enter(session, 1, "3NS", "2EW", "4S N -1")

    rankings = dict(session_score(session=session).rankings())

    assert set(rankings) == {"NS", "EW"}
    assert [(row.pair.label, row.standing.place) for row in rankings["NS"]] == [("2NS", "1"), ("1NS", "2"), ("3NS", "3")]
    assert rankings["EW"][0].pair.label == "2EW"
    assert rankings["NS"][0].standing.percentage == Fraction(100)


def test_each_ranked_pair_finds_its_standing_and_the_size_of_its_field(session):
    enter(session, 1, "2NS", "3EW", "4S N +1")
    enter(session, 1, "1NS", "1EW", "4S N =")

    scored = session_score(session=session)

    ranked = dict(scored.rankings())
    for field in ("NS", "EW"):
        assert [scored.standing_of(row.pair) for row in ranked[field]] == [(row.standing, 2) for row in ranked[field]]
    unranked = session.sections.get().pairs.get(number=3, direction="NS")  # no line yet
    assert scored.standing_of(unranked) == (None, 0)


def test_a_boards_lines_are_listed_in_the_engines_order(session):
    lines = [enter(session, number, ns, ew, "3NT N =") for number, ns, ew in (
        (2, "1NS", "1EW"), (1, "3NS", "2EW"), (2, "3NS", "2EW"), (1, "2NS", "3EW"), (1, "1NS", "1EW"),
    )]

    scored = session_score(session=session)

    for board in session.boards.all():
        on_board = [result.pk for result in scored.results if result.board_id == board.pk]
        assert list(scored.board_line_ids(board)) == on_board
        assert set(on_board) == {line.pk for line in lines if line.board_id == board.pk}


def test_special_lines_reach_the_engine_as_their_kind(session):
    enter(session, 1, "2NS", "3EW", "4S N +1")
    enter(session, 1, "1NS", "1EW", "4S N =")
    average_plus = enter(session, 1, "3NS", "2EW", "A60/40")

    scored = session_score(session=session)

    line = scored.scored_line(average_plus)
    assert (line.ns_percent, line.ew_percent) == (60, 40)


def test_scoring_takes_the_same_queries_for_one_line_or_many(session, django_assert_num_queries):
    enter(session, 1, "1NS", "1EW", "4S N =")
    assert session.event  # loaded with the session by the views, as here
    with django_assert_num_queries(2):  # the lines with their pairs; the pairs
        session_score(session=session)
    for number, (ns, ew) in {2: ("1NS", "1EW"), 3: ("2NS", "2EW"), 5: ("3NS", "3EW")}.items():
        enter(session, number, ns, ew, "3NT N =")
    assert Result.objects.count() == 4
    with django_assert_num_queries(2):
        session_score(session=session)


def test_an_arrow_switched_mitchell_has_one_ranking(event):
    from sessions.movements import mitchell
    from tests.factories import make_session

    session = make_session(event, mitchell(3, 2, arrow_switch_last_round=True))
    enter(session, 1, "1NS", "1EW", "4S N =")

    assert [field for field, _ in session_score(session=session).rankings()] == [""]


def test_sections_matchpointed_apart_rank_apart(event):
    from tests.factories import make_session

    session = make_session(event, sections=("A", "B"))
    for section in session.sections.all():
        result_record(board=session.boards.get(number=1), section=section, ns_pair="1NS", ew_pair="1EW",
                      text="4S N =")

    assert [field for field, _ in session_score(session=session).rankings()] == ["A NS", "A EW", "B NS", "B EW"]  # NS before EW


def play_board_1_in_full_and_board_2_twice(session):
    """Board 1 has the usual 3 results, board 2 only 2: 420 and 450, so Neuberg factors it."""
    for ns, ew, text in [("1NS", "1EW", "4S N ="), ("2NS", "3EW", "4S N +1"), ("3NS", "2EW", "4S N -1")]:
        enter(session, 1, ns, ew, text)
    return enter(session, 2, "1NS", "1EW", "4S N ="), enter(session, 2, "2NS", "3EW", "4S N +1")


def test_line_decimals_round_every_line_and_the_totals_add_the_rounded_lines(event, session):
    event.mp_scale = "acbl"
    event.save()
    below, above = play_board_1_in_full_and_board_2_twice(session)
    # ACBL scale, Neuberg to 3 results: (0 + 1/2) x 3/2 - 1/2 = 0.25 and (1 + 1/2) x 3/2 - 1/2 = 1.75.
    exact = session_score(session=session)
    assert (exact.scored_line(below).ns_points, exact.scored_line(above).ns_points) == (Fraction(1, 4), Fraction(7, 4))

    event.line_decimals = 1
    event.save()
    shown = session_score(session=session)

    assert (shown.scored_line(below).ns_points, shown.scored_line(above).ns_points) == (Fraction(3, 10), Fraction(9, 5))
    one_ns = shown.result.standing("A:1NS")  # board 1: 420 beats -50, loses to 450: 1 of 2
    assert one_ns.total == 1 + Fraction(3, 10)


def test_without_scaling_a_short_board_keeps_its_own_top(event, session):
    below, _ = play_board_1_in_full_and_board_2_twice(session)
    assert session_score(session=session).scored_line(below).top == 4  # Neuberg: the full top

    event.short_boards = "none"
    event.save()

    line = session_score(session=session).scored_line(below)
    assert (line.top, line.ns_points, line.ew_points) == (2, 0, 2)


@pytest.mark.parametrize(
    ("rankings", "arrow_switch", "fields"),
    [
        ("auto", False, ["EW", "NS"]),
        ("auto", True, [""]),
        ("one", False, [""]),
        ("two", True, ["EW", "NS"]),
    ],
)
def test_the_event_chooses_the_rankings_whatever_the_movement(event, session, rankings, arrow_switch, fields):
    event.rankings = rankings
    event.save()
    session.arrow_switch = arrow_switch
    session.save()
    enter(session, 1, "1NS", "1EW", "4S N =")

    assert sorted(field for field, _ in session_score(session=session).rankings()) == fields


@pytest.mark.parametrize(("across_field", "fields"), [(False, ["A", "B"]), (True, [""])])
def test_one_ranking_of_several_sections_is_per_section_unless_across_the_field(event, across_field, fields):
    from tests.factories import make_session

    event.rankings, event.across_field = "one", across_field
    event.save()
    session = make_session(event, sections=("A", "B"))
    for section in session.sections.all():
        result_record(board=session.boards.get(number=1), section=section, ns_pair="1NS", ew_pair="1EW",
                      text="4S N =")

    assert [field for field, _ in session_score(session=session).rankings()] == fields
