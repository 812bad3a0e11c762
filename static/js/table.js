/* A table's phone: send results without ever losing one.
 *
 * The page works without this script (plain forms). With it:
 * - every send, confirmation and refusal goes into an outbox kept in localStorage
 *   and is delivered in order; a send carries the key the page gave it, so a retry,
 *   a double tap or a reload in the middle of a send stores one line (the server
 *   recognises the key);
 * - while the network is away, Send still takes the result, the page says it is
 *   waiting, and the table carries on (EW confirm, the next board) on the phone;
 * - what is typed is kept per board, so a reload or an answer arriving never wipes it;
 * - the score of what is typed is shown before sending (the server's parser);
 * - once the director marks the results final, the server refuses every write (409): the
 *   outbox keeps what it holds and the phone says so, instead of trying again;
 * - the keypad writes the result by tapping;
 * - "Call the director" is queued like a send, with its own key: a call made offline
 *   is sent when the network returns, and a repeated press stores one call.
 * htmx has no outbox that survives going offline or a reload, hence this small script.
 */
import { csrfToken, fetchFragment, keepOffline as keepPageOffline, newId, parseHtml, storage } from "./lib.js";

const main = document.getElementById("table-main");
if (main) start();

function start() {
  const token = main.dataset.token;
  const OUTBOX = "clubscore-outbox:" + token;
  const DRAFTS = "clubscore-drafts:" + token;
  const DELIVERED = "clubscore-delivered:" + token;
  const RECHECK_MS = 120000;
  const status = document.getElementById("network-status");
  let flushing = false;
  let retryTimer = null;

  const { load, save } = storage;
  function outbox() { return load(OUTBOX, []); }

  // --- what is typed, kept per board -------------------------------------------------

  function sendForm() { return main.querySelector("form.send-form"); }
  function boardOf(form) { return form.querySelector("input[name=board]").value; }

  function keepDraft() {
    const form = sendForm();
    if (!form) return;
    const drafts = load(DRAFTS, {});
    drafts[boardOf(form)] = { text: form.text.value, lead: form.lead.value };
    save(DRAFTS, drafts);
  }
  function restoreDraft() {
    const form = sendForm();
    if (!form) return;
    const draft = load(DRAFTS, {})[boardOf(form)];
    if (draft && !form.text.value) { form.text.value = draft.text; form.lead.value = draft.lead; }
  }
  function dropDraft(board) {
    const drafts = load(DRAFTS, {});
    delete drafts[board];
    save(DRAFTS, drafts);
  }

  // --- the outbox ----------------------------------------------------------------------

  function say(text) {
    status.textContent = text;
    status.hidden = !text;
  }
  function sayWaiting() {
    const waiting = outbox().length;
    say(waiting ? "Waiting for the network: " + waiting + (waiting > 1 ? " actions are" : " action is") +
      " kept on this phone, to be sent when it returns." : "");
  }

  // The director has marked the results final (the server answers 409 and writes nothing):
  // the outbox is neither sent again nor emptied. It keeps what it holds, named here for the
  // director, and delivers it if the director reopens the results and the page is loaded again.
  function sayClosed() {
    const kept = outbox().filter((queued) => queued.kind === "send")
      .map((queued) => "board " + queued.board + ": " + queued.text);
    say("The results are final: nothing more can be sent from this phone." +
      (kept.length ? " Kept on this phone and not recorded (show the director): " + kept.join("; ") + "." : ""));
  }

  function enqueue(item) {
    const items = outbox();
    const same = items.some((queued) => queued.kind === item.kind && queued.key === item.key);
    if (!same) { items.push(item); save(OUTBOX, items); }  // a double tap queues nothing twice
    flush();
  }

  // The answer to a post: the page's main part, or (the table still in the round the phone
  // shows, X-Table-Round) only the parts that changed, in a data-parts wrapper, each in
  // place of the part of the same id.
  function swap(html) {
    // A post within the round answers with its changed parts (a wrapper marked
    // data-parts): each replaces the element of its id. Anything else is the whole main part.
    const answer = document.createElement("template");
    answer.innerHTML = html;
    const parts = answer.content.firstElementChild;
    if (parts && parts.hasAttribute("data-parts")) {
      Array.from(parts.children).forEach((part) => {
        const here = document.getElementById(part.id);
        if (here) here.replaceWith(part);
      });
    } else main.innerHTML = html;
    settle();
    ready();
  }
  function shownRound() {
    const board = document.getElementById("board-in-play");
    return (board && board.dataset.round) || "";
  }

  // A double tap's second tap lands on whatever took the tapped button's place (Confirm
  // gives way to the next board's keypad, which would type a "4" into its result). So for
  // a moment after each change the buttons let taps through to the page behind them; a
  // script's click waits for them, as for any covered button.
  const SETTLE_MS = 500;
  let settleTimer = null;
  function settle() {
    main.classList.add("settling");
    clearTimeout(settleTimer);
    settleTimer = setTimeout(() => { main.classList.remove("settling"); }, SETTLE_MS);
  }

  function flush() {
    if (flushing) return;
    const items = outbox();
    if (!items.length) { sayWaiting(); return; }
    flushing = true;
    const item = items[0];
    fetch(item.url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "HX-Request": "true", "X-CSRFToken": csrfToken(), "X-Table-Round": shownRound(),
                 "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(item.fields).toString(),
    }).then((response) => {
      if (response.status >= 500) throw new Error("server " + response.status);
      return response.text().then((html) => {
        if (response.status === 409) {  // the results are final: see sayClosed
          flushing = false;
          swap(html);
          sayClosed();
          return;
        }
        // Delivered (or answered for good: a refusal is shown on the page).
        const rest = outbox().filter((queued) => !(queued.kind === item.kind && queued.key === item.key));
        save(OUTBOX, rest);
        flushing = false;
        if (!response.ok) {  // the typed text stays in its box (no dropDraft)
          say("The server refused that action (" + response.status + "): reload the page.");
          return;
        }
        if (item.kind === "send") dropDraft(item.board);
        if (!rest.length) swap(html);
        // In the same task as emptying the outbox, so a page loading next sees one or the other.
        if (item.kind === "send" && (rest.length || !showsSendFormFor(item.board))) remember(item);
        flush();
      });
    }).catch(() => {
      flushing = false;
      carryOn();
      replayOutbox();
      sayWaiting();
      clearTimeout(retryTimer);
      retryTimer = setTimeout(flush, 5000);
    });
  }

  // A reload can overtake the answer to a send: the new page was read before the send was
  // stored, while the old page took the answer and emptied the outbox. So a delivered send
  // is remembered for a while; a page that still offers its board sends the same key once
  // more, which stores nothing and brings the table as it is now.
  function remember(item) {
    const delivered = load(DELIVERED, {});
    const now = Date.now();
    Object.keys(delivered).forEach((key) => { if (now - delivered[key].at > RECHECK_MS) delete delivered[key]; });
    if (!item.recheck) delivered[item.key] = { item, at: now };
    save(DELIVERED, delivered);
  }
  function forget(key) {
    const delivered = load(DELIVERED, {});
    delete delivered[key];
    save(DELIVERED, delivered);
  }
  function showsSendFormFor(board) {
    const form = sendForm();
    return !!form && !form.hidden && boardOf(form) === board;
  }
  function recheckDelivered() {
    const delivered = load(DELIVERED, {});
    Object.keys(delivered).forEach((key) => {
      const memory = delivered[key];
      if (Date.now() - memory.at > RECHECK_MS || !showsSendFormFor(memory.item.board)) return;
      forget(key);
      enqueue({ ...memory.item, recheck: true });
    });
  }

  // --- carrying on while the network is away ---------------------------------------------

  function boards() {
    const section = main.querySelector(".board-in-play");
    if (!section) return [];
    return section.dataset.boards.split(",").map((text) => {
      const parts = text.split(":");
      return { number: parts[0], dealer: parts[1], vul: parts[2], done: parts[3] === "1" };
    });
  }

  function markDone(number) {
    // The round has begun: its moves are read, as the server's page has them until its first board.
    const moves = main.querySelector("section.moves");
    if (moves) moves.remove();
    const section = main.querySelector(".board-in-play");
    section.dataset.boards = boards()
      .map((b) => [b.number, b.dealer, b.vul, b.done || b.number === number ? "1" : "0"].join(":")).join(",");
    main.querySelectorAll(".round-boards li").forEach((li) => {
      if (li.textContent.indexOf("Board " + number + ":") === 0) {
        li.className = "done";
        li.textContent = "Board " + number + ": kept on this phone, to be sent";
      }
    });
  }

  function showNextBoard(previous) {
    const next = boards().filter((b) => !b.done)[0];
    const section = main.querySelector(".board-in-play");
    if (!next) {
      // The page may say what comes next (a teams room has no moves): data-offline-done.
      const title = document.createElement("h2");
      title.textContent = main.dataset.offlineDoneTitle || "Round finished on this phone";
      const then = document.createElement("p");
      then.textContent = main.dataset.offlineDone || "The moves for the next round show as soon as the network returns.";
      section.replaceChildren(title, then);
      return;
    }
    const VUL = { None: "None", NS: "North-South", EW: "East-West", Both: "Both" };
    section.querySelector(".board-number").textContent = next.number;
    section.querySelector(".dealer").textContent = next.dealer;
    section.querySelector(".vul").textContent = VUL[next.vul] || next.vul;
    const form = previous;
    form.querySelector("input[name=board]").value = next.number;
    form.querySelector("input[name=client_key]").value = newId();
    form.text.value = "";
    form.lead.value = "";
    const accept = form.querySelector("input[name=accept_warnings]");
    if (accept) accept.remove();
    const preview = form.querySelector(".preview");
    if (preview) preview.textContent = "";
    restoreDraft();
    form.text.focus();
  }

  // How the server read the text and its score, kept from the preview while the network
  // was there (the preview's <template class="reading">), for EW to check offline too.
  function readingOf(form, text) {
    const kept = form.querySelector(".preview template.reading");
    if (!kept || kept.dataset.text !== text) return null;
    const reading = document.createElement("p");
    reading.className = "reading";
    reading.append(kept.content.cloneNode(true));
    return reading;
  }

  function confirmLocally(form, item) {
    // EW confirm on the phone; the confirmation follows the send out of the outbox.
    const panel = document.createElement("div");
    panel.className = "confirm";
    const line = document.createElement("p");
    line.className = "to-confirm";
    line.append("NS sent: ");
    const strong = document.createElement("strong");
    strong.className = "pending-text";
    strong.textContent = item.text;
    line.append(strong);
    if (item.lead) line.append(", lead " + item.lead);  // EW check the lead too, as online
    line.append(" (kept on this phone until the network returns)");
    const reading = readingOf(form, item.text);
    const ask = document.createElement("p");
    ask.textContent = "East-West, please check and confirm.";
    const confirm = document.createElement("button");
    confirm.type = "button";
    confirm.className = "big primary";
    confirm.textContent = "Confirm";
    const refuse = document.createElement("button");
    refuse.type = "button";
    refuse.className = "big";
    refuse.textContent = "Refuse: NS correct it";
    panel.append(line);
    if (reading) panel.append(reading);
    panel.append(ask, confirm, refuse);
    form.hidden = true;
    form.parentNode.insertBefore(panel, form);
    settle();
    confirm.addEventListener("click", () => {
      acceptWarnings(item.key);
      enqueue({ kind: "confirm", key: item.key, url: main.dataset.confirmUrl,
                fields: [["client_key", item.key]], board: item.board });
      panel.remove();
      form.hidden = false;
      settle();
      markDone(item.board);
      showNextBoard(form);
    });
    refuse.addEventListener("click", () => {
      const items = outbox();
      const unsent = items.filter((q) => !(q.kind === "send" && q.key === item.key));
      forget(item.key);
      if (unsent.length !== items.length) save(OUTBOX, unsent);  // never left the phone
      else enqueue({ kind: "refuse", key: item.key, url: main.dataset.refuseUrl,
                     fields: [["client_key", item.key]], board: item.board });
      panel.remove();
      form.hidden = false;
      settle();
      form.querySelector("input[name=client_key]").value = newId();
      form.text.focus();
      sayWaiting();
    });
  }

  // --- forms ------------------------------------------------------------------------------

  function fieldsOf(form) {
    const fields = [];
    new FormData(form).forEach((value, name) => {
      if (name !== "csrfmiddlewaretoken") fields.push([name, value]);
    });
    return fields;
  }

  main.addEventListener("submit", (event) => {
    const form = event.target;
    const kind = form.dataset.kind;
    if (!kind) return;
    event.preventDefault();
    const key = form.querySelector("input[name=client_key]").value;
    const item = { kind, key, url: form.action, fields: fieldsOf(form), board: kind === "send" ? boardOf(form) : "" };
    // The button pressed says why (a call's reason): FormData leaves the submitter out.
    if (event.submitter && event.submitter.name) item.fields.push([event.submitter.name, event.submitter.value]);
    if (kind === "send") {
      if (!form.text.value.trim()) { form.text.focus(); return; }
      item.text = form.text.value.trim();
      item.lead = form.lead.value.trim().toUpperCase();
      keepDraft();
    }
    form.querySelectorAll("button[type=submit]").forEach((button) => { button.disabled = true; });
    if (kind === "refuse") forget(key);
    lastSend = kind === "send" ? { form, item } : null;
    enqueue(item);
  });

  // Offline the phone cannot ask for a second look at warnings (they need the other
  // tables' results): the table has agreed the line, so the queued send says the warnings
  // are accepted; they stay on the line for the director's grid.
  function acceptWarnings(key) {
    save(OUTBOX, outbox().map((queued) => {
      if (queued.kind === "send" && queued.key === key &&
          !queued.fields.some((field) => field[0] === "accept_warnings")) {
        queued.fields.push(["accept_warnings", "1"]);
      }
      return queued;
    }));
  }

  // A send that could not leave the phone: the table carries on here, the outbox keeps it.
  let lastSend = null;
  function carryOn() {
    const sent = lastSend;
    lastSend = null;
    if (!sent || !document.body.contains(sent.form)) return;
    const queued = outbox().some((q) => q.kind === "send" && q.key === sent.item.key);
    if (!queued) return;
    sent.form.querySelectorAll("button[type=submit]").forEach((button) => { button.disabled = false; });
    if (main.dataset.confirmation === "on") confirmLocally(sent.form, sent.item);
    else { acceptWarnings(sent.item.key); markDone(sent.item.board); showNextBoard(sent.form); }
  }

  // A page reloaded without network is the one last seen (from the service worker): the
  // outbox's sends are laid over it once, as the table played them on the phone.
  let replayed = false;
  function replayOutbox() {
    if (replayed) return;
    replayed = true;
    const items = outbox();
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (item.kind !== "send" || !showsSendFormFor(item.board)) continue;
      const form = sendForm();
      const confirmed = main.dataset.confirmation !== "on" ||
        items.some((queued) => queued.kind === "confirm" && queued.key === item.key);
      if (!confirmed) { confirmLocally(form, item); return; }
      markDone(item.board);
      showNextBoard(form);
    }
  }

  // The page and its scripts kept for a reload without network (static/js/table-sw.js,
  // scoped to this table's link); data-offline="ready" once they are.
  function keepOffline() {
    if (!("serviceWorker" in navigator) || !main.dataset.swUrl) return;
    navigator.serviceWorker.addEventListener("message", (event) => {
      if (event.data && event.data.kept) main.dataset.offline = "ready";
    });
    keepPageOffline(main.dataset.swUrl, main.dataset.pageUrl, main.dataset.pageUrl)
      .catch(() => { /* the page works online without it */ });
  }

  // The parts of the page that change without the table doing anything: a teams room's
  // match (the other room's lines change its IMPs), the round clock the director runs and
  // the director's answer to a call. While nothing waits in the outbox, the page is asked
  // for again every data-refresh-ms and these parts alone are replaced: what is being
  // typed is never touched.
  // A pairs table asks only while there is something to follow: a running or paused
  // clock, or a call to the director; otherwise its own posts bring the page.
  const FRESH_PARTS = ["match-progress", "round-clock", "director-call"];
  function following() {
    const clock = document.getElementById("round-clock");
    return !!(document.getElementById("match-progress") || (clock && !clock.hidden) || main.querySelector(".call-state"));
  }
  function keepFresh() {
    const every = parseInt(main.dataset.refreshMs, 10);
    if (!every) return;
    setInterval(() => {
      if (flushing || outbox().length || document.hidden || !navigator.onLine || !following()) return;
      fetchFragment(main.dataset.pageUrl)
        .then((response) => response.ok ? response.text() : null)
        .then((html) => {
          if (html === null || flushing || outbox().length) return;
          const fresh = parseHtml(html);
          FRESH_PARTS.forEach((id) => {
            const part = fresh.getElementById(id);
            const here = document.getElementById(id);
            if (part && here && here.outerHTML !== part.outerHTML) here.replaceWith(part);
          });
        })
        .catch(() => { /* asked again next time */ });
    }, every);
  }

  // --- the score before sending, and the keypad -------------------------------------------------

  let previewTimer = null;
  function preview() {
    const form = sendForm();
    const out = form && form.querySelector(".preview");
    if (!out) return;
    const text = form.text.value.trim();
    if (!text) { out.textContent = ""; return; }
    if (!navigator.onLine) { out.textContent = "The score shows when the network is back."; return; }
    const url = main.dataset.previewUrl + "?" + new URLSearchParams({ board: boardOf(form), text: text });
    fetch(url, { credentials: "same-origin" }).then((r) => r.text()).then((html) => {
      if (form.text.value.trim() === text) out.innerHTML = html;
    }).catch(() => { out.textContent = "The score shows when the network is back."; });
  }

  let tapped = {};
  function compose() {
    if (tapped.pass) return "PASS";
    return [(tapped.level || "") + (tapped.strain || "") + (tapped.double || ""), tapped.declarer || "", tapped.outcome || ""]
      .filter(Boolean).join(" ");
  }

  main.addEventListener("click", (event) => {
    const button = event.target.closest(".keypad button");
    if (!button) return;
    const form = sendForm();
    if (button.dataset.key === "pass") tapped = { pass: true };
    else { delete tapped.pass; tapped[button.dataset.key] = button.dataset.value; }
    form.text.value = compose();
    button.parentNode.querySelectorAll("button").forEach((b) => { b.setAttribute("aria-pressed", String(b === button)); });
    if (button.dataset.key !== "pass") unpress(button.closest(".keypad").querySelector("button.pass"));
    keepDraft();
    // The score once the result is whole: no message while the thumb is still tapping,
    // which would move the keys under it.
    if (tapped.pass || tapped.outcome) preview();
    else form.querySelector(".preview").textContent = "";
  });

  // Pass sits outside the groups (with the strains on a phone): a key of a group unpresses it.
  function unpress(button) { if (button) button.setAttribute("aria-pressed", "false"); }

  main.addEventListener("input", (event) => {
    if (!event.target.closest("form.send-form")) return;
    keepDraft();
    if (event.target.name === "text") {
      tapped = {};
      clearTimeout(previewTimer);
      previewTimer = setTimeout(preview, 250);
    }
  });

  function ready() {
    tapped = {};
    main.querySelectorAll(".keypad").forEach((keypad) => { keypad.hidden = false; });
    restoreDraft();
    preview();
    sayWaiting();
    recheckDelivered();
  }

  window.addEventListener("online", flush);
  window.addEventListener("offline", sayWaiting);
  ready();
  flush();
  keepOffline();
  keepFresh();
}
