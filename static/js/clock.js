/* The round clock (templates/phones/table/_clock.html): counts down on the page itself.
 *
 * The server renders the time left once, with its own time (data-now-ms) and, while the
 * clock runs, the moment it reaches 0 (data-ends-at-ms). The page keeps the difference
 * between the server's time and the phone's, and shows the time left every second from
 * those: no request per second. The grid's poll (or the phone's refresh) brings a paused
 * or changed clock.
 */

const shown = (seconds) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;

const tick = () => {
  for (const clock of document.querySelectorAll("[data-clock][data-ends-at-ms]")) {
    if (!clock.dataset.offsetMs) clock.dataset.offsetMs = String(Number(clock.dataset.nowMs) - Date.now());
    const serverNow = Date.now() + Number(clock.dataset.offsetMs);
    const left = Math.max(0, Math.ceil((Number(clock.dataset.endsAtMs) - serverNow) / 1000));
    const text = left > 0 ? `${shown(left)} left` : "time is up";
    const part = clock.querySelector(".clock-left");
    if (part && part.textContent !== text) part.textContent = text;
    clock.classList.toggle("time-up", left === 0);
  }
};

tick();
setInterval(tick, 1000);
