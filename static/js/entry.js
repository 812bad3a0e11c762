/* ClubScore: keyboard entry on the director's table-round and board pages.

   The page holds the table (or board) asked for and, hidden, the next ones: each is a
   "group" (section.entry-group) with its own heading and rows, and each row is a <form>
   of its own. What makes entry safe at any typing speed:

   - Keys only ever go into the box that has the cursor, and the cursor only moves in the
     keydown handler of Enter, synchronously, before the next key is handled. No answer
     from the server replaces a box or moves the cursor (but for one case below), and the
     keys never cross a page load: a completed group moves on to the next one in place.
   - Enter takes what its row's boxes hold at that moment, with the row's own identity
     (its key, the line it shows, and what the director saw: board, table, round and
     pairs). That is what is posted, and the server stores it on that row only, or
     refuses it. Posts go one at a time, in the order typed.
   - An answer updates the row's stored line, score and messages, never its boxes unless
     they still hold what was sent (then they show the stored, standard text). Text typed
     on a row while it was on its way stays, marked as not saved.
   - Every refusal or failure is said on its row (role=alert), with what was typed kept:
     a row of a group already left is shown again, above the one being typed. The cursor
     goes back to a refused row only if it merely moved on from it, within the group
     shown, and no key was pressed for a second since.
   - Keys typed where no row has the cursor (after the last table, or while the next one
     is still loading) are never entered anywhere: the page says what they were.
   - The groups ahead are fetched as the director moves on, so the next one is there.

   Without this script the rows are plain forms: POST, then redirect (so a key pressed
   before this module runs, while the page is still loading, is entered the plain way).
*/
import { fetchFragment, parseHtml } from "./lib.js";

const GROUP = "section.entry-group";
const ROW = "form.entry-row";
const BOX = "input[name=text], input[name=lead]";
const KEEP_AHEAD = 2; // groups loaded beyond the one shown
const BACK_AFTER_IDLE = 1000; // ms without a key after Enter before the cursor goes back to a refused row

const MESSAGES = {
  network: "Not saved: the server could not be reached. Your text is kept: press Enter to send it again.",
  unexpected: "Not saved? The server's answer was not this row: reload the page to see what is stored.",
  forbidden: "Not saved: the server refused it (403). Press Enter to try again; if that fails, reload the page.",
};

const rowStates = new WeakMap(); // form -> what this script knows about the row
const queue = []; // posts waiting their turn: {form, text, lead, action}
let sending = false;
let shown = null; // the group being typed
let waitingFor = null; // a completed group whose next one is still loading
let fetchingMore = false;
let stray = ""; // keys typed where no row had the cursor
let lastKeyAt = 0; // performance.now() of the last key pressed
let tokenStale = false; // after a 401/403: fetch a fresh CSRF token before the next post

// --- the page's groups and rows -------------------------------------------------------

function sheet() {
  return document.getElementById("entry-sheet");
}

function groups() {
  return Array.from(sheet().querySelectorAll(GROUP));
}

function rowsOf(group) {
  return Array.from(group.querySelectorAll(ROW));
}

function isBox(element) {
  return element instanceof HTMLInputElement && element.matches(BOX) && element.closest(ROW) !== null;
}

