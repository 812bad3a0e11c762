"""Small SVG charts for the board and pair pages, as plain strings.

- ``score_distribution_svg``: how often each NS score occurred on a board, one bar
  per distinct score, lowest score on the left, with one line's score highlighted.
- ``percentages_svg``: a pair's percentage on each board, as bars up or down from a
  50% line (a board the pair did not play has no bar).
- ``history_svg``: a player's session percentages over time, a line through one
  point per session (oldest on the left), with the 50% line.

The charts scale to their container (a viewBox, width 100%) and use a narrow drawing
(400 units) so that text stays readable when a phone shrinks it. They are images to
assistive technology (role="img") named by a <title> and described by a <desc> that
lists the figures; each bar has its own <title> for a hover tooltip. Colours come as
presentation attributes and every element has a class, so a stylesheet may restyle
them. All text, including the caller's title, is escaped with html.escape.
"""

from __future__ import annotations

import hashlib
import html
import math
from collections import Counter
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction

from sessions.scoring.errors import ScoringError
from sessions.scoring.rounding import round_to_places

WIDTH = 400
HEIGHT = 220
MARGIN_TOP = 20
MARGIN_BOTTOM = 44  # room for the x labels
MARGIN_SIDE = 8
FONT_SIZE = 12
MIN_LABEL_SPACING = 26  # x-axis labels closer than this are thinned out
BAR_GAP = 0.2  # share of each slot left empty between bars
COLOURS = {"bar": "#4a6fa5", "highlight": "#d95f02", "above": "#2e7d32", "below": "#c62828",
           "axis": "#555555", "text": "#222222", "line": "#4a6fa5"}  # fmt: skip
# The history's vertical scale shows at least 30-70%, widened to take in every point.
HISTORY_RANGE = (30, 70)
HISTORY_POINT_RADIUS = 4

Percentage = int | float | Fraction | Decimal


def score_distribution_svg(
    ns_scores: Sequence[int], *, highlight: int | None = None, title: str = "NS scores on this board"
) -> str:
    """A frequency bar chart of the board's NS scores; ``highlight`` marks one line's score."""
    for score in ns_scores:
        if isinstance(score, bool) or not isinstance(score, int):
            raise ScoringError(f"{score!r} is not an NS score in points: leave adjusted scores out of the chart")
    counts = sorted(Counter(ns_scores).items())
    description = "; ".join(f"{score}: {_times(count)}" for score, count in counts) or "no scores"
    chart = _Chart(title, description, "scores", counts)
    if not counts:
        return chart.render([_text(WIDTH / 2, HEIGHT / 2, "No scores yet", "empty", anchor="middle")])
    plot_height = HEIGHT - MARGIN_TOP - MARGIN_BOTTOM
    unit = plot_height / max(count for _, count in counts)
    baseline = HEIGHT - MARGIN_BOTTOM
    slot = (WIDTH - 2 * MARGIN_SIDE) / len(counts)
    step = _label_step(slot)
    parts = [_line(MARGIN_SIDE, baseline, WIDTH - MARGIN_SIDE, baseline, "axis")]
    for index, (score, count) in enumerate(counts):
        x = MARGIN_SIDE + index * slot + slot * BAR_GAP / 2
        height = count * unit
        kind = "highlight" if score == highlight else "bar"
        tooltip = f"{score}: {_times(count)}" + (" (this score)" if kind == "highlight" else "")
        parts.append(_bar(x, baseline - height, slot * (1 - BAR_GAP), height, kind, tooltip,
                          {"data-score": score, "data-count": count}))
        centre = x + slot * (1 - BAR_GAP) / 2
        parts.append(_text(centre, baseline - height - 4, str(count), "count", anchor="middle"))
        if index % step == 0 or kind == "highlight":
            parts.append(_axis_label(centre, baseline, str(score), rotate=step > 1 or slot < 40))
    return chart.render(parts)


