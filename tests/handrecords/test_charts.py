"""SVG charts: well-formed, bars faithful to the figures, accessible, and escaped."""

import xml.etree.ElementTree as ET
from decimal import Decimal
from fractions import Fraction

import pytest

from sessions.handrecords.charts import history_svg, percentages_svg, score_distribution_svg
from sessions.scoring.errors import ScoringError

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = '<script>alert("x")</script> & "quotes"'


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def _bars(root: ET.Element) -> list[ET.Element]:
    return [rect for rect in root.iter(f"{SVG}rect") if "bar" in rect.get("class", "").split()]


def _height(rect: ET.Element) -> float:
    return float(rect.get("height"))


def test_one_bar_per_distinct_score_lowest_first_with_heights_in_proportion():
    scores = [420, 450, 420, -100, 420, 450, 170]
    bars = _bars(_parse(score_distribution_svg(scores)))
    assert [int(bar.get("data-score")) for bar in bars] == [-100, 170, 420, 450]
    assert [int(bar.get("data-count")) for bar in bars] == [1, 1, 3, 2]
    unit = _height(bars[0])
    assert [_height(bar) / unit for bar in bars] == pytest.approx([1, 1, 3, 2])


def test_bars_stand_on_one_baseline():
    bars = _bars(_parse(score_distribution_svg([100, 100, 200])))
    bottoms = {round(float(bar.get("y")) + _height(bar), 6) for bar in bars}
    assert len(bottoms) == 1


def test_the_highlighted_score_is_marked_and_only_that_one():
    bars = _bars(_parse(score_distribution_svg([420, 450, 420, 620], highlight=450)))
    highlighted = [bar for bar in bars if "highlight" in bar.get("class").split()]
    assert [bar.get("data-score") for bar in highlighted] == ["450"]
    assert highlighted[0].get("fill") != bars[0].get("fill")
    assert "this score" in highlighted[0].find(f"{SVG}title").text


def test_the_chart_is_responsive_and_an_image_with_a_title_and_description():
    root = _parse(score_distribution_svg([420, 450], title="Board 7"))
    assert root.get("width") == "100%"
    assert root.get("viewBox").startswith("0 0 ")
    assert root.get("role") == "img"
    title, desc = root.find(f"{SVG}title"), root.find(f"{SVG}desc")
    assert title.text == "Board 7"
    assert desc.text == "420: once; 450: once"
    assert root.get("aria-labelledby") == f"{title.get('id')} {desc.get('id')}"


def test_two_charts_on_one_page_have_different_ids():
    first = _parse(score_distribution_svg([420], title="Board 1")).find(f"{SVG}title").get("id")
    second = _parse(score_distribution_svg([420], title="Board 2")).find(f"{SVG}title").get("id")
    assert first != second


def test_a_board_with_no_scores_says_so():
    root = _parse(score_distribution_svg([]))
    assert _bars(root) == []
    assert "No scores yet" in "".join(root.itertext())


def test_many_scores_still_give_every_bar():
    scores = list(range(-1000, 1000, 50))  # 40 distinct scores
    assert len(_bars(_parse(score_distribution_svg(scores)))) == 40


@pytest.mark.parametrize("score", ["A60/40", 4.5, None, True])
def test_a_score_that_is_not_points_is_refused(score):
    with pytest.raises(ScoringError, match="is not an NS score in points"):
        score_distribution_svg([420, score])


def test_percentage_bars_rise_above_and_fall_below_the_fifty_line_in_proportion():
    values = [(1, 75), (2, Fraction(100, 3)), (3, Decimal("50.00")), (4, 12.5), (5, None)]
    root = _parse(percentages_svg(values))
    bars = {bar.get("data-board"): bar for bar in _bars(root)}
    assert set(bars) == {"1", "2", "3", "4"}  # board 5 not played: no bar
    fifty = next(line for line in root.iter(f"{SVG}line") if "fifty" in line.get("class").split())
    middle = float(fifty.get("y1"))
    unit = _height(bars["1"]) / 25
    assert _height(bars["2"]) == pytest.approx(unit * (50 - 100 / 3))
    assert _height(bars["3"]) == 0
    assert _height(bars["4"]) == pytest.approx(unit * 37.5)
    assert float(bars["1"].get("y")) + _height(bars["1"]) == pytest.approx(middle)  # above: ends on the line
    assert float(bars["4"].get("y")) == pytest.approx(middle)  # below: starts on the line
    assert "above" in bars["1"].get("class") and "below" in bars["4"].get("class")


