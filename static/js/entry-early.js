/* ClubScore: the first moment of a keyboard-entry page reached by typing ahead.

   When a completed page moves on, entry.js carries the keys typed ahead to the next page
   in sessionStorage. The next page's own entry.js runs only once the page is parsed and
   htmx is ready; keys pressed before then would reach no handler (lost) or fall into
   the autofocused box ahead of the carried ones (out of order). This script is loaded
   first thing in the page's head, without defer: if keys were carried to this page, it
   holds every key pressed from that moment until entry.js takes them
   (``clubscoreEntryEarly.take()``) and types them after the carried ones, in order.
   It also gives entry.js the storage key and which keys are typing (``keyOf``).
*/
(function () {
  "use strict";

  const CARRY = "clubscore.entry.carry"; // sessionStorage: keys typed ahead for the next page
  const GIVE_UP_AFTER = 10000; // ms after the page's load: entry.js did not come, let keys through

  /** What a key types ("\n" for Enter, "\b" for Backspace), or null for any other key. */
  function keyOf(event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) {
      return null;
    }
    if (event.key === "Enter") {
      return "\n";
    }
    if (event.key === "Backspace") {
      return "\b";
    }
    return event.key.length === 1 ? event.key : null;
  }

  const held = [];

  function hold(event) {
    const key = keyOf(event);
    if (key !== null) {
      event.preventDefault();
      event.stopImmediatePropagation();
      held.push(key);
    }
  }

  /** The keys held so far; from now on keys go through. */
  function take() {
    window.removeEventListener("keydown", hold, true);
    return held.splice(0).join("");
  }

  window.clubscoreEntryEarly = { CARRY, keyOf, take };

  let carried = null;
  try {
    carried = JSON.parse(sessionStorage.getItem(CARRY) || "null");
  } catch {
    return; // no storage: nothing was carried
  }
  if (!carried || carried.to !== window.location.pathname || !carried.keys) {
    return;
  }
  window.addEventListener("keydown", hold, true);
  window.addEventListener("load", () => setTimeout(take, GIVE_UP_AFTER));
})();
