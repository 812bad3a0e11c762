/* The score pad's scorer in the browser, so the pad works offline.
 *
 * A second implementation of sessions/scoring/deal_score.py (score_breakdown),
 * rubber.py (rubber_sheet, chicago_sheet, honors_held) and scorepad.py (score_pad):
 * tests/browser/test_pad_engine.py runs both over the seed examples and thousands of
 * generated deal sequences, every era and both games, and compares every figure.
 * Change one, change the other.
 */
(function (global) {
  "use strict";

  var ERAS = ["current", "1935", "1932"];
  var GAME = 100;
  var CHICAGO_DEALS = 4;
  var SEATS = ["N", "E", "S", "W"];
  var HONOR_HOLDINGS = {four_trumps: [100, true], five_trumps: [150, true], four_aces: [150, false]};

  function ScoringError(message) { this.message = message; }

  function sideOf(seat) { return seat === "N" || seat === "S" ? "NS" : "EW"; }
  function other(side) { return side === "NS" ? "EW" : "NS"; }
  function multiplier(doubling) { return doubling === "XX" ? 4 : doubling === "X" ? 2 : 1; }

  function isPass(text) {
    var words = ["P", "PASS", "PASSED", "PASSED OUT", "PASSOUT", "ALL PASS"];
    return words.indexOf(String(text).trim().toUpperCase().replace(/\s+/g, " ")) >= 0;
  }

  function parseContract(text) {
    var match = /^([1-7])(C|D|H|S|NT|N)(XX|X)?$/.exec(String(text).toUpperCase().replace(/\s+/g, ""));
    if (!match) { throw new ScoringError(text + " is not a contract"); }
    return {level: Number(match[1]), strain: match[2] === "N" ? "NT" : match[2], doubling: match[3] || ""};
  }

  function contractText(c) { return c.level + c.strain + c.doubling; }

  function trickValue(strain, oddTrick, era) {
    if (strain === "C" || strain === "D") { return 20; }
    if (strain === "H" || strain === "S") { return 30; }
    if (era === "1932") { return oddTrick % 2 ? 30 : 40; }
    return oddTrick === 1 ? 40 : 30;
  }

  function trickScore(strain, first, last, era) {
    var total = 0;
    for (var n = first; n <= last; n++) { total += trickValue(strain, n, era); }
    return total;
  }

  function doubledUndertrick(k, vulnerable, era) {
    if (era === "current") { return vulnerable ? (k === 1 ? 200 : 300) : (k === 1 ? 100 : k <= 3 ? 200 : 300); }
    if (era === "1935") { return vulnerable ? (k === 1 ? 200 : 300) : (k === 1 ? 100 : 200); }
    return vulnerable ? 100 + 100 * k : 50 + 50 * k;
  }

  function undertrickPenalty(down, vulnerable, doubling, era) {
    var total = 0;
    for (var k = 1; k <= down; k++) {
      if (doubling === "") {
        total += !vulnerable ? 50 : era === "1932" ? 50 + 50 * k : 100;
      } else {
        total += doubledUndertrick(k, vulnerable, era);
      }
    }
    return doubling === "" ? total : total * (multiplier(doubling) / 2);
  }

  /* score_breakdown: the parts of one deal's score for the declaring side. */
  function scoreBreakdown(contract, tricks, vulnerable, era) {
    if (ERAS.indexOf(era) < 0) { throw new ScoringError("unknown scoring era " + era); }
    var c = typeof contract === "string" ? parseContract(contract) : contract;
    var parts = {contract_points: 0, overtricks: 0, slam_bonus: 0, insult: 0, penalty: 0};
    var over = tricks - (c.level + 6);
    if (over < 0) {
      parts.penalty = undertrickPenalty(-over, vulnerable, c.doubling, era);
      return parts;
    }
    parts.contract_points = trickScore(c.strain, 1, c.level, era) * multiplier(c.doubling);
    if (c.doubling === "") {
      parts.overtricks = trickScore(c.strain, c.level + 1, c.level + over, era);
    } else {
      parts.overtricks = over * 100 * (multiplier(c.doubling) / 2) * (vulnerable ? 2 : 1);
    }
    parts.slam_bonus = c.level === 6 ? (vulnerable ? 750 : 500) : c.level === 7 ? (vulnerable ? 1500 : 1000) : 0;
    parts.insult = c.doubling === "XX" && era === "current" ? 100 : c.doubling === "" ? 0 : 50;
    return parts;
  }

  function honorsHeld(holding, side, contract) {
    var entry = HONOR_HOLDINGS[holding];
    if (!entry) { throw new ScoringError("unknown honours " + holding); }
    var nt = parseContract(contract).strain === "NT";
    if (entry[1] && nt) { throw new ScoringError("At notrump there are no trump honours: only the four aces score (150)"); }
    if (!entry[1] && !nt) { throw new ScoringError("The four aces score honours at notrump only"); }
    return {side: side, points: entry[0]};
  }

  function isVulnerable(vul, side) { return vul === "Both" || vul === side; }

  function Tracker() {
    this.game = 1;
    this.part = {NS: 0, EW: 0};
    this.games = {NS: 0, EW: 0};
  }
  Tracker.prototype.add = function (side, points) {
    this.part[side] += points;
    if (this.part[side] < GAME) { return false; }
    this.games[side] += 1;
    this.game += 1;
    this.part = {NS: 0, EW: 0};
    return true;
  };

  function entry(deal, side, points, label, game) {
    return {deal: deal, side: side, points: points, label: label, game: game === undefined ? null : game};
  }

  /* A pad deal ({declarer, contract, tricks, honours, honours_side}) as the engine sees it. */
  function engineDeal(d) {
    if (isPass(d.contract)) { return null; }
    var c = parseContract(d.contract);
    if (SEATS.indexOf(d.declarer) < 0) { throw new ScoringError(d.contract + " needs a declarer"); }
    if (!(d.tricks >= 0 && d.tricks <= 13)) { throw new ScoringError("tricks run from 0 to 13"); }
    return {declarer: d.declarer, contract: c, tricks: d.tricks,
            honors: d.honours ? honorsHeld(d.honours, d.honours_side, d.contract) : null};
  }

  function dealEntries(number, d, vul, tracker, era) {
    var honors = d && d.honors ? [entry(number, d.honors.side, d.honors.points, "honours")] : [];
    if (!d) { return {entries: honors, completed: false}; }
    var side = sideOf(d.declarer);
    var parts = scoreBreakdown(d.contract, d.tricks, isVulnerable(vul, side), era);
    var game = tracker.game;
    var completed = parts.contract_points > 0 && tracker.add(side, parts.contract_points);
    var entries = [];
    [["contract points", parts.contract_points, game], ["overtricks", parts.overtricks, null],
     ["slam bonus", parts.slam_bonus, null], ["insult", parts.insult, null]].forEach(function (p) {
      if (p[1]) { entries.push(entry(number, side, p[1], p[0], p[2])); }
    });
    if (parts.penalty) { entries.push(entry(number, other(side), parts.penalty, "undertricks")); }
    return {entries: entries.concat(honors), completed: completed};
  }

  function rubberVulnerability(tracker) {
    var ns = tracker.games.NS > 0, ew = tracker.games.EW > 0;
    return ns && ew ? "Both" : ns ? "NS" : ew ? "EW" : "None";
  }

  function rubberSheet(deals, era, abandoned) {
    var tracker = new Tracker(), entries = [], winners = [], vulnerability = [];
    deals.forEach(function (d, index) {
      var number = index + 1;
      if (Math.max(tracker.games.NS, tracker.games.EW) === 2) {
        throw new ScoringError("deal " + number + " comes after the end of the rubber");
      }
      var vul = rubberVulnerability(tracker);
      vulnerability.push(vul);
      var result = dealEntries(number, d, vul, tracker, era);
      entries = entries.concat(result.entries);
      if (result.completed) { winners.push(sideOf(d.declarer)); }
    });
    var winner = tracker.games.NS === 2 ? "NS" : tracker.games.EW === 2 ? "EW" : null;
    if (winner) {
      entries.push(entry(null, winner, tracker.games[other(winner)] === 0 ? 700 : 500, "rubber bonus"));
    } else if (abandoned) {
      var withGame = ["NS", "EW"].filter(function (s) { return tracker.games[s]; });
      if (withGame.length === 1) { entries.push(entry(null, withGame[0], 300, "unfinished rubber: game")); }
      var withPart = ["NS", "EW"].filter(function (s) { return tracker.part[s]; });
      if (withPart.length === 1) { entries.push(entry(null, withPart[0], 100, "unfinished rubber: part-score")); }
    }
    var next = winner === null ? [rubberVulnerability(tracker)] : [];
    return sheet(entries, winners, winner !== null || !!abandoned, vulnerability.concat(next));
  }

  function chicagoVulnerability(deal, firstDealer) {
    if (deal === 1) { return "None"; }
    if (deal === CHICAGO_DEALS) { return "Both"; }
    return sideOf(SEATS[(SEATS.indexOf(firstDealer) + deal - 1) % 4]);
  }

  function chicagoSheet(deals, firstDealer, era) {
    if (deals.length > CHICAGO_DEALS) { throw new ScoringError("a Chicago has four deals, not " + deals.length); }
    var tracker = new Tracker(), entries = [], winners = [], vulnerability = [];
    deals.forEach(function (d, index) {
      var number = index + 1, vul = chicagoVulnerability(number, firstDealer);
      vulnerability.push(vul);
      var result = dealEntries(number, d, vul, tracker, era);
      entries = entries.concat(result.entries);
      var madePart = result.entries.some(function (e) { return e.label === "contract points"; });
      if (result.completed) {
        var side = sideOf(d.declarer);
        winners.push(side);
        entries.push(entry(number, side, isVulnerable(vul, side) ? 500 : 300, "game bonus"));
      } else if (number === CHICAGO_DEALS && madePart) {
        entries.push(entry(number, sideOf(d.declarer), 100, "part-score bonus"));
      }
    });
    var next = deals.length < CHICAGO_DEALS ? chicagoVulnerability(deals.length + 1, firstDealer) : null;
    return sheet(entries, winners, deals.length === CHICAGO_DEALS, vulnerability.concat(next ? [next] : []));
  }

  /* The sheet as ScoreSheet's methods give it; vulnerability: per deal, then the next deal's. */
  function sheet(entries, winners, finished, vulnerability) {
    function above(side) {
      return entries.reduce(function (t, e) { return t + (e.side === side && e.game === null ? e.points : 0); }, 0);
    }
    function total(side) {
      return entries.reduce(function (t, e) { return t + (e.side === side ? e.points : 0); }, 0);
    }
    function belowByGame(side) {
      var highest = entries.reduce(function (h, e) { return e.game !== null && e.game > h ? e.game : h; }, 1);
      var games = Math.max(highest, winners.length + (finished ? 0 : 1)), out = [];
      for (var g = 1; g <= games; g++) {
        out.push(entries.reduce(function (t, e) { return t + (e.side === side && e.game === g ? e.points : 0); }, 0));
      }
      return out;
    }
    return {
      entries: entries, game_winners: winners, finished: finished, vulnerability: vulnerability,
      above: {NS: above("NS"), EW: above("EW")}, total: {NS: total("NS"), EW: total("EW")},
      below_by_game: {NS: belowByGame("NS"), EW: belowByGame("EW")},
      games_won: {NS: count(winners, "NS"), EW: count(winners, "EW")}
    };
  }

  function count(list, value) { return list.filter(function (v) { return v === value; }).length; }

  /* score_pad: every round's sheet, each player's night total. */
  function scorePad(pad) {
    var first = 1, rounds = [], net = 0;
    pad.rounds.forEach(function (r, index) {
      var deals = r.deals.map(engineDeal), s;
      try {
        s = pad.kind === "chicago" ? chicagoSheet(deals, pad.first_dealer, pad.era)
          : rubberSheet(deals, pad.era, r.stopped);
      } catch (error) {
        if (error instanceof ScoringError) { error.message = "rubber " + (index + 1) + ": " + error.message; }
        throw error;
      }
      rounds.push({number: index + 1, round: r, sheet: s, first_deal: first, net: s.total.NS - s.total.EW});
      first += r.deals.length;
      net += s.total.NS - s.total.EW;
    });
    var totals = pad.names.map(function (name, i) { return [name, i % 2 === 0 ? net : -net]; });
    var last = rounds[rounds.length - 1];
    return {rounds: rounds, player_totals: totals, round_open: !!last && !last.sheet.finished};
  }

  /* sheet_layout: the sheet as on paper (see sessions/scoring/scorepad.py). */
  function sheetLayout(s) {
    var above = {NS: [], EW: []}, games = [];
    s.entries.forEach(function (e) {
      if (e.game === null) { above[e.side].push({deal: e.deal, points: e.points, label: e.label}); }
    });
    for (var g = 1; g <= s.below_by_game.NS.length; g++) {
      var below = {NS: [], EW: []};
      s.entries.forEach(function (e) {
        if (e.game === g) { below[e.side].push({deal: e.deal, points: e.points}); }
      });
      games.push({number: g, below: below, winner: g <= s.game_winners.length ? s.game_winners[g - 1] : null});
    }
    return {above: above, games: games, totals: {NS: s.total.NS, EW: s.total.EW},
            net: s.total.NS - s.total.EW, finished: s.finished};
  }

  function dealerOf(pad, dealNumber) {
    return SEATS[(SEATS.indexOf(pad.first_dealer) + dealNumber - 1) % 4];
  }

  global.PadEngine = {
    ERAS: ERAS, SEATS: SEATS, ScoringError: ScoringError, scoreBreakdown: scoreBreakdown,
    rubberSheet: rubberSheet, chicagoSheet: chicagoSheet, chicagoVulnerability: chicagoVulnerability,
    engineDeal: engineDeal, scorePad: scorePad, sheetLayout: sheetLayout, dealerOf: dealerOf, isPass: isPass,
    parseContract: parseContract, contractText: contractText, sideOf: sideOf
  };
})(window);
