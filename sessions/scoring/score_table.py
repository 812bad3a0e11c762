"""The deal-score values of an era, as a printed score table lists them (RULES.md 3).

Every figure comes from ``score_breakdown`` and ``undertrick_penalty``, so the table
shows exactly what the engine scores under that era.
"""

from __future__ import annotations

from dataclasses import dataclass

from sessions.scoring.contracts import Contract, Doubling, Strain
from sessions.scoring.deal_score import ERAS, score_breakdown, undertrick_penalty
from sessions.scoring.errors import ScoringError

STRAIN_NAMES = {Strain.C: "Clubs", Strain.D: "Diamonds", Strain.H: "Hearts", Strain.S: "Spades", Strain.NT: "Notrump"}
UNDERTRICKS_SHOWN = 7


@dataclass(frozen=True)
class ScoreTable:
    era: str
    # Contract points of each odd trick, 1 to 7, undoubled.
    trick_values: tuple[tuple[str, tuple[int, ...]], ...]
    # (tricks down, [NV undoubled, NV doubled, NV redoubled, V undoubled, V doubled, V redoubled]), totals.
    undertricks: tuple[tuple[int, tuple[int, ...]], ...]
    insult: tuple[int, int]  # doubled, redoubled
    overtrick_doubled: tuple[int, int]  # each doubled overtrick, NV and V
    slams: tuple[tuple[str, int, int], ...]  # (slam, NV, V)


def _odd_trick_values(strain: Strain, era: str) -> tuple[int, ...]:
    totals = [score_breakdown(Contract(level, strain), level + 6, False, era).contract_points for level in range(1, 8)]
    return tuple(total - before for total, before in zip(totals, [0, *totals[:-1]]))


def score_table(era: str) -> ScoreTable:
    if era not in ERAS:
        raise ScoringError(f"unknown scoring era {era!r}: use one of {', '.join(ERAS)}")
    undertricks = tuple(
        (down, tuple(undertrick_penalty(down, vulnerable, doubling, era)
                     for vulnerable in (False, True) for doubling in Doubling))
        for down in range(1, UNDERTRICKS_SHOWN + 1)
    )
    doubled, redoubled = (score_breakdown(Contract(1, Strain.C, d), 7, False, era).insult
                          for d in (Doubling.DOUBLED, Doubling.REDOUBLED))
    overtrick = tuple(score_breakdown(Contract(1, Strain.C, Doubling.DOUBLED), 8, v, era).overtricks for v in (False, True))
    slams = tuple((name, *(score_breakdown(Contract(level, Strain.C), level + 6, v, era).slam_bonus for v in (False, True)))
                  for name, level in (("Small slam", 6), ("Grand slam", 7)))
    return ScoreTable(
        era=era,
        trick_values=tuple((STRAIN_NAMES[s], _odd_trick_values(s, era)) for s in Strain),
        undertricks=undertricks,
        insult=(doubled, redoubled),
        overtrick_doubled=(overtrick[0], overtrick[1]),
        slams=slams,  # type: ignore[arg-type]
    )
