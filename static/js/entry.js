/* ClubScore: keyboard entry on the director's board and table-round pages.

   Each row of #entry-sheet is a <form> that htmx posts (hx-post); the answer replaces
   that row alone and updates the other rows' running scores out of band. This script
   makes entry lossless at typing speed:

   - Enter sends the row and moves the cursor at once, before the answer, to the next
     row still to enter, so the director keeps typing; the rows' posts queue up
     (hx-sync on #entry-sheet), each answer lands on its own row, and a row on its way
     is never sent twice.
   - An answer never takes away what was typed: text typed into a row while it was on
     its way is put back (and sent, if Enter was pressed on it meanwhile); the cursor
     stays where it is, unless it only moved on from a row that was then refused and no
     key has been pressed since (for a second), when it goes back there.
   - Every failure (refusal, network, server error, expired login) is said on the row,
     which keeps what was typed; Enter sends it again.
   - A filled box selects its text when it gets the cursor, so typing replaces it.
   - Once every row is entered the page moves on (next table or board), carrying what
     was typed ahead to it; entry-early.js holds the keys pressed on the next page
     before this script is ready there, and they are typed after the carried ones.

   Without htmx (or without this script) the rows are plain forms: POST, then redirect.
*/
(function () {
  "use strict";

  const ROW = "form.entry-row";
  const BOX = "input[name=text], input[name=lead]";
  const early = window.clubscoreEntryEarly; // entry-early.js, first in the entry pages' head
  const CARRY = early.CARRY; // sessionStorage: keys typed ahead for the next page
  const MOVE_ON_AFTER = 1500; // ms on a completed page before moving on (at once if typing ahead)
  const BACK_AFTER_IDLE = 1000; // ms without a key after Enter before the cursor goes back to a failed row

  const MESSAGES = {
    network: "Not saved: the server could not be reached. Your text is kept: press Enter to send it again.",
    unexpected: "Not saved? The server's answer was not this row: reload the page to see what is stored.",
    forbidden: "Not saved: the server refused it (403). Press Enter to try again; if that fails, reload the page.",
  };

  const rowStates = new WeakMap(); // form -> what this script knows about the row
  const landing = new Map(); // row id -> the old row's state, from beforeSwap to the new row's htmx:load
  const carry = { active: false, leaving: false, keys: "", timer: null, to: "", label: "", from: "" };
  let lastKeyAt = 0; // performance.now() of the last key pressed
  let tokenStale = false; // after a 401/403: fetch a fresh CSRF token before the next post

  // --- the page's rows ----------------------------------------------------------------

  function sheet() {
    return document.getElementById("entry-sheet");
  }

  function rows() {
    const element = sheet();
    return element ? Array.from(element.querySelectorAll(ROW)) : [];
  }

  function isBox(element) {
    return element instanceof HTMLInputElement && element.matches(BOX) && element.closest(ROW) !== null;
  }

  function state(form) {
    let known = rowStates.get(form);
    if (!known) {
      known = { pending: false, enterAt: 0, trigger: null, sent: null, again: false, deleting: false, movedTo: null, movedToValue: "" };
      rowStates.set(form, known);
    }
    return known;
  }

  function field(form, name) {
    return form.querySelector('[name="' + name + '"]');
  }

  function stored(form) {
    return field(form, "result").value !== "";
  }

  /** Stored, or on its way with a result typed: nothing more to type on this row. */
  function entered(form) {
    const known = state(form);
    return stored(form) || (known.pending && !known.deleting && field(form, "text").value.trim() !== "");
  }

  function typed(form) {
    return { text: field(form, "text").value, lead: field(form, "lead").value };
  }

  /** The row the cursor moves to after ``form``: the next one still to enter, else the next. */
  function nextRow(form) {
    const all = rows();
    const following = all.slice(all.indexOf(form) + 1);
    return following.find((row) => !entered(row)) || following[0] || all.find((row) => row !== form && !entered(row)) || null;
  }

  // --- messages ---------------------------------------------------------------------

  function say(text) {
    const status = document.getElementById("entry-status");
    if (status) {
      status.textContent = text;
    }
  }

  /** The row's cell for its messages, made when it has none: the form itself is not in the
      sheet's table (only its role=row element is), so a message goes inside that row. */
  function messageCell(form) {
    const row = form.querySelector("[role=row]") || form;
    let cell = row.querySelector(".row-messages");
    if (!cell) {
      cell = document.createElement("div");
      cell.className = "row-messages";
      cell.setAttribute("role", "cell");
      cell.dataset.client = "";
      row.append(cell);
    }
    return cell;
  }

  /** Show a failure on the row (role=alert), keeping what was typed. */
  function showProblem(form, text, loginUrl) {
    clearProblem(form);
    const message = document.createElement("p");
    message.className = "row-message error";
    message.id = form.id + "-problem";
    message.setAttribute("role", "alert");
    message.dataset.client = "";
    if (loginUrl) {
      const link = document.createElement("a");
      link.href = loginUrl;
      link.target = "_blank";
      link.rel = "noopener";
      link.textContent = "log in again";
      message.append("Your login has expired: ", link, " (in a new tab), then press Enter again.");
    } else {
      message.textContent = text;
    }
    messageCell(form).append(message);
    form.classList.add("has-error", "not-saved");
    const box = field(form, "text");
    box.setAttribute("aria-invalid", "true");
    box.setAttribute("aria-describedby", message.id);
  }

  function clearProblem(form) {
    const message = form.querySelector(".row-message[data-client]");
    if (!message) {
      return;
    }
    const cell = message.parentElement;
    message.remove();
    if (cell.matches(".row-messages[data-client]") && !cell.hasChildNodes()) {
      cell.remove(); // made for this message alone
    }
    form.classList.remove("has-error", "not-saved");
    const box = field(form, "text");
    box.removeAttribute("aria-invalid");
    box.removeAttribute("aria-describedby");
  }

  // --- moving the cursor ----------------------------------------------------------------

  function focusBox(box, keepCaret) {
    if (keepCaret) {
      box.dataset.keepCaret = "";
    }
    box.focus();
    delete box.dataset.keepCaret;
  }

  function moveOn(from) {
    const target = nextRow(from);
    if (!target) {
      return; // nowhere to go: the cursor stays on this row
    }
    const box = field(target, "text");
    const known = state(from);
    known.movedTo = box;
    known.movedToValue = box.value;
    focusBox(box);
  }

  /** After a row failed: back to it once the director has stopped typing, if the cursor only
      moved on from it and nothing was typed since. Never while typing on: the keys would
      land on the failed row instead of the next one. */
  function backTo(form, known) {
    const active = document.activeElement;
    if (active === null || active === document.body || active.id === "entry-status") {
      focusBox(field(form, "text")); // the cursor was nowhere: keys typed now would be lost
      return;
    }
    if (!known.enterAt) {
      return;
    }
    const check = () => {
      const now = document.activeElement;
      const untouched = known.movedTo !== null && now === known.movedTo && now.value === known.movedToValue;
      if (form.isConnected && lastKeyAt <= known.enterAt && untouched && !state(form).pending) {
        focusBox(field(form, "text"));
      }
    };
    setTimeout(check, Math.max(0, known.enterAt + BACK_AFTER_IDLE - performance.now()));
  }

  // --- sending a row ------------------------------------------------------------------

  function submit(form) {
    form.requestSubmit();
  }

  function enter(form) {
    const known = state(form);
    const now = typed(form);
    if (known.pending) {
      // Already on its way: never sent twice. If the text changed since, it goes once the answer is in.
      if (now.text !== known.sent.text || now.lead !== known.sent.lead) {
        known.again = true;
      }
      moveOn(form);
      return;
    }
    if (!stored(form) && !now.text.trim() && !now.lead.trim()) {
      moveOn(form); // nothing to save: just move on
      return;
    }
    const completes = !stored(form) && now.text.trim() !== "" && rows().every((row) => row === form || entered(row));
    submit(form);
    state(form).enterAt = performance.now();
    if (completes && state(form).pending && sheet().dataset.nextUrl) {
      startCarry(form);
    } else {
      moveOn(form);
    }
  }

  function settled(form) {
    const known = state(form);
    known.pending = false;
    known.trigger = null;
    form.classList.remove("sending");
    form.removeAttribute("aria-busy");
  }

  function failed(form, text, loginUrl) {
    const known = state(form);
    settled(form);
    showProblem(form, text, loginUrl);
    cancelCarry("Not moving on: a line here was not saved.");
    backTo(form, known);
  }

  /** A fresh CSRF token (the login rotates it), read from the sheet: "ok", "login" or "network". */
  async function refreshToken() {
    let response;
    try {
      response = await fetch(window.location.pathname, {
        headers: { "HX-Request": "true" }, credentials: "same-origin", cache: "no-store",
      });
    } catch {
      return "network";
    }
    if (response.status === 401) {
      return "login";
    }
    if (!response.ok) {
      return "network";
    }
    const match = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(await response.text());
    if (!match) {
      return "network";
    }
    for (const input of document.querySelectorAll("input[name=csrfmiddlewaretoken]")) {
      input.value = match[1];
    }
    tokenStale = false;
    return "ok";
  }

  function loginUrl() {
    return sheet().dataset.loginUrl;
  }

  function onConfirm(event) {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.matches(ROW)) {
      return;
    }
    const known = state(form);
    const trigger = event.detail.triggeringEvent;
    if (known.pending) {
      if (trigger && trigger === known.trigger) {
        return; // its turn in the sheet's queue: htmx asks again
      }
      event.preventDefault(); // on its way already: never twice
      return;
    }
    known.pending = true;
    known.trigger = trigger;
    known.sent = typed(form); // what is sent, even if the post waits its turn while typing goes on
    known.again = false;
    clearProblem(form);
    form.classList.add("sending");
    form.setAttribute("aria-busy", "true");
    if (tokenStale) {
      event.preventDefault();
      refreshToken().then((outcome) => {
        if (outcome === "ok") {
          event.detail.issueRequest(true);
        } else if (outcome === "login") {
          failed(form, "", loginUrl());
        } else {
          failed(form, MESSAGES.network);
        }
      });
    }
  }

  function onConfigRequest(event) {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.matches(ROW)) {
      return;
    }
    const values = event.detail.formData;
    const known = state(form);
    if (known.sent) {
      values.set("text", known.sent.text);
      values.set("lead", known.sent.lead);
    }
    known.deleting = values.get("action") === "delete";
  }

  function onBeforeSwap(event) {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.matches(ROW)) {
      return;
    }
    const status = event.detail.xhr.status;
    if (status < 200 || status >= 300) {
      return; // not swapped: htmx:responseError says why
    }
    if (!event.detail.serverResponse.includes('id="' + form.id + '"')) {
      event.detail.shouldSwap = false;
      failed(form, MESSAGES.unexpected);
      return;
    }
    // What the director did to this row while it was on its way, for the new row.
    const known = state(form);
    const active = document.activeElement;
    const inside = active && form.contains(active) && isBox(active) ? active : null;
    landing.set(form.id, {
      known,
      now: typed(form),
      focus: inside ? { name: inside.name, start: inside.selectionStart, end: inside.selectionEnd } : null,
    });
  }

  /** A row's answer is in: the new row replaced the old, which was ``before``. */
  function landed(form, before) {
    const { known, now, focus } = before;
    const sent = known.sent || now;
    const changed = now.text !== sent.text || now.lead !== sent.lead;
    if (changed) {
      // Typed on this row after it was sent: kept, and marked as not saved yet.
      field(form, "text").value = now.text;
      field(form, "lead").value = now.lead;
      form.classList.add("edited");
    }
    if (focus) {
      const box = field(form, focus.name);
      focusBox(box, changed);
      if (changed) {
        box.setSelectionRange(focus.start, focus.end);
      }
    }
    if (form.classList.contains("has-error")) {
      cancelCarry("Not moving on: a line here was refused.");
      backTo(form, known);
    } else if (form.classList.contains("has-warning")) {
      cancelCarry("Not moving on: check the warning on the line.");
    }
    if (changed && known.again) {
      submit(form);
    }
    checkCarry();
  }

  function onLoad(event) {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.matches(ROW)) {
      return;
    }
    const before = landing.get(form.id);
    if (before) {
      landing.delete(form.id);
      landed(form, before);
    }
  }

  function onResponseError(event) {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.matches(ROW)) {
      return;
    }
    const xhr = event.detail.xhr;
    if (xhr.status === 401) {
      tokenStale = true;
      failed(form, "", loginUrl());
    } else if (xhr.status === 403) {
      tokenStale = true; // a login in another tab changes the CSRF token
      failed(form, MESSAGES.forbidden);
    } else {
      const reason = (xhr.status + " " + (xhr.statusText || "")).trim();
      failed(form, "Not saved: the server answered " + reason + ". Your text is kept: press Enter to try again.");
    }
    checkCarry();
  }

  function onSendError(event) {
    const form = event.target;
    if (form instanceof HTMLFormElement && form.matches(ROW)) {
      failed(form, MESSAGES.network);
      checkCarry();
    }
  }

  function onHalted(event) {
    // htmx did not send the row after all (its form checks): it can be sent again.
    const form = event.target;
    if (form instanceof HTMLFormElement && form.matches(ROW) && state(form).pending) {
      settled(form);
      cancelCarry("Not moving on: a line here was not sent.");
    }
  }

  // --- moving on to the next table or board -------------------------------------------

  function startCarry(from) {
    const element = sheet();
    carry.active = true;
    carry.from = from.id;
    carry.leaving = false;
    carry.keys = "";
    carry.to = element.dataset.nextUrl;
    carry.label = element.dataset.nextLabel || "the next page";
    say("Every line here is entered: on to " + carry.label + " once saved. Keep typing for it, or press Esc to stay.");
    const status = document.getElementById("entry-status");
    if (status) {
      status.focus();
    }
    checkCarry();
  }

  function cancelCarry(reason) {
    if (!carry.active || carry.leaving) {
      return;
    }
    clearTimeout(carry.timer);
    carry.timer = null;
    carry.active = false;
    const ahead = carry.keys ? " You had typed ahead for " + carry.label + ": \u201c" + carry.keys.replace(/\n/g, "\u23ce") + "\u201d (not entered)." : "";
    say(reason + ahead);
  }

  function checkCarry() {
    if (!carry.active || carry.leaving) {
      return;
    }
    const all = rows();
    if (all.some((row) => state(row).pending)) {
      return; // still saving
    }
    if (!all.every((row) => stored(row) && !row.classList.contains("has-error"))) {
      cancelCarry("Not moving on: not every line here is saved.");
      return;
    }
    if (carry.keys) {
      leave();
    } else if (carry.timer === null) {
      carry.timer = setTimeout(leave, MOVE_ON_AFTER);
    }
  }

  function keepCarried() {
    try {
      sessionStorage.setItem(CARRY, JSON.stringify({ to: carry.to, keys: carry.keys }));
    } catch {
      // no storage: what is typed from here is lost, as without this script
    }
  }

  function leave() {
    if (!carry.active || carry.leaving) {
      return;
    }
    carry.leaving = true;
    keepCarried();
    window.location.assign(carry.to);
  }

  /** A key while moving on: kept for the next page. True if it was taken. */
  function carryKey(event) {
    if (event.key === "Escape" && !carry.leaving) {
      event.preventDefault();
      cancelCarry("Staying on this page.");
      const row = document.getElementById(carry.from);
      if (row) {
        focusBox(field(row, "text"));
      }
      return true;
    }
    const key = early.keyOf(event);
    if (key === null) {
      return false;
    }
    event.preventDefault();
    carry.keys = typedAfter(carry.keys, key);
    if (carry.leaving) {
      keepCarried();
    } else {
      say("On to " + carry.label + " once saved: \u201c" + carry.keys.replace(/\n/g, "\u23ce") + "\u201d typed for it. Esc to stay.");
      checkCarry();
    }
    return true;
  }

  /** ``keys`` and one key more ("\b", Backspace, takes the last one back). */
  function typedAfter(keys, key) {
    return key === "\b" ? keys.slice(0, -1) : keys + key;
  }

  /** Keys typed on the previous page after it was complete, then those pressed here before
      this script was ready (held by entry-early.js): typed here, in order, as if now. */
  function replayCarried() {
    const heldHere = early.take();
    let carried = null;
    try {
      carried = JSON.parse(sessionStorage.getItem(CARRY) || "null");
      sessionStorage.removeItem(CARRY);
    } catch {
      return;
    }
    if (!carried || carried.to !== window.location.pathname || !carried.keys) {
      return;
    }
    let keys = carried.keys;
    for (const key of heldHere) {
      keys = typedAfter(keys, key);
    }
    let box = isBox(document.activeElement) ? document.activeElement : sheet().querySelector("input[autofocus]");
    if (box && document.activeElement !== box) {
      focusBox(box);
    }
    for (const key of keys) {
      box = document.activeElement;
      if (!isBox(box)) {
        break;
      }
      if (key === "\n") {
        enter(box.closest(ROW));
      } else if (box.value.length - (box.selectionEnd - box.selectionStart) < box.maxLength || box.maxLength < 0) {
        box.setRangeText(key, box.selectionStart, box.selectionEnd, "end");
      }
    }
  }

  // --- wiring -------------------------------------------------------------------------

  function onKeydown(event) {
    lastKeyAt = performance.now();
    if (carry.active && carryKey(event)) {
      return;
    }
    if (event.key !== "Enter" || event.isComposing || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) {
      return;
    }
    const box = event.target;
    if (!isBox(box) || !window.htmx) {
      return; // without htmx, Enter submits the form the plain way
    }
    event.preventDefault();
    enter(box.closest(ROW));
  }

  function onFocusin(event) {
    const target = event.target;
    if (carry.active && !carry.leaving && target.id !== "entry-status") {
      cancelCarry("Staying on this page.");
    }
    if (isBox(target) && !("keepCaret" in target.dataset)) {
      target.select(); // typing replaces a filled box, never glues to it
    }
  }

  function onMousedown(event) {
    // A click into a box that has not the cursor selects its text too (the mouseup
    // would otherwise put the caret where the click was).
    const box = event.target;
    if (isBox(box) && document.activeElement !== box && event.button === 0) {
      event.preventDefault();
      focusBox(box);
    }
  }

  function onClick(event) {
    const button = event.target instanceof Element ? event.target.closest("button[data-confirm]") : null;
    if (button && !window.confirm(button.dataset.confirm)) {
      event.preventDefault();
    }
  }

  function onPageshow(event) {
    if (event.persisted) {
      // Back from the next page (the browser's page cache): this page is as it was left.
      carry.active = false;
      carry.leaving = false;
      carry.keys = "";
      say("");
    }
  }

  document.addEventListener("click", onClick);
  if (!sheet()) {
    return;
  }
  document.addEventListener("keydown", onKeydown);
  document.addEventListener("focusin", onFocusin);
  document.addEventListener("mousedown", onMousedown);
  document.addEventListener("htmx:confirm", onConfirm);
  document.addEventListener("htmx:configRequest", onConfigRequest);
  document.addEventListener("htmx:beforeSwap", onBeforeSwap);
  document.addEventListener("htmx:load", onLoad);
  document.addEventListener("htmx:responseError", onResponseError);
  document.addEventListener("htmx:sendError", onSendError);
  document.addEventListener("htmx:timeout", onSendError);
  document.addEventListener("htmx:sendAbort", onSendError);
  document.addEventListener("htmx:validation:halted", onHalted);
  window.addEventListener("pageshow", onPageshow);

  if (isBox(document.activeElement)) {
    document.activeElement.select(); // autofocus came before this script
  }
  document.addEventListener("DOMContentLoaded", () => setTimeout(replayCarried, 0));
})();
