/* The score pad in the browser: the pad lives in localStorage, is scored here by
 * pad-engine.js (the Python engine's cases run on both) and works offline once the
 * service worker has the page. The forms are the server's (they work without JavaScript);
 * this script takes their submits over. A signed-in member's pad is synced to the server
 * after each change when the network allows.
 *
 * The sheets are the server's partials (templates/pad/_round.html, _totals.html), which
 * the page also renders into <template>s: this script clones them and fills them in
 * (fill below), so the markup is written once. The words that change with the figures
 * come from the page too (#pad-words, views/pad.py PAD_WORDS).
 */
import * as E from "./pad-engine.js";
import { csrfToken, keepOffline, newId, storage } from "./lib.js";

const STORE = "clubscore.pad";
const app = document.getElementById("pad-app");
const $ = (id) => document.getElementById(id);

/* --- filling the partials' <template>s ------------------------------------------------- */

/** ``root`` with every "{name}" of its text and attributes replaced by values[name], and
    each part marked data-if="name" taken out when values[name] is empty. Text, never HTML. */
function fill(root, values) {
  for (const part of Array.from(root.querySelectorAll("[data-if]"))) {
    if (!values[part.dataset.if]) part.remove();
  }
  const swap = (text) => text.replace(/\{(\w+)\}/g, (token, name) => (name in values ? String(values[name]) : token));
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  for (let node = root; node; node = walker.nextNode()) {
    if (node.nodeType === Node.TEXT_NODE) node.data = swap(node.data);
    else for (const attribute of node.attributes) attribute.value = swap(attribute.value);
  }
  return root;
}

/** A copy of the <template>'s element. */
const copyOf = (id) => $(id).content.firstElementChild.cloneNode(true);

/** The part of ``root`` matching ``selector``, taken out to be copied once for each item. */
function takeOut(root, selector) {
  const part = root.querySelector(selector);
  part.remove();
  return part;
}

if (app) start();

