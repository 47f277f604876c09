// Turn clock: counts down the seconds the server rendered into each `.turn-clock` (the deadline
// itself is the server's, in data-deadline, and the server refuses late moves whatever this
// shows). Counting from the rendered seconds rather than the deadline keeps a client whose
// clock is wrong from showing a wrong time. Without JavaScript the rendered seconds still show.
(function () {
  const started = new WeakMap();

  function tick() {
    document.querySelectorAll(".turn-clock[data-seconds-left]").forEach(function (clock) {
      if (!started.has(clock)) started.set(clock, performance.now());
      const elapsed = (performance.now() - started.get(clock)) / 1000;
      const left = Math.max(0, Math.ceil(Number(clock.dataset.secondsLeft) - elapsed));
      const shown = clock.querySelector(".seconds-left");
      if (shown && shown.textContent !== String(left)) shown.textContent = String(left);
      clock.classList.toggle("running-out", left <= 10);
    });
  }

  setInterval(tick, 250);
  document.addEventListener("DOMContentLoaded", tick);
})();
