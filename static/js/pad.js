/* The score pad in the browser: the pad lives in localStorage, is scored here by
 * PadEngine (pad-engine.js, proven equal to the Python engine) and works offline once the
 * service worker has the page. The forms are the server's (they work without JavaScript);
 * this script takes their submits over. A signed-in member's pad is synced to the server
 * after each change when the network allows.
 */
(function () {
  "use strict";

  var STORE = "clubscore.pad";
  var app = document.getElementById("pad-app");
  if (!app || !window.PadEngine) { return; }
  var E = window.PadEngine;
  var WORDS = {NS: "WE", EW: "THEY"};
  var VUL = {None: "neither side vulnerable", NS: "WE vulnerable", EW: "THEY vulnerable", Both: "both sides vulnerable"};
  var ERA_LABELS = {current: "Current laws (since 1987)", "1935": "1935 to 1987", "1932": "1932 laws"};
  var revision = Number(app.dataset.revision || 0);  // the session copy's changes so far (load)
  var state = load();

  function $(id) { return document.getElementById(id); }
  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c];
    });
  }

  function newId() {
    var bytes = new Uint8Array(12);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  /* The browser's copy, unless the server's session copy changed since the browser last
     took it (a form posted before this script ran, or a kept pad opened on this phone). */
  function load() {
    var server = $("pad-server-copy");
    var serverPad = server ? JSON.parse(server.textContent) : null;
    var kept = null;
    try {
      kept = JSON.parse(window.localStorage.getItem(STORE) || "null");
    } catch (error) { /* an unreadable copy: start afresh */ }
    if (serverPad && (!kept || !kept.pad || (kept.revision || 0) < revision)) {
      return {client_id: app.dataset.padId || newId(), pad: serverPad, revision: revision};
    }
    return kept && kept.pad ? kept : null;
  }

  function save() {
    if (state) { window.localStorage.setItem(STORE, JSON.stringify(state)); }
    else { window.localStorage.removeItem(STORE); }
    sync();
  }

  /* One sync at a time, the latest pad last: a change made while one is on its way is
     sent when it returns (a failed one waits for the next change or the next visit). */
  var syncing = false, syncAgain = false;
  function sync() {
    if (!state || app.dataset.signedIn !== "1" || !navigator.onLine) { return; }
    if (syncing) { syncAgain = true; return; }
    syncing = true;
    var body = new FormData();
    body.append("csrfmiddlewaretoken", csrfToken());
    body.append("client_id", state.client_id);
    body.append("pad", JSON.stringify(state.pad));
    window.fetch(app.dataset.saveUrl, {method: "POST", body: body, headers: {"X-Pad-Sync": "1"},
                                        credentials: "same-origin"})
      .catch(function () { /* offline: the next change or visit sends it */ })
      .then(function () {
        syncing = false;
        if (syncAgain) { syncAgain = false; sync(); }
      });
  }

  function csrfToken() {
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  function showError(message) {
    var box = app.querySelector(".pad-error");
    box.textContent = message || "";
    box.hidden = !message;
  }

  /* --- changes: each is scored before it is kept, so a refused one changes nothing --- */

  function tryChange(makePad) {
    var candidate = makePad(JSON.parse(JSON.stringify(state.pad)));
    candidate.rounds = candidate.rounds.filter(function (r) { return r.deals.length > 0; });
    try {
      E.scorePad(candidate);
    } catch (error) {
      if (error instanceof E.ScoringError) { showError("Not changed: " + error.message + "."); return false; }
      throw error;
    }
    state.pad = candidate;
    showError("");
    save();
    render();
    return true;
  }

  function addDeal(pad, deal) {
    var rounds = pad.rounds, last = rounds[rounds.length - 1];
    var open = last && E.scorePad(pad).round_open && !(pad.kind === "chicago" && last.deals.length >= 4);
    if (open) { last.deals.push(deal); } else { rounds.push({deals: [deal], stopped: false}); }
    return pad;
  }

  function dealFromForm(form) {
    var f = form.elements;
    if (f.level.value === "P") { return {declarer: "", contract: "PASS", tricks: 0, honours: "", honours_side: ""}; }
    if (!f.level.value) { throw new E.ScoringError("Choose the contract's level, or passed out"); }
    var honours = f.honours.value;
    var side = honours ? checkedSide(form) : "";
    if (honours && !side) { throw new E.ScoringError("Say which side held the honours"); }
    var deal = {declarer: f.declarer.value, contract: f.level.value + f.strain.value + f.doubling.value,
                tricks: Number(f.tricks.value), honours: honours, honours_side: side};
    E.engineDeal(deal);
    return deal;
  }

  function checkedSide(form) {
    var field = form.elements.honours_side;
    return field.value || "";
  }

  /* --- rendering: the same markup as templates/pad/_round.html and _totals.html --- */

  function figureCell(figure, part, side) {
    if (!figure) { return "<td></td>"; }
    var label = figure.label ? " <small>" + (figure.deal ? figure.deal + ": " : "") + esc(figure.label) + "</small>" : "";
    return '<td class="num" data-part="' + part + '" data-side="' + side + '"><span class="points">' +
      figure.points + "</span>" + label + "</td>";
  }

  function pairRows(ns, ew, part, reverse) {
    var rows = [];
    for (var i = 0; i < Math.max(ns.length, ew.length); i++) {
      rows.push("<tr>" + figureCell(ns[i], part, "NS") + figureCell(ew[i], part, "EW") + "</tr>");
    }
    return reverse ? rows.reverse() : rows;
  }

  function dealText(d) {
    if (E.isPass(d.contract)) { return "Passed out"; }
    var c = E.parseContract(d.contract), over = d.tricks - (c.level + 6);
    var result = over === 0 ? "made" : over > 0 ? "made +" + over : "down " + (-over);
    return E.contractText(c) + " by " + d.declarer + ", " + d.tricks + " tricks (" + result + ")" +
      (d.honours ? ", honours " + WORDS[d.honours_side] : "");
  }

  function roundHtml(pad, r) {
    var s = r.sheet, layout = E.sheetLayout(s), names = pad.names;
    var title = (pad.kind === "chicago" ? "Chicago " : "Rubber ") + r.number;
    var lower = title.toLowerCase(), html = [];
    html.push('<section class="pad-round" id="round-' + r.number + '" aria-labelledby="round-' + r.number + '-title">');
    html.push('<h2 id="round-' + r.number + '-title">' + title + (layout.finished ? " <small>(finished)</small>" : "") + "</h2>");
    var next = s.vulnerability.length > r.round.deals.length ? s.vulnerability[r.round.deals.length] : null;
    if (next && !layout.finished) {
      html.push('<p class="pad-vul">Next deal: dealer ' + E.dealerOf(pad, r.first_deal + r.round.deals.length) +
        ", " + VUL[next] + "</p>");
    }
    html.push('<table class="pad-sheet"><caption>Score sheet of ' + lower + "</caption>");
    html.push('<thead><tr><th scope="col" class="we">WE <small>' + esc(names[0]) + " &amp; " + esc(names[2]) +
      '</small></th><th scope="col" class="they">THEY <small>' + esc(names[1]) + " &amp; " + esc(names[3]) +
      "</small></th></tr></thead>");
    var above = pairRows(layout.above.NS, layout.above.EW, "above", true);
    html.push('<tbody class="above">' + (above.length ? above.join("") :
      '<tr><td class="empty" colspan="2">Nothing above the line yet</td></tr>') + "</tbody>");
    layout.games.forEach(function (g) {
      var rows = pairRows(g.below.NS, g.below.EW, "below", false);
      if (!rows.length) { rows = ["<tr><td></td><td></td></tr>"]; }
      if (g.winner) { rows.push('<tr class="game-line"><td colspan="2">Game ' + g.number + ": " + WORDS[g.winner] + "</td></tr>"); }
      html.push('<tbody class="below' + (g.winner ? " game-won" : "") + '" data-game="' + g.number + '">' + rows.join("") + "</tbody>");
    });
    html.push('<tfoot><tr class="totals"><td class="num" data-part="total" data-side="NS">' + layout.totals.NS +
      '</td><td class="num" data-part="total" data-side="EW">' + layout.totals.EW + "</td></tr></tfoot></table>");
    var verb = layout.finished ? "win" : "lead";
    var net = layout.net > 0 ? "WE " + verb + " by " + layout.net : layout.net < 0 ? "THEY " + verb + " by " + (-layout.net) : "Level";
    html.push('<p class="pad-net" data-net="' + layout.net + '">' + net + "</p>");
    html.push(dealsHtml(pad, r, lower));
    html.push("</section>");
    return html.join("");
  }

  function dealsHtml(pad, r, lower) {
    if (!r.round.deals.length) { return ""; }
    var rows = r.round.deals.map(function (d, index) {
      var number = index + 1, points = {NS: 0, EW: 0};
      r.sheet.entries.forEach(function (e) { if (e.deal === number) { points[e.side] += e.points; } });
      return "<tr><td>" + number + "</td><td>" + esc(dealText(d)) + "<br><small>Dealer " +
        E.dealerOf(pad, r.first_deal + index) + ", " + VUL[r.sheet.vulnerability[index]] + "</small></td>" +
        '<td class="num">' + (points.NS || "") + '</td><td class="num">' + (points.EW || "") + "</td>" +
        '<td class="pad-actions"><a href="?edit=' + r.number + "-" + number + '#deal-form" data-edit="' + r.number +
        "-" + number + '" aria-label="Correct deal ' + number + " of " + lower + '">Correct</a>' +
        '<form method="post" action="' + deleteUrl() + '" class="pad-delete"><input type="hidden" name="round" value="' +
        r.number + '"><input type="hidden" name="deal" value="' + number + '"><button type="submit" aria-label="Delete deal ' +
        number + " of " + lower + '">Delete</button></form></td></tr>';
    });
    return '<table class="pad-deals"><caption>Deals of ' + lower + '</caption><thead><tr><th scope="col">#</th>' +
      '<th scope="col">Deal</th><th scope="col" class="num">WE</th><th scope="col" class="num">THEY</th>' +
      '<th scope="col"><span class="visually-hidden">Change</span></th></tr></thead><tbody>' + rows.join("") + "</tbody></table>";
  }

  function deleteUrl() {
    return app.dataset.deleteUrl || (app.dataset.deleteUrl = document.querySelector("form.pad-delete, #deal-form")
      .getAttribute("action").replace(/deal\/$/, "deal/delete/"));
  }

  function totalsHtml(pad, scored) {
    var count = scored.rounds.length;
    var what = pad.kind === "chicago" ? "Chicago" + (count === 1 ? "" : "s") : "rubber" + (count === 1 ? "" : "s");
    var rows = scored.player_totals.map(function (t) {
      return "<tr><td>" + esc(t[0]) + '</td><td class="num" data-player-total>' + t[1] + "</td></tr>";
    });
    var rules = pad.kind === "chicago"
      ? "Chicago (four deals: deal 1 neither side vulnerable, deals 2 and 3 the dealer's side, deal 4 both; game 300 / 500, part-score 100 on deal 4)"
      : "rubber (rubber bonus 700 / 500, unfinished rubber 300 for a game, 100 for a part-score)";
    return '<section class="pad-night" aria-labelledby="night-title"><h2 id="night-title">The night</h2>' +
      '<table class="pad-players"><caption>Each player\'s total over ' + count + " " + what + "</caption>" +
      '<thead><tr><th scope="col">Player</th><th scope="col" class="num">Total</th></tr></thead><tbody>' +
      rows.join("") + "</tbody></table>" +
      '<p class="pad-rules">Rules: ' + ERA_LABELS[pad.era] + ", " + rules + '; honours 100 / 150. <a href="' +
      scoreTableUrl() + "?era=" + pad.era + '">Score table</a></p></section>';
  }

  function scoreTableUrl() {
    var link = document.querySelector('nav a[href$="score-table/"]');
    return link ? link.getAttribute("href") : "/score-table/";
  }

  /* keepForm: the first render leaves the deal form as it is (the player may already be
     choosing while the script loads); after a change it is cleared for the next deal. */
  function render(keepForm) {
    $("pad-new").hidden = !!state;
    $("pad-play").hidden = !state;
    if (!state) { return; }
    var pad = state.pad, scored = E.scorePad(pad), last = scored.rounds[scored.rounds.length - 1];
    $("pad-heading").textContent = (pad.kind === "chicago" ? "Chicago" : "Rubber") + ", " + ERA_LABELS[pad.era] +
      ": WE " + pad.names[0] + " & " + pad.names[2] + ", THEY " + pad.names[1] + " & " + pad.names[3];
    $("pad-rounds").innerHTML = scored.rounds.map(function (r) { return roundHtml(pad, r); }).join("") +
      (scored.rounds.length ? totalsHtml(pad, scored) : "");
    var rubber = pad.kind === "rubber";
    $("stop-form").hidden = !(rubber && scored.round_open);
    $("resume-form").hidden = !(rubber && last && last.round.stopped &&
      Math.max(last.sheet.games_won.NS, last.sheet.games_won.EW) < 2);
    $("print-button").hidden = false;
    if (!keepForm) { resetDealForm(); }
  }

  function resetDealForm() {
    var form = $("deal-form");
    form.reset();
    form.elements.round.value = "";
    form.elements.deal.value = "";
    form.elements.level.value = "";
    $("deal-form-title").textContent = "Next deal";
    $("deal-cancel").hidden = true;
    tricksTouched = false;
  }

  function editDeal(roundNumber, dealNumber) {
    var deal = state.pad.rounds[roundNumber - 1].deals[dealNumber - 1], f = $("deal-form").elements;
    f.round.value = roundNumber;
    f.deal.value = dealNumber;
    if (E.isPass(deal.contract)) {
      f.level.value = "P";
    } else {
      var c = E.parseContract(deal.contract);
      f.level.value = String(c.level);
      f.strain.value = c.strain;
      f.doubling.value = c.doubling;
      f.declarer.value = deal.declarer;
      f.tricks.value = String(deal.tricks);
      f.honours.value = deal.honours || "";
      f.honours_side.value = deal.honours_side || "";
    }
    tricksTouched = true;
    $("deal-form-title").textContent = "Correct deal " + dealNumber + " of " +
      (state.pad.kind === "chicago" ? "Chicago " : "rubber ") + roundNumber;
    $("deal-cancel").hidden = false;
    f.level.focus();
  }

  /* --- the forms --- */

  var tricksTouched = false;

  $("pad-new").querySelector("form").addEventListener("submit", function (event) {
    event.preventDefault();
    var f = event.target.elements;
    var names = [f.north.value, f.east.value, f.south.value, f.west.value].map(function (n) {
      return n.replace(/\s+/g, " ").trim();
    });
    if (names.some(function (n) { return !n; })) { showError("A score pad needs four names: North, East, South and West."); return; }
    var kind = event.target.querySelector("input[name=kind]:checked").value;
    var era = event.target.querySelector("input[name=era]:checked").value;
    state = {client_id: newId(), revision: revision,
             pad: {kind: kind, era: era, names: names, first_dealer: f.first_dealer.value, rounds: []}};
    showError("");
    save();
    render();
  });

  $("deal-form").addEventListener("submit", function (event) {
    event.preventDefault();
    var f = event.target.elements, deal;
    try {
      deal = dealFromForm(event.target);
    } catch (error) {
      if (error instanceof E.ScoringError) { showError(error.message + "."); return; }
      throw error;
    }
    var roundNumber = Number(f.round.value), dealNumber = Number(f.deal.value);
    tryChange(function (pad) {
      if (roundNumber && dealNumber) { pad.rounds[roundNumber - 1].deals[dealNumber - 1] = deal; return pad; }
      return addDeal(pad, deal);
    });
  });

  $("deal-form").elements.level.addEventListener("change", function (event) {
    var level = Number(event.target.value);
    if (level && !tricksTouched) { $("deal-form").elements.tricks.value = String(level + 6); }
  });
  $("deal-form").elements.tricks.addEventListener("change", function () { tricksTouched = true; });

  $("deal-cancel").addEventListener("click", function (event) { event.preventDefault(); resetDealForm(); });

  $("pad-rounds").addEventListener("click", function (event) {
    var link = event.target.closest("a[data-edit]");
    if (!link) { return; }
    event.preventDefault();
    var parts = link.dataset.edit.split("-");
    editDeal(Number(parts[0]), Number(parts[1]));
  });

  $("pad-rounds").addEventListener("submit", function (event) {
    if (!event.target.matches("form.pad-delete")) { return; }
    event.preventDefault();
    var f = event.target.elements, roundNumber = Number(f.round.value), dealNumber = Number(f.deal.value);
    if (!window.confirm("Delete deal " + dealNumber + " of this " + (state.pad.kind === "chicago" ? "Chicago" : "rubber") +
                        "? Its scores leave the sheet.")) { return; }
    tryChange(function (pad) { pad.rounds[roundNumber - 1].deals.splice(dealNumber - 1, 1); return pad; });
  });

  [["stop-form", true], ["resume-form", false]].forEach(function (pair) {
    $(pair[0]).addEventListener("submit", function (event) {
      event.preventDefault();
      tryChange(function (pad) { pad.rounds[pad.rounds.length - 1].stopped = pair[1]; return pad; });
    });
  });

  $("discard-form").addEventListener("submit", function (event) {
    event.preventDefault();
    if (!window.confirm("Clear this pad and start a new one? Every deal of it is lost.")) { return; }
    state = null;
    showError("");
    save();
    render();
    // The server's copy (no-JavaScript use) goes too, when the network allows.
    var asked = new FormData(event.target);
    asked.append("confirm", "yes");
    window.fetch(event.target.action, {method: "POST", body: asked, credentials: "same-origin"})
      .catch(function () { /* offline: the browser's copy is what counts */ });
  });

  var saveForm = $("save-form");
  if (saveForm) {
    saveForm.addEventListener("submit", function () {
      saveForm.elements.client_id.value = state.client_id;
      saveForm.elements.pad.value = JSON.stringify(state.pad);
    });
  }

  $("print-button").addEventListener("click", function () { window.print(); });

  if (state) { save(); }
  render(true);

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register(app.dataset.sw, {scope: app.dataset.sw.replace(/sw\.js$/, "")})
      .then(function () { return navigator.serviceWorker.ready; })
      .then(function (registration) {
        var assets = Array.prototype.map.call(document.querySelectorAll("script[src], link[rel=stylesheet], link[rel=icon]"),
          function (el) { return el.src || el.href; });
        registration.active.postMessage({cache: [window.location.pathname].concat(assets)});
      })
      .catch(function () { /* the pad works online without it */ });
  }
})();