function start() {
  const WORDS = JSON.parse($("pad-words").textContent);
  const revision = Number(app.dataset.revision || 0); // the session copy's changes so far (load)
  let state = load();
  let tricksTouched = false;

  /* The browser's copy, unless the server's session copy changed since the browser last
     took it (a form posted before this script ran, or a kept pad opened on this phone). */
  function load() {
    const server = $("pad-server-copy");
    const serverPad = server ? JSON.parse(server.textContent) : null;
    const kept = storage.load(STORE, null); // an unreadable copy: start afresh
    if (serverPad && (!kept || !kept.pad || (kept.revision || 0) < revision)) {
      return { client_id: app.dataset.padId || newId(), pad: serverPad, revision };
    }
    return kept && kept.pad ? kept : null;
  }

  function save() {
    if (state) storage.save(STORE, state);
    else storage.remove(STORE);
    sync();
  }

  /* One sync at a time, the latest pad last: a change made while one is on its way is
     sent when it returns (a failed one waits for the next change or the next visit). */
  let syncing = false;
  let syncAgain = false;
  function sync() {
    if (!state || app.dataset.signedIn !== "1" || !navigator.onLine) return;
    if (syncing) {
      syncAgain = true;
      return;
    }
    syncing = true;
    const body = new FormData();
    body.append("csrfmiddlewaretoken", csrfToken());
    body.append("client_id", state.client_id);
    body.append("pad", JSON.stringify(state.pad));
    fetch(app.dataset.saveUrl, { method: "POST", body, headers: { "X-Pad-Sync": "1" }, credentials: "same-origin" })
      .catch(() => { /* offline: the next change or visit sends it */ })
      .then(() => {
        syncing = false;
        if (syncAgain) {
          syncAgain = false;
          sync();
        }
      });
  }

  function showError(message) {
    const box = app.querySelector(".pad-error");
    box.textContent = message || "";
    box.hidden = !message;
  }

  /* --- changes: each is scored before it is kept, so a refused one changes nothing --- */

  function tryChange(makePad) {
    const candidate = makePad(structuredClone(state.pad));
    candidate.rounds = candidate.rounds.filter((r) => r.deals.length > 0);
    try {
      E.scorePad(candidate);
    } catch (error) {
      if (error instanceof E.ScoringError) {
        showError(`Not changed: ${error.message}.`);
        return false;
      }
      throw error;
    }
    state.pad = candidate;
    showError("");
    save();
    render();
    return true;
  }

  function addDeal(pad, deal) {
    const last = pad.rounds[pad.rounds.length - 1];
    const open = last && E.scorePad(pad).round_open && !(pad.kind === "chicago" && last.deals.length >= 4);
    if (open) last.deals.push(deal);
    else pad.rounds.push({ deals: [deal], stopped: false });
    return pad;
  }

  function dealFromForm(form) {
    const f = form.elements;
    if (f.level.value === "P") return { declarer: "", contract: "PASS", tricks: 0, honours: "", honours_side: "" };
    if (!f.level.value) throw new E.ScoringError("Choose the contract's level, or passed out");
    const honours = f.honours.value;
    const side = honours ? f.honours_side.value || "" : "";
    if (honours && !side) throw new E.ScoringError("Say which side held the honours");
    const deal = { declarer: f.declarer.value, contract: f.level.value + f.strain.value + f.doubling.value,
                   tricks: Number(f.tricks.value), honours, honours_side: side };
    E.engineDeal(deal);
    return deal;
  }

  /* --- rendering: the partials' <template>s, filled --- */

  const kindTitle = (pad) => WORDS.rounds[pad.kind][0].replace(/^./, (c) => c.toUpperCase());

  function netText(net, finished) {
    if (!net) return WORDS.net.level;
    return WORDS.net[finished ? "win" : "lead"].replace("{side}", WORDS.sides[net > 0 ? "NS" : "EW"])
      .replace("{margin}", String(Math.abs(net)));
  }

  function dealText(d) {
    if (E.isPass(d.contract)) return "Passed out";
    const c = E.parseContract(d.contract);
    const over = d.tricks - (c.level + 6);
    const result = over === 0 ? "made" : over > 0 ? `made +${over}` : `down ${-over}`;
    return `${E.contractText(c)} by ${d.declarer}, ${d.tricks} tricks (${result})` +
      (d.honours ? `, honours ${WORDS.sides[d.honours_side]}` : "");
  }

  /** The NS and EW figures side by side, a row each. */
  function pairs(ns, ew) {
    return Array.from({ length: Math.max(ns.length, ew.length) }, (_, i) => [ns[i], ew[i]]);
  }

  /** A copy of a row of two figure cells (NS, EW), filled, or emptied where a side has none. */
  function figureRow(prototype, figures) {
    const row = prototype.cloneNode(true);
    Array.from(row.cells).forEach((cell, i) => {
      const figure = figures[i];
      if (figure) fill(cell, { points: figure.points, label: figure.label || "", deal: figure.deal || "" });
      else cell.replaceWith(document.createElement("td"));
    });
    return row;
  }

  function roundSection(pad, r) {
    const section = copyOf("pad-round-template");
    const aboveRow = takeOut(section, "tr[data-row=above]");
    const game = takeOut(section, "tbody.below");
    const belowRow = takeOut(game, "tr[data-row=below]");
    const dealRow = takeOut(section, "tr[data-row=deal]");
    const s = r.sheet;
    const layout = E.sheetLayout(s);
    const title = `${kindTitle(pad)} ${r.number}`;
    const dealt = r.round.deals.length;
    const next = s.vulnerability.length > dealt && !layout.finished ? s.vulnerability[dealt] : null;
    const [north, east, south, west] = pad.names;
    const round = { round: r.number, Title: title, title: title.toLowerCase() };
    const above = pairs(layout.above.NS, layout.above.EW).reverse(); // nearest the line last, as on paper
    fill(section, {
      ...round, finished: layout.finished, vul: next ? WORDS.vulnerability[next] : "",
      dealer: E.dealerOf(pad, r.first_deal + dealt), north, east, south, west,
      nothing_above: !above.length, total_ns: layout.totals.NS, total_ew: layout.totals.EW,
      net: layout.net, net_text: netText(layout.net, layout.finished), deals: dealt > 0,
    });
    section.querySelector("tbody.above").prepend(...above.map((figures) => figureRow(aboveRow, figures)));
    const footer = section.querySelector("tfoot");
    for (const g of layout.games) {
      const body = fill(game.cloneNode(true), { game: g.number, winner: g.winner || "",
                                                 winner_word: WORDS.sides[g.winner] || "" });
      body.classList.toggle("game-won", !!g.winner);
      const rows = pairs(g.below.NS, g.below.EW);
      body.prepend(...(rows.length ? rows : [[null, null]]).map((figures) => figureRow(belowRow, figures)));
      footer.before(body);
    }
    section.querySelector("table.pad-deals tbody")?.append(...r.round.deals.map((d, index) => {
      const points = { NS: 0, EW: 0 };
      for (const e of s.entries) if (e.deal === index + 1) points[e.side] += e.points;
      return fill(dealRow.cloneNode(true), {
        ...round, deal: index + 1, text: dealText(d), dealer: E.dealerOf(pad, r.first_deal + index),
        vul: WORDS.vulnerability[s.vulnerability[index]], ns: points.NS || "", ew: points.EW || "",
      });
    }));
    return section;
  }

  function nightSection(pad, scored) {
    const section = copyOf(`pad-totals-${pad.kind}`);
    const playerRow = takeOut(section, "tr[data-row=player]");
    const count = scored.rounds.length;
    fill(section, { rounds_text: `${count} ${WORDS.rounds[pad.kind][count === 1 ? 0 : 1]}`,
                    era_label: WORDS.eras[pad.era], era: pad.era });
    section.querySelector(".pad-players tbody").append(
      ...scored.player_totals.map(([name, total]) => fill(playerRow.cloneNode(true), { name, total })));
    return section;
  }

  /* keepForm: the first render leaves the deal form as it is (the player may already be
     choosing while the script loads); after a change it is cleared for the next deal. */
  function render(keepForm) {
    $("pad-new").hidden = !!state;
    $("pad-play").hidden = !state;
    if (!state) return;
    const pad = state.pad;
    const scored = E.scorePad(pad);
    const last = scored.rounds[scored.rounds.length - 1];
    const [north, east, south, west] = pad.names;
    $("pad-heading").textContent =
      `${kindTitle(pad)}, ${WORDS.eras[pad.era]}: WE ${north} & ${south}, THEY ${east} & ${west}`;
    $("pad-rounds").replaceChildren(...scored.rounds.map((r) => roundSection(pad, r)),
                                    ...(scored.rounds.length ? [nightSection(pad, scored)] : []));
    const rubber = pad.kind === "rubber";
    $("stop-form").hidden = !(rubber && scored.round_open);
    $("resume-form").hidden = !(rubber && last && last.round.stopped &&
      Math.max(last.sheet.games_won.NS, last.sheet.games_won.EW) < 2);
    $("print-button").hidden = false;
    if (!keepForm) resetDealForm();
  }

  function resetDealForm() {
    const form = $("deal-form");
    form.reset();
    form.elements.round.value = "";
    form.elements.deal.value = "";
    form.elements.level.value = "";
    $("deal-form-title").textContent = "Next deal";
    $("deal-cancel").hidden = true;
    tricksTouched = false;
  }

  function editDeal(roundNumber, dealNumber) {
    const deal = state.pad.rounds[roundNumber - 1].deals[dealNumber - 1];
    const f = $("deal-form").elements;
    f.round.value = roundNumber;
    f.deal.value = dealNumber;
    if (E.isPass(deal.contract)) {
      f.level.value = "P";
    } else {
      const c = E.parseContract(deal.contract);
      f.level.value = String(c.level);
      f.strain.value = c.strain;
      f.doubling.value = c.doubling;
      f.declarer.value = deal.declarer;
      f.tricks.value = String(deal.tricks);
      f.honours.value = deal.honours || "";
      f.honours_side.value = deal.honours_side || "";
    }
    tricksTouched = true;
    $("deal-form-title").textContent = `Correct deal ${dealNumber} of ${WORDS.rounds[state.pad.kind][0]} ${roundNumber}`;
    $("deal-cancel").hidden = false;
    f.level.focus();
  }

  /* --- the forms --- */

  $("pad-new").querySelector("form").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.target;
    const f = form.elements;
    const names = [f.north.value, f.east.value, f.south.value, f.west.value].map((n) => n.replace(/\s+/g, " ").trim());
    if (names.some((n) => !n)) {
      showError("A score pad needs four names: North, East, South and West.");
      return;
    }
    const kind = form.querySelector("input[name=kind]:checked").value;
    const era = form.querySelector("input[name=era]:checked").value;
    state = { client_id: newId(), revision,
              pad: { kind, era, names, first_dealer: f.first_dealer.value, rounds: [] } };
    showError("");
    save();
    render();
  });

  $("deal-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const f = event.target.elements;
    let deal;
    try {
      deal = dealFromForm(event.target);
    } catch (error) {
      if (error instanceof E.ScoringError) {
        showError(`${error.message}.`);
        return;
      }
      throw error;
    }
    const roundNumber = Number(f.round.value);
    const dealNumber = Number(f.deal.value);
    tryChange((pad) => {
      if (roundNumber && dealNumber) {
        pad.rounds[roundNumber - 1].deals[dealNumber - 1] = deal;
        return pad;
      }
      return addDeal(pad, deal);
    });
  });

  $("deal-form").elements.level.addEventListener("change", (event) => {
    const level = Number(event.target.value);
    if (level && !tricksTouched) $("deal-form").elements.tricks.value = String(level + 6);
  });
  $("deal-form").elements.tricks.addEventListener("change", () => { tricksTouched = true; });

  $("deal-cancel").addEventListener("click", (event) => {
    event.preventDefault();
    resetDealForm();
  });

  $("pad-rounds").addEventListener("click", (event) => {
    const link = event.target.closest("a[data-edit]");
    if (!link) return;
    event.preventDefault();
    const [roundNumber, dealNumber] = link.dataset.edit.split("-").map(Number);
    editDeal(roundNumber, dealNumber);
  });

  $("pad-rounds").addEventListener("submit", (event) => {
    if (!event.target.matches("form.pad-delete")) return;
    event.preventDefault();
    const f = event.target.elements;
    const roundNumber = Number(f.round.value);
    const dealNumber = Number(f.deal.value);
    const what = state.pad.kind === "chicago" ? "Chicago" : "rubber";
    if (!window.confirm(`Delete deal ${dealNumber} of this ${what}? Its scores leave the sheet.`)) return;
    tryChange((pad) => {
      pad.rounds[roundNumber - 1].deals.splice(dealNumber - 1, 1);
      return pad;
    });
  });

  for (const [id, stopped] of [["stop-form", true], ["resume-form", false]]) {
    $(id).addEventListener("submit", (event) => {
      event.preventDefault();
      tryChange((pad) => {
        pad.rounds[pad.rounds.length - 1].stopped = stopped;
        return pad;
      });
    });
  }

  $("discard-form").addEventListener("submit", (event) => {
    event.preventDefault();
    if (!window.confirm("Clear this pad and start a new one? Every deal of it is lost.")) return;
    state = null;
    showError("");
    save();
    render();
    // The server's copy (no-JavaScript use) goes too, when the network allows.
    const asked = new FormData(event.target);
    asked.append("confirm", "yes");
    fetch(event.target.action, { method: "POST", body: asked, credentials: "same-origin" })
      .catch(() => { /* offline: the browser's copy is what counts */ });
  });

  const saveForm = $("save-form");
  saveForm?.addEventListener("submit", () => {
    saveForm.elements.client_id.value = state.client_id;
    saveForm.elements.pad.value = JSON.stringify(state.pad);
  });

  $("print-button").addEventListener("click", () => window.print());

  if (state) save();
  render(true);

  if ("serviceWorker" in navigator) {
    keepOffline(app.dataset.sw, app.dataset.sw.replace(/sw\.js$/, ""), window.location.pathname)
      .catch(() => { /* the pad works online without it */ });
  }
}
