// Every figure of each pad read on stdin (a JSON list), as static/js/pad-engine.js scores
// it, written to stdout as JSON: tests/js/test_pad_engine.py compares them with Python's.
import { text } from "node:stream/consumers";
import { scorePad, sheetLayout } from "../../static/js/pad-engine.js";

const figures = (pad) => {
  const scored = scorePad(pad);
  return {
    rounds: scored.rounds.map((r) => ({
      entries: r.sheet.entries, game_winners: r.sheet.game_winners, finished: r.sheet.finished,
      vulnerability: r.sheet.vulnerability.slice(0, pad.kind === "chicago" ? 4 : undefined),
      layout: sheetLayout(r.sheet), net: r.net,
    })),
    player_totals: scored.player_totals, round_open: scored.round_open,
  };
};

process.stdout.write(JSON.stringify(JSON.parse(await text(process.stdin)).map(figures)));
