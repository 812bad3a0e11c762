"""The score pad's JavaScript scorer (static/js/pad-engine.js) gives every figure the
Python engine gives (sessions/scoring/rubber.py, scorepad.py), run by Node.js.

The phone scores offline with the JavaScript copy, so the two must agree: both score
the seed's six-deal rubber, hand-picked edge cases and a few thousand generated deal
sequences (a seeded generator: every run the same, every era, rubber and Chicago,
passed-out deals, doubled and redoubled contracts, honours, stopped rubbers), and every
figure is compared: each sheet entry (deal, side, points, label, game), the game
winners, whether the rubber is over, the vulnerability of every deal, the layout above
and below the line, the totals and each player's night total. The hand-made cases with
their expected figures (tests/scoring/pad_cases.json) run in both engines' own tests.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from sessions.scoring.deal_score import ERAS
from sessions.scoring.scorepad import (
    Pad,
    PadDeal,
    add_deal,
    deal_vulnerabilities,
    pad_from_json,
    score_pad,
    sheet_layout,
    stop_round,
)
from tests.js.node import run_node
from tests.scoring.test_scorepad import NAMES, SEED_RUBBER

FIGURES = str(Path(__file__).with_name("figures.mjs"))


def python_figures(pad: Pad) -> dict[str, Any]:
    """Every figure of the pad, from the Python engine, in plain JSON."""
    scored = score_pad(pad)
    rounds = []
    for round_score in scored.rounds:
        sheet = round_score.sheet
        rounds.append({
            "entries": [{"deal": e.deal, "side": e.side.value, "points": e.points, "label": e.label, "game": e.game}
                        for e in sheet.entries],
            "game_winners": [side.value for side in sheet.game_winners],
            "finished": sheet.finished,
            "vulnerability": list(deal_vulnerabilities(pad, round_score.round)),
            "layout": sheet_layout(sheet),
            "net": round_score.net,
        })
    return {"rounds": rounds, "player_totals": [list(t) for t in scored.player_totals()],
            "round_open": scored.round_open}


def random_deal(rng: random.Random) -> PadDeal:
    if rng.random() < 0.06:
        return PadDeal("", "PASS", 0)
    level = rng.choice([1, 1, 2, 2, 2, 3, 3, 4, 4, 5, 6, 7])
    strain = rng.choice(["C", "D", "H", "S", "NT"])
    doubling = rng.choices(["", "X", "XX"], weights=[8, 3, 1])[0]
    tricks = max(0, min(13, level + 6 + rng.choice([-4, -3, -2, -1, -1, 0, 0, 0, 1, 1, 2, 3])))
    honours, side = "", ""
    if rng.random() < 0.2:
        holdings = ["four_aces"] if strain == "NT" else ["four_trumps", "five_trumps"]
        honours, side = rng.choice(holdings), rng.choice(["NS", "EW"])
    return PadDeal(rng.choice("NESW"), f"{level}{strain}{doubling}", tricks, honours, side)


def random_pad(rng: random.Random, kind: str, era: str) -> Pad:
    pad = Pad(kind, era, tuple(NAMES), rng.choice("NESW"))  # type: ignore[arg-type]
    for _ in range(rng.randint(1, 30)):
        pad = add_deal(pad, random_deal(rng))
        if kind == "rubber" and rng.random() < 0.05 and score_pad(pad).round_open:
            pad = stop_round(pad)
    return pad


def js_figures(pads: list[Pad]) -> list[dict[str, Any]]:
    """Every figure of each pad from static/js/pad-engine.js (tests/js/figures.mjs)."""
    result = run_node(FIGURES, stdin=json.dumps([pad.as_json() for pad in pads]))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def assert_same(pads: list[Pad]) -> None:
    for pad, js in zip(pads, js_figures(pads), strict=True):
        assert js == python_figures(pad), pad.as_json()


@pytest.mark.parametrize("era", ERAS)
@pytest.mark.parametrize("kind", ["rubber", "chicago"])
def test_generated_pads_score_the_same_in_javascript(kind, era):
    rng = random.Random(f"{kind}-{era}")
    assert_same([random_pad(rng, kind, era) for _ in range(400)])


@pytest.mark.parametrize("era", ERAS)
def test_seed_rubber_scores_the_same_in_javascript(era):
    pad = pad_from_json({"kind": "rubber", "era": era, "names": NAMES, "rounds": [{"deals": SEED_RUBBER}]})
    assert_same([pad])


EDGE_CASES = [
    # Every contract at every trick count and doubling, both vulnerabilities, every era.
    [{"declarer": seat, "contract": f"{level}{strain}{dbl}", "tricks": tricks}]
    for seat in "NE" for level in range(1, 8) for strain in ("C", "H", "NT") for dbl in ("", "X", "XX")
    for tricks in range(14)
]


@pytest.mark.parametrize("era", ERAS)
def test_every_single_deal_scores_the_same_in_javascript(era):
    pads = []
    for deals in EDGE_CASES:
        # After a vulnerable game by each side, so the deal is scored vulnerable too.
        before = [{"declarer": "N", "contract": "4S", "tricks": 10}, {"declarer": "E", "contract": "4S", "tricks": 10}]
        for prefix in ([], before):
            pads.append(pad_from_json({"kind": "rubber", "era": era, "names": NAMES,
                                       "rounds": [{"deals": prefix + deals}]}))
    assert_same(pads)
