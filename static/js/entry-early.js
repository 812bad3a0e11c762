/* ClubScore: the first moment of a keyboard-entry page reached by typing ahead.

   When a completed page moves on, entry.js carries the keys typed ahead to the next page
   in sessionStorage. The next page's own entry.js runs only once the page is parsed and
   htmx is ready; keys pressed before then would reach no handler (lost) or fall into
   the autofocused box ahead of the carried ones (out of order). This script is loaded
   first thing in the page's head, without defer: if keys were carried to this page, it
   holds every key pressed from that moment until entry.js takes them
   (``clubscoreEntryEarly.take()``) and types them after the carried ones, in order.
*/
(function () {
  "use strict";

  const CARRY = "clubscore.entry.carry"; // as in entry.js
  const GIVE_UP_AFTER = 10000; // ms after the page's load: entry.js did not come, let keys through

  let carried = null;
  try {
    carried = JSON.parse(sessionStorage.getItem(CARRY) || "null");
  } catch {
    return; // no storage: nothing was carried
  }
  if (!carried || carried.to !== window.location.pathname || !carried.keys) {
    return;
  }

  const held = [];

  function hold(event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) {
      return;
    }
    if (event.key.length !== 1 && event.key !== "Enter" && event.key !== "Backspace") {
      return;
    }
    event.preventDefault();
    event.stopImmediatePropagation();
    held.push(event.key === "Enter" ? "\n" : event.key === "Backspace" ? "\b" : event.key);
  }

  /** The keys held so far ("\n" for Enter, "\b" for Backspace); from now on keys go through. */
  function take() {
    window.removeEventListener("keydown", hold, true);
    return held.splice(0).join("");
  }

  window.addEventListener("keydown", hold, true);
  window.addEventListener("load", () => setTimeout(take, GIVE_UP_AFTER));
  window.clubscoreEntryEarly = { take };
})();