def percentages_svg(
    percentages: Sequence[tuple[int | str, Percentage | None]], *, title: str = "Percentage on each board"
) -> str:
    """Bars up (above 50%) or down (below) from a 50% line, one per (board label, percentage)."""
    values = [(str(label), None if value is None else _percent(value)) for label, value in percentages]
    description = "; ".join(f"board {label}: {'not played' if value is None else _percent_text(value)}"
                            for label, value in values) or "no boards"
    chart = _Chart(title, description, "percentages", values)
    if not values:
        return chart.render([_text(WIDTH / 2, HEIGHT / 2, "No boards yet", "empty", anchor="middle")])
    plot_height = HEIGHT - MARGIN_TOP - MARGIN_BOTTOM
    unit = plot_height / 100  # per percentage point: 0% at the bottom, 100% at the top
    middle = MARGIN_TOP + 50 * unit
    slot = (WIDTH - 2 * MARGIN_SIDE) / len(values)
    step = _label_step(slot)
    parts = []
    for index, (label, value) in enumerate(values):
        x = MARGIN_SIDE + index * slot + slot * BAR_GAP / 2
        centre = x + slot * (1 - BAR_GAP) / 2
        if value is not None:
            height = float(abs(value - 50)) * unit
            kind = "above" if value >= 50 else "below"
            top = middle - height if kind == "above" else middle
            parts.append(_bar(x, top, slot * (1 - BAR_GAP), height, kind,
                              f"Board {label}: {_percent_text(value)}", {"data-board": label}))
        if index % step == 0:
            parts.append(_axis_label(centre, HEIGHT - MARGIN_BOTTOM, label, rotate=False))
    parts.append(_line(MARGIN_SIDE, middle, WIDTH - MARGIN_SIDE, middle, "axis fifty"))
    parts.append(_text(WIDTH - MARGIN_SIDE, middle - 4, "50%", "fifty-label", anchor="end"))
    return chart.render(parts)


def history_svg(
    points: Sequence[tuple[str, Percentage]], *, title: str = "Percentage in each session"
) -> str:
    """A line through one point per (session label, percentage), in the order given.

    Sessions are evenly spaced (a club plays weekly or so; a gap of a month would
    otherwise squeeze the rest). The vertical scale runs from 30% to 70%, or wider when a
    point lies outside, so that the usual spread of a club's scores is not a flat line.
    """
    values = [(str(label), _percent(value)) for label, value in points]
    description = "; ".join(f"{label}: {_percent_text(value)}" for label, value in values) or "no sessions"
    chart = _Chart(title, description, "history", values)
    if not values:
        return chart.render([_text(WIDTH / 2, HEIGHT / 2, "No sessions yet", "empty", anchor="middle")])
    low = min([HISTORY_RANGE[0], *(math.floor(value / 10) * 10 for _, value in values)])
    high = max([HISTORY_RANGE[1], *(math.ceil(value / 10) * 10 for _, value in values)])
    # Room under the axis for slanted dates ("10 Mar 25"), longer than a board's score.
    plot_top, plot_bottom = MARGIN_TOP, HEIGHT - MARGIN_BOTTOM - 14
    left, right = MARGIN_SIDE + 4 * FONT_SIZE // 2 + 12, WIDTH - MARGIN_SIDE - HISTORY_POINT_RADIUS

    def y_of(value: Fraction | int) -> float:
        return plot_bottom - float(value - low) * (plot_bottom - plot_top) / (high - low)

    slot = (right - left) / max(len(values) - 1, 1)
    x_of = [left + index * slot for index in range(len(values))] if len(values) > 1 else [(left + right) / 2]
    parts = [_line(left, plot_bottom, right, plot_bottom, "axis")]
    for tick in range(low, high + 1, 10):
        parts.append(_text(left - 6, y_of(tick) + FONT_SIZE / 3, f"{tick}%", "tick", anchor="end"))
    parts.append(_line(left, y_of(50), right, y_of(50), "axis fifty"))
    coordinates = " ".join(f"{_number(x)},{_number(y_of(value))}" for x, (_, value) in zip(x_of, values))
    parts.append(f'<polyline class="history-line" points="{coordinates}" fill="none" '
                 f'stroke="{COLOURS["line"]}" stroke-width="2"/>')
    step = _label_step(slot * 2) if len(values) > 1 else 1  # dates are wider than board numbers
    for index, (x, (label, value)) in enumerate(zip(x_of, values)):
        kind = "above" if value >= 50 else "below"
        parts.append(
            f'<circle class="point {kind}" cx="{_number(x)}" cy="{_number(y_of(value))}" '
            f'r="{HISTORY_POINT_RADIUS}" fill="{COLOURS[kind]}" data-session="{_escape(label)}">'
            f"<title>{_escape(f'{label}: {_percent_text(value)}')}</title></circle>"
        )
        if index % step == 0 or index == len(values) - 1:
            parts.append(_axis_label(x, plot_bottom, label, rotate=True))
    return chart.render(parts)


