// The score pad cases of tests/scoring/pad_cases.json, scored by the browser's engine
// (static/js/pad-engine.js) under `node --test`: the same cases, with the same expected
// figures, as the Python engine's tests/scoring/test_pad_cases.py.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { ScoringError, dealerOf, scorePad, sheetLayout } from "../../static/js/pad-engine.js";

// Read at load: a missing file fails the run, never an empty set of tests.
const { cases } = JSON.parse(readFileSync(new URL("../scoring/pad_cases.json", import.meta.url), "utf8"));
assert.ok(cases.length > 0, "pad_cases.json holds no cases");

const bySide = (figure) => ({ NS: figure("NS"), EW: figure("EW") });

const roundFigures = (r) => {
  const { sheet } = r;
  const dealEntries = {};
  for (const e of sheet.entries) {
    (dealEntries[e.deal === null ? "none" : String(e.deal)] ??= []).push([e.side, e.label, e.points, e.game]);
  }
  const layout = sheetLayout(sheet);
  const points = (list) => list.map((e) => e.points);
  return {
    total: sheet.total, above: sheet.above, below_by_game: sheet.below_by_game, games_won: sheet.games_won,
    game_winners: sheet.game_winners, finished: sheet.finished, net: r.net,
    vulnerability: sheet.vulnerability.slice(0, r.round.deals.length),
    deal_entries: dealEntries,
    layout_points: {
      above: bySide((side) => points(layout.above[side])),
      games: layout.games.map((g) => [points(g.below.NS), points(g.below.EW), g.winner]),
    },
  };
};

const padFigures = (pad) => {
  const scored = scorePad(pad);
  return { rounds: scored.rounds.map(roundFigures), player_totals: scored.player_totals, round_open: scored.round_open };
};

/** The figures of ``actual`` that ``expected`` names (deal_entries: the deals it names). */
const checked = (expected, actual) => Object.fromEntries(Object.entries(expected).map(([name, value]) => {
  if (name === "rounds") return [name, value.map((want, i) => checked(want, actual.rounds[i]))];
  if (name === "deal_entries") return [name, Object.fromEntries(Object.keys(value).map((deal) => [deal, actual[name][deal] ?? []]))];
  return [name, actual[name]];
}));

for (const c of cases) {
  if ("expect" in c) {
    test(`${c.name} (${c.source})`, () => {
      const actual = padFigures(c.pad);
      assert.ok(actual.rounds.length >= (c.expect.rounds ?? []).length, "fewer rounds than expected");
      assert.deepStrictEqual(checked(c.expect, actual), c.expect);
    });
  } else {
    test(`${c.name} is refused (${c.source})`, () => {
      assert.throws(() => scorePad(c.pad), (error) => error instanceof ScoringError
        && error.message.toLowerCase().includes(c.refused.toLowerCase()));
    });
  }
}

test("the deal passes to the left through the night", () => {
  const pad = { first_dealer: "W" };
  assert.deepStrictEqual([1, 2, 3, 4, 5, 6, 7].map((n) => dealerOf(pad, n)), ["W", "N", "E", "S", "W", "N", "E"]);
});
