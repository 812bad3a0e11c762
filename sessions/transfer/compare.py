"""Our figures against the ones a results file published (pure Python, no Django).

An import never copies a file's figures: it re-scores the session with our engine and
reports where the two disagree. A figure agrees when ours, rounded (halves away from
zero) to as many decimals as the file printed (at most two), is the printed figure.
When ours lies exactly on a half at that precision, either neighbour is accepted:
programs round binary floats, or halves to even.

A pair is compared on its percentage and place in a matchpoint event, on its total
and place in an IMP event; with a handicap applied, on its handicapped percentage and
its scratch place (NZ Scorer publishes them so); a place agrees when it names the same rank ("3" and "3="
both mean a share of third: Compscore3 and BBO leave the "=" out).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from sessions.formats.model import ParsedLine, ParsedPair
from sessions.scoring.rounding import round_to_places
from sessions.scoring.session import ScoredLine, Standing

MAX_PLACES = 2
SHOWN = 5  # differences listed by name; the rest are only counted


@dataclass(frozen=True)
class Comparison:
    lines_compared: int = 0
    line_differences: tuple[str, ...] = ()
    pairs_compared: int = 0
    pair_differences: tuple[str, ...] = ()

    @property
    def agrees(self) -> bool:
        return not self.line_differences and not self.pair_differences

    def summary(self) -> list[str]:
        """Human lines: the counts, then the first few differences of each kind."""
        lines = [
            f"our figures differ from the file's on {len(self.line_differences)} of "
            f"{self.lines_compared} traveller lines and {len(self.pair_differences)} of "
            f"{self.pairs_compared} pairs"
        ]
        for label, differences in (("line", self.line_differences), ("pair", self.pair_differences)):
            lines += [f"  {label}: {text}" for text in differences[:SHOWN]]
            if len(differences) > SHOWN:
                lines.append(f"  ... and {len(differences) - SHOWN} more {label}s")
        return lines


def places_printed(published: Decimal) -> int:
    return min(max(-published.as_tuple().exponent, 0), MAX_PLACES)


def figure_agrees(ours: Fraction | None, published: Decimal | None) -> bool:
    """Ours shown as the file shows its figure is that figure (see the module docstring)."""
    if ours is None or published is None:
        return ours is None and published is None
    places = places_printed(published)
    shown = round_to_places(published, places)
    if round_to_places(ours, places) == shown:
        return True
    halves = ours * 2 * 10**places
    on_a_half = halves.denominator == 1 and halves.numerator % 2 == 1
    return on_a_half and abs(Fraction(shown) - ours) == Fraction(1, 2 * 10**places)


def place_agrees(published: str | None, ours: Standing) -> bool:
    if not published:
        return True
    if published.endswith("="):
        return published == ours.place
    return published == str(ours.rank)


def _shown(value: Fraction | None) -> str:
    return "-" if value is None else str(round_to_places(value, MAX_PLACES))


def compare_lines(lines: Iterable[tuple[str, ParsedLine, ScoredLine]]) -> tuple[int, list[str]]:
    """(lines compared, differences) for (description, the file's line, our line)."""
    compared, differences = 0, []
    for where, parsed, ours in lines:
        if parsed.published_ns_points is None and parsed.published_ew_points is None:
            continue
        compared += 1
        if not (
            figure_agrees(ours.ns_points, parsed.published_ns_points)
            and figure_agrees(ours.ew_points, parsed.published_ew_points)
        ):
            differences.append(
                f"{where}: ours {_shown(ours.ns_points)}/{_shown(ours.ew_points)}, "
                f"file {parsed.published_ns_points}/{parsed.published_ew_points}"
            )
    return compared, differences


def compare_pairs(
    pairs: Iterable[tuple[str, ParsedPair, Standing | None]], matchpoints: bool, handicapped: bool = False
) -> tuple[int, list[str]]:
    """(pairs compared, differences) for (pair label, the file's pair, our standing)."""
    compared, differences = 0, []
    for label, parsed, ours in pairs:
        published = parsed.published_percentage if matchpoints else parsed.published_total
        if published is None and not parsed.published_place:
            continue
        compared += 1
        if ours is None:
            differences.append(f"{label}: the file ranks it, but it has no scored board here")
            continue
        figure = (ours.handicapped if handicapped else ours.percentage) if matchpoints else ours.total
        if (published is None or figure_agrees(figure, published)) and place_agrees(parsed.published_place, ours):
            continue
        what = "%" if matchpoints else ""
        differences.append(
            f"{label}: ours {_shown(figure)}{what} place {ours.place}, "
            f"file {published if published is not None else '-'}{what} place {parsed.published_place or '-'}"
        )
    return compared, differences
