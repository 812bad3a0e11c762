"""Reading a file's adjusted lines whose published points are the director's own
(to_engine.mark_assigned_points), and the USEBIO mark ClubScore writes on them."""

from decimal import Decimal
from fractions import Fraction

from sessions.formats import parse_results_file
from sessions.formats.to_engine import mark_assigned_points, options_for, to_engine
from sessions.formats.usebio_write import write_usebio
from sessions.scoring.scores import Artificial, AssignedPoints
from tests.formats.data_files import DATA_DIR


def parsed(name: str):
    return parse_results_file((DATA_DIR / name).read_bytes())


def adjusted_lines(event):
    return [line for board in event.boards for line in board.lines if line.score.startswith("A")]


def test_an_a5050_published_at_its_own_figures_is_marked_and_scores_them():
    event = parsed("usebio/cobalt_mp_pairs_mitchell_03_assigned.xml")

    assert mark_assigned_points(event, options_for(event)) == 1
    (line,) = adjusted_lines(event)
    assert line.assigned
    engine_line = next(item for item in to_engine(event).lines if item.board == 1 and item.ns_pair == "A:2NS")
    assert engine_line.score == AssignedPoints(Fraction(13, 2), Fraction(7, 2), ruling=Artificial(50, 50))


def test_adjusted_lines_the_rule_reproduces_are_left_alone():
    for name in ("usebio/uk_00210009+002061.xml", "usebio/uk_brian_welwyn_20250409.xml",
                 "usebio/nzscorer_multi-section-multi-movement-pairs.xml"):
        event = parsed(name)
        assert adjusted_lines(event)
        assert mark_assigned_points(event, options_for(event)) == 0, name
        assert not any(line.assigned for line in adjusted_lines(event))


def test_figures_above_the_boards_top_are_not_taken_for_the_directors():
    event = parsed("usebio/cobalt_mp_pairs_mitchell_03_assigned.xml")
    (line,) = adjusted_lines(event)
    line.published_ns_points = Decimal("10.5")  # the board's top is 10

    assert mark_assigned_points(event, options_for(event)) == 0
    assert not line.assigned


def test_usebio_marks_the_line_and_reads_the_mark_back():
    event = parsed("usebio/cobalt_mp_pairs_mitchell_03_assigned.xml")
    mark_assigned_points(event, options_for(event))

    again = parse_results_file(write_usebio(event))

    assert [line.assigned for line in adjusted_lines(again)] == [True]
    assert b"<?CLUBSCORE_ASSIGNED_POINTS" in write_usebio(event)
    assert not any(line.assigned for board in parsed("usebio/cobalt_mp_pairs_mitchell_03_assigned.xml").boards
                   for line in board.lines)  # a reader alone never marks: the file did not say
