/* The score pad's scorer in the browser, so the pad works offline.
 *
 * A second implementation of sessions/scoring/deal_score.py (score_breakdown),
 * rubber.py (rubber_sheet, chicago_sheet, honors_held) and scorepad.py (score_pad).
 * An ES module that the pad (pad.js) and Node import alike: tests/js/pad_engine.test.mjs
 * runs it over the cases of tests/scoring/pad_cases.json, which the Python engine's
 * tests run too, and tests/js/test_pad_engine.py compares every figure of both over
 * thousands of generated deal sequences, every era and both games.
 * Change one, change the other.
 */

export const ERAS = ["current", "1935", "1932"];
export const SEATS = ["N", "E", "S", "W"];
const GAME = 100;
const CHICAGO_DEALS = 4;
const HONOR_HOLDINGS = { four_trumps: [100, true], five_trumps: [150, true], four_aces: [150, false] };
const PASS_WORDS = ["P", "PASS", "PASSED", "PASSED OUT", "PASSOUT", "ALL PASS"];

export class ScoringError extends Error {
  name = "ScoringError";
}

export const sideOf = (seat) => (seat === "N" || seat === "S" ? "NS" : "EW");
const other = (side) => (side === "NS" ? "EW" : "NS");
const multiplier = (doubling) => (doubling === "XX" ? 4 : doubling === "X" ? 2 : 1);
const sum = (values) => values.reduce((total, value) => total + value, 0);

export const isPass = (text) => PASS_WORDS.includes(String(text).trim().toUpperCase().replace(/\s+/g, " "));

export function parseContract(text) {
  const match = /^([1-7])(C|D|H|S|NT|N)(XX|X)?$/.exec(String(text).toUpperCase().replace(/\s+/g, ""));
  if (!match) throw new ScoringError(`${text} is not a contract`);
  return { level: Number(match[1]), strain: match[2] === "N" ? "NT" : match[2], doubling: match[3] || "" };
}

export const contractText = (c) => `${c.level}${c.strain}${c.doubling}`;

function trickValue(strain, oddTrick, era) {
  if (strain === "C" || strain === "D") return 20;
  if (strain === "H" || strain === "S") return 30;
  if (era === "1932") return oddTrick % 2 ? 30 : 40;
  return oddTrick === 1 ? 40 : 30;
}

function trickScore(strain, first, last, era) {
  let total = 0;
  for (let n = first; n <= last; n++) total += trickValue(strain, n, era);
  return total;
}

function doubledUndertrick(k, vulnerable, era) {
  if (era === "current") return vulnerable ? (k === 1 ? 200 : 300) : k === 1 ? 100 : k <= 3 ? 200 : 300;
  if (era === "1935") return vulnerable ? (k === 1 ? 200 : 300) : k === 1 ? 100 : 200;
  return vulnerable ? 100 + 100 * k : 50 + 50 * k;
}

function undertrickPenalty(down, vulnerable, doubling, era) {
  let total = 0;
  for (let k = 1; k <= down; k++) {
    if (doubling === "") total += !vulnerable ? 50 : era === "1932" ? 50 + 50 * k : 100;
    else total += doubledUndertrick(k, vulnerable, era);
  }
  return doubling === "" ? total : total * (multiplier(doubling) / 2);
}

/** score_breakdown: the parts of one deal's score for the declaring side. */
export function scoreBreakdown(contract, tricks, vulnerable, era) {
  if (!ERAS.includes(era)) throw new ScoringError(`unknown scoring era ${era}`);
  const c = typeof contract === "string" ? parseContract(contract) : contract;
  const parts = { contract_points: 0, overtricks: 0, slam_bonus: 0, insult: 0, penalty: 0 };
  const over = tricks - (c.level + 6);
  if (over < 0) {
    parts.penalty = undertrickPenalty(-over, vulnerable, c.doubling, era);
    return parts;
  }
  parts.contract_points = trickScore(c.strain, 1, c.level, era) * multiplier(c.doubling);
  parts.overtricks = c.doubling === ""
    ? trickScore(c.strain, c.level + 1, c.level + over, era)
    : over * 100 * (multiplier(c.doubling) / 2) * (vulnerable ? 2 : 1);
  parts.slam_bonus = c.level === 6 ? (vulnerable ? 750 : 500) : c.level === 7 ? (vulnerable ? 1500 : 1000) : 0;
  parts.insult = c.doubling === "XX" && era === "current" ? 100 : c.doubling === "" ? 0 : 50;
  return parts;
}

