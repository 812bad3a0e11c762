"""The score pad cases of pad_cases.json, scored by the Python engine (scorepad.py).

The same file is read by tests/js/pad_engine.test.mjs, which scores every case with the
browser's engine (static/js/pad-engine.js): one set of cases, with the figures expected
from seeds/000-001 and RULES.md section 9, for both engines. A case names the figures it
checks (the file's "figures" says what each is) or the refusal it expects.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from sessions.scoring.boards import Side
from sessions.scoring.errors import ScoringError
from sessions.scoring.scorepad import deal_vulnerabilities, pad_from_json, score_pad, sheet_layout

CASES_FILE = Path(__file__).with_name("pad_cases.json")
# Read at collection: a missing or empty file is an error, never an empty set of tests.
CASES = json.loads(CASES_FILE.read_text())["cases"]
assert CASES, f"{CASES_FILE} holds no cases"


def by_side(figure) -> dict[str, Any]:
    return {side.value: figure(side) for side in Side}


def round_figures(pad, round_score) -> dict[str, Any]:
    sheet = round_score.sheet
    deal_entries: dict[str, list] = {}
    for e in sheet.entries:
        deal_entries.setdefault("none" if e.deal is None else str(e.deal), []).append(
            [e.side.value, e.label, e.points, e.game])
    layout = sheet_layout(sheet)
    return {
        "total": by_side(sheet.total), "above": by_side(sheet.above),
        "below_by_game": by_side(lambda side: list(sheet.below_by_game(side))),
        "games_won": by_side(sheet.games_won), "game_winners": [side.value for side in sheet.game_winners],
        "finished": sheet.finished, "net": round_score.net,
        "vulnerability": list(deal_vulnerabilities(pad, round_score.round))[:len(round_score.round.deals)],
        "deal_entries": deal_entries,
        "layout_points": {
            "above": {side: [e["points"] for e in layout["above"][side]] for side in ("NS", "EW")},
            "games": [[[e["points"] for e in g["below"]["NS"]], [e["points"] for e in g["below"]["EW"]], g["winner"]]
                      for g in layout["games"]],
        },
    }


def pad_figures(data: dict[str, Any]) -> dict[str, Any]:
    pad = pad_from_json(data)
    scored = score_pad(pad)
    return {"rounds": [round_figures(pad, r) for r in scored.rounds],
            "player_totals": [list(t) for t in scored.player_totals()], "round_open": scored.round_open}


def checked(expected: dict[str, Any], actual: dict[str, Any]) -> dict[str, Any]:
    """The figures of ``actual`` that ``expected`` names (deal_entries: the deals it names)."""
    picked = {}
    for name, value in expected.items():
        if name == "rounds":
            picked[name] = [checked(want, got) for want, got in zip(value, actual["rounds"], strict=False)]
        elif name == "deal_entries":
            picked[name] = {deal: actual[name].get(deal, []) for deal in value}
        else:
            picked[name] = actual[name]
    return picked


@pytest.mark.parametrize("case", [c for c in CASES if "expect" in c], ids=lambda c: c["name"])
def test_pad_case_scores_as_expected(case):
    actual = pad_figures(case["pad"])
    assert len(actual["rounds"]) >= len(case["expect"].get("rounds", []))
    assert checked(case["expect"], actual) == case["expect"]


@pytest.mark.parametrize("case", [c for c in CASES if "refused" in c], ids=lambda c: c["name"])
def test_pad_case_is_refused_saying_why(case):
    with pytest.raises(ScoringError, match=re.compile(re.escape(case["refused"]), re.IGNORECASE)):
        score_pad(pad_from_json(case["pad"]))


def test_every_case_expects_figures_or_a_refusal():
    assert all(("expect" in case) != ("refused" in case) for case in CASES)