function state(form) {
  let known = rowStates.get(form);
  if (!known) {
    known = { pending: [], enterAt: 0, movedTo: null, movedToValue: "" };
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

function typed(form) {
  return { text: field(form, "text").value, lead: field(form, "lead").value };
}

/** The last post of the row still waiting or on its way, or null. */
function lastPending(form) {
  const pending = state(form).pending;
  return pending.length ? pending[pending.length - 1] : null;
}

/** Stored, or on its way with a result: nothing more to type on this row. */
function entered(form) {
  const last = lastPending(form);
  if (last) {
    return last.action !== "delete" && last.text.trim() !== "";
  }
  return stored(form) && !form.classList.contains("has-error");
}

/** "Table 1, round 1, board 3": where a row is, for messages about it. */
function where(form) {
  const group = form.closest(GROUP);
  const seen = field(form, "seen").value.split(", "); // board N, table T, round R, pairs
  return group.dataset.label + ", " + (group.id.startsWith("group-board-") ? seen[1] : seen[0]);
}

// --- messages ---------------------------------------------------------------------

function say(text) {
  const status = document.getElementById("entry-status");
  if (status) {
    status.textContent = text;
  }
}

/** The row's cell for its messages, made when it has none. */
function messageCell(form) {
  const row = form.querySelector("[role=row]") || form;
  let cell = row.querySelector(".row-messages");
  if (!cell) {
    cell = document.createElement("div");
    cell.className = "row-messages";
    cell.setAttribute("role", "cell");
    row.append(cell);
  }
  return cell;
}

/** Show a failure on the row (role=alert), keeping what was typed. */
function showProblem(form, text, loginUrl) {
  clearMessages(form);
  const message = document.createElement("p");
  message.className = "row-message error";
  message.id = form.id + "-problem";
  message.setAttribute("role", "alert");
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
  form.classList.remove("saved", "has-warning");
  form.classList.add("has-error", "not-saved");
  const box = field(form, "text");
  box.setAttribute("aria-invalid", "true");
  box.setAttribute("aria-describedby", message.id);
}

function clearMessages(form) {
  const cell = form.querySelector(".row-messages");
  if (cell) {
    cell.remove();
  }
  form.classList.remove("has-error", "not-saved");
  const box = field(form, "text");
  box.removeAttribute("aria-invalid");
  box.removeAttribute("aria-describedby");
}

/** A row of a group already left needs the director: show that group again. */
function bringBack(form, text) {
  const group = form.closest(GROUP);
  if (group && group.hidden) {
    group.hidden = false;
    group.classList.add("left-with-problem");
  }
  say(text);
}

// --- moving the cursor ----------------------------------------------------------------

/** The row the cursor moves to after ``form`` in its group: the next one still to enter. */
function nextRow(form) {
  const all = rowsOf(form.closest(GROUP));
  const following = all.slice(all.indexOf(form) + 1);
  return following.find((row) => !entered(row)) || all.find((row) => row !== form && !entered(row)) || null;
}

function moveTo(from, target) {
  const box = field(target, "text");
  const known = state(from);
  known.movedTo = box;
  known.movedToValue = box.value;
  box.focus();
}

/** After Enter on ``form``: the next row to enter in its group, else (if that Enter
    completed the group) the next group. */
function moveOn(form, completing) {
  const group = form.closest(GROUP);
  const target = nextRow(form);
  if (target) {
    moveTo(form, target);
  } else if (!rowsOf(group).every(entered) || !completing) {
    // This row is the one still to enter, or a line of a complete group was corrected: the cursor stays.
  } else if (group === shown) {
    nextGroup(group);
  } else {
    // A row of a group left earlier, corrected: back to the group being typed.
    const open = rowsOf(shown).find((row) => !entered(row)) || rowsOf(shown)[0];
    if (open) {
      moveTo(form, open);
    }
  }
}

/** Every row of ``group`` is entered: show the next one in its place, the cursor in its first open row. */
function nextGroup(group) {
  const label = group.dataset.nextLabel;
  if (!group.dataset.nextUrl) {
    waitingFor = null;
    noRow("Every line here is entered: this is the last " + (group.id.startsWith("group-board-") ? "board." : "table."));
    return;
  }
  const next = groups().find((candidate) => candidate.dataset.url === group.dataset.nextUrl);
  if (!next) {
    waitingFor = group;
    noRow("Every line here is entered. " + label + " is still loading: what you type now is not entered anywhere.");
    fetchMore();
    return;
  }
  waitingFor = null;
  showInstead(group, next);
  const saving = rowsOf(group).some((row) => state(row).pending.length);
  say("On to " + label + ": every line of " + group.dataset.label + " is entered" + (saving ? " (saving)." : "."));
  const open = rowsOf(next).find((row) => !entered(row)) || rowsOf(next)[0];
  if (open) {
    const last = rowsOf(group).pop();
    moveTo(last, open);
  }
  fetchMore();
}

/** ``next`` shown in the place of ``group`` (kept in view if a line of it needs the
    director), with its own address and title. */
function showInstead(group, next) {
  if (!group.classList.contains("left-with-problem")) {
    group.hidden = true;
  }
  next.hidden = false;
  shown = next;
  history.replaceState(history.state, "", next.dataset.url);
  document.title = next.dataset.title;
}

/** No row to type in: the cursor goes to the status line, where keys are said, not entered. */
function noRow(text) {
  stray = "";
  say(text);
  const status = document.getElementById("entry-status");
  status.focus();
}

/** After a row was refused: back to it once the director has stopped typing, if the cursor
    only moved on from it, within the group shown, and nothing was typed since. */
function backTo(form) {
  const known = state(form);
  if (!known.enterAt || form.closest(GROUP) !== shown) {
    return;
  }
  const check = () => {
    const now = document.activeElement;
    const untouched = known.movedTo !== null && now === known.movedTo && now.value === known.movedToValue;
    if (form.isConnected && form.closest(GROUP) === shown && lastKeyAt <= known.enterAt && untouched
        && !known.pending.length) {
      field(form, "text").focus();
    }
  };
  setTimeout(check, Math.max(0, known.enterAt + BACK_AFTER_IDLE - performance.now()));
}

// --- the groups ahead ------------------------------------------------------------------

/** Keep KEEP_AHEAD groups loaded after the one shown. */
async function fetchMore() {
  const all = groups();
  const last = all[all.length - 1];
  if (fetchingMore || !shown || !last.dataset.nextUrl || all.length - 1 - all.indexOf(shown) > KEEP_AHEAD) {
    return;
  }
  fetchingMore = true;
  let added = 0;
  try {
    const response = await fetchFragment(last.dataset.nextUrl, { cache: "no-store" });
    if (response.ok) {
      added = addGroups(await response.text());
    }
  } catch {
    // The network is down: the page says so when the director gets there.
  } finally {
    fetchingMore = false;
  }
  if (waitingFor !== null) {
    const group = waitingFor;
    const next = groups().find((candidate) => candidate.dataset.url === group.dataset.nextUrl);
    if (next && !stray && document.activeElement === document.getElementById("entry-status")) {
      nextGroup(group); // nothing was typed while it loaded: on to it
    } else if (next) {
      // Keys were typed while it loaded: they stay said, and the director clicks into it.
      waitingFor = null;
      say(group.dataset.nextLabel + " is here: click its first Result box to go on. Not entered: \u201c"
          + stray.replace(/\n/g, "\u23ce") + "\u201d.");
      showInstead(group, next);
    } else {
      setTimeout(fetchMore, 1000);
    }
  } else if (added) {
    fetchMore();
  }
}

/** The groups of a fetched page not yet in this one, added hidden: how many. */
function addGroups(html) {
  let added = 0;
  for (const group of parseHtml(html).querySelectorAll(GROUP)) {
    if (document.getElementById(group.id)) {
      continue;
    }
    group.hidden = true;
    for (const box of group.querySelectorAll("[autofocus]")) {
      box.removeAttribute("autofocus");
    }
    sheet().append(document.importNode(group, true));
    added += 1;
  }
  return added;
}

// --- sending a row ------------------------------------------------------------------

/** Enter (or Save) on a row: post what its boxes hold now, once. */
function enter(form, move) {
  const known = state(form);
  const now = typed(form);
  const wasEntered = entered(form);
  const last = lastPending(form);
  const same = (post) => post.text === now.text && post.lead === now.lead;
  const unchanged = last ? same(last) && last.action !== "delete" : (
    stored(form) ? now.text === field(form, "text").defaultValue && now.lead === field(form, "lead").defaultValue
      && !form.classList.contains("has-error")
      : !now.text.trim() && !now.lead.trim()
  );
  if (!unchanged) {
    post(form, now.text, now.lead, "save");
    known.enterAt = performance.now();
  }
  if (move) {
    moveOn(form, !wasEntered);
  }
}

function post(form, text, lead, action) {
  const item = { form, text, lead, action, boxes: typed(form) }; // boxes: what they held when sent
  state(form).pending.push(item);
  form.classList.add("sending");
  form.setAttribute("aria-busy", "true");
  queue.push(item);
  pump();
}

async function pump() {
  if (sending) {
    return;
  }
  sending = true;
  while (queue.length) {
    await send(queue.shift());
  }
  sending = false;
}

function done(item) {
  const known = state(item.form);
  known.pending.splice(known.pending.indexOf(item), 1);
  if (!known.pending.length) {
    item.form.classList.remove("sending");
    item.form.removeAttribute("aria-busy");
  }
}

async function send(item) {
  const form = item.form;
  if (tokenStale) {
    const outcome = await refreshToken();
    if (outcome !== "ok") {
      done(item);
      failed(form, outcome === "login" ? "" : MESSAGES.network, outcome === "login" ? loginUrl() : null);
      return;
    }
  }
  const data = new FormData(form); // the row's key, its line and version now, and what the director saw
  data.set("text", item.text);
  data.set("lead", item.lead);
  data.set("action", item.action);
  let response;
  let html;
  try {
    // (form.action is its button named "action")
    response = await fetchFragment(form.getAttribute("action"), { method: "POST", body: data });
    html = await response.text();
  } catch {
    done(item);
    failed(form, MESSAGES.network);
    return;
  }
  done(item);
  if (response.status === 401) {
    tokenStale = true;
    failed(form, "", loginUrl());
  } else if (response.status === 403) {
    tokenStale = true; // a login in another tab changes the CSRF token
    failed(form, MESSAGES.forbidden);
  } else if (!response.ok) {
    const reason = (response.status + " " + (response.statusText || "")).trim();
    failed(form, "Not saved: the server answered " + reason + ". Your text is kept: press Enter to try again.");
  } else {
    landed(form, item, html);
  }
}

function failed(form, text, loginUrl) {
  showProblem(form, text, loginUrl);
  bringBack(form, "Not saved: " + where(form) + ", \u201c" + field(form, "text").value + "\u201d: see the line.");
  backTo(form);
}

/** The server's answer to a post of ``form``: what is stored now, or why not. */
function landed(form, item, html) {
  const answer = parseHtml(html);
  const fresh = answer.querySelector(ROW);
  if (!fresh || fresh.id !== form.id) {
    failed(form, MESSAGES.unexpected);
    return;
  }
  for (const name of ["result", "version", "seen"]) {
    field(form, name).value = field(fresh, name).value;
  }
  const messages = form.querySelector(".row-messages");
  if (messages) {
    messages.remove(); // the answer brings the row's messages now, if any
  }
  // Every cell but those holding a box: the stored score, the buttons, the messages.
  const cells = form.querySelector("[role=row]");
  const freshCells = fresh.querySelector("[role=row]");
  const old = Array.from(cells.children);
  Array.from(freshCells.children).forEach((cell, index) => {
    if (index < old.length && old[index].querySelector(BOX)) {
      return;
    }
    const copy = document.importNode(cell, true);
    if (index < old.length && old[index].isConnected) {
      old[index].replaceWith(copy);
    } else {
      cells.append(copy);
    }
  });
  const refused = fresh.classList.contains("has-error");
  const now = typed(form);
  const untouched = now.text === item.boxes.text && now.lead === item.boxes.lead;
  for (const name of ["text", "lead"]) {
    const box = field(form, name);
    const freshBox = field(fresh, name);
    if (!refused) {
      box.defaultValue = freshBox.defaultValue; // the stored line, in its standard form
      if (untouched) {
        box.value = freshBox.defaultValue;
      }
    }
    for (const attribute of ["aria-invalid", "aria-describedby"]) {
      if (freshBox.hasAttribute(attribute)) {
        box.setAttribute(attribute, freshBox.getAttribute(attribute));
      } else {
        box.removeAttribute(attribute);
      }
    }
  }
  form.classList.remove("saved", "has-error", "has-warning", "not-saved", "edited");
  for (const name of fresh.classList) {
    form.classList.add(name);
  }
  if (!untouched && !state(form).pending.length) {
    form.classList.add("edited"); // typed on this row after it was sent: not saved yet
  }
  for (const cell of answer.querySelectorAll("[data-cell][id]")) {
    const target = document.getElementById(cell.id);
    if (target && !target.closest(ROW + " input")) {
      target.textContent = cell.textContent;
    }
  }
  if (refused) {
    bringBack(form, "Not saved: " + where(form) + ", \u201c" + item.text + "\u201d: see the line.");
    backTo(form);
  } else if (fresh.classList.contains("has-warning")) {
    bringBack(form, "Saved, with a warning to check: " + where(form) + ".");
  }
}

/** A fresh CSRF token (the login rotates it), read from the page: "ok", "login" or "network". */
async function refreshToken() {
  let response;
  try {
    response = await fetchFragment(window.location.pathname, { cache: "no-store" });
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

// --- wiring -------------------------------------------------------------------------

/** A key where no row has the cursor: said, never entered. */
function strayKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) {
    return;
  }
  const key = event.key === "Enter" ? "\n" : event.key.length === 1 ? event.key : null;
  if (key === null) {
    return;
  }
  event.preventDefault();
  stray += key;
  const status = document.getElementById("entry-status");
  const first = status.textContent.split(" Not entered")[0];
  say(first + " Not entered (no line had the cursor): \u201c" + stray.replace(/\n/g, "\u23ce") + "\u201d.");
}

function onKeydown(event) {
  lastKeyAt = performance.now();
  const target = event.target;
  if (target === document.getElementById("entry-status") || target === document.body) {
    strayKey(event);
    return;
  }
  if (event.key !== "Enter" || event.isComposing || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) {
    return;
  }
  if (!isBox(target)) {
    return;
  }
  event.preventDefault();
  enter(target.closest(ROW), true);
}

function onSubmit(event) {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.matches(ROW)) {
    return;
  }
  event.preventDefault();
  const button = event.submitter;
  if (button && button.value === "delete") {
    if (!window.confirm(button.dataset.confirm || "Delete this line?")) {
      return;
    }
    post(form, "", "", "delete");
  } else {
    enter(form, false);
  }
}

function onFocusin(event) {
  const target = event.target;
  if (isBox(target)) {
    const group = target.closest(GROUP);
    if (group && group !== shown && !group.classList.contains("left-with-problem")) {
      shown = group;
    }
    target.select(); // typing replaces a filled box, never glues to it
  }
}

function onMousedown(event) {
  // A click into a box that has not the cursor selects its text too (the mouseup
  // would otherwise put the caret where the click was).
  const box = event.target;
  if (isBox(box) && document.activeElement !== box && event.button === 0) {
    event.preventDefault();
    box.focus();
  }
}

function start() {
  shown = sheet().querySelector(GROUP + ":not([hidden])");
  document.addEventListener("keydown", onKeydown);
  document.addEventListener("submit", onSubmit);
  document.addEventListener("focusin", onFocusin);
  document.addEventListener("mousedown", onMousedown);
  if (isBox(document.activeElement)) {
    document.activeElement.select(); // autofocus came before this script
  }
  // Autofocus comes after this script, and never when the address names a row (#row-...,
  // after a row saved the plain way): the cursor goes to the row to type now, as soon as
  // the page can take it, unless it is somewhere already.
  const toAutofocus = () => {
    const box = shown && shown.querySelector("input[autofocus]");
    if (box && (document.activeElement === null || document.activeElement === document.body)) {
      box.focus();
    }
  };
  toAutofocus();
  document.addEventListener("DOMContentLoaded", () => requestAnimationFrame(toAutofocus));
  window.addEventListener("load", toAutofocus);
  fetchMore();
}

if (sheet()) {
  start();
}