function honorsHeld(holding, side, contract) {
  const held = HONOR_HOLDINGS[holding];
  if (!held) throw new ScoringError(`unknown honours ${holding}`);
  const [points, trumps] = held;
  const notrump = parseContract(contract).strain === "NT";
  if (trumps && notrump) throw new ScoringError("At notrump there are no trump honours: only the four aces score (150)");
  if (!trumps && !notrump) throw new ScoringError("The four aces score honours at notrump only");
  return { side, points };
}

const isVulnerable = (vul, side) => vul === "Both" || vul === side;

class Tracker {
  game = 1;
  part = { NS: 0, EW: 0 };
  games = { NS: 0, EW: 0 };

  /** Points below the line: true when they complete a game. */
  add(side, points) {
    this.part[side] += points;
    if (this.part[side] < GAME) return false;
    this.games[side] += 1;
    this.game += 1;
    this.part = { NS: 0, EW: 0 };
    return true;
  }
}

const entry = (deal, side, points, label, game = null) => ({ deal, side, points, label, game });

/** A pad deal ({declarer, contract, tricks, honours, honours_side}) as the engine sees it. */
export function engineDeal(d) {
  if (isPass(d.contract)) return null;
  const contract = parseContract(d.contract);
  if (!SEATS.includes(d.declarer)) throw new ScoringError(`${d.contract} needs a declarer`);
  if (!(d.tricks >= 0 && d.tricks <= 13)) throw new ScoringError("tricks run from 0 to 13");
  return {
    declarer: d.declarer, contract, tricks: d.tricks,
    honors: d.honours ? honorsHeld(d.honours, d.honours_side, d.contract) : null,
  };
}

function dealEntries(number, d, vul, tracker, era) {
  const honors = d?.honors ? [entry(number, d.honors.side, d.honors.points, "honours")] : [];
  if (!d) return { entries: honors, completed: false };
  const side = sideOf(d.declarer);
  const parts = scoreBreakdown(d.contract, d.tricks, isVulnerable(vul, side), era);
  const game = tracker.game;
  const completed = parts.contract_points > 0 && tracker.add(side, parts.contract_points);
  const entries = [
    ["contract points", parts.contract_points, game], ["overtricks", parts.overtricks, null],
    ["slam bonus", parts.slam_bonus, null], ["insult", parts.insult, null],
  ].filter(([, points]) => points).map(([label, points, below]) => entry(number, side, points, label, below));
  if (parts.penalty) entries.push(entry(number, other(side), parts.penalty, "undertricks"));
  return { entries: entries.concat(honors), completed };
}

function rubberVulnerability(tracker) {
  const ns = tracker.games.NS > 0;
  const ew = tracker.games.EW > 0;
  return ns && ew ? "Both" : ns ? "NS" : ew ? "EW" : "None";
}

export function rubberSheet(deals, era, abandoned) {
  const tracker = new Tracker();
  const entries = [];
  const winners = [];
  const vulnerability = [];
  deals.forEach((d, index) => {
    const number = index + 1;
    if (Math.max(tracker.games.NS, tracker.games.EW) === 2) {
      throw new ScoringError(`deal ${number} comes after the end of the rubber`);
    }
    const vul = rubberVulnerability(tracker);
    vulnerability.push(vul);
    const result = dealEntries(number, d, vul, tracker, era);
    entries.push(...result.entries);
    if (result.completed) winners.push(sideOf(d.declarer));
  });
  const winner = tracker.games.NS === 2 ? "NS" : tracker.games.EW === 2 ? "EW" : null;
  if (winner) {
    entries.push(entry(null, winner, tracker.games[other(winner)] === 0 ? 700 : 500, "rubber bonus"));
  } else if (abandoned) {
    const withGame = ["NS", "EW"].filter((s) => tracker.games[s]);
    if (withGame.length === 1) entries.push(entry(null, withGame[0], 300, "unfinished rubber: game"));
    const withPart = ["NS", "EW"].filter((s) => tracker.part[s]);
    if (withPart.length === 1) entries.push(entry(null, withPart[0], 100, "unfinished rubber: part-score"));
  }
  const next = winner === null ? [rubberVulnerability(tracker)] : [];
  return sheet(entries, winners, winner !== null || !!abandoned, vulnerability.concat(next));
}