def test_percentages_are_described_rounded_for_display_only():
    root = _parse(percentages_svg([(1, Fraction(200, 3)), (2, None)]))
    assert root.find(f"{SVG}desc").text == "board 1: 66.67%; board 2: not played"
    bar = _bars(root)[0]
    assert bar.find(f"{SVG}title").text == "Board 1: 66.67%"


@pytest.mark.parametrize("value", [101, -1, "55"])
def test_a_percentage_outside_0_to_100_is_refused(value):
    with pytest.raises(ScoringError, match="is not a percentage"):
        percentages_svg([(1, value)])


def test_crowded_board_labels_are_thinned_but_bars_are_not():
    values = [(board, 50 + board % 7) for board in range(1, 37)]
    root = _parse(percentages_svg(values))
    labels = [text for text in root.iter(f"{SVG}text") if text.get("class") == "label"]
    assert len(_bars(root)) == 36
    assert 1 < len(labels) < 36
    assert labels[0].text == "1"


def test_hostile_text_is_escaped_in_titles_labels_and_attributes():
    for text in (
        score_distribution_svg([420, 450], title=HOSTILE),
        percentages_svg([(HOSTILE, 60)], title=HOSTILE),
    ):
        assert "<script>" not in text
        root = _parse(text)  # still well-formed XML, with the text given back intact
        assert root.find(f"{SVG}title").text == HOSTILE
        assert not list(root.iter(f"{SVG}script"))
    bar = _bars(_parse(percentages_svg([(HOSTILE, 60)])))[0]
    assert bar.get("data-board") == HOSTILE
    assert bar.find(f"{SVG}title").text == f"Board {HOSTILE}: 60.00%"


# --- a player's percentages over time ---------------------------------------------------


def _points(root: ET.Element) -> list[ET.Element]:
    return list(root.iter(f"{SVG}circle"))


def _fifty_line_y(root: ET.Element) -> float:
    (line,) = [line for line in root.iter(f"{SVG}line") if "fifty" in line.get("class", "").split()]
    return float(line.get("y1"))


def test_history_has_one_point_per_session_left_to_right_in_the_order_given():
    root = _parse(history_svg([("3 Mar 25", 55), ("10 Mar 25", Fraction(97, 2)), ("17 Mar 25", Decimal("62.5"))]))

    points = _points(root)
    assert [point.get("data-session") for point in points] == ["3 Mar 25", "10 Mar 25", "17 Mar 25"]
    xs = [float(point.get("cx")) for point in points]
    assert xs == sorted(xs) and xs[1] - xs[0] == pytest.approx(xs[2] - xs[1])  # evenly spaced
    (line,) = root.iter(f"{SVG}polyline")
    assert len(line.get("points").split()) == 3


def test_history_points_above_fifty_lie_above_the_fifty_line_in_proportion():
    root = _parse(history_svg([("a", 60), ("b", 40), ("c", 50)]))

    fifty = _fifty_line_y(root)
    above, below, level = (float(point.get("cy")) for point in _points(root))
    assert above < fifty < below and level == pytest.approx(fifty)
    assert fifty - above == pytest.approx(below - fifty)  # 10 points either side, the same distance
    assert [point.get("class") for point in _points(root)] == ["point above", "point below", "point above"]


def test_history_scale_widens_to_take_in_an_extreme_session():
    root = _parse(history_svg([("good", 81.2), ("bad", 24.9)]))

    ticks = [text.text for text in root.iter(f"{SVG}text") if text.get("class") == "tick"]
    assert ticks[0] == "20%" and ticks[-1] == "90%"
    ys = [float(point.get("cy")) for point in _points(root)]
    assert all(0 <= y <= 220 for y in ys)


def test_history_is_described_for_screen_readers_and_escapes_the_title():
    svg = history_svg([("3 Mar 25", Fraction(1105, 20))], title=HOSTILE)
    root = _parse(svg)

    assert "<script>" not in svg
    assert root.get("role") == "img"
    assert root.find(f"{SVG}title").text == HOSTILE
    assert root.find(f"{SVG}desc").text == "3 Mar 25: 55.25%"


def test_history_without_sessions_says_so():
    root = _parse(history_svg([]))

    assert not _points(root) and root.find(f"{SVG}desc").text == "no sessions"


@pytest.mark.parametrize("value", [101, -1, "55", None])
def test_history_refuses_what_is_not_a_percentage(value):
    with pytest.raises(ScoringError):
        history_svg([("x", value)])
