/* The round clock (templates/table/_clock.html): counts down on the page itself.
 *
 * The server renders the time left once, with its own time (data-now-ms) and, while the
 * clock runs, the moment it reaches 0 (data-ends-at-ms). The page keeps the difference
 * between the server's time and the phone's, and shows the time left every second from
 * those: no request per second. The grid's poll (or the phone's refresh) brings a paused
 * or changed clock.
 */
(function () {
  "use strict";

  function shown(seconds) {
    var minutes = Math.floor(seconds / 60), rest = seconds % 60;
    return minutes + ":" + (rest < 10 ? "0" : "") + rest;
  }

  function tick() {
    document.querySelectorAll("[data-clock][data-ends-at-ms]").forEach(function (clock) {
      if (!clock.dataset.offsetMs) clock.dataset.offsetMs = String(Number(clock.dataset.nowMs) - Date.now());
      var serverNow = Date.now() + Number(clock.dataset.offsetMs);
      var left = Math.max(0, Math.ceil((Number(clock.dataset.endsAtMs) - serverNow) / 1000));
      var text = left > 0 ? shown(left) + " left" : "time is up";
      var part = clock.querySelector(".clock-left");
      if (part && part.textContent !== text) part.textContent = text;
      clock.classList.toggle("time-up", left === 0);
    });
  }

  tick();
  setInterval(tick, 1000);
})();