export function chicagoVulnerability(deal, firstDealer) {
  if (deal === 1) return "None";
  if (deal === CHICAGO_DEALS) return "Both";
  return sideOf(SEATS[(SEATS.indexOf(firstDealer) + deal - 1) % 4]);
}

export function chicagoSheet(deals, firstDealer, era) {
  if (deals.length > CHICAGO_DEALS) throw new ScoringError(`a Chicago has four deals, not ${deals.length}`);
  const tracker = new Tracker();
  const entries = [];
  const winners = [];
  const vulnerability = [];
  deals.forEach((d, index) => {
    const number = index + 1;
    const vul = chicagoVulnerability(number, firstDealer);
    vulnerability.push(vul);
    const result = dealEntries(number, d, vul, tracker, era);
    entries.push(...result.entries);
    const madePart = result.entries.some((e) => e.label === "contract points");
    if (result.completed) {
      const side = sideOf(d.declarer);
      winners.push(side);
      entries.push(entry(number, side, isVulnerable(vul, side) ? 500 : 300, "game bonus"));
    } else if (number === CHICAGO_DEALS && madePart) {
      entries.push(entry(number, sideOf(d.declarer), 100, "part-score bonus"));
    }
  });
  const next = deals.length < CHICAGO_DEALS ? [chicagoVulnerability(deals.length + 1, firstDealer)] : [];
  return sheet(entries, winners, deals.length === CHICAGO_DEALS, vulnerability.concat(next));
}

/** The sheet as ScoreSheet's methods give it; vulnerability: per deal, then the next deal's. */
function sheet(entries, winners, finished, vulnerability) {
  const points = (keep) => sum(entries.filter(keep).map((e) => e.points));
  const highest = Math.max(1, ...entries.map((e) => e.game ?? 0));
  const games = Math.max(highest, winners.length + (finished ? 0 : 1));
  const belowByGame = (side) =>
    Array.from({ length: games }, (_, g) => points((e) => e.side === side && e.game === g + 1));
  const bySide = (figure) => ({ NS: figure("NS"), EW: figure("EW") });
  return {
    entries, game_winners: winners, finished, vulnerability,
    above: bySide((side) => points((e) => e.side === side && e.game === null)),
    total: bySide((side) => points((e) => e.side === side)),
    below_by_game: bySide(belowByGame),
    games_won: bySide((side) => winners.filter((w) => w === side).length),
  };
}

/** score_pad: every round's sheet, each player's night total. */
export function scorePad(pad) {
  let first = 1;
  let net = 0;
  const rounds = pad.rounds.map((r, index) => {
    const deals = r.deals.map(engineDeal);
    let s;
    try {
      s = pad.kind === "chicago" ? chicagoSheet(deals, pad.first_dealer, pad.era) : rubberSheet(deals, pad.era, r.stopped);
    } catch (error) {
      if (error instanceof ScoringError) error.message = `rubber ${index + 1}: ${error.message}`;
      throw error;
    }
    const round = { number: index + 1, round: r, sheet: s, first_deal: first, net: s.total.NS - s.total.EW };
    first += r.deals.length;
    net += round.net;
    return round;
  });
  const last = rounds[rounds.length - 1];
  return {
    rounds, player_totals: pad.names.map((name, i) => [name, i % 2 === 0 ? net : -net]),
    round_open: !!last && !last.sheet.finished,
  };
}

/** sheet_layout: the sheet as on paper (see sessions/scoring/scorepad.py). */
export function sheetLayout(s) {
  const above = { NS: [], EW: [] };
  for (const e of s.entries) {
    if (e.game === null) above[e.side].push({ deal: e.deal, points: e.points, label: e.label });
  }
  const games = s.below_by_game.NS.map((_, index) => {
    const number = index + 1;
    const below = { NS: [], EW: [] };
    for (const e of s.entries) {
      if (e.game === number) below[e.side].push({ deal: e.deal, points: e.points });
    }
    return { number, below, winner: number <= s.game_winners.length ? s.game_winners[number - 1] : null };
  });
  return { above, games, totals: { ...s.total }, net: s.total.NS - s.total.EW, finished: s.finished };
}

export const dealerOf = (pad, dealNumber) => SEATS[(SEATS.indexOf(pad.first_dealer) + dealNumber - 1) % 4];