# -- building blocks ---------------------------------------------------------------------


class _Chart:
    """The <svg> wrapper: responsive, an image to screen readers, titled and described."""

    def __init__(self, title: str, description: str, kind: str, data: object) -> None:
        self.title = title
        self.description = description
        # Ids must be unique on a page that shows several charts, and stable between renders.
        digest = hashlib.sha1(repr((title, data)).encode()).hexdigest()[:10]
        self.id = f"{kind}-{digest}"

    def render(self, parts: list[str]) -> str:
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" width="100%" '
            f'viewBox="0 0 {WIDTH} {HEIGHT}" preserveAspectRatio="xMidYMid meet" '
            f'aria-labelledby="{self.id}-title {self.id}-desc" font-family="sans-serif" '
            f'font-size="{FONT_SIZE}" fill="{COLOURS["text"]}">'
            f'<title id="{self.id}-title">{_escape(self.title)}</title>'
            f'<desc id="{self.id}-desc">{_escape(self.description)}</desc>'
            + "".join(parts)
            + "</svg>"
        )


def _bar(x: float, y: float, width: float, height: float, kind: str, tooltip: str,
         data: dict[str, object]) -> str:
    attributes = "".join(f' {name}="{_escape(str(value))}"' for name, value in data.items())
    return (
        f'<rect class="bar {kind}" x="{_number(x)}" y="{_number(y)}" width="{_number(width)}" '
        f'height="{_number(height)}" fill="{COLOURS[kind]}"{attributes}>'
        f"<title>{_escape(tooltip)}</title></rect>"
    )


def _line(x1: float, y1: float, x2: float, y2: float, css_class: str) -> str:
    return (
        f'<line class="{css_class}" x1="{_number(x1)}" y1="{_number(y1)}" x2="{_number(x2)}" '
        f'y2="{_number(y2)}" stroke="{COLOURS["axis"]}" stroke-width="1"/>'
    )


def _text(x: float, y: float, content: str, css_class: str, *, anchor: str = "start",
          transform: str = "") -> str:
    extra = f' transform="{transform}"' if transform else ""
    return (
        f'<text class="{css_class}" x="{_number(x)}" y="{_number(y)}" text-anchor="{anchor}"{extra}>'
        f"{_escape(content)}</text>"
    )


def _axis_label(x: float, baseline: float, content: str, *, rotate: bool) -> str:
    """A label under the axis; slanted when the bars are narrow, so long scores still fit."""
    y = baseline + FONT_SIZE + 4
    if rotate:
        return _text(x, y, content, "label", anchor="end", transform=f"rotate(-45 {_number(x)} {_number(y)})")
    return _text(x, y, content, "label", anchor="middle")


def _label_step(slot: float) -> int:
    """Label every bar, or every second, third ... bar when they are too close together."""
    return max(1, math.ceil(MIN_LABEL_SPACING / slot)) if slot < MIN_LABEL_SPACING else 1


def _escape(text: str) -> str:
    return html.escape(text, quote=True)


def _number(value: float) -> str:
    """SVG coordinates to two decimals, without trailing zeros."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _percent(value: Percentage) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float | Fraction | Decimal):
        raise ScoringError(f"{value!r} is not a percentage")
    if not 0 <= value <= 100:
        raise ScoringError(f"{value}% is not a percentage between 0 and 100")
    return Fraction(value)


def _percent_text(value: Fraction) -> str:
    return f"{round_to_places(value, 2)}%"


def _times(count: int) -> str:
    return "once" if count == 1 else "twice" if count == 2 else f"{count} times"
